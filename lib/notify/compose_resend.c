// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "resend now" reply to the author of a series overdue on its
 * maintainers, and the note to an author who reposted too soon (see compose.h).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "compose_internal.h"
#include "patch/subject.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/*
 * The subject to resend with: the patch tag gets RESEND after its PATCH
 * word (or in front), list tags before it are dropped, and a subject
 * without a patch tag gets "[PATCH RESEND]".
 */
static int patch_word(const char *w, size_t n)
{
	size_t i, slash = 0;

	if ((n == 5 && pc_mem_istarts(w, n, "patch")) ||
	    (n == 3 && pc_mem_istarts(w, n, "rfc")) ||
	    (n == 6 && pc_mem_istarts(w, n, "resend")) ||
	    (n > 5 && pc_mem_istarts(w, n, "patch") &&
	     (pc_isdigit((unsigned char)w[5]) || w[5] == 'v' || w[5] == 'V')))
		return 1;
	if (n > 1 && (w[0] == 'v' || w[0] == 'V')) {
		for (i = 1; i < n && pc_isdigit((unsigned char)w[i]); i++)
			;
		if (i == n)
			return 1;
	}
	for (i = 0; i < n; i++) {
		if (w[i] == '/')
			slash++;
		else if (!pc_isdigit((unsigned char)w[i]))
			return 0;
	}
	return slash == 1 && n > 2 && w[0] != '/' && w[n - 1] != '/';
}

static void add_resend_subject(struct pc_buf *out, const char *subj)
{
	const char *p = subj;

	while (*p == '[') {
		const char *close = strchr(p, ']'), *w = p + 1, *patch = NULL;
		int is_tag = 0, resend = 0;

		if (!close)
			break;
		while (w < close) {
			size_t n = strcspn(w, " ,]");

			if (n && patch_word(w, n)) {
				is_tag = 1;
				if (n == 6 && pc_mem_istarts(w, n, "resend"))
					resend = 1;
				if (n == 5 && pc_mem_istarts(w, n, "patch") &&
				    !patch)
					patch = w + n;
			}
			w += n;
			while (w < close && (*w == ' ' || *w == ','))
				w++;
		}
		if (is_tag) {
			if (resend) {
				pc_buf_add(out, p, (size_t)(close + 1 - p));
			} else if (patch) {
				pc_buf_add(out, p, (size_t)(patch - p));
				pc_buf_addstr(out, " RESEND");
				pc_buf_add(out, patch,
					   (size_t)(close + 1 - patch));
			} else {
				pc_buf_addstr(out, "[RESEND ");
				pc_buf_add(out, p + 1, (size_t)(close - p));
			}
			p = close + 1;
			while (*p == ' ')
				p++;
			if (*p)
				pc_buf_addf(out, " %s", p);
			return;
		}
		/* A list tag: the list adds it again. */
		p = close + 1;
		while (*p == ' ')
			p++;
	}
	pc_buf_addstr(out, "[PATCH RESEND]");
	if (*p)
		pc_buf_addf(out, " %s", p);
}

/* How many patches the subject numbers the series with (N of n/N), or
 * 0. */
static int series_total(const char *subj)
{
	struct pc_subject ps;

	if (pc_subject_parse(&ps, subj, strlen(subj), NULL) < 0 ||
	    !(ps.flags & PC_SUBJ_NUMBERED))
		return 0;
	return ps.total;
}

/* "2 and 5" of the bits of patches (bit n - 1 for patch n); *n_out:
 * how many. */
static char *and_list_bits(uint64_t bits, size_t *n_out)
{
	struct pc_buf csv = PC_BUF_INIT;
	char *out;
	int n;

	for (n = 1; n <= 64; n++)
		if (bits & ((uint64_t)1 << (n - 1)))
			pc_buf_addf(&csv, "%s%d", csv.len ? "," : "", n);
	out = pc_compose__and_list(csv.len ? csv.buf : "", n_out);
	pc_buf_release(&csv);
	return out;
}

/* "2, 4-6 and 9" of n ascending patch numbers. */
static void add_numbers(struct pc_buf *out, const int *n, size_t k)
{
	size_t i = 0, runs = 0, r;

	for (r = 0; r < k; r++)
		runs += r == 0 || n[r] != n[r - 1] + 1;
	for (r = 0; i < k; r++) {
		size_t j = i;

		while (j + 1 < k && n[j + 1] == n[j] + 1)
			j++;
		if (r)
			pc_buf_addstr(out, r + 1 == runs ? " and " : ", ");
		if (j > i)
			pc_buf_addf(out, "%d-%d", n[i], n[j]);
		else
			pc_buf_addf(out, "%d", n[i]);
		i = j + 1;
	}
}

