// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The clock over the state: which series to judge again, and their
 * stored verdicts (the facts: status_facts.c; listings: status_list.c).
 * See status.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "maint/maintainers.h"
#include "store/status.h"
#include "store/status_facts.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char SQL_STATE[] =
	"SELECT last_message, last_now, policy_id FROM status_state "
	"WHERE id = 1";
static const char SQL_SET_STATE[] =
	"INSERT OR REPLACE INTO status_state (id, last_message, last_now, "
	"policy_id) VALUES (1, (SELECT coalesce(max(id), 0) FROM messages), "
	"?, ?)";
static const char SQL_NEW_MAIL[] =
	"SELECT series_id, in_reply_to, refs, kind, subject FROM messages "
	"WHERE id > ?";
/* The series of the patch or cover an unthreaded reply answers: by the
 * subject's key (messages_post_subject), then its text. */
static const char SQL_SERIES_BY_SUBJECT[] =
	"SELECT series_id FROM messages WHERE subject_key = pc_text_key(?1) "
	"AND lower(subject) = lower(?1) "
	"AND (kind = 'patch' OR kind = 'cover') AND series_id IS NOT NULL "
	"LIMIT 1";
/* A new posting may replace its author's earlier series (SQL_REPLACED):
 * they are judged again. */
static const char SQL_DIRTY_AUTHOR[] =
	"UPDATE series SET status_dirty = 1 WHERE status_dirty = 0 "
	"AND id != ?1 AND author_addr = (SELECT author_addr FROM series "
	"WHERE id = ?1) AND first_posted >= (SELECT first_posted FROM series "
	"WHERE id = ?1) - 180 * 86400";
/* A new posting's Fixes: tags name the patches of other series as
 * commits (status_facts.c): they are judged again. */
/* clang-format off */
static const char SQL_DIRTY_FIXED[] =
	"UPDATE series SET status_dirty = 1 WHERE status_dirty = 0 AND id IN "
	"(SELECT p.series_id FROM messages fm "
	" JOIN trailers t ON t.message_id = fm.id "
	" JOIN messages p ON p.kind = 'patch' "
	" AND lower(p.name) = " PC_STORE__FIXES_TITLE("t") " "
	" WHERE fm.series_id = ?1 AND fm.kind = 'patch' AND t.name = 'Fixes' "
	" AND t.origin = 'patch' AND p.series_id != ?1)";
/* clang-format on */
static const char SQL_SERIES_OF[] =
	"SELECT series_id, in_reply_to FROM messages WHERE msgid = ?";
/* A series that has new mail, and its newer versions (up to 8): the
 * author's ping in an old version's thread is the newest one's. */
static const char SQL_DIRTY[] =
	"UPDATE series SET status_dirty = 1 WHERE status_dirty = 0 AND id IN "
	"(WITH RECURSIVE newer(id, depth) AS (SELECT ?1, 0 UNION "
	" SELECT s.superseded_by, n.depth + 1 FROM series s JOIN newer n "
	" ON s.id = n.id WHERE s.superseded_by IS NOT NULL AND n.depth < 8) "
	" SELECT id FROM newer)";
static const char SQL_FUTURE[] =
	"DELETE FROM series_status WHERE series_id IN "
	"(SELECT id FROM series WHERE first_posted > ?1 OR first_posted IS NULL)";
static const char SQL_FUTURE_PATCHES[] =
	"DELETE FROM patch_status WHERE series_id IN "
	"(SELECT id FROM series WHERE first_posted > ?1 OR first_posted IS NULL)";
static const char SQL_TO_JUDGE_ALL[] =
	"SELECT s.id, s.status_dirty, s.first_posted FROM series s "
	"WHERE s.first_posted <= ?1 ORDER BY s.id";
/* Incremental: what changed (status_dirty), what its verdict said to
 * look at again by now (next_check), and what was first posted since
 * the last pass (?2): a series without a verdict is one of those, since
 * the last pass judged every series posted by then. Each through an
 * index (schema 17): the cost is what changed, not the archive. */
