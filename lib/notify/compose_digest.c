// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The maintainers' digest: overdue, ready, late and tested series (see compose.h).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "compose_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct sorted_item {
	const struct pc_notify_item *it;
	size_t idx;
};

static int item_cmp(const void *x, const void *y)
{
	const struct sorted_item *a = x, *b = y;
	const struct pc_notify_series *sa = &a->it->series,
				      *sb = &b->it->series;

	if (a->it->kind != b->it->kind)
		return a->it->kind < b->it->kind ? -1 : 1;
	if (sa->posted != sb->posted)
		return sa->posted < sb->posted ? -1 : 1;
	if (sa->id != sb->id)
		return sa->id < sb->id ? -1 : 1;
	if (sa->version != sb->version)
		return sa->version < sb->version ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static const char *const section_title[PC_NOTIFY_NKINDS] = {
	"Overdue, oldest first", "Ready to apply", "Late for the cycle",
	"Too-soon reposts",	 "Boot tests",
};

/* "2 overdue", "1 ready to apply", ... for the subject and intro. */
static void add_count(struct pc_buf *out, enum pc_notify_kind k, size_t n)
{
	static const char *const what[PC_NOTIFY_NKINDS] = {
		"overdue", "ready to apply", "late for the cycle", "too soon",
		NULL,
	};

	if (what[k])
		pc_buf_addf(out, "%zu %s", n, what[k]);
	else
		pc_compose__add_plural(out, (long long)n, "boot test");
}

/* The kind's own line of an item. */
static void add_item_facts(struct pc_buf *t, const struct pc_notify_item *it)
{
	struct pc_buf d = PC_BUF_INIT;
	char *s;

	switch (it->kind) {
	case PC_NOTIFY_OVERDUE:
		/* Due on a weekend or an hour ago: "overdue by 0 business
		 * days" reads as a contradiction. */
		if (!(it->overdue_days >= 0.05)) {
			pc_buf_addstr(t, "just due: less than 0.1 business "
					 "days over");
			break;
		}
		pc_buf_addstr(t, "overdue by ");
		pc_compose__add_business_days(t, it->overdue_days);
		break;
	case PC_NOTIFY_READY:
		pc_buf_addstr(t, "review rules met");
		if (it->npatches)
			pc_buf_addf(t, ": %u of %u patches reviewed",
				    it->reviewed, it->npatches);
		break;
	case PC_NOTIFY_LATE:
		pc_buf_addstr(t, "a feature posted after the last -rc for new "
				 "features");
		pc_profile_format_deadline(&d, &it->deadline);
		if (d.len)
			pc_buf_addf(t, " (%s)", d.buf);
		s = pc_mail_clean_dup(it->late_window, PC_COMPOSE_TEXT_MAX);
		if (*s)
			pc_buf_addf(t, "; it targets the %s merge window", s);
		free(s);
		break;
	case PC_NOTIFY_TOO_SOON:
		pc_buf_addstr(t, "posted ");
		pc_compose__add_elapsed(t, it->prev_posted, it->series.posted);
		pc_buf_addf(t, " after v%d", it->prev_version);
		pc_profile_format_duration(&d, &it->repost_min);
		if (d.len)
			pc_buf_addf(t, "; the profile asks for at least %s",
				    d.buf);
		break;
	case PC_NOTIFY_BOOT:
		pc_buf_addf(t, "boot test %s",
			    it->boot_passed ? "passed" : "failed");
		s = pc_mail_clean_dup(it->boot_reason, PC_COMPOSE_REASON_MAX);
		if (*s)
			pc_buf_addf(t, ": %s", s);
		free(s);
		break;
	case PC_NOTIFY_NKINDS:
		break;
	}
	/* A part was applied (the hwmon patches of a series whose DRM
	 * ones wait, linux-hwmon 2022-11-01): say so, and what waits. */
	if ((it->kind == PC_NOTIFY_OVERDUE || it->kind == PC_NOTIFY_READY) &&
	    it->applied_patches && *it->applied_patches) {
		size_t n = 0;

		s = pc_compose__and_list(it->applied_patches, &n);
		if (n)
			pc_buf_addf(t,
				    "; %s %s %s applied or queued already, "
				    "the rest waits",
				    n > 1 ? "patches" : "patch", s,
				    n > 1 ? "were" : "was");
		free(s);
	}
	pc_buf_release(&d);
}

/* The version to say: the series' own, or for a series whose subject has
 * no tag, the one its title ends with ("switch iomap to an iterator
 * model v2", Christoph Hellwig's cover letters: an audit read "v1 by"
 * there as false). */
static int said_version(const struct pc_notify_series *s)
{
	const char *subj = s->subject ? s->subject : "";
	size_t n = strlen(subj), d = 0;
	int v = 0;

	if (s->version != 1 || strchr(subj, '['))
		return s->version;
	while (d < n && d < 3 && pc_isdigit((unsigned char)subj[n - 1 - d]))
		d++;
	if (!d || d == 3 || n < d + 2 || subj[n - 1 - d] != 'v' ||
	    subj[n - 2 - d] != ' ')
		return s->version;
	for (; d; d--)
		v = v * 10 + (subj[n - d] - '0');
	return v >= 2 ? v : s->version;
}

static int digest_item(struct pc_buf *body, const struct pc_notify_head *h,
		       const struct pc_notify_item *it, struct pc_err *err)
{
	struct pc_buf t = PC_BUF_INIT;
	const struct pc_notify_series *s = &it->series;
	const char *id;
	size_t idlen;
	int rc;

	pc_mail_clean(&t, s->subject, PC_COMPOSE_SUBJECT_MAX);
	pc_mail_wrap(body, t.buf, "- ", "  ");
	pc_buf_reset(&t);
	pc_buf_addf(&t, "v%d by ", said_version(s));
	pc_compose__add_person(&t, &s->author);
	pc_buf_addstr(&t, ", posted ");
	if ((rc = pc_compose__add_when_local(&t, h, s->posted, err)) < 0)
		goto out;
	if ((it->kind == PC_NOTIFY_OVERDUE || it->kind == PC_NOTIFY_READY) &&
	    it->pinged_at > s->posted) {
		pc_buf_addstr(&t, it->resent ? ", resent " :
					       "; its author pinged it on ");
		if ((rc = pc_compose__add_when_local(&t, h, it->pinged_at,
						     err)) < 0)
			goto out;
	}
	pc_mail_wrap(body, t.buf, "  ", "  ");
	pc_buf_reset(&t);
	add_item_facts(&t, it);
	pc_mail_wrap(body, t.buf, "  ", "  ");
	/* The Message-ID is body text here: a strange one is shown
	 * cleaned, and its link percent-encodes whatever it holds. */
	pc_buf_reset(&t);
	if (pc_mail_msgid_check(&id, &idlen, s->msgid) == 0) {
		char *bare = xmemdupz(id, idlen);

		pc_compose__link_line(body, h, bare, "  ");
		pc_buf_addf(&t, "Message-ID: <%s>", bare);
		free(bare);
	} else {
		if (s->msgid && *s->msgid &&
		    strlen(s->msgid) <= PC_COMPOSE_ID_MAX)
			pc_compose__link_line(body, h, s->msgid, "  ");
		pc_buf_addstr(&t, "Message-ID: <");
		pc_mail_clean(&t, s->msgid, PC_COMPOSE_ID_MAX);
		pc_buf_addch(&t, '>');
	}
	pc_mail_wrap(body, t.buf, "  ", "  ");
	rc = 0;
out:
	pc_buf_release(&t);
	return rc;
}

int pc_compose_digest(struct pc_buf *out, const struct pc_notify_digest *dg,
		      struct pc_err *err)
{
	char msgid[PC_COMPOSE_MSGID_SIZE], q[80];
	const struct pc_notify_head *h = &dg->head;
	struct pc_buf m = PC_BUF_INIT, t = PC_BUF_INIT, ids = PC_BUF_INIT;
	struct sorted_item *si = NULL;
	size_t count[PC_NOTIFY_NKINDS] = { 0 }, i, j, k;
	const struct pc_notify_addr *one;
	struct pc_mail_hdr hd;
	int rc, first;

	assert(out && dg);
	if (!dg->nitems)
		return PC_COMPOSE_NOTHING;
	if (dg->nitems > PC_COMPOSE_MAX_ITEMS)
		return pc_err_set(err, PC_ELIMIT,
				  "cannot compose digest: more than %d items",
				  PC_COMPOSE_MAX_ITEMS);
	if ((rc = pc_compose__head_check(h, PC_MAIL_DIGEST, msgid,
					 sizeof(msgid), err)) < 0)
		return rc;
	if (!pc_mail_addr_ok(dg->to.addr)) {
		pc_compose__err_quote(q, sizeof(q), dg->to.addr);
		return pc_err_set(err, PC_EPARSE,
				  "cannot write to maintainer '%s': not a "
				  "plain ascii address",
				  q);
	}
	for (i = 0; i < dg->nitems; i++)
		if ((unsigned)dg->items[i].kind >= PC_NOTIFY_NKINDS)
			return pc_err_set(err, PC_EUSAGE,
					  "cannot compose digest: item %zu has "
					  "an unknown kind",
					  i);
	si = xcalloc(dg->nitems, sizeof(*si));
	for (i = 0; i < dg->nitems; i++) {
		si[i].it = &dg->items[i];
		si[i].idx = i;
		count[dg->items[i].kind]++;
	}
	qsort(si, dg->nitems, sizeof(*si), item_cmp);

	/* Headers. */
	one = &h->from;
	pc_mail_header_mailboxes(&m, "From", &one, 1);
	one = &dg->to;
	pc_mail_header_mailboxes(&m, "To", &one, 1);
	for (k = 0, first = 1; k < PC_NOTIFY_NKINDS; k++) {
		if (!count[k])
			continue;
		pc_buf_addstr(&t, first ? "" : ", ");
		add_count(&t, k, count[k]);
		first = 0;
	}
	pc_mail_hdr_start(&hd, &m, "Subject");
	pc_mail_hdr_wordz(&hd, "[patchclock]");
	pc_mail_hdr_text(&hd, t.buf);
	pc_mail_hdr_end(&hd);
	pc_compose__headers_id(&m, h, msgid);
	for (i = 0; i < dg->nitems; i++) {
		const struct pc_notify_series *s = &si[i].it->series;

		for (j = 0; j < i; j++)
			if (si[j].it->series.id == s->id &&
			    si[j].it->series.version == s->version)
				break;
		if (j < i)
			continue;
		pc_buf_addf(&ids, "%s%" PRId64 " v%d", ids.len ? ", " : "",
			    s->id, s->version);
	}
	pc_compose__headers_tail(&m, ids.buf, PC_MAIL_DIGEST);

	/* Body. */
	pc_compose__greeting(&m, &dg->to);
	pc_buf_addch(&m, '\n');
	{
		struct pc_buf when = PC_BUF_INIT;

		rc = pc_compose__add_when_local(&when, h, h->date, err);
		if (rc == 0)
			pc_mail_para(
				&m, "", "",
				"This is patchclock's digest as of %s: %s.",
				when.buf, t.buf);
		pc_buf_release(&when);
		if (rc < 0)
			goto out;
	}
	for (i = 0; i < dg->nitems; i++) {
		const struct pc_notify_item *it = si[i].it;

		if (i == 0 || si[i - 1].it->kind != it->kind) {
			pc_buf_reset(&t);
			pc_buf_addf(&t, "%s (%zu)", section_title[it->kind],
				    count[it->kind]);
			pc_buf_addch(&m, '\n');
			pc_compose__heading(&m, t.buf);
		}
		pc_buf_addch(&m, '\n');
		if ((rc = digest_item(&m, h, it, err)) < 0)
			goto out;
	}
	pc_buf_addch(&m, '\n');
	pc_buf_addstr(&m, pc_compose__signature);
	pc_buf_add(out, m.buf, m.len);
	rc = 0;
out:
	free(si);
	pc_buf_release(&m);
	pc_buf_release(&t);
	pc_buf_release(&ids);
	return rc;
}
