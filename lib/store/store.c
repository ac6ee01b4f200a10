// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SQLite access: opening, migrations, transactions and a statement cache.
 * Ingest runs as large transactions in WAL mode with synchronous=NORMAL:
 * a crash loses at most the open transaction, which a re-run ingests
 * again (ingest is idempotent).
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/schema.h"
#include "store/raw.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* SQLITE_BUSY and SQLITE_LOCKED: another connection held a lock past
 * the busy timeout. */
static int db_code(sqlite3 *db)
{
	int c = sqlite3_errcode(db) & 0xff;

	return c == SQLITE_BUSY || c == SQLITE_LOCKED ? PC_EBUSY : PC_EDB;
}

int pc_store__fail(struct pc_store *st, struct pc_err *err, const char *what)
{
	return pc_err_set(err, db_code(st->db), "%s failed in '%s': %s", what,
			  st->path, sqlite3_errmsg(st->db));
}

sqlite3_stmt *pc_store__stmt(struct pc_store *st, const char *sql,
			     struct pc_err *err)
{
	unsigned i;

	for (i = 0; i < st->nstmts; i++) {
		if (st->stmt_sql[i] == sql) {
			sqlite3_reset(st->stmt[i]);
			sqlite3_clear_bindings(st->stmt[i]);
			return st->stmt[i];
		}
	}
	/* The cache is sized for every statement the library has. */
	if (st->nstmts >= PC_STORE__MAX_STMTS) {
		pc_err_set(err, PC_EDB, "statement cache full");
		return NULL;
	}
	if (sqlite3_prepare_v3(st->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
			       &st->stmt[i], NULL) != SQLITE_OK) {
		pc_store__fail(st, err, "preparing a statement");
		return NULL;
	}
	st->stmt_sql[i] = sql;
	st->nstmts++;
	return st->stmt[i];
}

int pc_store__exec(struct pc_store *st, sqlite3_stmt *s, struct pc_err *err,
		   const char *what)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return pc_store__fail(st, err, what);
	return 0;
}

int pc_store__step_done(struct pc_store *st, sqlite3_stmt *s, int rc,
			const char *what, struct pc_err *err)
{
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : pc_store__fail(st, err, what);
}

char *pc_store__col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *)t) : NULL;
}

static const char SQL_MESSAGE_ID[] = "SELECT id FROM messages WHERE msgid = ?";

int64_t pc_store__message_id(struct pc_store *st, const char *msgid,
			     struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_MESSAGE_ID, err);
	int64_t id = 0;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, msgid, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(s, 0);
	else if (rc != SQLITE_DONE)
		id = pc_store__fail(st, err, "looking up a message");
	sqlite3_reset(s);
	return id;
}

int pc_store__bind_text(sqlite3_stmt *s, int i, const char *text)
{
	if (!text)
		return sqlite3_bind_null(s, i);
	return sqlite3_bind_text(s, i, text, -1, SQLITE_STATIC);
}

static int exec_sql(struct pc_store *st, const char *sql, struct pc_err *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int code = db_code(st->db);

		pc_err_set(err, code, "cannot run SQL on '%s': %s", st->path,
			   msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return code;
	}
	return 0;
}

int pc_store_schema_latest(void)
{
	return pc_migrations_count ?
		       pc_migrations[pc_migrations_count - 1].version :
		       0;
}

int pc_store_schema_version(struct pc_store *st)
{
	sqlite3_stmt *s;
	int v = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) !=
	    SQLITE_OK)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* The migrations that need C after their SQL: facts read back from the
 * raw bytes of messages stored before the schema recorded them. Each
 * runs inside its migration's transaction. */
static const struct {
	int version;
	int (*run)(struct pc_store *st, struct pc_err *err);
} c_steps[] = {
	{ 14, pc_store__backfill_intents },
	/* new intents (ping, withdrawal, approval) for recent mail */
	{ 22, pc_store__backfill_intents },
	/* a comment that asks the author (PC_INTENT_REQUEST) */
	{ 24, pc_store__backfill_intents },
	/* a posting of a draft specification (PC_INTENT_DRAFT_ISA) */
	{ 27, pc_store__backfill_posting_bits },
	/* a remark the sender's tag does not wait on asks for nothing */
	{ 29, pc_store__backfill_intents },
	/* vocatives, cited words, Outlook quotes, changes already made */
	{ 31, pc_store__backfill_intents },
	/* a reviewer's own reading below a hunk, questions about what
	 * comes after the series */
	{ 32, pc_store__backfill_intents },
	/* an author's short agreement to a change asked for */
	{ 33, pc_store__backfill_intents },
	/* a cover letter that asks each subsystem to apply its part */
	{ 34, pc_store__backfill_posting_bits },
	/* a question put by name to someone else passes the one before
	 * it on; "take a look at patch 4" is no ping; a question about
	 * the posting is none about the patches */
	{ 35, pc_store__backfill_intents },
	/* a maintainer who would take it given another's ack */
	{ 36, pc_store__backfill_intents },
};

