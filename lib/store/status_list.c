// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Listing the stored verdicts (pc_status_list()). See status.h.
 */
#include <stdlib.h>

#include "store/status.h"
#include "store/status_facts.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define LIST_SELECT                                                           \
	"SELECT s.id, s.name, s.author_name, s.author_addr, s.version, "      \
	"s.is_rfc, coalesce(s.superseded_by, 0), st.state, st.flags, "        \
	"st.turn, st.entry, st.profile, st.zone, st.lands, st.evaluated_at, " \
	"st.posted, st.due, st.act_at, st.first_response, st.deadline, "      \
	"st.overdue_days, st.patches, st.reviewed, a.msgid, st.hold, "        \
	"st.hold_why, coalesce(st.wait_from, 0), st.flag_bits "               \
	"FROM series s JOIN series_status st ON st.series_id = s.id "         \
	"JOIN messages a ON a.id = s.anchor_id "
#define LIST_FILTER                                                          \
	"(?1 OR st.state NOT IN ('superseded', 'accepted', 'applied', "      \
	"'tested')) "                                                        \
	"AND (?2 IS NULL OR EXISTS (SELECT 1 FROM series_entries se "        \
	" WHERE se.series_id = s.id AND se.entry = ?2 COLLATE NOCASE)) "     \
	"AND (?3 IS NULL OR s.author_addr = lower(?3) OR EXISTS (SELECT 1 "  \
	" FROM series_entries se JOIN maint_people p ON p.entry = se.entry " \
	" WHERE se.series_id = s.id AND p.addr = lower(?3) "                 \
	" AND p.role IN ('M', 'R'))) "
static const char SQL_LIST[] = LIST_SELECT
	"WHERE " LIST_FILTER
	"AND (?4 = 0 OR s.id = ?4) ORDER BY st.posted, s.id";
/* One series' row, when a lazy pass judges each as the listing reaches
 * it (SQL_LIST_ORDER gives the order). */
static const char SQL_LIST_ONE[] = LIST_SELECT
	"WHERE s.id = ?4 AND " LIST_FILTER;
/* The order of SQL_LIST (a verdict's posted is its series' first
 * posting), from the series alone: what a lazy pass has not judged yet
 * has no verdict, or an old one. Through series_first_posted. */
static const char SQL_LIST_ORDER[] =
	"SELECT id FROM series WHERE first_posted <= ?1 "
	"AND (?2 = 0 OR id = ?2) ORDER BY first_posted, id";
static const char SQL_LIST_PATCHES[] =
	"SELECT ps.idx, m.msgid, m.subject, ps.reviewed, ps.off_list, "
	"ps.own_domain, ps.reviewed_by, ps.accepted_at, ps.reviewed_by_addr "
	"FROM patch_status ps "
	"JOIN messages m ON m.id = ps.message_id WHERE ps.series_id = ? "
	"ORDER BY ps.idx, m.id";

static int64_t col_time(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ?
		       0 :
		       sqlite3_column_int64(s, i);
}

/* The per-series part of a listing row: patches and entries. */
static int list_details(struct pc_store *st, struct pc_status_row *r,
			struct pc_status_facts *f, struct pc_err *err)
{
	struct pc_status_patch *p = NULL;
	size_t n = 0, alloc = 0;
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LIST_PATCHES, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, r->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(p, n + 1, alloc);
		p[n].idx = sqlite3_column_int(s, 0);
		p[n].msgid = pc_status_facts_keep(f, sqlite3_column_text(s, 1));
		p[n].subject =
			pc_status_facts_keep(f, sqlite3_column_text(s, 2));
		p[n].reviewed = sqlite3_column_int(s, 3);
		p[n].off_list = sqlite3_column_int(s, 4);
		p[n].own_domain = sqlite3_column_int(s, 5);
		p[n].reviewed_by =
			pc_status_facts_keep(f, sqlite3_column_text(s, 6));
		p[n].accepted_at = sqlite3_column_int64(s, 7);
		p[n].reviewed_by_addr =
			pc_status_facts_keep(f, sqlite3_column_text(s, 8));
		n++;
	}
	if ((rc = pc_store__step_done(st, s, rc, "reading patch verdicts",
				      err)) < 0) {
		free(p);
		return rc;
	}
	r->patch = p;
	r->npatch = n;
	if ((rc = pc_status_facts_entries(st, f, r->id, err)) < 0)
		return rc;
	r->entries = f->entries;
	r->nentries = f->nentries;
	return 0;
}

/* Reads the row s stands on into r, with its details, and calls fn:
 * 1 when fn stopped, 0, or an error. */
