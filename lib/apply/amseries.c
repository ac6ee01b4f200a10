// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A stored series to a branch: see amseries.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "apply/am.h"
#include "apply/amseries.h"
#include "mail/archive.h"
#include "mail/message.h"
#include "patch/subject.h"
#include "store/query.h"
#include "store/testrun.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Trailers b4 carries over from the list. */
static int carried(const char *name)
{
	static const char *const names[] = {
		"Reviewed-by",	"Acked-by", "Tested-by", "Reported-by",
		"Suggested-by", "Fixes",    "Closes",	 NULL,
	};
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcasecmp(name, names[i]))
			return 1;
	return 0;
}

/* One patch, ready for pc_apply_series(). */
struct am_patch {
	struct pc_msg *msg; /* owned */
	struct pc_buf message; /* the commit message */
	const char *diff; /* borrowed from msg */
	size_t diff_len;
};

/*
 * What the database says of the series, read in one snapshot before
 * anything is applied: the patches ready for pc_apply_series() and the
 * base-commit the mails name.
 */
struct am_plan {
	int64_t series_id;
	int version;
	struct am_patch *ap;
	struct pc_apply_patch *pp;
	size_t n, cap;
	char *base_commit;
};

struct am_ctx {
	struct pc_store *st;
	const struct pc_am_options *o;
	struct am_plan *plan;
	struct pc_err *err;
	int rc;
	int found;
};

/* The title: the subject without its [PATCH ...] tags. */
static char *title_of(const char *subject)
{
	struct pc_subject s;

	if (pc_subject_parse(&s, subject, strlen(subject), NULL) < 0 ||
	    !s.name_len)
		return xstrdup(subject);
	return xstrndup(subject + s.name_off, s.name_len);
}

/* Builds one patch from its stored mail and the list's trailers. */
static int build(struct am_patch *ap, const struct pc_patch_info *pi,
		 const struct am_ctx *x)
{
	const struct pc_am_options *o = x->o;
	struct pc_am_trailer *add = NULL;
	size_t nadd = 0, msg_len = 0, i;
	const char *body;
	size_t body_len;
	char *raw = NULL, *title = NULL, *link = NULL;
	struct pc_buf url = PC_BUF_INIT;
	size_t len;
	int rc;

	if ((rc = pc_message_raw(&raw, &len, x->st, pi->id, x->err)) < 0)
		return rc;
	rc = pc_msg_parse(&ap->msg, raw, len, x->err);
	free(raw);
	if (rc < 0)
		return pc_err_prefix(x->err, "patch %d", pi->idx);
	body = ap->msg->body.buf;
	body_len = ap->msg->body.len;
	if (pc_am_split(&msg_len, &ap->diff, &ap->diff_len, body, body_len,
			NULL) < 0) {
		/* The diff as a text attachment; the body is the message. */
		for (i = 0; i < ap->msg->natt; i++) {
			const struct pc_buf *t = &ap->msg->att[i].text;
			size_t ml;

			if (pc_am_split(&ml, &ap->diff, &ap->diff_len, t->buf,
					t->len, NULL) == 0)
				break;
		}
		if (i == ap->msg->natt)
			return pc_err_set(x->err, PC_EPARSE,
					  "patch %d (%s) has no diff", pi->idx,
					  pi->msgid);
		msg_len = body_len;
	}
	add = xcalloc(pi->ntrailers + 1, sizeof(*add));
	for (i = 0; i < pi->ntrailers; i++) {
		const struct pc_trailer_info *t = &pi->trailers[i];

		if (t->from_reply && !t->suggested && !t->mismatch &&
		    carried(t->name)) {
			add[nadd].name = t->name;
			add[nadd++].value = t->value;
		}
	}
	if ((rc = pc_archive_url(&url, o->archive_url, pi->msgid, x->err)) < 0)
		goto out;
	link = pc_buf_detach(&url, NULL);
	title = title_of(ap->msg->patch_subject ? ap->msg->patch_subject :
						  pi->subject);
	pc_am_message(&ap->message, title, body, msg_len, add, nadd, link);
	rc = 0;
out:
	pc_buf_release(&url);
	free(title);
	free(link);
	free(add);
	return rc;
}