static int run_c_steps(struct pc_store *st, int version, struct pc_err *err)
{
	size_t i;
	int rc;

	for (i = 0; i < sizeof(c_steps) / sizeof(c_steps[0]); i++)
		if (c_steps[i].version == version &&
		    (rc = c_steps[i].run(st, err)) < 0)
			return rc;
	return 0;
}

/* Finalizes the cached statements (before the connection closes). */
static void drop_stmts(struct pc_store *st)
{
	unsigned i;

	for (i = 0; i < st->nstmts; i++)
		sqlite3_finalize(st->stmt[i]);
	st->nstmts = 0;
}

/* Whether the database holds no table, index, view or trigger. */
static int is_empty(struct pc_store *st)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM sqlite_master LIMIT 1",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE;
}

/*
 * A new, empty database gets the schema the migrations end with
 * (schema/current.sql, its rows included) in one transaction: each
 * ALTER TABLE of the migrations re-reads the whole schema, which cost
 * every new database 145 M instructions (40 ms), a twentieth of
 * ingesting the nvdimm slice. unit.schema checks that both ways make
 * the same database. 1 when made, 0 when another process made it
 * first (then the migrations run, and find nothing to do).
 */
static int create_current(struct pc_store *st, struct pc_err *err)
{
	char version[48];
	int rc;

	if ((rc = exec_sql(st, "BEGIN IMMEDIATE", err)) < 0)
		return rc;
	if (!is_empty(st)) {
		exec_sql(st, "ROLLBACK", NULL);
		return 0;
	}
	snprintf(version, sizeof(version), "PRAGMA user_version = %d",
		 pc_store_schema_latest());
	if ((rc = exec_sql(st, pc_schema_current, err)) < 0 ||
	    (rc = exec_sql(st, version, err)) < 0) {
		exec_sql(st, "ROLLBACK", NULL);
		return pc_err_prefix(err, "creating the schema");
	}
	if ((rc = exec_sql(st, "COMMIT", err)) < 0)
		return rc;
	return 1;
}

/* Runs the migrations above the database's version up to upto; returns
 * how many ran (0 for a new database made at once), or a negative
 * error. */
static int migrate(struct pc_store *st, int upto, struct pc_err *err)
{
	int cur = pc_store_schema_version(st), rc, applied = 0;
	unsigned i;

	if (cur < 0)
		return pc_store__fail(st, err, "reading the schema version");
	if (cur == 0 && upto >= pc_store_schema_latest() && is_empty(st)) {
		if ((rc = create_current(st, err)) != 0)
			return rc < 0 ? rc : 0;
		cur = pc_store_schema_version(st);
	}
	if (cur > pc_store_schema_latest())
		return pc_err_set(
			err, PC_EUSAGE,
			"database '%s' has schema %d, newer than this patchclock (%d): upgrade patchclock",
			st->path, cur, pc_store_schema_latest());
	for (i = 0; i < pc_migrations_count; i++) {
		if (pc_migrations[i].version <= cur)
			continue;
		if (pc_migrations[i].version > upto)
			break;
		if ((rc = exec_sql(st, "BEGIN IMMEDIATE", err)) < 0)
			return rc;
		if ((rc = exec_sql(st, pc_migrations[i].sql, err)) < 0 ||
		    (rc = run_c_steps(st, pc_migrations[i].version, err)) < 0) {
			exec_sql(st, "ROLLBACK", NULL);
			return pc_err_prefix(err, "migration %s",
					     pc_migrations[i].name);
		}
		/* Each migration records its own number: one that forgot
		 * would run again, and fail, at every open. */
		if (pc_store_schema_version(st) != pc_migrations[i].version) {
			exec_sql(st, "ROLLBACK", NULL);
			return pc_err_set(err, PC_EDB,
					  "migration %s does not set "
					  "PRAGMA user_version = %d",
					  pc_migrations[i].name,
					  pc_migrations[i].version);
		}
		if ((rc = exec_sql(st, "COMMIT", err)) < 0)
			return rc;
		applied++;
	}
	return applied;
}

