/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by the lib/store files: the handle and cached statements. */
#ifndef PC_STORE_INTERNAL_H
#define PC_STORE_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>

#include "store/store.h"

#define PC_STORE__MAX_STMTS 192
/* How long a connection waits for another's lock before PC_EBUSY: long
 * enough to outwait one ingest batch (PC_INGEST_BATCH messages, at most
 * PC_INGEST_BATCH_BYTES of raw rows: lib/store/ingest.h) on a slow disk. */
#define PC_STORE__BUSY_MS 30000

/*
 * The title a Fixes: trailer (alias t) names, lower-cased: the text
 * between '("' and the last '")' of 'c6f40468657d ("fsdax: decouple
 * zeroing ...")'. Written exactly as schema 37's index on trailers, so
 * that a query with t.name = 'Fixes' AND t.origin = 'patch' seeks it.
 */
#define PC_STORE__FIXES_TITLE(t)                                           \
	"lower(substr(rtrim(" t ".value), instr(" t ".value, '(\"') + 2, " \
	"length(rtrim(" t ".value)) - instr(" t ".value, '(\"') - 3))"

/*
 * A common table expression twins(id): series ?1 and its twins, the
 * same version by the same sender with the same patches (patch-ids),
 * sent less than a day before it and replaced by it (a posting sent
 * again minutes later to more people, or because the first seemed
 * lost). A reply to either is a reply to both: Guenter Roeck answered
 * the first of two identical "[PATCH v2] hwmon: (oxp-sensors) Add
 * AYANEO AIR and AIR Pro" (linux-hwmon 2022-12-14). Through the
 * superseded_by index: the cost is the twins'.
 */
#define PC_STORE__TWINS                                                      \
	"twins(id) AS (SELECT ?1 UNION"                                      \
	" SELECT o.id FROM series s JOIN series o ON o.superseded_by = s.id" \
	" WHERE s.id = ?1 AND o.author_addr = s.author_addr"                 \
	" AND o.version = s.version AND o.is_rfc = s.is_rfc"                 \
	" AND o.first_posted BETWEEN s.first_posted - 86400"                 \
	" AND s.first_posted"                                                \
	" AND (SELECT count(*) FROM messages a WHERE a.series_id = o.id"     \
	"  AND a.kind = 'patch') = (SELECT count(*) FROM messages b"         \
	"  WHERE b.series_id = s.id AND b.kind = 'patch')"                   \
	" AND EXISTS (SELECT 1 FROM messages a WHERE a.series_id = o.id"     \
	"  AND a.kind = 'patch')"                                            \
	" AND NOT EXISTS (SELECT 1 FROM messages a"                          \
	"  WHERE a.series_id = o.id AND a.kind = 'patch'"                    \
	"  AND (a.patch_id IS NULL OR NOT EXISTS (SELECT 1 FROM messages b"  \
	"  WHERE b.series_id = s.id AND b.kind = 'patch'"                    \
	"  AND b.patch_id = a.patch_id))))"

/*
 * Whether series alias s is a stable tree's queue ("[PATCH 6.1
 * 012/200]", "[PATCH stable 5.15]"): a copy of patches already
 * merged, never a newer version of the original posting.
 */
#define PC_STORE__STABLE_COPY(s)                                     \
	"(coalesce(" s ".topic, '') GLOB '[0-9]*.[0-9]*' OR ' ' || " \
	"coalesce(" s ".topic, '') || ' ' LIKE '% stable %')"

struct pc_store__ckpt;
struct pc_store__prof;
struct pc_raw_state;

struct pc_store {
	sqlite3 *db; /* owned */
	struct pc_store__ckpt *ckpt; /* owned: bulk mode's checkpointer */
	/* owned: raw.c's dictionaries and contexts, or NULL; forgotten on a
	 * rollback (a dictionary stored in it is gone) */
	struct pc_raw_state *raw;
	/* WAL frames that wake the checkpointer; 0 for its default (tests
	 * set fewer) */
	unsigned ckpt_pages;
	char *path; /* owned */
	/* owned: statement costs (profile.h), or NULL */
	struct pc_store__prof *prof;
	int in_tx;
	/* owned, or NULL: the series a lazy judging pass left for the
	 * listing to judge (status.c); dropped with the transaction */
	struct pc_store__pending *pending;
	const char *stmt_sql[PC_STORE__MAX_STMTS]; /* borrowed: static SQL */
	sqlite3_stmt *stmt[PC_STORE__MAX_STMTS]; /* owned */
	unsigned nstmts;
};

/*
 * The prepared statement for sql (a string literal: cached by address),
 * reset and with its bindings cleared. Returns NULL and fills err on a
 * failure to prepare.
 */
sqlite3_stmt *pc_store__stmt(struct pc_store *st, const char *sql,
			     struct pc_err *err);

/* Bulk mode's checkpoint thread (checkpoint.c): start returns -1 when it
 * cannot (the caller keeps SQLite's automatic checkpoints); stop joins it
 * and removes the WAL hook. */
int pc_store__ckpt_start(struct pc_store *st);
void pc_store__ckpt_stop(struct pc_store *st);

/* Reports the statement costs to the profile's callback and stops
 * counting (sqlprofile.c); nothing when none was asked for. */
void pc_store__profile_end(struct pc_store *st);

/* A lazy judging pass's series (pc_status_options.lazy): judges sid at
 * the pass's now when it is one of them and not judged yet; 0 either
 * way, errors as pc_status_refresh(). The set is the listing's to use:
 * drop frees it. */
int pc_store__judge_pending(struct pc_store *st, int64_t sid,
			    struct pc_err *err);
void pc_store__pending_drop(struct pc_store *st);
/* The now of the lazy pass whose series are pending, or 0. */
int64_t pc_store__pending_now(const struct pc_store *st);

/* Fills err from the connection's last error; returns PC_EDB. */
int pc_store__fail(struct pc_store *st, struct pc_err *err, const char *what);

/* Runs a statement to completion (no rows expected). */
int pc_store__exec(struct pc_store *st, sqlite3_stmt *s, struct pc_err *err,
		   const char *what);

/* After stepping s through its rows: resets it; 0 when the last step
 * (rc) was SQLITE_DONE, else the connection's failure (PC_EDB). */
int pc_store__step_done(struct pc_store *st, sqlite3_stmt *s, int rc,
			const char *what, struct pc_err *err);

/* A text column, borrowed until the next step, or NULL for SQL NULL. */
static inline const char *pc_store__col(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

/* A copy of a text column, or NULL for SQL NULL. Caller frees. */
char *pc_store__col_dup(sqlite3_stmt *s, int i);

/* The row id of the message with this Message-ID, 0 when there is none,
 * or a negative code. */
int64_t pc_store__message_id(struct pc_store *st, const char *msgid,
			     struct pc_err *err);

/* Binds text, or NULL when s is NULL. */
int pc_store__bind_text(sqlite3_stmt *s, int i, const char *text);

/*
 * Schema 14's step: stores the intent (lib/patch/intent.h) of every
 * message outside a patch or a cover letter that has none, read from its
 * raw bytes; 0 for one that cannot be parsed.
 */
int pc_store__backfill_intents(struct pc_store *st, struct pc_err *err);
/* Schema 27: the bits of recent postings (a draft specification). */
int pc_store__backfill_posting_bits(struct pc_store *st, struct pc_err *err);

#endif
