// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The schema a new database has after every migration (schema/0*.sql
 * and the C steps) against schema/current.sql, the snapshot a person
 * reads: the test fails when a migration changes the schema and the
 * snapshot was not regenerated. contrib/schema-snapshot writes it
 * (this program with PC_SCHEMA_WRITE=FILE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/xalloc.h"

#define SNAPSHOT PC_TEST_DATA "/../../schema/current.sql"

static int add_row(int ncols, const char *const *cols, void *arg)
{
	struct pc_buf *out = arg;

	if (ncols >= 1 && cols[0]) {
		pc_buf_addstr(out, cols[0]);
		pc_buf_addstr(out, ";\n\n");
	}
	return 0;
}

/* The schema of a database migrated to the latest version: tables, then
 * indexes, views and triggers, each by name, as SQLite keeps their
 * text (ALTER TABLE's columns included). */
static void current_schema(struct pc_buf *out)
{
	struct pc_err err = { 0 };
	struct pc_store *st = NULL;
	char *dir = t_mkdtemp(), *db = xasprintf("%s/s.db", dir);

	assert_int_equal(pc_store_open(&st, db, &err), 0);
	pc_buf_addf(out,
		    "-- SPDX-License-Identifier: GPL-2.0-or-later\n"
		    "-- patchclock schema %d, as a new database has it after "
		    "every migration.\n"
		    "-- Generated (contrib/schema-snapshot); unit.schema fails "
		    "when it is stale.\n"
		    "-- Read it; change the schema with a new migration in "
		    "schema/.\n\n",
		    pc_store_schema_latest());
	assert_int_equal(
		pc_store_query(st,
			       "SELECT sql FROM sqlite_master WHERE sql IS NOT "
			       "NULL AND name NOT LIKE 'sqlite_%' ORDER BY "
			       "CASE type WHEN 'table' THEN 0 WHEN 'index' "
			       "THEN 1 WHEN 'view' THEN 2 ELSE 3 END, name",
			       add_row, out, &err),
		0);
	pc_store_close(st);
	t_rmtree(dir);
	free(db);
	free(dir);
}

static void test_schema__snapshot_is_current(void **state)
{
	struct pc_buf now = PC_BUF_INIT, snap = PC_BUF_INIT;
	struct pc_err err = { 0 };
	const char *write_to = getenv("PC_SCHEMA_WRITE");

	(void)state;
	current_schema(&now);
	if (write_to && *write_to) {
		FILE *f = fopen(write_to, "w");

		assert_non_null(f);
		assert_int_equal(fwrite(now.buf, 1, now.len, f), now.len);
		assert_int_equal(fclose(f), 0);
		printf("wrote %s\n", write_to);
	}
	if (pc_read_file(&snap, SNAPSHOT, 0, 0, NULL, &err) < 0)
		fail_msg("%s: %s", SNAPSHOT, err.msg);
	if (snap.len != now.len || memcmp(snap.buf, now.buf, now.len))
		fail_msg("schema/current.sql is not the schema the migrations "
			 "make: run contrib/schema-snapshot BUILD_DIR and "
			 "commit it");
	pc_buf_release(&now);
	pc_buf_release(&snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema__snapshot_is_current),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