/* The parts of the series other entries hold: their maintainers take
 * those patches, or ack them for the tree that takes the rest. */
static void add_other_parts(struct pc_buf *body,
			    const struct pc_notify_resend *r)
{
	struct pc_buf t = PC_BUF_INIT;
	size_t i;
	int many = r->nparts + r->nmore_parts > 1 || r->parts[0].npatches > 1;

	pc_buf_addch(body, '\n');
	pc_mail_para(body, "", "",
		     "%s in MAINTAINERS, whose maintainers take %s or ack %s "
		     "for the tree that takes the rest:",
		     many ? "Its other patches are in other entries' files" :
			    "Its other patch is in another entry's files",
		     many ? "them" : "it", many ? "them" : "it");
	pc_buf_addch(body, '\n');
	for (i = 0; i < r->nparts; i++) {
		const struct pc_notify_part *pt = &r->parts[i];
		char *path = pc_mail_clean_dup(pt->path ? pt->path : "",
					       PC_COMPOSE_TEXT_MAX);
		char *entry = pc_mail_clean_dup(pt->entry, PC_COMPOSE_TEXT_MAX);

		pc_buf_reset(&t);
		pc_buf_addstr(&t, pt->npatches > 1 ? "patches " : "patch ");
		add_numbers(&t, pt->patches, pt->npatches);
		if (*path)
			pc_buf_addf(&t, " (%s%s)",
				    pt->npatches > 1 ? "first: " : "", path);
		pc_buf_addf(&t, ": %s", entry);
		pc_mail_wrap(body, t.buf, "  ", "    ");
		free(path);
		free(entry);
	}
	if (r->nmore_parts) {
		pc_buf_reset(&t);
		pc_buf_addf(&t, "and the patches of %zu more %s",
			    r->nmore_parts,
			    r->nmore_parts > 1 ? "entries" : "entry");
		pc_mail_wrap(body, t.buf, "  ", "    ");
	}
	pc_buf_release(&t);
}

/* How a resend treats the review tags given on the list: it keeps
 * them (b4 trailers -u), or, with none given, the patches go unchanged. */
#define KEEP_TAGS \
	"with the tags given on the list added (b4 trailers -u adds them)"

/* What to do when the author took some patches back on the list: "you
 * withdrew patch 2 ..." ("This patch is wrong ... The rest in the
 * series is okay.") asks for the rest as the next version; "you posted
 * a newer version of patch 2 ..." (a "[PATCH v2]" of it below its
 * review) asks for a resend of the rest. */
static void left_out_advice(struct pc_buf *body,
			    const struct pc_notify_resend *r, unsigned tags)
{
	struct pc_buf what = PC_BUF_INIT;
	size_t nw = 0, nr = 0;
	char *w = and_list_bits(r->withdrawn_patches, &nw);
	char *n = and_list_bits(r->replaced_patches, &nr);

	if (nw)
		pc_buf_addf(&what, "withdrew %s %s",
			    nw > 1 ? "patches" : "patch", w);
	if (nr)
		pc_buf_addf(&what, "%sposted a newer version of %s %s",
			    nw ? " and " : "", nr > 1 ? "patches" : "patch", n);
	if (nw)
		pc_mail_para(body, "", "",
			     "What to do now: you %s on the list, so send the "
			     "rest as the series' next version, without %s%s; "
			     "or ping the maintainers with a short reply to it "
			     "on the list, asking them to take the rest.",
			     what.buf, nw + nr > 1 ? "them" : "it",
			     tags ? ", " KEEP_TAGS : "");
	else
		pc_mail_para(
			body, "", "",
			"What to do now: you %s on the list, so if the "
			"rest still applies, resend it%s, with RESEND in "
			"the tag of each of its patches; or ping the "
			"maintainers with a short reply to it on the list, "
			"asking them to take the rest.",
			what.buf, tags ? " " KEEP_TAGS : " unchanged");
	pc_buf_release(&what);
	free(w);
	free(n);
}

/* "Rob Herring reviewed it and Joel Stanley tested it"; *tags_out: the
 * tags any of them gave, *applier_out: whether one of them applies it. */