/* "base-commit: HEX" in a cover letter (git format-patch --base and b4
 * put it there when there is one). NULL when none. */
static char *cover_base(struct pc_store *st, const struct pc_series_info *s)
{
	const char *p, *end;
	char *raw = NULL, *found = NULL;
	size_t len, i, n;

	for (i = 0; i < s->npatches; i++)
		if (!strcmp(s->patches[i].kind, "cover"))
			break;
	if (i == s->npatches ||
	    pc_message_raw(&raw, &len, st, s->patches[i].id, NULL) < 0)
		return NULL;
	for (p = raw, end = raw + len; p < end && !found;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l > 13 && !memcmp(p, "base-commit: ", 13)) {
			for (n = 0;
			     13 + n < l &&
			     strchr("0123456789abcdef", p[13 + n]) && p[13 + n];
			     n++)
				;
			if (n >= 7 && n <= 64)
				found = xstrndup(p + 13, n);
		}
		p += l + 1;
	}
	free(raw);
	return found;
}

static void plan_release(struct am_plan *p)
{
	size_t i;

	for (i = 0; i < p->cap; i++) {
		pc_msg_free(p->ap[i].msg);
		pc_buf_release(&p->ap[i].message);
	}
	free(p->ap);
	free(p->pp);
	free(p->base_commit);
}

/* Reads the series into x->plan; nothing is written. */
static int plan_series(const struct pc_series_info *s, void *arg)
{
	struct am_ctx *x = arg;
	struct am_plan *p = x->plan;
	size_t i, n = 0;
	int rc = 0, seen_idx = 0;

	x->found = 1;
	p->series_id = s->id;
	p->version = s->version;
	for (i = 0; i < s->npatches; i++)
		n += !strcmp(s->patches[i].kind, "patch");
	if (!n || (s->total && (int)n < s->total)) {
		rc = pc_err_set(x->err, PC_EUSAGE,
				"series %lld v%d has %zu of %d patches: wait "
				"for the rest (or a resend)",
				(long long)s->id, s->version, n,
				s->total ? s->total : 1);
		goto out;
	}
	p->cap = n;
	p->ap = xcalloc(p->cap, sizeof(*p->ap));
	p->pp = xcalloc(p->cap, sizeof(*p->pp));
	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *pi = &s->patches[i];
		struct am_patch *ap = &p->ap[p->n];
		struct pc_apply_patch *pp = &p->pp[p->n];

		/* One mail per index (a resent duplicate is skipped). */
		if (strcmp(pi->kind, "patch") || (p->n && pi->idx == seen_idx))
			continue;
		seen_idx = pi->idx;
		if ((rc = build(ap, pi, x)) < 0)
			goto out;
		pp->author_name = ap->msg->author.name ? ap->msg->author.name :
							 "";
		pp->author_email = ap->msg->author.addr ? ap->msg->author.addr :
							  "";
		pp->author_time = ap->msg->author_date;
		pp->author_tz = ap->msg->date_tz;
		pp->message = ap->message.buf;
		pp->diff = ap->diff;
		pp->diff_len = ap->diff_len;
		p->n++;
	}
	if ((rc = pc_series_base_commit(&p->base_commit, x->st, s->id,
					x->err)) < 0)
		goto out;
	if (!p->base_commit)
		p->base_commit = cover_base(x->st, s);
out:
	x->rc = rc;
	return 1; /* one series */
}

