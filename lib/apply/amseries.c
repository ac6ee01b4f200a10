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
#include "mail/message.h"
#include "notify/compose.h"
#include "patch/subject.h"
#include "store/query.h"
#include "store/testrun.h"
#include "util/buf.h"
#include "util/xalloc.h"

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

struct am_ctx {
	struct pc_store *st;
	const struct pc_am_options *o;
	struct pc_apply_result *res;
	int64_t *apply_id;
	char **branch_out;
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
	if ((rc = pc_compose_archive_url(&url, o->archive_url, pi->msgid,
					 x->err)) < 0)
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

static int first_text(int ncols, const char *const *cols, void *arg)
{
	if (ncols > 0 && cols[0] && !*(char **)arg)
		*(char **)arg = xstrdup(cols[0]);
	return 0;
}

static int on_series(const struct pc_series_info *s, void *arg)
{
	struct am_ctx *x = arg;
	const struct pc_am_options *o = x->o;
	struct pc_apply_patch *pp = NULL;
	struct am_patch *ap = NULL;
	struct pc_apply_options ao = { 0 };
	struct pc_apply_row row = { 0 };
	struct pc_buf commits = PC_BUF_INIT;
	char *base_commit = NULL, *branch = NULL, sql[160];
	size_t i, n = 0, cap = 0;
	int rc = 0, seen_idx = 0;

	x->found = 1;
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
	cap = n;
	ap = xcalloc(cap, sizeof(*ap));
	pp = xcalloc(cap, sizeof(*pp));
	n = 0;
	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *pi = &s->patches[i];

		/* One mail per index (a resent duplicate is skipped). */
		if (strcmp(pi->kind, "patch") || (n && pi->idx == seen_idx))
			continue;
		seen_idx = pi->idx;
		if ((rc = build(&ap[n], pi, x)) < 0)
			goto out;
		pp[n].author_name =
			ap[n].msg->author.name ? ap[n].msg->author.name : "";
		pp[n].author_email =
			ap[n].msg->author.addr ? ap[n].msg->author.addr : "";
		pp[n].author_time = ap[n].msg->author_date;
		pp[n].author_tz = ap[n].msg->date_tz;
		pp[n].message = ap[n].message.buf;
		pp[n].diff = ap[n].diff;
		pp[n].diff_len = ap[n].diff_len;
		n++;
	}
	snprintf(sql, sizeof(sql),
		 "SELECT base_commit FROM messages WHERE series_id = %lld AND "
		 "base_commit IS NOT NULL ORDER BY idx LIMIT 1",
		 (long long)s->id);
	if ((rc = pc_store_query(x->st, sql, first_text, &base_commit,
				 x->err)) < 0)
		goto out;
	if (!base_commit)
		base_commit = cover_base(x->st, s);
	ao.tree = o->tree;
	ao.base = o->base;
	if (!ao.base && base_commit &&
	    pc_apply_has_commit(o->tree, base_commit, NULL) == 1)
		ao.base = base_commit;
	branch = o->branch ? xstrdup(o->branch) :
			     xasprintf("%s%lld-v%d",
				       o->branch_prefix ? o->branch_prefix :
							  "patchclock/",
				       (long long)s->id, s->version);
	ao.branch = branch;
	ao.committer_name = o->committer_name;
	ao.committer_email = o->committer_email;
	ao.now = o->now;
	if ((rc = pc_apply_series(x->res, &ao, pp, n, x->err)) < 0)
		goto out;
	for (i = 0; i < x->res->ncommits; i++)
		pc_buf_addf(&commits, "%s%s", i ? " " : "", x->res->commits[i]);
	row.series_id = s->id;
	row.version = s->version;
	row.tree = o->tree;
	row.base = x->res->base[0] ? x->res->base : NULL;
	row.branch = x->res->applied ? branch : NULL;
	row.commits = commits.len ? commits.buf : NULL;
	row.applied = x->res->applied;
	row.failed_patch = (int)x->res->failed_patch;
	row.file = x->res->file[0] ? x->res->file : NULL;
	row.hunk = x->res->hunk[0] ? x->res->hunk : NULL;
	row.reason = x->res->reason[0] ? x->res->reason : NULL;
	row.at = o->now;
	rc = pc_testrun_add_apply(x->st, &row, x->apply_id, x->err);
	if (rc >= 0 && x->branch_out) {
		*x->branch_out = branch;
		branch = NULL;
	}
out:
	for (i = 0; i < cap; i++) {
		pc_msg_free(ap[i].msg);
		pc_buf_release(&ap[i].message);
	}
	free(ap);
	free(pp);
	free(base_commit);
	free(branch);
	pc_buf_release(&commits);
	x->rc = rc;
	return 1; /* one series */
}

int pc_am_series(struct pc_apply_result *res, int64_t *apply_id_out,
		 char **branch_out, struct pc_store *st, int64_t series_id,
		 const struct pc_am_options *o, struct pc_err *err)
{
	struct pc_series_filter f = { 0 };
	struct am_ctx x = { 0 };
	int rc;

	memset(res, 0, sizeof(*res));
	if (branch_out)
		*branch_out = NULL;
	f.id = series_id;
	f.with_patches = 1;
	x.st = st;
	x.o = o;
	x.res = res;
	x.apply_id = apply_id_out;
	x.branch_out = branch_out;
	x.err = err;
	rc = pc_series_list(st, &f, on_series, &x, err);
	if (rc < 0)
		return rc;
	if (!x.found)
		return pc_err_set(err, PC_ENOTFOUND,
				  "no series %lld (see 'patchclock series')",
				  (long long)series_id);
	return x.rc;
}
