/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where an IMAP source stands (table imap_cursor, schema 5): the
 * folder's UIDVALIDITY and the highest UID already in the database.
 * Move the cursor inside the transaction that stores the messages it
 * covers: then a crash loses nothing, and Message-IDs make a repeat
 * fetch harmless.
 */
#ifndef PC_STORE_CURSOR_H
#define PC_STORE_CURSOR_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

struct pc_imap_cursor {
	uint32_t uidvalidity; /* 0: never synced */
	uint32_t last_uid;
	int64_t resyncs;
	int64_t updated_at;
};

/* The cursor of source (zeroes when it has none). */
int pc_cursor_get(struct pc_imap_cursor *out, struct pc_store *st,
		  const char *source, struct pc_err *err);

/*
 * Sets the cursor of source to (uidvalidity, last_uid) for folder at
 * now. A changed UIDVALIDITY counts a resync.
 */
int pc_cursor_set(struct pc_store *st, const char *source, const char *folder,
		  uint32_t uidvalidity, uint32_t last_uid, int64_t now,
		  struct pc_err *err);

#endif
