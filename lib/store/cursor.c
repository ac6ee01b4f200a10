// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IMAP source cursors in SQLite. See cursor.h.
 */
#include <string.h>

#include "store/cursor.h"
#include "store/store_internal.h"
#include "util/banned.h"

static const char SQL_GET[] =
	"SELECT uidvalidity, last_uid, resyncs, updated_at FROM imap_cursor "
	"WHERE source = ?";
static const char SQL_SET[] =
	"INSERT INTO imap_cursor (source, folder, uidvalidity, last_uid, "
	"updated_at) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (source) DO "
	"UPDATE SET resyncs = resyncs + (uidvalidity != ?3), folder = ?2, "
	"uidvalidity = ?3, last_uid = ?4, updated_at = ?5";

int pc_cursor_get(struct pc_imap_cursor *out, struct pc_store *st,
		  const char *source, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_GET, err);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, source, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->uidvalidity = (uint32_t)sqlite3_column_int64(s, 0);
		out->last_uid = (uint32_t)sqlite3_column_int64(s, 1);
		out->resyncs = sqlite3_column_int64(s, 2);
		out->updated_at = sqlite3_column_int64(s, 3);
	} else if (rc != SQLITE_DONE) {
		return pc_store__fail(st, err, "reading the imap cursor");
	}
	return 0;
}

int pc_cursor_set(struct pc_store *st, const char *source, const char *folder,
		  uint32_t uidvalidity, uint32_t last_uid, int64_t now,
		  struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_SET, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, source, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, folder, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, uidvalidity);
	sqlite3_bind_int64(s, 4, last_uid);
	sqlite3_bind_int64(s, 5, now);
	return pc_store__exec(st, s, err, "moving the imap cursor");
}
