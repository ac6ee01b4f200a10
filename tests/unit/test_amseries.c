// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/apply/amseries.c: a series ingested into a real
 * SQLite store, applied to a real git repository made by the git command
 * line. While libgit2 applies, no transaction of the applier's is open:
 * another connection takes the write lock at once (busy timeout 0), as
 * the daemon's IMAP fetcher and sender must. The outcome is recorded
 * afterwards; when it cannot be, the branch is taken back; a series that
 * cannot be applied leaves no lock behind.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "apply/amseries.h"
#include "util/xalloc.h"

struct fix {
	struct t_store ts;
	char *repo; /* owned */
	char *db; /* owned: the store's file */
};

static int setup(void **state)
{
	struct fix *f = xcalloc(1, sizeof(*f));

	t_store_open(&f->ts);
	f->db = xasprintf("%s/test.db", f->ts.dir);
	f->repo = t_git_repo();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	t_store_close(&f->ts);
	t_rmtree(f->repo);
	free(f->repo);
	free(f->db);
	free(f);
	return 0;
}

static const char P1[] = "Add a line.\n"
			 "\n"
			 "Signed-off-by: A U Thor <author@example.com>\n"
			 "---\n"
			 "diff --git a/drivers/w/w.c b/drivers/w/w.c\n"
			 "--- a/drivers/w/w.c\n"
			 "+++ b/drivers/w/w.c\n"
			 "@@ -1,3 +1,4 @@\n"
			 " a\n"
			 "+a2\n"
			 " b\n"
			 " c\n";
static const char P2[] = "A new file.\n"
			 "\n"
			 "Signed-off-by: A U Thor <author@example.com>\n"
			 "---\n"
			 "diff --git a/drivers/w/new.c b/drivers/w/new.c\n"
			 "new file mode 100644\n"
			 "--- /dev/null\n"
			 "+++ b/drivers/w/new.c\n"
			 "@@ -0,0 +1 @@\n"
			 "+new\n";

#define AUTHOR "A U Thor <author@example.com>"
#define T0 1704103200 /* 2024-01-01 10:00 UTC */

static int64_t series_of(struct fix *f, const char *msgid)
{
	return t_query_int(&f->ts,
			   "SELECT series_id FROM messages WHERE "
			   "msgid = '%s'",
			   msgid);
}

/* What another writer sees while the series is being applied. */
struct probe {
	const char *db;
	int calls;
	int lock_rc; /* BEGIN IMMEDIATE with no waiting */
	int64_t series_id;
	size_t npatches;
	char branch[64];
};

static void probe_lock(void *arg, int64_t series_id, int version,
		       size_t npatches, const char *branch)
{
	struct probe *p = arg;
	sqlite3 *db;

	(void)version;
	p->calls++;
	p->series_id = series_id;
	p->npatches = npatches;
	snprintf(p->branch, sizeof(p->branch), "%s", branch);
	assert_int_equal(sqlite3_open(p->db, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 0);
	p->lock_rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (p->lock_rc == SQLITE_OK)
		assert_int_equal(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL),
				 SQLITE_OK);
	sqlite3_close(db);
}

/* After pc_am_series: no lock of its own left behind. */
static void assert_unlocked(const char *path)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 0);
	assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db);
}

