/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The raw bytes of messages, kept exactly as received: stored once (with
 * zlib when asked and smaller), read back whole. The one place that
 * knows the raw table's format.
 */
#ifndef PC_STORE_RAW_H
#define PC_STORE_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * Stores (raw, len) as a new raw row, compressed with zlib when compress
 * is set, the message is over 256 bytes and compression makes it
 * smaller; its id in *id_out. Errors: PC_EDB.
 */
int pc_raw_put(struct pc_store *st, const char *raw, size_t len, int compress,
	       int64_t *id_out, struct pc_err *err);

/*
 * The raw bytes of a message as stored (decompressed), NUL-terminated.
 * Caller frees *out with free(). PC_ENOTFOUND, or PC_EDB when the row is
 * corrupt.
 */
int pc_message_raw(char **out, size_t *len_out, struct pc_store *st,
		   int64_t message_id, struct pc_err *err);

#endif
