// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Applies and boot tests in SQLite. See testrun.h.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"
#include "store/testrun.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char SQL_ADD_APPLY[] =
	"INSERT INTO applies (series_id, version, tree, base, branch, "
	"commits, outcome, failed_patch, file, hunk, reason, at) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char SQL_ADD_BOOT[] =
	"INSERT INTO boot_tests (series_id, apply_id, commit_id, verdict, "
	"reason, checks, timings, console, at, summary) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char SQL_DIRTY[] =
	"UPDATE series SET status_dirty = 1 WHERE id = ?";
static const char SQL_LAST_APPLY[] =
	"SELECT id, branch, commits FROM applies WHERE series_id = ? AND "
	"outcome = 'applied' ORDER BY id DESC LIMIT 1";

static int dirty(struct pc_store *st, int64_t series_id, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_DIRTY, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	return pc_store__exec(st, s, err, "marking a series");
}

int pc_testrun_add_apply(struct pc_store *st, const struct pc_apply_row *r,
			 int64_t *id_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ADD_APPLY, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, r->series_id);
	sqlite3_bind_int(s, 2, r->version);
	pc_store__bind_text(s, 3, r->tree);
	pc_store__bind_text(s, 4, r->base);
	pc_store__bind_text(s, 5, r->branch);
	pc_store__bind_text(s, 6, r->commits);
	sqlite3_bind_text(s, 7, r->applied ? "applied" : "failed", -1,
			  SQLITE_STATIC);
	if (r->failed_patch)
		sqlite3_bind_int(s, 8, r->failed_patch);
	else
		sqlite3_bind_null(s, 8);
	pc_store__bind_text(s, 9, r->file);
	pc_store__bind_text(s, 10, r->hunk);
	pc_store__bind_text(s, 11, r->reason);
	sqlite3_bind_int64(s, 12, r->at);
	if ((rc = pc_store__exec(st, s, err, "recording an apply")) < 0)
		return rc;
	if (id_out)
		*id_out = sqlite3_last_insert_rowid(st->db);
	return dirty(st, r->series_id, err);
}

int pc_testrun_add_boot(struct pc_store *st, const struct pc_boot_row *r,
			int64_t *id_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ADD_BOOT, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, r->series_id);
	if (r->apply_id)
		sqlite3_bind_int64(s, 2, r->apply_id);
	else
		sqlite3_bind_null(s, 2);
	pc_store__bind_text(s, 3, r->commit_id);
	sqlite3_bind_text(s, 4, r->passed ? "pass" : "fail", -1, SQLITE_STATIC);
	pc_store__bind_text(s, 5, r->reason);
	pc_store__bind_text(s, 6, r->checks);
	pc_store__bind_text(s, 7, r->timings);
	pc_store__bind_text(s, 8, r->console);
	sqlite3_bind_int64(s, 9, r->at);
	pc_store__bind_text(s, 10, r->summary);
	if ((rc = pc_store__exec(st, s, err, "recording a boot test")) < 0)
		return rc;
	if (id_out)
		*id_out = sqlite3_last_insert_rowid(st->db);
	return dirty(st, r->series_id, err);
}

int pc_testrun_last_apply(int64_t *id_out, char **branch_out, char **commit_out,
			  struct pc_store *st, int64_t series_id,
			  struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LAST_APPLY, err);
	const char *commits, *last;
	int rc;

	*branch_out = *commit_out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return pc_store__fail(st, err, "reading applies");
	*id_out = sqlite3_column_int64(s, 0);
	*branch_out = pc_store__col_dup(s, 1);
	commits = (const char *)sqlite3_column_text(s, 2);
	if (commits) {
		last = strrchr(commits, ' ');
		*commit_out = xstrdup(last ? last + 1 : commits);
	}
	sqlite3_reset(s);
	return 1;
}

static const char SQL_RUNS[] =
	"SELECT series_id, 0, outcome = 'applied', branch, reason, NULL, at, "
	"id FROM applies UNION ALL SELECT series_id, 1, verdict = 'pass', "
	"commit_id, reason, summary, at, id FROM boot_tests "
	"ORDER BY 1, 7, 2, 8";

int pc_testrun_list(struct pc_store *st, pc_testrun_fn fn, void *arg,
		    struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_RUNS, err);
	int rc, stop = 0;

	if (!s)
		return PC_EDB;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_testrun_info t = {
			.series_id = sqlite3_column_int64(s, 0),
			.boot = sqlite3_column_int(s, 1),
			.ok = sqlite3_column_int(s, 2),
			.what = (const char *)sqlite3_column_text(s, 3),
			.reason = (const char *)sqlite3_column_text(s, 4),
			.summary = (const char *)sqlite3_column_text(s, 5),
			.at = sqlite3_column_int64(s, 6),
		};

		stop = fn(&t, arg);
	}
	if (!stop && rc != SQLITE_DONE) {
		sqlite3_reset(s);
		return pc_store__fail(st, err,
				      "listing applies and boot tests");
	}
	sqlite3_reset(s);
	return 0;
}

static const char SQL_NEXT[] =
	"SELECT s.id FROM series_status st JOIN series s ON s.id = "
	"st.series_id WHERE st.state = 'accepted' AND s.superseded_by IS NULL "
	"AND NOT EXISTS (SELECT 1 FROM applies a WHERE a.series_id = s.id "
	"AND a.version = s.version) AND st.posted <= ?1 "
	"ORDER BY st.posted, s.id LIMIT 1";
static const char SQL_VERSION[] = "SELECT version FROM series WHERE id = ?1";

int pc_testrun_next(struct pc_store *st, int64_t now, int64_t *series_out,
		    struct pc_err *err)
{
	*series_out = 0;
	return pc_store_int(st, SQL_NEXT, now, series_out, err);
}

int pc_testrun_version(struct pc_store *st, int64_t series_id,
		       int64_t *version_out, struct pc_err *err)
{
	*version_out = 0;
	return pc_store_int(st, SQL_VERSION, series_id, version_out, err);
}