static void add_repliers(struct pc_buf *out, const struct pc_notify_resend *r,
			 unsigned *tags_out, int *applier_out)
{
	size_t i, n = r->nrepliers;

	*tags_out = 0;
	*applier_out = 0;
	for (i = 0; i < n; i++) {
		const struct pc_notify_replier *w = &r->repliers[i];
		unsigned t = w->tags;
		char *name;

		if (i)
			pc_buf_addstr(out, i + 1 == n && !r->nmore_repliers ?
						   " and " :
						   ", ");
		name = pc_compose__spoken_name(w->who.name);
		if (!pc_mail_clean(out, name, PC_COMPOSE_NAME_MAX) &&
		    !pc_mail_clean(out, w->who.addr, PC_COMPOSE_ADDR_MAX))
			pc_buf_addstr(out, "someone");
		free(name);
		pc_buf_addstr(out, (t & PC_NOTIFY_QUEUED) ?
					   " queued part of it" :
				   (t & PC_NOTIFY_REVIEWED) ? " reviewed" :
				   (t & PC_NOTIFY_ACKED)    ? " acked" :
				   (t & PC_NOTIFY_TESTED)   ? " tested" :
							      " replied");
		/* what their tags cover: all of it, or some patches */
		if (!(t & PC_NOTIFY_QUEUED) &&
		    (t & (PC_NOTIFY_REVIEWED | PC_NOTIFY_ACKED |
			  PC_NOTIFY_TESTED))) {
			size_t np = 0;
			char *which =
				w->tagged_patches ?
					and_list_bits(w->tagged_patches, &np) :
					NULL;

			/* a list is read up to four */
			if (np > 4)
				pc_buf_addf(out, " %zu of its patches", np);
			else if (np)
				pc_buf_addf(out, " %s %s",
					    np > 1 ? "patches" : "patch",
					    which);
			else
				pc_buf_addstr(out, " it");
			free(which);
		}
		*tags_out |= t;
		*applier_out |= w->applies;
	}
	if (r->nmore_repliers)
		pc_buf_addf(out, " and %zu more wrote", r->nmore_repliers);
}

