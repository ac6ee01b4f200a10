// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Migrations that need C, not SQL: facts read back from the raw bytes
 * of messages stored before the schema that records them.
 */
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "patch/analysis.h"
#include "patch/intent.h"
#include "store/raw.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Every message outside a series that has no intent: replies stored
 * before schema 3 and, before schema 14, the other messages a thread
 * may hold (pulls, mails without "Re:"). */
static const char SQL_NO_INTENT[] =
	"SELECT id FROM messages WHERE intent IS NULL "
	"AND kind NOT IN ('patch', 'cover') ORDER BY id";
/* The postings whose bits are read (schema 27: a draft specification;
 * the migration leaves NULL only the recent ones). */
static const char SQL_NO_POSTING_BITS[] =
	"SELECT id FROM messages WHERE intent IS NULL "
	"AND kind IN ('patch', 'cover') ORDER BY id";
static const char SQL_SET_INTENT[] =
	"UPDATE messages SET intent = ?1 WHERE id = ?2";

/* The ids sql lists, read whole before any is updated. */
static int list_missing(struct pc_store *st, const char *sql, int64_t **ids,
			size_t *n, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);
	size_t alloc = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	if (!s)
		return PC_EDB;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(*ids, *n + 1, alloc);
		(*ids)[(*n)++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 :
				   pc_store__fail(st, err, "listing intents");
}

/* A message's intent from its raw bytes, as ingest would store it (a
 * reply's words, a posting's bits); 0 when it cannot be parsed (the
 * message is kept, and says nothing). */
static unsigned intent_of(struct pc_store *st, int64_t id, struct pc_err *err)
{
	struct pc_msg *m = NULL;
	char *raw = NULL;
	size_t len = 0;
	unsigned bits = 0;

	if (pc_message_raw(&raw, &len, st, id, err) == 0 &&
	    pc_msg_parse(&m, raw, len, NULL) == 0) {
		struct pc_analysis d;

		memset(&d, 0, sizeof(d));
		if (pc_analyse(&d, m, NULL) == 0)
			bits = d.intent;
		pc_analysis_release(&d);
	}
	pc_msg_free(m);
	free(raw);
	return bits;
}

static int backfill(struct pc_store *st, const char *sql, struct pc_err *err)
{
	int64_t *ids;
	size_t n, i;
	int rc;

	if ((rc = list_missing(st, sql, &ids, &n, err)) < 0)
		return rc;
	for (i = 0; i < n && rc == 0; i++) {
		sqlite3_stmt *s = pc_store__stmt(st, SQL_SET_INTENT, err);
		unsigned bits = intent_of(st, ids[i], NULL);

		if (!s) {
			rc = PC_EDB;
			break;
		}
		sqlite3_bind_int(s, 1, (int)bits);
		sqlite3_bind_int64(s, 2, ids[i]);
		rc = pc_store__exec(st, s, err, "storing a message's intent");
	}
	free(ids);
	return rc;
}

int pc_store__backfill_intents(struct pc_store *st, struct pc_err *err)
{
	return backfill(st, SQL_NO_INTENT, err);
}

int pc_store__backfill_posting_bits(struct pc_store *st, struct pc_err *err)
{
	return backfill(st, SQL_NO_POSTING_BITS, err);
}