int pc_store_open(struct pc_store **out, const char *path, struct pc_err *err)
{
	return pc_store_open_upto(out, path, pc_store_schema_latest(), err);
}

/* Opens st->path and sets the connection's pragmas. */
/*
 * pc_text_key(text): a 64-bit key of the text as lower() would fold it
 * (ASCII letters only, as SQLite's lower() without ICU), FNV-1a. The
 * indexes whose inserts land at random (a patch's subject, its
 * patch-id) hold this key, not the text (schema 20): an entry of 8
 * bytes instead of 40 to 70, so that the index stays in the page cache
 * several times longer as the archive grows. Lookups compare the text
 * too: a collision costs a row read, never a wrong answer.
 */
static void text_key_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const unsigned char *p = sqlite3_value_text(argv[0]);
	uint64_t h = 14695981039346656037ULL;

	(void)argc;
	if (!p) {
		sqlite3_result_null(ctx);
		return;
	}
	for (; *p; p++) {
		unsigned char c = *p;

		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		h = (h ^ c) * 1099511628211ULL;
	}
	sqlite3_result_int64(ctx, (sqlite3_int64)h);
}

static int connect_db(struct pc_store *st, struct pc_err *err)
{
	static int configured;
	int rc;

	/* Before SQLite's first use in the process: no allocation
	 * statistics, whose global mutex every SQLite malloc and free took
	 * (2% of ingest). Once SQLite is initialised this returns
	 * SQLITE_MISUSE and changes nothing, which is harmless. */
	if (!configured) {
		configured = 1;
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		/* A statement journal (of a statement that may write
		 * several rows, a trigger's included, inside the ingest's
		 * transaction) spilled to a temporary file past 64 KiB
		 * (SQLite's default): 41,000 of the 53,000 pwrite()
		 * calls of the nvdimm slice's ingest. Kept in memory up to
		 * 4 MiB; a migration's UPDATE of a whole table still
		 * spills. */
		sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, 4 << 20);
	}

	if (sqlite3_open_v2(st->path, &st->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				    SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		return st->db ?
			       pc_store__fail(st, err, "opening the database") :
			       pc_err_set(err, PC_EDB,
					  "cannot open database '%s'",
					  st->path);
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, PC_STORE__BUSY_MS);
	if (sqlite3_create_function_v2(
		    st->db, "pc_text_key", 1,
		    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
		    text_key_fn, NULL, NULL, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "registering pc_text_key");
	/* 8 KiB pages for a new database (a no-op on an existing one): a
	 * typical kernel mail then needs one overflow page, not three, and
	 * ingest spends about 15% less CPU than with 4 KiB pages. */
	if ((rc = exec_sql(st, "PRAGMA page_size = 8192", err)) < 0)
		return rc;
	return exec_sql(st,
			"PRAGMA journal_mode = WAL;"
			"PRAGMA synchronous = NORMAL;"
			"PRAGMA foreign_keys = ON;"
			"PRAGMA cache_size = -16384;",
			err);
}

/* After a failed open: when the file, or the directory that must hold
 * its -wal and -shm files, cannot be written (a read-only mount, or no
 * permission), says so, which SQLite's "unable to open database file"
 * does not. */
static int say_if_readonly(const char *path, int rc, struct pc_err *err)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xmemdupz(path, (size_t)(slash - path + 1)) :
			    xstrdup(".");
	int file_ro = 0, dir_ro = 0, why = 0;

	if (access(path, F_OK) == 0 && access(path, W_OK) < 0) {
		file_ro = 1;
		why = errno;
	} else if (access(dir, W_OK) < 0 && errno != ENOENT) {
		dir_ro = 1;
		why = errno;
	}
	if (file_ro || dir_ro)
		rc = pc_err_set(
			err, PC_EUSAGE,
			"database '%s' is read-only (%s%s): patchclock writes "
			"to it, and to its -wal and -shm files beside it; make "
			"%s writable, or copy the database somewhere writable",
			path, dir_ro ? "its directory: " : "",
			why == EROFS ? "a read-only file system" :
				       "no write permission",
			dir_ro ? "the directory" : "it");
	free(dir);
	return rc;
}