static int resend_body(struct pc_buf *body, const struct pc_notify_resend *r,
		       const char *anchor, struct pc_err *err)
{
	const struct pc_notify_head *h = &r->head;
	char *subj =
		pc_mail_clean_dup(r->series.subject, PC_COMPOSE_SUBJECT_MAX);
	struct pc_buf t = PC_BUF_INIT, d = PC_BUF_INIT;
	const char *s = pc_compose__skip_re(subj);
	size_t i;
	int rc, total = series_total(s), several = total > 1;
	size_t napplied = 0;
	unsigned tags = 0;
	int applier = 0;
	char *applied =
		r->applied_patches && *r->applied_patches ?
			pc_compose__and_list(r->applied_patches, &napplied) :
			NULL;

	pc_compose__greeting(body, &r->series.author);
	pc_buf_addch(body, '\n');
	if ((rc = pc_compose__add_when(&t, h, r->series.posted, err)) < 0)
		goto out;
	/* Where this wait began, when after the posting. */
	if (r->wait_from > r->series.posted && (r->nrepliers || r->nth <= 1)) {
		int64_t last = r->wait_from;

		if (r->wait_by) {
			char *by = pc_mail_clean_dup(r->wait_by,
						     PC_COMPOSE_TEXT_MAX);

			pc_buf_addf(&d,
				    " and has waited on its maintainers since "
				    "%s's reply of ",
				    by);
			free(by);
		} else if (r->nrepliers) {
			pc_buf_addstr(&d, " and has waited on its maintainers "
					  "since your message of ");
		} else {
			/* A postscript of the author's after the answer
			 * the wait counts from is the last message. */
			last = r->author_last > r->wait_from ? r->author_last :
							       r->wait_from;
			pc_buf_addstr(&d, " and the last message in its thread "
					  "is yours, of ");
		}
		if ((rc = pc_compose__add_when(&d, h, last, err)) < 0)
			goto out;
	}
	/* What happened since, as it happened: a Reviewed-by from someone
	 * who does not apply it is an answer, if not the one awaited. */
	if (r->nrepliers) {
		struct pc_buf w = PC_BUF_INIT;

		add_repliers(&w, r, &tags, &applier);
		pc_buf_addf(&d, "; since then %s, but %s", w.buf,
			    (tags & PC_NOTIFY_QUEUED) ?
				    "nobody who applies the rest has "
				    "answered yet" :
			    applier ? "it has not been applied yet" :
				      "nobody who applies it has answered yet");
		pc_buf_release(&w);
	} else if (r->nth > 1) {
		pc_buf_addstr(&d, " and has still had no response after ");
		pc_compose__add_plural(&d, r->nth - 1, "earlier reminder");
	} else if (r->wait_from > r->series.posted) {
		pc_buf_addstr(&d, "; nobody has answered it since");
	} else {
		pc_buf_addstr(&d, " and has had no response yet");
	}
	pc_mail_para(body, "", "", "Your series \"%s\" was posted on %s%s:", s,
		     t.buf, d.buf);
	pc_buf_addch(body, '\n');
	pc_compose__link_line(body, h, anchor, "  ");
	if (applied && napplied) {
		pc_buf_addch(body, '\n');
		pc_mail_para(body, "", "",
			     "%s %s of it %s applied or queued already; the "
			     "others wait.",
			     napplied > 1 ? "Patches" : "Patch", applied,
			     napplied > 1 ? "were" : "was");
	}

	/* The cadence and where it is written. */
	pc_buf_reset(&d);
	pc_profile_format_duration(&d, &r->cadence);
	pc_buf_addch(body, '\n');
	pc_mail_para(body, "", "",
		     "%s for a resend or a ping after %s without a response%s",
		     pc_compose__who_asks(r->cadence_from.kind),
		     d.len ? d.buf : "some time",
		     pc_compose__has_origin(&r->cadence_from) ? ":" : ".");
	pc_compose__add_source_block(body, &r->cadence_from);

	/* How it was counted. */
	pc_buf_reset(&t);
	if (r->cadence.unit == PC_PROF_UNIT_BUSINESS_DAYS) {
		pc_buf_addf(&t,
			    "The time was counted in the maintainers' "
			    "business days and zone: %s, ",
			    d.buf);
		pc_compose__add_hours(&t, r->hours);
		pc_compose__add_origin_paren(&t, &r->hours_from);
		pc_buf_addch(&t, '.');
	} else if (r->cadence.unit != PC_PROF_UNIT_NONE && r->hours &&
		   (r->hours->days || r->hours->start >= 0 ||
		    r->hours->zone[0])) {
		pc_buf_addf(&t,
			    "The time was counted in calendar time (%s), "
			    "and this reminder waited for the maintainers' "
			    "office hours: ",
			    d.buf);
		pc_compose__add_hours(&t, r->hours);
		pc_compose__add_origin_paren(&t, &r->hours_from);
		pc_buf_addch(&t, '.');
	} else if (r->cadence.unit != PC_PROF_UNIT_NONE) {
		/* The profile states no office hours: say nothing of
		 * them. */
		pc_buf_addf(&t, "The time was counted in calendar time (%s).",
			    d.buf);
	}
	if (r->due) {
		if (t.len)
			pc_buf_addch(&t, ' ');
		pc_buf_addstr(&t, "The series was due on ");
		if ((rc = pc_compose__add_when(&t, h, r->due, err)) < 0)
			goto out;
		pc_buf_addch(&t, '.');
	}
	if (t.len) {
		pc_buf_addch(body, '\n');
		pc_mail_wrap(body, t.buf, "", "");
	}

	/* Whom to write to, when they are not in Cc. */
	if (r->private_reminder) {
		pc_buf_addch(body, '\n');
		pc_mail_para(
			body, "", "",
			"The profile prefers a private reminder, so this mail goes "
			"to you alone, off the list. To ping, write to the "
			"maintainers directly%s",
			r->nwrite_to ? ":" : ".");
	} else if (r->nwrite_to) {
		pc_buf_addch(body, '\n');
		char *entry = r->nparts && r->entry ?
				      pc_mail_clean_dup(r->entry,
							PC_COMPOSE_TEXT_MAX) :
				      NULL;

		if (entry)
			pc_mail_para(body, "", "",
				     "This mail goes to you alone. Who applies "
				     "its patches for %s%s:",
				     entry,
				     r->nwrite_to_apply < r->nwrite_to ?
					     ", and who reviews them" :
					     "");
		else
			pc_mail_para(body, "", "",
				     "This mail goes to you alone. Who applies "
				     "this code%s:",
				     r->nwrite_to_apply < r->nwrite_to ?
					     ", and who reviews it" :
					     "");
		free(entry);
	}
	if (r->nwrite_to) {
		pc_buf_addch(body, '\n');
		for (i = 0; i < r->nwrite_to; i++) {
			pc_buf_reset(&t);
			pc_compose__add_person(&t, &r->write_to[i]);
			if (i >= r->nwrite_to_apply)
				pc_buf_addstr(&t, ", reviewer");
			if (t.len)
				pc_mail_wrap(body, t.buf, "  ", "    ");
		}
	}

	if (r->nparts)
		add_other_parts(body, r);

	/* Late for the cycle. */
	if (r->late) {
		char *win =
			pc_mail_clean_dup(r->late_window, PC_COMPOSE_TEXT_MAX);
		struct pc_buf o = PC_BUF_INIT;

		pc_buf_reset(&t);
		pc_buf_reset(&d);
		pc_profile_format_deadline(&d, &r->deadline);
		if (d.len)
			pc_buf_addstr(&t, d.buf);
		if (pc_compose__add_origin(&o, &r->deadline_from))
			pc_buf_addf(&t, "%s%s", t.len ? "; " : "", o.buf);
		pc_buf_addch(body, '\n');
		pc_buf_reset(&d);
		if (*win)
			pc_buf_addf(&d, "the %s merge window", win);
		else
			pc_buf_addstr(&d, "a later merge window");
		pc_mail_para(
			body, "", "",
			"The series adds a feature and was posted after the "
			"profile's last -rc for new features%s%s%s, so it now "
			"targets %s, not the next one.",
			t.len ? " (" : "", t.buf, t.len ? ")" : "", d.buf);
		pc_buf_release(&o);
		free(win);
	}

	/* Repeated silence: the trusted reviewers. */
	if (r->nth > 1 && r->ntrusted) {
		pc_buf_reset(&t);
		pc_compose__add_origin_paren(&t, &r->trusted_from);
		pc_buf_addch(body, '\n');
		pc_mail_para(
			body, "", "",
			"A review from one of the profile's trusted reviewers "
			"may help the maintainers take the series%s:",
			t.buf);
		pc_buf_addch(body, '\n');
		for (i = 0; i < r->ntrusted; i++) {
			pc_buf_reset(&t);
			pc_compose__add_person(&t, &r->trusted[i]);
			if (t.len)
				pc_mail_wrap(body, t.buf, "  ", "    ");
		}
	}

	/* What to do. */
	pc_buf_reset(&t);
	add_resend_subject(&t, s);
	pc_buf_addch(body, '\n');
	/* A resend keeps the tags given on the list (b4 trailers -u). */
	tags = (tags | r->thread_tags) &
	       (PC_NOTIFY_REVIEWED | PC_NOTIFY_ACKED | PC_NOTIFY_TESTED);
	/* The author withdrew some of it, or posted a newer version of
	 * some: what waits is the rest. */
	if ((r->withdrawn_patches || r->replaced_patches) && several) {
		left_out_advice(body, r, tags);
		rc = 0;
		goto out;
	}
	/* Less than a third of it reached the list: a tree-wide series
	 * whose cover letter asks each subsystem to take its own part
	 * (lib/sla/state.c); with more, its patches elsewhere are for
	 * other lists' eyes, and the series is resent whole. */
	if (r->patches_here > 0 && several && 3 * r->patches_here < total) {
		pc_mail_para(
			body, "", "",
			"What to do now: %d of its %d patches reached this "
			"list; if they still apply, resend %s%s%s, with "
			"RESEND in their tags; or ping the maintainers with "
			"a short reply to it on the list.",
			r->patches_here, total,
			applied && napplied ? "those that were not applied" :
					      "those",
			tags ? ", " : " ", tags ? KEEP_TAGS : "unchanged");
		rc = 0;
		goto out;
	}
	if (applied && napplied)
		pc_mail_para(body, "", "",
			     "What to do now: if they still apply, resend the "
			     "patches that were not applied, %s, with RESEND "
			     "in their tags, as in:",
			     tags ? KEEP_TAGS : "unchanged");
	else
		pc_mail_para(body, "", "",
			     "What to do now: if it still applies, resend the "
			     "series %s, with the same subject and RESEND in "
			     "the tag:",
			     tags ? KEEP_TAGS : "unchanged");
	pc_buf_addch(body, '\n');
	/* One line, however long: it is copied into a Subject. */
	pc_buf_addf(body, "  %s\n", t.buf);
	pc_buf_addch(body, '\n');
	if (r->private_reminder)
		pc_mail_para(
			body, "", "",
			"%sor remind the maintainers in a private mail, as the "
			"profile prefers.",
			several ? "and the same for each of its patches; " :
				  "");
	else if (several)
		pc_mail_para(
			body, "", "",
			"and the same for each of its patches; or ping the "
			"maintainers with a short reply to it on the list.");
	else
		pc_mail_para(
			body, "", "",
			"Or ping the maintainers with a short reply to it on the "
			"list.");
	rc = 0;
out:
	pc_buf_release(&t);
	pc_buf_release(&d);
	free(subj);
	free(applied);
	return rc;
}

