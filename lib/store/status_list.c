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

static const char SQL_LIST[] =
	"SELECT s.id, s.name, s.author_name, s.author_addr, s.version, "
	"s.is_rfc, coalesce(s.superseded_by, 0), st.state, st.flags, st.turn, "
	"st.entry, st.profile, st.zone, st.lands, st.evaluated_at, st.posted, "
	"st.due, st.act_at, st.first_response, st.deadline, st.overdue_days, "
	"st.patches, st.reviewed, a.msgid, st.hold, st.hold_why, "
	"coalesce(st.wait_from, 0), st.flag_bits "
	"FROM series s JOIN series_status st ON st.series_id = s.id "
	"JOIN messages a ON a.id = s.anchor_id "
	"WHERE (?1 OR st.state NOT IN ('superseded', 'accepted', 'applied', "
	"'tested')) "
	"AND (?2 IS NULL OR EXISTS (SELECT 1 FROM series_entries se "
	" WHERE se.series_id = s.id AND se.entry = ?2 COLLATE NOCASE)) "
	"AND (?3 IS NULL OR s.author_addr = lower(?3) OR EXISTS (SELECT 1 "
	" FROM series_entries se JOIN maint_people p ON p.entry = se.entry "
	" WHERE se.series_id = s.id AND p.addr = lower(?3) "
	" AND p.role IN ('M', 'R'))) "
	"AND (?4 = 0 OR s.id = ?4) "
	"ORDER BY st.posted, s.id";
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

int pc_status_list(struct pc_store *st, const struct pc_status_filter *f,
		   pc_status_fn fn, void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc;

	/* Stepped while per-series statements run: a private statement. */
	if (sqlite3_prepare_v2(st->db, SQL_LIST, -1, &s, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "listing verdicts");
	sqlite3_bind_int(s, 1, f->all || f->id);
	pc_store__bind_text(s, 2, f->entry);
	pc_store__bind_text(s, 3, f->mine);
	sqlite3_bind_int64(s, 4, f->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_status_row r = { 0 };
		struct pc_status_facts fx = { 0 };
		int stop;

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
		if ((rc = list_details(st, &r, &fx, err)) < 0) {
			free((void *)r.patch);
			pc_status_facts_release(&fx);
			sqlite3_finalize(s);
			return rc;
		}
		stop = fn(&r, arg);
		free((void *)r.patch);
		pc_status_facts_release(&fx);
		if (stop) {
			rc = SQLITE_DONE;
			break;
		}
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ?
		       0 :
		       pc_err_set(err, PC_EDB, "cannot list verdicts");
}

/* Through the partial index of schema 17 (SQLite would rather take
 * in_reply_to's, which holds every thread's first mail). */