/* Reads series_id in one read transaction, which ends before return. */
static int read_plan(struct am_plan *p, struct pc_store *st, int64_t series_id,
		     const struct pc_am_options *o, struct pc_err *err)
{
	struct pc_series_filter f = { 0 };
	struct am_ctx x = { 0 };
	int rc;

	f.id = series_id;
	f.with_patches = 1;
	x.st = st;
	x.o = o;
	x.plan = p;
	x.err = err;
	if ((rc = pc_store_begin_read(st, err)) < 0)
		return rc;
	rc = pc_series_list(st, &f, plan_series, &x, err);
	pc_store_rollback(st);
	if (rc < 0)
		return rc;
	if (!x.found)
		return pc_err_set(err, PC_ENOTFOUND,
				  "no series %lld (see 'patchclock series')",
				  (long long)series_id);
	return x.rc;
}

/* The outcome as a row of applies, in a write transaction of its own. */
static int record(struct pc_store *st, const struct am_plan *p,
		  const struct pc_apply_result *res, const char *branch,
		  const struct pc_am_options *o, int64_t *apply_id,
		  struct pc_err *err)
{
	struct pc_apply_row row = { 0 };
	struct pc_buf commits = PC_BUF_INIT;
	size_t i;
	int rc;

	for (i = 0; i < res->ncommits; i++)
		pc_buf_addf(&commits, "%s%s", i ? " " : "", res->commits[i]);
	row.series_id = p->series_id;
	row.version = p->version;
	row.tree = o->tree;
	row.base = res->base[0] ? res->base : NULL;
	row.branch = res->applied ? branch : NULL;
	row.commits = commits.len ? commits.buf : NULL;
	row.applied = res->applied;
	row.failed_patch = (int)res->failed_patch;
	row.file = res->file[0] ? res->file : NULL;
	row.hunk = res->hunk[0] ? res->hunk : NULL;
	row.reason = res->reason[0] ? res->reason : NULL;
	row.at = o->now;
	if ((rc = pc_store_begin(st, err)) == 0 &&
	    (rc = pc_testrun_add_apply(st, &row, apply_id, err)) == 0)
		rc = pc_store_commit(st, err);
	if (rc < 0)
		pc_store_rollback(st);
	pc_buf_release(&commits);
	return rc;
}

int pc_am_series(struct pc_apply_result *res, int64_t *apply_id_out,
		 char **branch_out, struct pc_store *st, int64_t series_id,
		 const struct pc_am_options *o, struct pc_err *err)
{
	struct pc_apply_options ao = { 0 };
	struct am_plan p = { 0 };
	char *branch = NULL;
	int rc;

	memset(res, 0, sizeof(*res));
	if (branch_out)
		*branch_out = NULL;
	if ((rc = read_plan(&p, st, series_id, o, err)) < 0)
		goto out;
	/* From here until the outcome is recorded no transaction is open:
	 * applying to a kernel tree takes seconds, and the daemon's other
	 * writers must not wait for it. */
	ao.tree = o->tree;
	ao.base = o->base;
	if (!ao.base && p.base_commit &&
	    pc_apply_has_commit(o->tree, p.base_commit, NULL) == 1)
		ao.base = p.base_commit;
	branch = o->branch ? xstrdup(o->branch) :
			     xasprintf("%s%lld-v%d",
				       o->branch_prefix ? o->branch_prefix :
							  "patchclock/",
				       (long long)p.series_id, p.version);
	ao.branch = branch;
	ao.committer_name = o->committer_name;
	ao.committer_email = o->committer_email;
	ao.now = o->now;
	if (o->applying)
		o->applying(o->arg, p.series_id, p.version, p.n, branch);
	if ((rc = pc_apply_series(res, &ao, p.pp, p.n, err)) < 0)
		goto out;
	if ((rc = record(st, &p, res, branch, o, apply_id_out, err)) < 0) {
		/* Unrecorded, the branch would make the next try fail as
		 * "branch exists": take it back so that try starts clean. */
		if (res->applied)
			pc_apply_delete_branch(o->tree, branch, NULL);
		goto out;
	}
	if (branch_out) {
		*branch_out = branch;
		branch = NULL;
	}
out:
	plan_release(&p);
	free(branch);
	return rc;
}