int pc_compose_resend(struct pc_buf *out, const struct pc_notify_resend *r,
		      struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE];
	struct pc_buf m = PC_BUF_INIT;
	const char *id;
	size_t idlen;
	char *anchor = NULL;
	int rc;

	assert(out && r);
	if (r->ntrusted > PC_COMPOSE_MAX_TRUSTED)
		return pc_err_set(err, PC_ELIMIT,
				  "cannot compose reminder: more than %d "
				  "trusted reviewers",
				  PC_COMPOSE_MAX_TRUSTED);
	if ((rc = pc_compose__head_check(&r->head, PC_MAIL_RESEND, msgid,
					 sizeof(msgid), err)) < 0 ||
	    (rc = pc_compose__reply_headers(&m, &r->head, &r->reply, &r->series,
					    PC_MAIL_RESEND, msgid, err)) < 0)
		goto out;
	/* pc_compose__reply_headers() checked the anchor. */
	pc_mail_msgid_check(&id, &idlen, r->series.msgid);
	anchor = xmemdupz(id, idlen);
	if ((rc = resend_body(&m, r, anchor, err)) < 0)
		goto out;
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, pc_compose__signature);
	pc_buf_add(out, m.buf, m.len);
out:
	free(anchor);
	pc_buf_release(&m);
	return rc;
}