static const char SQL_TO_JUDGE[] =
	"SELECT s.id, s.status_dirty, s.first_posted FROM series s "
	"WHERE s.id IN ("
	" SELECT id FROM series WHERE status_dirty = 1"
	" UNION SELECT series_id FROM series_status WHERE next_check <= ?1"
	" UNION SELECT id FROM series WHERE first_posted > ?2"
	" AND first_posted <= ?1) "
	"AND s.first_posted <= ?1 ORDER BY s.id";
static const char SQL_WRITE[] =
	"INSERT OR REPLACE INTO series_status (series_id, evaluated_at, state, "
	"flags, overdue, too_soon, late, needs_review, turn, entry, profile, "
	"zone, posted, due, act_at, first_response, overdue_days, patches, "
	"reviewed, lands, deadline, next_check, hold, hold_why, wait_from, "
	"flag_bits, pinged_at, wait_msgid, ping_msgid) "
	"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, "
	"?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, "
	"?29)";
static const char SQL_CLEAR_PATCHES[] =
	"DELETE FROM patch_status WHERE series_id = ?";
static const char SQL_WRITE_PATCH[] =
	"INSERT OR REPLACE INTO patch_status (series_id, message_id, idx, "
	"reviewed, reviewed_by, off_list, own_domain, accepted_at, "
	"reviewed_by_addr) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char SQL_CLEAN[] =
	"UPDATE series SET status_dirty = 0 WHERE id = ?";
/* A series left for a later pass (pc_status_options.min_posted). */
static const char SQL_DEFER[] =
	"UPDATE series SET status_dirty = 1 WHERE id = ?";
static const char SQL_ACCEPT[] =
	"INSERT OR REPLACE INTO series_accept (series_id, accepted_at, "
	"by_addr, note) SELECT id, ?2, ?3, ?4 FROM series WHERE id = ?1";

static void bind_time(sqlite3_stmt *s, int i, int64_t t)
{
	if (t)
		sqlite3_bind_int64(s, i, t);
	else
		sqlite3_bind_null(s, i);
}

