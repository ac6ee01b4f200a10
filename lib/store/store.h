/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The SQLite state: opening (creating and migrating to the newest schema),
 * transactions. The only module that includes sqlite3.h; other store
 * files reach the handle through store_internal.h.
 */
#ifndef PC_STORE_STORE_H
#define PC_STORE_STORE_H

#include "util/err.h"

struct pc_store;

/*
 * Opens (creating if missing) the database at path and applies every
 * migration newer than its PRAGMA user_version, each in its own
 * transaction. Caller frees with pc_store_close(). Errors: PC_EDB, and
 * PC_EUSAGE for a database newer than this program.
 */
int pc_store_open(struct pc_store **out, const char *path, struct pc_err *err);

/*
 * pc_store_open(), migrating no further than schema version: for tests
 * that build a database as an older patchclock left it and check that
 * the next open migrates it.
 */
int pc_store_open_upto(struct pc_store **out, const char *path, int version,
		       struct pc_err *err);

void pc_store_close(struct pc_store *st);

/* The schema version the database is at, and the newest one known. */
int pc_store_schema_version(struct pc_store *st);
int pc_store_schema_latest(void);

/*
 * Bulk loading: with on, a thread with its own connection checkpoints
 * the WAL (every 64 MiB of it) while this connection writes, so the
 * writer never copies its pages a second time itself (it still does when
 * the thread falls 512 MiB behind, or cannot start: then every 256 MiB);
 * with off, stops the thread, returns to SQLite's default automatic
 * checkpoint and checkpoints what it can without waiting for readers.
 * The database stays in WAL mode all along: readers never wait for the
 * bulk writer, and the writer never waits for them. (A rollback journal
 * would write raw mail once instead of twice, but it locks every reader
 * out for the length of a batch.) pc_store_close() ends bulk mode too.
 */
int pc_store_bulk(struct pc_store *st, int on, struct pc_err *err);

/* A write transaction: takes the write lock now (BEGIN IMMEDIATE),
 * waiting up to the busy timeout for another writer. */
int pc_store_begin(struct pc_store *st, struct pc_err *err);
/* The same, waiting at most wait_ms for the write lock instead of the
 * busy timeout; PC_EBUSY when another connection still holds it. */
int pc_store_try_begin(struct pc_store *st, int wait_ms, struct pc_err *err);
/* A read transaction: one consistent snapshot for several queries that
 * never blocks a writer (WAL). End it with pc_store_commit(). */
int pc_store_begin_read(struct pc_store *st, struct pc_err *err);
int pc_store_commit(struct pc_store *st, struct pc_err *err);
/* Rolls back the open transaction, if any. Never fails. */
void pc_store_rollback(struct pc_store *st);

/*
 * Runs a read-only query and calls fn for each row with its columns as
 * text (NULL for SQL NULL). For tests and diagnostics.
 */
typedef int (*pc_store_row_fn)(int ncols, const char *const *cols, void *arg);

/*
 * The first column of the first row of sql (a string literal: the
 * statement is cached by its address), with ?1 bound to arg, as an
 * integer in *out: 0 when there is no row or it is NULL.
 */
int pc_store_int(struct pc_store *st, const char *sql, int64_t arg,
		 int64_t *out, struct pc_err *err);
int pc_store_query(struct pc_store *st, const char *sql, pc_store_row_fn fn,
		   void *arg, struct pc_err *err);

#endif