int pc_compose_too_soon(struct pc_buf *out, const struct pc_notify_too_soon *ts,
			struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE];
	struct pc_buf m = PC_BUF_INIT, a = PC_BUF_INIT, b = PC_BUF_INIT,
		      d = PC_BUF_INIT;
	const struct pc_notify_head *h = &ts->head;
	const char *id;
	size_t idlen;
	char *anchor = NULL;
	int rc;

	assert(out && ts);
	if ((rc = pc_compose__head_check(h, PC_MAIL_TOO_SOON, msgid,
					 sizeof(msgid), err)) < 0 ||
	    (rc = pc_compose__reply_headers(&m, h, &ts->reply, &ts->series,
					    PC_MAIL_TOO_SOON, msgid, err)) < 0)
		goto out;
	pc_mail_msgid_check(&id, &idlen, ts->series.msgid);
	anchor = xmemdupz(id, idlen);

	pc_compose__greeting(&m, &ts->series.author);
	pc_buf_addch(&m, '\n');
	if ((rc = pc_compose__add_when(&a, h, ts->series.posted, err)) < 0 ||
	    (rc = pc_compose__add_when(&b, h, ts->prev_posted, err)) < 0)
		goto out;
	pc_compose__add_elapsed(&d, ts->prev_posted, ts->series.posted);
	pc_mail_para(
		&m, "", "",
		"v%d of this series was posted on %s, %s after v%d, which was "
		"posted on %s:",
		ts->series.version, a.buf, d.buf, ts->prev_version, b.buf);
	pc_buf_addch(&m, '\n');
	pc_compose__link_line(&m, h, anchor, "  ");

	pc_buf_reset(&d);
	pc_profile_format_duration(&d, &ts->repost_min);
	pc_buf_addch(&m, '\n');
	pc_mail_para(&m, "", "",
		     "%s for at least %s between two postings of a series%s",
		     pc_compose__who_asks(ts->repost_from.kind),
		     d.len ? d.buf : "some time",
		     pc_compose__has_origin(&ts->repost_from) ? ":" : ".");
	pc_compose__add_source_block(&m, &ts->repost_from);
	pc_buf_addch(&m, '\n');
	pc_mail_para(
		&m, "", "",
		"Please give reviewers that long to respond to one version "
		"before posting the next; there is no need to resend this one.");
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, pc_compose__signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	free(anchor);
	pc_buf_release(&m);
	pc_buf_release(&a);
	pc_buf_release(&b);
	pc_buf_release(&d);
	return rc;
}