static int write_verdict(struct pc_store *st, const struct pc_status_facts *f,
			 const struct pc_sla_verdict *v,
			 const struct pc_status_policy *pol, int64_t now,
			 struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_WRITE, err);
	char flags[160], lands[32];
	size_t i;
	int rc;

	if (!s)
		return PC_EDB;
	pc_sla_flags_format(flags, sizeof(flags), v->flags);
	sqlite3_bind_int64(s, 1, f->s.id);
	sqlite3_bind_int64(s, 2, now);
	sqlite3_bind_text(s, 3, pc_sla_state_name(v->state), -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, flags, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 5, !!(v->flags & PC_SLA_OVERDUE));
	sqlite3_bind_int(s, 6, !!(v->flags & PC_SLA_TOO_SOON));
	sqlite3_bind_int(s, 7, !!(v->flags & PC_SLA_LATE));
	sqlite3_bind_int(s, 8, !!(v->flags & PC_SLA_NEEDS_REVIEW));
	sqlite3_bind_int64(s, 26, (sqlite3_int64)v->flags);
	pc_store__bind_text(s, 9, v->turn ? pc_sla_turn_name(v->turn) : NULL);
	/* Another project's series belongs to no MAINTAINERS entry: it
	 * counts in no entry's queue, feed or view (issue 37). */
	if (v->hold != PC_SLA_HOLD_NOT_KERNEL) {
		pc_store__bind_text(s, 10, pol->entry);
		pc_store__bind_text(s, 11, pol->profile);
	} else {
		sqlite3_bind_null(s, 10);
		sqlite3_bind_null(s, 11);
	}
	pc_store__bind_text(s, 12, pc_bizclock_zone(pol->ctx->clock));
	/* A series' age is its version's: the same patches re-sent are
	 * the author's ping, and mail about them stops max_age after the
	 * version's first posting (lore nvdimm: "tests/nvdimm/ndtest:
	 * Simulate nvdimm health" v2 of 2021-09-06, re-sent 10-18, is 90
	 * days old on 12-05). */
	sqlite3_bind_int64(s, 13,
			   f->s.resend && f->s.prev_posted &&
					   f->s.prev_posted < f->s.posted ?
				   f->s.prev_posted :
				   f->s.posted);
	bind_time(s, 14, v->due);
	bind_time(s, 15, v->act_at);
	bind_time(s, 16, v->first_response);
	if (v->flags & PC_SLA_OVERDUE)
		sqlite3_bind_double(s, 17, v->overdue_days);
	sqlite3_bind_int64(s, 18, (sqlite3_int64)f->s.npatches);
	sqlite3_bind_int64(s, 19, (sqlite3_int64)v->reviewed);
	if (v->has_cycle) {
		pc_cycle_version_format(lands, sizeof(lands), &v->cycle.lands);
		sqlite3_bind_text(s, 20, lands, -1, SQLITE_TRANSIENT);
		bind_time(s, 21, v->cycle.deadline);
	}
	bind_time(s, 22, v->next_check);
	pc_store__bind_text(s, 23, pc_sla_hold_name(v->hold));
	pc_store__bind_text(s, 24, v->hold_why);
	bind_time(s, 25, v->wait_from);
	bind_time(s, 27, v->pinged_at);
	pc_store__bind_text(s, 28, v->wait_msgid);
	pc_store__bind_text(s, 29, v->pinged_at ? v->ping_msgid : NULL);
	if ((rc = pc_store__exec(st, s, err, "storing a verdict")) < 0)
		return rc;
	if (!(s = pc_store__stmt(st, SQL_CLEAR_PATCHES, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, f->s.id);
	if ((rc = pc_store__exec(st, s, err, "clearing patch verdicts")) < 0)
		return rc;
	for (i = 0; i < f->s.npatches; i++) {
		const struct pc_sla_patch_verdict *pv = &v->patches[i];

		if (!(s = pc_store__stmt(st, SQL_WRITE_PATCH, err)))
			return PC_EDB;
		sqlite3_bind_int64(s, 1, f->s.id);
		sqlite3_bind_int64(s, 2, f->patch_ids[i]);
		sqlite3_bind_int(s, 3, f->patches[i].idx);
		sqlite3_bind_int(s, 4, pv->reviewed);
		pc_store__bind_text(s, 5, pv->reviewed_by);
		sqlite3_bind_int(s, 6, pv->off_list);
		sqlite3_bind_int(s, 7, pv->own_domain);
		bind_time(s, 8, pv->accepted_at);
		pc_store__bind_text(s, 9, pv->reviewed_by_addr);
		if ((rc = pc_store__exec(st, s, err,
					 "storing a patch verdict")) < 0)
			return rc;
	}
	if (!(s = pc_store__stmt(st, SQL_CLEAN, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, f->s.id);
	return pc_store__exec(st, s, err, "marking a series judged");
}

static int judge(struct pc_store *st, const struct pc_status_options *opt,
		 int64_t sid, int64_t now, int *no_cycle, struct pc_err *err)
{
	struct pc_status_facts f = { 0 };
	struct pc_status_policy pol = { 0 };
	struct pc_sla_verdict v = { 0 };
	int rc;

	if ((rc = pc_status_facts_gather(st, &f, sid, err)) < 0 ||
	    (rc = opt->policy(&pol, f.entries, f.entry_files, f.nentries,
			      opt->policy_arg, err)) < 0)
		goto out;
	if ((rc = pc_sla_evaluate(&v, &f.s, pol.ctx, now, err)) < 0 ||
	    (rc = pc_status_facts_rest(st, &f, &v, err)) < 0)
		goto out;
	/* Another subsystem took its part: the rest is judged as theirs
	 * whose entry it maps to. */
	if (rc > 0) {
		pc_sla_verdict_release(&v);
		memset(&v, 0, sizeof(v));
		if ((rc = opt->policy(&pol, f.entries, f.entry_files,
				      f.nentries, opt->policy_arg, err)) < 0 ||
		    (rc = pc_sla_evaluate(&v, &f.s, pol.ctx, now, err)) < 0)
			goto out;
	}
	*no_cycle = v.cycle_unknown;
	rc = write_verdict(st, &f, &v, &pol, now, err);
out:
	pc_sla_verdict_release(&v);
	pc_status_facts_release(&f);
	if (rc < 0)
		pc_err_prefix(err, "series %lld", (long long)sid);
	return rc;
}

/* The series a message's thread belongs to: its own, or the nearest
 * ancestor's (In-Reply-To first, then References newest first). */
static int64_t thread_series(struct pc_store *st, const char *irt,
			     const char *refs, struct pc_err *err)
{
	struct pc_buf ids = PC_BUF_INIT;
	const char *p;
	int64_t found = 0;
	int hops;

	if (irt)
		pc_buf_addstr(&ids, irt);
	/* References oldest first: walk it from the end. */
	if (refs) {
		p = refs + strlen(refs);
		while (p > refs) {
			const char *end = p, *start;

			while (end > refs && end[-1] == ' ')
				end--;
			start = end;
			while (start > refs && start[-1] != ' ')
				start--;
			if (start < end) {
				pc_buf_addch(&ids, '\n');
				pc_buf_add(&ids, start, (size_t)(end - start));
			}
			p = start;
		}
	}
	p = ids.buf;
	for (hops = 0; *p && !found && hops < 64; hops++) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		sqlite3_stmt *s = pc_store__stmt(st, SQL_SERIES_OF, err);

		if (!s) {
			found = PC_EDB;
			break;
		}
		sqlite3_bind_text(s, 1, p, (int)n, SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_ROW)
			found = sqlite3_column_int64(s, 0);
		sqlite3_reset(s);
		p = nl ? nl + 1 : p + n;
	}
	pc_buf_release(&ids);
	return found;
}

/* Marks the series that mail newer than last_message reached. */
static int mark_new_mail(struct pc_store *st, int64_t last_message,
			 struct pc_status_stats *stats, struct pc_err *err)
{
	sqlite3_stmt *s;
	int64_t *hit = NULL, *posts = NULL;
	size_t n = 0, alloc = 0, np = 0, palloc = 0, i;
	int rc;

	/* A private statement: thread_series() uses the cache meanwhile. */
	if (sqlite3_prepare_v2(st->db, SQL_NEW_MAIL, -1, &s, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "reading new mail");
	sqlite3_bind_int64(s, 1, last_message);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t sid = sqlite3_column_int64(s, 0);
		const char *kind = (const char *)sqlite3_column_text(s, 3);

		stats->new_mail++;
		if (sid && kind &&
		    (!strcmp(kind, "patch") || !strcmp(kind, "cover"))) {
			PC_ALLOC_GROW(posts, np + 1, palloc);
			posts[np++] = sid;
		}
		if (!sid)
			sid = thread_series(
				st, (const char *)sqlite3_column_text(s, 1),
				(const char *)sqlite3_column_text(s, 2), err);
		if (!sid && kind && !strcmp(kind, "reply") &&
		    sqlite3_column_type(s, 1) == SQLITE_NULL &&
		    sqlite3_column_type(s, 2) == SQLITE_NULL) {
			sqlite3_stmt *b =
				pc_store__stmt(st, SQL_SERIES_BY_SUBJECT, err);

			if (!b) {
				rc = SQLITE_ERROR;
				break;
			}
			/* "Re: [PATCH v2 1/3] x" answers "[PATCH v2 1/3] x". */
			const char *subj =
				(const char *)sqlite3_column_text(s, 4);

			if (subj && !strncasecmp(subj, "re: ", 4)) {
				pc_store__bind_text(b, 1, subj + 4);
				if (sqlite3_step(b) == SQLITE_ROW)
					sid = sqlite3_column_int64(b, 0);
			}
			sqlite3_reset(b);
		}
		if (sid < 0) {
			rc = SQLITE_ERROR;
			break;
		}
		if (sid) {
			PC_ALLOC_GROW(hit, n + 1, alloc);
			hit[n++] = sid;
		}
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		free(hit);
		free(posts);
		return err && err->code ?
			       err->code :
			       pc_store__fail(st, err, "reading new mail");
	}
	/* A new posting may replace its author's earlier series, or name
	 * other series' patches in Fixes: tags: they are judged again. */
	for (i = 0; i < np && rc >= 0; i++) {
		static const char *const sql[] = { SQL_DIRTY_AUTHOR,
						   SQL_DIRTY_FIXED };
		size_t k;

		if (i && posts[i] == posts[i - 1])
			continue;
		for (k = 0; k < 2 && rc >= 0; k++) {
			if (!(s = pc_store__stmt(st, sql[k], err))) {
				rc = PC_EDB;
				break;
			}
			sqlite3_bind_int64(s, 1, posts[i]);
			rc = pc_store__exec(st, s, err,
					    "marking the series a posting "
					    "concerns");
		}
	}
	free(posts);
	if (rc < 0) {
		free(hit);
		return rc;
	}
	for (i = 0; i < n; i++) {
		if (!(s = pc_store__stmt(st, SQL_DIRTY, err))) {
			free(hit);
			return PC_EDB;
		}
		sqlite3_bind_int64(s, 1, hit[i]);
		if ((rc = pc_store__exec(st, s, err, "marking a series")) < 0) {
			free(hit);
			return rc;
		}
	}
	free(hit);
	return 0;
}

int pc_status_find_entry(char **out, struct pc_store *st, const char *name,
			 struct pc_err *err)
{
	/* Exact (any case) first, then the entries it starts, in order. */
	static const char sql[] =
		"SELECT name FROM maint_entries WHERE name = ?1 COLLATE NOCASE "
		"UNION ALL SELECT name FROM (SELECT name FROM maint_entries "
		"WHERE substr(lower(name), 1, length(?1)) = lower(?1) "
		"AND name != ?1 COLLATE NOCASE ORDER BY idx LIMIT 4)";
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);
	struct pc_buf some = PC_BUF_INIT;
	char *first = NULL;
	int rc, n = 0, exact = 0;

	if (!s)
		return PC_EDB;
	pc_store__bind_text(s, 1, name);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(s, 0);

		if (!n) {
			first = xstrdup(v ? v : "");
			/* Whether the first row came from the exact match. */
			exact = v && !strcasecmp(v, name);
		}
		if (n < 3)
			pc_buf_addf(&some, "%s'%s'", n ? ", " : "", v ? v : "");
		n++;
		if (exact)
			break;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		free(first);
		pc_buf_release(&some);
		return pc_store__fail(st, err, "finding an entry");
	}
	if (n == 1 || exact) {
		*out = first;
		pc_buf_release(&some);
		return 0;
	}
	free(first);
	rc = n ? pc_err_set(err, PC_EUSAGE,
			    "'%s' starts the names of several MAINTAINERS "
			    "entries (%s%s): say which",
			    name, some.buf, n > 3 ? ", ..." : "") :
		 pc_err_set(err, PC_ENOTFOUND,
			    "no MAINTAINERS entry '%s' (the database knows the "
			    "entries of the MAINTAINERS its series were mapped "
			    "with: ingest with --tree maps them)",
			    name);
	pc_buf_release(&some);
	return rc;
}

