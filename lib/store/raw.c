// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The raw table: messages as received. See raw.h.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "store/raw.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char SQL_INSERT_RAW[] =
	"INSERT INTO raw (size, compression, bytes) VALUES (?, ?, ?)";

int pc_raw_put(struct pc_store *st, const char *raw, size_t len, int compress,
	       int64_t *id_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_RAW, err);
	unsigned char *z = NULL;
	uLongf zlen = 0;
	int rc;

	if (!s)
		return PC_EDB;
	if (compress && len > 256) {
		zlen = compressBound((uLong)len);
		z = xmalloc(zlen);
		if (compress2(z, &zlen, (const Bytef *)raw, (uLong)len, 1) !=
			    Z_OK ||
		    zlen >= len) {
			free(z);
			z = NULL;
		}
	}
	sqlite3_bind_int64(s, 1, (sqlite3_int64)len);
	if (z) {
		sqlite3_bind_text(s, 2, "zlib", -1, SQLITE_STATIC);
		sqlite3_bind_blob64(s, 3, z, zlen, SQLITE_STATIC);
	} else {
		sqlite3_bind_text(s, 2, "none", -1, SQLITE_STATIC);
		sqlite3_bind_blob64(s, 3, raw, len, SQLITE_STATIC);
	}
	rc = pc_store__exec(st, s, err, "storing a raw message");
	sqlite3_reset(s);
	free(z);
	if (rc == 0)
		*id_out = sqlite3_last_insert_rowid(st->db);
	return rc;
}

static const char SQL_RAW[] =
	"SELECT r.size, r.compression, r.bytes FROM raw r "
	"JOIN messages m ON m.raw_id = r.id WHERE m.id = ?";

int pc_message_raw(char **out, size_t *len_out, struct pc_store *st,
		   int64_t message_id, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_RAW, err);
	const unsigned char *comp;
	const void *blob;
	size_t size, blen;
	char *buf;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, message_id);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW) {
		sqlite3_reset(s);
		return rc == SQLITE_DONE ?
			       pc_err_set(err, PC_ENOTFOUND,
					  "no such message") :
			       pc_store__fail(st, err, "reading a raw message");
	}
	size = (size_t)sqlite3_column_int64(s, 0);
	comp = sqlite3_column_text(s, 1);
	blob = sqlite3_column_blob(s, 2);
	blen = (size_t)sqlite3_column_bytes(s, 2);
	buf = xmalloc(size + 1);
	if (comp && !strcmp((const char *)comp, "zlib")) {
		uLongf dlen = (uLongf)size;

		if (uncompress((Bytef *)buf, &dlen, blob, (uLong)blen) !=
			    Z_OK ||
		    dlen != size) {
			sqlite3_reset(s);
			free(buf);
			return pc_err_set(err, PC_EDB,
					  "raw message %lld is corrupt",
					  (long long)message_id);
		}
	} else {
		if (blen != size) {
			sqlite3_reset(s);
			free(buf);
			return pc_err_set(err, PC_EDB,
					  "raw message %lld has a wrong size",
					  (long long)message_id);
		}
		memcpy(buf, blob, blen);
	}
	buf[size] = '\0';
	sqlite3_reset(s);
	*out = buf;
	*len_out = size;
	return 0;
}