static void test_amseries__applies_without_holding_the_lock(void **state)
{
	struct fix *f = *state;
	struct pc_am_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	struct probe p = { 0 };
	int64_t sid, apply_id = 0;
	char *branch = NULL, *row;

	t_ingest_mail(&f->ts, "p1@x", AUTHOR, "[PATCH 1/2] w: add a2", T0, NULL,
		      NULL, P1);
	t_ingest_mail(&f->ts, "p2@x", AUTHOR, "[PATCH 2/2] w: add new.c",
		      T0 + 1, "p1@x", NULL, P2);
	sid = series_of(f, "p1@x");
	assert_true(sid > 0);
	assert_int_equal(series_of(f, "p2@x"), sid);

	p.db = f->db;
	o.tree = f->repo;
	o.now = T0 + 3600;
	o.applying = probe_lock;
	o.arg = &p;
	assert_int_equal(pc_am_series(&r, &apply_id, &branch, f->ts.st, sid, &o,
				      &err),
			 0);
	/* Called once, with the series read, and nothing locked then. */
	assert_int_equal(p.calls, 1);
	assert_int_equal(p.series_id, sid);
	assert_int_equal(p.npatches, 2);
	assert_string_equal(p.branch, branch);
	assert_int_equal(p.lock_rc, SQLITE_OK);

	assert_true(r.applied);
	assert_int_equal(r.ncommits, 2);
	/* The outcome was recorded after the apply, and committed. */
	assert_true(apply_id > 0);
	row = t_query(&f->ts,
		      "SELECT series_id = %lld, outcome, branch, commits "
		      "FROM applies WHERE id = %lld",
		      (long long)sid, (long long)apply_id);
	{
		char *want = xasprintf("1|applied|%s|%s %s", branch,
				       r.commits[0], r.commits[1]);

		assert_string_equal(row, want);
		free(want);
	}
	free(row);
	assert_unlocked(f->db);
	/* The branch holds both commits, on the base. */
	{
		char *cmd = xasprintf("git -C '%s' log --format=%%s main..%s | "
				      "tr '\\n' ,",
				      f->repo, branch);
		FILE *pipe = popen(cmd, "r");
		char got[256] = "";

		assert_non_null(pipe);
		assert_non_null(fgets(got, sizeof(got), pipe));
		pclose(pipe);
		assert_string_equal(got, "w: add new.c,w: add a2,");
		free(cmd);
	}
	pc_apply_result_release(&r);
	free(branch);
}

/* The database fails right after the apply: here the applies table is
 * dropped by another connection, so the outcome cannot be written. */
static void drop_applies(void *arg, int64_t series_id, int version,
			 size_t npatches, const char *branch)
{
	sqlite3 *db;

	(void)series_id;
	(void)version;
	(void)npatches;
	(void)branch;
	assert_int_equal(sqlite3_open(arg, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE applies", NULL, NULL,
				      NULL),
			 SQLITE_OK);
	sqlite3_close(db);
}

static void test_amseries__unrecorded_apply_leaves_no_branch(void **state)
{
	struct fix *f = *state;
	struct pc_am_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	int64_t sid;
	char *cmd;

	t_ingest_mail(&f->ts, "r1@x", AUTHOR, "[PATCH] w: add a2", T0, NULL,
		      NULL, P1);
	sid = series_of(f, "r1@x");
	assert_true(sid > 0);
	o.tree = f->repo;
	o.now = T0;
	o.branch = "pc/unrecorded";
	o.applying = drop_applies;
	o.arg = f->db;
	assert_int_equal(pc_am_series(&r, NULL, NULL, f->ts.st, sid, &o, &err),
			 PC_EDB);
	assert_non_null(strstr(err.msg, "applies"));
	/* libgit2 made the branch, and it was taken back. */
	assert_true(r.applied);
	cmd = xasprintf("git -C '%s' rev-parse -q --verify "
			"refs/heads/pc/unrecorded >/dev/null",
			f->repo);
	assert_int_not_equal(system(cmd), 0);
	free(cmd);
	assert_unlocked(f->db);
	pc_apply_result_release(&r);
}

static void test_amseries__incomplete_series_leaves_no_lock(void **state)
{
	struct fix *f = *state;
	struct pc_am_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	struct probe p = { 0 };
	int64_t sid;

	t_ingest_mail(&f->ts, "q1@x", AUTHOR, "[PATCH 1/3] w: add a2", T0, NULL,
		      NULL, P1);
	sid = series_of(f, "q1@x");
	assert_true(sid > 0);
	o.tree = f->repo;
	o.now = T0;
	o.applying = probe_lock;
	o.arg = &p;
	assert_int_equal(pc_am_series(&r, NULL, NULL, f->ts.st, sid, &o, &err),
			 PC_EUSAGE);
	assert_non_null(strstr(err.msg, "has 1 of 3 patches"));
	assert_int_equal(p.calls, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM applies"),
			 0);
	assert_unlocked(f->db);
	pc_apply_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_amseries__applies_without_holding_the_lock, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_amseries__unrecorded_apply_leaves_no_branch, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_amseries__incomplete_series_leaves_no_lock, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