int pc_store_open_upto(struct pc_store **out, const char *path, int version,
		       struct pc_err *err)
{
	struct pc_store *st = xcalloc(1, sizeof(*st));
	int rc;

	st->path = xstrdup(path);
	if ((rc = connect_db(st, err)) < 0 ||
	    (rc = migrate(st, version, err)) <= 0)
		goto out;
	/* A migration may rewrite the schema's text (schema 7 does), which
	 * this connection has already parsed: open it again to read it. */
	pc_raw__release(st);
	drop_stmts(st);
	sqlite3_close(st->db);
	st->db = NULL;
	rc = connect_db(st, err);
out:
	if (rc < 0) {
		rc = say_if_readonly(path, rc, err);
		pc_store_close(st);
		return rc;
	}
	*out = st;
	return 0;
}

void pc_store_close(struct pc_store *st)
{
	if (!st)
		return;
	pc_store__ckpt_stop(st);
	pc_store__profile_end(st);
	pc_raw__release(st);
	pc_store__pending_drop(st);
	drop_stmts(st);
	if (st->db) {
		if (st->in_tx)
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(st->db);
	}
	free(st->path);
	free(st);
}

int pc_store_bulk(struct pc_store *st, int on, struct pc_err *err)
{
	if (on) {
		if (pc_store__ckpt_start(st) == 0)
			return 0;
		/* No thread: 32768 pages of 8 KiB, 256 MiB of WAL between
		 * the writer's own checkpoints. */
		return exec_sql(st, "PRAGMA wal_autocheckpoint = 32768", err);
	}
	pc_store__ckpt_stop(st);
	return exec_sql(st,
			"PRAGMA wal_autocheckpoint = 1000;"
			"PRAGMA wal_checkpoint(PASSIVE)",
			err);
}

static int begin(struct pc_store *st, const char *sql, struct pc_err *err)
{
	unsigned i;
	int rc;

	/* A cached statement left on a row holds a read transaction on an
	 * old snapshot; when another connection (the daemon's IMAP fetcher)
	 * has written since, BEGIN IMMEDIATE could not take the write lock
	 * and would fail at once with SQLITE_BUSY, without waiting. */
	for (i = 0; i < st->nstmts; i++)
		sqlite3_reset(st->stmt[i]);
	rc = exec_sql(st, sql, err);

	if (rc == 0)
		st->in_tx = 1;
	return rc;
}

int pc_store_begin(struct pc_store *st, struct pc_err *err)
{
	return begin(st, "BEGIN IMMEDIATE", err);
}

int pc_store_try_begin(struct pc_store *st, int wait_ms, struct pc_err *err)
{
	int rc;

	sqlite3_busy_timeout(st->db, wait_ms);
	rc = begin(st, "BEGIN IMMEDIATE", err);
	sqlite3_busy_timeout(st->db, PC_STORE__BUSY_MS);
	return rc;
}

int pc_store_begin_read(struct pc_store *st, struct pc_err *err)
{
	return begin(st, "BEGIN DEFERRED", err);
}

int pc_store_commit(struct pc_store *st, struct pc_err *err)
{
	int rc = exec_sql(st, "COMMIT", err);

	if (rc == 0) {
		st->in_tx = 0;
		pc_store__pending_drop(st);
	}
	return rc;
}

void pc_store_rollback(struct pc_store *st)
{
	if (st->in_tx)
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->in_tx = 0;
	pc_store__pending_drop(st);
	/* A dictionary trained in the transaction is gone with it; its id
	 * may be given to another. */
	pc_raw__release(st);
}

int pc_store_int(struct pc_store *st, const char *sql, int64_t arg,
		 int64_t *out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);
	int rc;

	*out = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, arg);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "running a query");
}

int pc_store_query(struct pc_store *st, const char *sql, pc_store_row_fn fn,
		   void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	const char **cols = NULL;
	int rc, n, i;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "preparing a query");
	n = sqlite3_column_count(s);
	cols = xcalloc((size_t)n + 1, sizeof(*cols));
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (i = 0; i < n; i++)
			cols[i] = (const char *)sqlite3_column_text(s, i);
		if (fn(n, cols, arg) != 0)
			break;
	}
	free(cols);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "running a query");
		sqlite3_finalize(s);
		return rc;
	}
	sqlite3_finalize(s);
	return 0;
}