int pc_status_last_judged(struct pc_store *st, int64_t *now_out,
			  struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_STATE, err);
	int rc;

	if (!s)
		return PC_EDB;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*now_out = sqlite3_column_int64(s, 1);
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pc_store__fail(st, err, "reading the last judging pass");
	return rc == SQLITE_ROW;
}

/* The series a lazy pass left for the listing (pc_status_options.lazy),
 * in id order, each judged at most once. */
struct pc_store__pending {
	int64_t *ids;
	unsigned char *judged;
	size_t n;
	int64_t now;
	const struct pc_status_options *opt; /* borrowed */
	struct pc_status_stats *stats; /* borrowed */
};

void pc_store__pending_drop(struct pc_store *st)
{
	if (!st->pending)
		return;
	free(st->pending->ids);
	free(st->pending->judged);
	free(st->pending);
	st->pending = NULL;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int pc_store__judge_pending(struct pc_store *st, int64_t sid,
			    struct pc_err *err)
{
	struct pc_store__pending *p = st->pending;
	const int64_t *at;
	size_t i;
	int no_cycle = 0, rc;

	if (!p || !(at = bsearch(&sid, p->ids, p->n, sizeof(*p->ids), cmp_id)))
		return 0;
	i = (size_t)(at - p->ids);
	if (p->judged[i])
		return 0;
	if ((rc = judge(st, p->opt, sid, p->now, &no_cycle, err)) < 0)
		return rc;
	p->judged[i] = 1;
	p->stats->judged++;
	p->stats->no_cycle += (uint64_t)no_cycle;
	return 0;
}

int64_t pc_store__pending_now(const struct pc_store *st)
{
	return st->pending ? st->pending->now : 0;
}

/* Keeps ids (n, in id order) for the listing to judge (opt->lazy). */
static void keep_pending(struct pc_store *st,
			 const struct pc_status_options *opt, int64_t now,
			 struct pc_status_stats *stats, int64_t *ids, size_t n)
{
	struct pc_store__pending *p = xcalloc(1, sizeof(*p));

	pc_store__pending_drop(st);
	p->ids = ids;
	p->n = n;
	p->judged = xcalloc(n ? n : 1, 1);
	p->now = now;
	p->opt = opt;
	p->stats = stats;
	st->pending = p;
}

int pc_status_refresh(struct pc_store *st, const struct pc_status_options *opt,
		      int64_t now, struct pc_status_stats *stats,
		      struct pc_err *err)
{
	sqlite3_stmt *s;
	int64_t last_message = 0, last_now = 0;
	int64_t *ids = NULL, *defer = NULL;
	unsigned char *flags = NULL;
	size_t n = 0, alloc = 0, i, ndefer = 0, adefer = 0, nold = 0;
	int rc, have = 0, full;
	const char *pid = opt->policy_id ? opt->policy_id : "";

	memset(stats, 0, sizeof(*stats));
	if (!(s = pc_store__stmt(st, SQL_STATE, err)))
		return PC_EDB;
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *p = sqlite3_column_text(s, 2);

		have = 1;
		last_message = sqlite3_column_int64(s, 0);
		last_now = sqlite3_column_int64(s, 1);
		full = !p || strcmp((const char *)p, pid);
	} else {
		full = 1;
	}
	sqlite3_reset(s);
	full = full || opt->full || !have || now < last_now;
	stats->full = full;
	if (!full && (rc = mark_new_mail(st, last_message, stats, err)) < 0)
		return rc;
	if (!(s = pc_store__stmt(st, SQL_FUTURE_PATCHES, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, now);
	if ((rc = pc_store__exec(st, s, err, "dropping future verdicts")) < 0)
		return rc;
	if (!(s = pc_store__stmt(st, SQL_FUTURE, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, now);
	if ((rc = pc_store__exec(st, s, err, "dropping future verdicts")) < 0)
		return rc;

	if (!(s = pc_store__stmt(st, full ? SQL_TO_JUDGE_ALL : SQL_TO_JUDGE,
				 err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, now);
	if (!full)
		sqlite3_bind_int64(s, 2, last_now);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		size_t old = alloc;

		/* Posted before min_posted, beyond max_old: for a later
		 * pass, which finds it by its mark (a series already marked
		 * keeps it). */
		if (sqlite3_column_int64(s, 2) < opt->min_posted &&
		    nold++ >= opt->max_old) {
			stats->deferred++;
			if (!sqlite3_column_int(s, 1)) {
				PC_ALLOC_GROW(defer, ndefer + 1, adefer);
				defer[ndefer++] = sqlite3_column_int64(s, 0);
			}
			continue;
		}
		PC_ALLOC_GROW(ids, n + 1, alloc);
		if (alloc != old)
			flags = xrealloc(flags, alloc);
		ids[n] = sqlite3_column_int64(s, 0);
		flags[n++] = (unsigned char)sqlite3_column_int(s, 1);
	}
	if ((rc = pc_store__step_done(st, s, rc, "listing series to judge",
				      err)) < 0)
		goto out;
	for (i = 0; i < ndefer; i++) {
		if (!(s = pc_store__stmt(st, SQL_DEFER, err))) {
			rc = PC_EDB;
			goto out;
		}
		sqlite3_bind_int64(s, 1, defer[i]);
		if ((rc = pc_store__exec(st, s, err,
					 "marking a series for later")) < 0)
			goto out;
	}
	if (opt->lazy) {
		/* The listing judges them as it reaches them; the pass's
		 * state stays as it was, so that a later pass still finds
		 * what the listing does not reach. */
		keep_pending(st, opt, now, stats, ids, n);
		ids = NULL;
		rc = 0;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (opt->progress && i % 256 == 0)
			opt->progress(i, n, opt->progress_arg);
		int no_cycle = 0;

		if ((rc = judge(st, opt, ids[i], now, &no_cycle, err)) < 0)
			goto out;
		stats->judged++;
		stats->no_cycle += (uint64_t)no_cycle;
		if (flags[i])
			stats->touched++;
		else if (!full)
			stats->scheduled++;
	}
	if (!(s = pc_store__stmt(st, SQL_SET_STATE, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_text(s, 2, pid, -1, SQLITE_STATIC);
	rc = pc_store__exec(st, s, err, "storing the evaluation state");
out:
	free(ids);
	free(defer);
	free(flags);
	return rc;
}

int pc_status_accept(struct pc_store *st, int64_t series_id, int64_t when,
		     const char *by_addr, const char *note, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ACCEPT, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	sqlite3_bind_int64(s, 2, when);
	pc_store__bind_text(s, 3, by_addr);
	pc_store__bind_text(s, 4, note);
	if ((rc = pc_store__exec(st, s, err, "accepting a series")) < 0)
		return rc;
	if (!sqlite3_changes(st->db))
		return pc_err_set(err, PC_ENOTFOUND, "no series %lld",
				  (long long)series_id);
	return 0;
}

static const char SQL_ANNOUNCEMENTS[] =
	"SELECT subject, date FROM messages "
	"INDEXED BY messages_announcements "
	"WHERE from_addr = '" PC_MAINT_CHIEF_ADDR "' "
	"AND subject LIKE '%Linux %' AND date IS NOT NULL "
	"AND in_reply_to IS NULL";

int pc_status_announcements(struct pc_store *st, struct pc_cycle *cy,
			    int *added_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ANNOUNCEMENTS, err);
	int rc, added = 0;

	if (!s)
		return PC_EDB;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *subj = pc_store__col(s, 0);
		struct pc_cycle_version v;

		if (subj &&
		    pc_cycle_parse_announcement(&v, subj, strlen(subj), NULL) ==
			    1 &&
		    pc_cycle_add(cy, PC_CYCLE_SRC_MAIL, &v,
				 sqlite3_column_int64(s, 1), NULL) == 1)
			added++;
	}
	*added_out = added;
	return pc_store__step_done(st, s, rc, "reading announcements", err);
}

static const char SQL_NEXT_CHECK[] =
	"SELECT min(next_check) FROM series_status WHERE next_check > ?1";

int pc_status_next_check(struct pc_store *st, int64_t now, int64_t *next_out,
			 struct pc_err *err)
{
	*next_out = 0;
	return pc_store_int(st, SQL_NEXT_CHECK, now, next_out, err);
}
