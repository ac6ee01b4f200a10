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

/* Appends each name a row gives to a list (one string, '\n' after
 * each). */
static int add_name(int ncols, const char *const *cols, void *arg)
{
	struct pc_buf *out = arg;

	if (ncols >= 1 && cols[0]) {
		pc_buf_addstr(out, cols[0]);
		pc_buf_addch(out, '\n');
	}
	return 0;
}

/* The rows a table holds, as INSERT statements (quote()d values, in
 * their text's order: some tables have no rowid). */
static void table_rows(struct pc_buf *out, struct pc_store *st,
		       const char *table)
{
	struct pc_buf cols = PC_BUF_INIT, sql = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char *q = xasprintf("SELECT name FROM pragma_table_info('%s') "
			    "ORDER BY cid",
			    table);
	const char *c, *nl;

	assert_int_equal(pc_store_query(st, q, add_name, &cols, &err), 0);
	pc_buf_addf(&sql, "SELECT 'INSERT INTO %s VALUES (' || ", table);
	for (c = cols.buf; c && *c; c = nl + 1) {
		nl = strchr(c, '\n');
		pc_buf_addf(&sql, "%squote(\"%.*s\")",
			    c == cols.buf ? "" : " || ', ' || ", (int)(nl - c),
			    c);
	}
	pc_buf_addf(&sql, " || ')' FROM %s ORDER BY 1", table);
	assert_int_equal(pc_store_query(st, sql.buf, add_row, out, &err), 0);
	free(q);
	pc_buf_release(&cols);
	pc_buf_release(&sql);
}

/* Everything of database db a new one must have: tables, then indexes,
 * views and triggers, each by name, as SQLite keeps their text (ALTER
 * TABLE's columns included), then the rows the migrations put in. */
static void dump(struct pc_buf *out, const char *db)
{
	struct pc_buf tables = PC_BUF_INIT;
	struct pc_err err = { 0 };
	struct pc_store *st = NULL;
	const char *t, *nl;

	assert_int_equal(pc_store_open(&st, db, &err), 0);
	pc_buf_addf(out,
		    "-- SPDX-License-Identifier: GPL-2.0-or-later\n"
		    "-- patchclock schema %d, as a new database has it after "
		    "every migration.\n"
		    "-- Generated (contrib/schema-snapshot); unit.schema fails "
		    "when it is stale.\n"
		    "-- Read it; change the schema with a new migration in "
		    "schema/.\n"
		    "-- A new database is made from this file at once "
		    "(lib/store/store.c).\n\n",
		    pc_store_schema_latest());
	assert_int_equal(
		pc_store_query(st,
			       "SELECT sql FROM sqlite_master WHERE sql IS NOT "
			       "NULL AND name NOT LIKE 'sqlite_%' ORDER BY "
			       "CASE type WHEN 'table' THEN 0 WHEN 'index' "
			       "THEN 1 WHEN 'view' THEN 2 ELSE 3 END, name",
			       add_row, out, &err),
		0);
	assert_int_equal(pc_store_query(st,
					"SELECT name FROM sqlite_master WHERE "
					"type = 'table' AND sql NOT LIKE "
					"'CREATE VIRTUAL%' AND name NOT LIKE "
					"'sqlite_%' ORDER BY name",
					add_name, &tables, &err),
			 0);
	for (t = tables.buf; t && *t; t = nl + 1) {
		char *name;

		nl = strchr(t, '\n');
		name = xstrndup(t, (size_t)(nl - t));
		table_rows(out, st, name);
		free(name);
	}
	pc_buf_release(&tables);
	pc_store_close(st);
}

/* The database every migration makes, one by one (not the new
 * database's shortcut): the first migration alone, then the rest. */
static void migrated(struct pc_buf *out)
{
	struct pc_err err = { 0 };
	struct pc_store *st = NULL;
	char *dir = t_mkdtemp(), *db = xasprintf("%s/s.db", dir);

	assert_int_equal(pc_store_open_upto(&st, db, 1, &err), 0);
	pc_store_close(st);
	dump(out, db);
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
	migrated(&now);
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

/* A new database, made at once from the snapshot, is the database the
 * migrations make: the same schema, the same rows, the same version;
 * and it takes the next write as any other. */
static void test_schema__new_database_is_the_migrated_one(void **state)
{
	struct pc_buf made = PC_BUF_INIT, want = PC_BUF_INIT;
	struct pc_err err = { 0 };
	struct pc_store *st = NULL;
	char *dir = t_mkdtemp(), *db = xasprintf("%s/new.db", dir);

	(void)state;
	assert_int_equal(pc_store_open(&st, db, &err), 0);
	assert_int_equal(pc_store_schema_version(st), pc_store_schema_latest());
	pc_store_close(st);
	dump(&made, db);
	migrated(&want);
	assert_int_equal(made.len, want.len);
	assert_memory_equal(made.buf, want.buf, want.len);
	/* Opened again: nothing runs, nothing changes. */
	pc_buf_reset(&made);
	dump(&made, db);
	assert_memory_equal(made.buf, want.buf, want.len);
	t_rmtree(dir);
	free(db);
	free(dir);
	pc_buf_release(&made);
	pc_buf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema__snapshot_is_current),
		cmocka_unit_test(test_schema__new_database_is_the_migrated_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