static int list_row(struct pc_store *st, sqlite3_stmt *s, pc_status_fn fn,
		    void *arg, struct pc_err *err)
{
	struct pc_status_row r = { 0 };
	struct pc_status_facts fx = { 0 };
	int rc;

	r.id = sqlite3_column_int64(s, 0);
	r.name = pc_store__col(s, 1);
	r.author_name = pc_store__col(s, 2);
	r.author_addr = pc_store__col(s, 3);
	r.version = sqlite3_column_int(s, 4);
	r.is_rfc = sqlite3_column_int(s, 5);
	r.superseded_by = sqlite3_column_int64(s, 6);
	r.state = pc_store__col(s, 7);
	r.flags = pc_store__col(s, 8);
	r.turn = pc_store__col(s, 9);
	r.entry = pc_store__col(s, 10);
	r.profile = pc_store__col(s, 11);
	r.zone = pc_store__col(s, 12);
	r.lands = pc_store__col(s, 13);
	r.evaluated_at = col_time(s, 14);
	r.posted = col_time(s, 15);
	r.due = col_time(s, 16);
	r.act_at = col_time(s, 17);
	r.first_response = col_time(s, 18);
	r.deadline = col_time(s, 19);
	r.overdue_days = sqlite3_column_double(s, 20);
	r.patches = sqlite3_column_int(s, 21);
	r.reviewed = sqlite3_column_int(s, 22);
	r.anchor_msgid = pc_store__col(s, 23);
	r.hold = pc_store__col(s, 24);
	r.hold_why = pc_store__col(s, 25);
	r.wait_from = col_time(s, 26);
	r.flag_bits = (unsigned)sqlite3_column_int64(s, 27);
	if ((rc = list_details(st, &r, &fx, err)) == 0)
		rc = fn(&r, arg) ? 1 : 0;
	free((void *)r.patch);
	pc_status_facts_release(&fx);
	return rc;
}

static void bind_filter(sqlite3_stmt *s, const struct pc_status_filter *f)
{
	sqlite3_bind_int(s, 1, f->all || f->id);
	pc_store__bind_text(s, 2, f->entry);
	pc_store__bind_text(s, 3, f->mine);
	sqlite3_bind_int64(s, 4, f->id);
}

/*
 * After a lazy pass (pc_status_options.lazy): the series in the
 * listing's order, each judged first when the pass left it, then its
 * row if it matches f. The order is read whole first (ids only): the
 * judging rewrites the verdicts a running statement would read.
 */
static int list_lazy(struct pc_store *st, const struct pc_status_filter *f,
		     int64_t now, pc_status_fn fn, void *arg,
		     struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LIST_ORDER, err);
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, now);
	sqlite3_bind_int64(s, 2, f->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(ids, n + 1, alloc);
		ids[n++] = sqlite3_column_int64(s, 0);
	}
	if ((rc = pc_store__step_done(st, s, rc, "listing verdicts", err)) < 0)
		goto out;
	for (i = 0; i < n && rc == 0; i++) {
		if ((rc = pc_store__judge_pending(st, ids[i], err)) < 0)
			break;
		/* Cached: fn runs no listing of its own. */
		if (!(s = pc_store__stmt(st, SQL_LIST_ONE, err))) {
			rc = PC_EDB;
			break;
		}
		bind_filter(s, f);
		sqlite3_bind_int64(s, 4, ids[i]);
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			rc = list_row(st, s, fn, arg, err);
		else if (rc == SQLITE_DONE)
			rc = 0;
		else
			rc = pc_store__fail(st, err, "listing verdicts");
		sqlite3_reset(s);
	}
out:
	free(ids);
	return rc < 0 ? rc : 0;
}

int pc_status_list(struct pc_store *st, const struct pc_status_filter *f,
		   pc_status_fn fn, void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (st->pending)
		return list_lazy(st, f, pc_store__pending_now(st), fn, arg,
				 err);
	/* Stepped while per-series statements run: a private statement. */
	if (sqlite3_prepare_v2(st->db, SQL_LIST, -1, &s, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "listing verdicts");
	bind_filter(s, f);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if ((rc = list_row(st, s, fn, arg, err)) != 0)
			break;
	sqlite3_finalize(s);
	if (rc < 0)
		return rc;
	return rc == 1 || rc == SQLITE_DONE ?
		       0 :
		       pc_err_set(err, PC_EDB, "cannot list verdicts");
}

/* Through the partial index of schema 17 (SQLite would rather take
 * in_reply_to's, which holds every thread's first mail). */
