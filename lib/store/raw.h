/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The raw bytes of messages, kept exactly as received: stored once
 * (compressed when asked and smaller), read back whole. The one place
 * that knows the raw table's format.
 *
 * Codecs: none; zlib (level 1); zstd, with the store's current
 * dictionary when it has one: the shipped one (pc_raw_dict_builtin()),
 * or one trained from the first messages stored (pc_raw_dict_train()).
 * A dictionary is never changed: each row names the dictionary it was
 * compressed with, so a message stays readable whatever comes later.
 *
 * Compression can run in any thread (an encoder per thread, no store),
 * and the writer stores what it made (pc_raw_put_encoded()): that is how
 * ingest's workers compress while one thread writes.
 */
#ifndef PC_STORE_RAW_H
#define PC_STORE_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

enum pc_raw_codec { PC_RAW_NONE = 0, PC_RAW_ZLIB = 1, PC_RAW_ZSTD = 2 };

/* "none", "zlib", "zstd"; parses the same names (-1 when unknown). */
const char *pc_raw_codec_name(enum pc_raw_codec c);
int pc_raw_codec_parse(const char *name, enum pc_raw_codec *out);

/* A dictionary: owned by the store that loaded it (freed when it
 * closes), read-only, shareable between threads. */
struct pc_raw_dict;
int64_t pc_raw_dict_id(const struct pc_raw_dict *d);

/* The store's current dictionary (the newest), loaded once; *out NULL
 * when there is none. PC_EDB. */
int pc_raw_dict_current(struct pc_store *st, const struct pc_raw_dict **out,
			struct pc_err *err);

/* How many messages a dictionary is trained on, by default. */
#define PC_RAW_DICT_SAMPLES 1000

/*
 * The dictionary patchclock ships (lib/store/kernel-mail.zdict, compiled
 * in): trained once with pc_raw_dict_train() on the first
 * PC_RAW_DICT_SAMPLES messages of a kernel list's archive
 * (tests/support/train_dict.c). A new database starts with it instead of
 * training its own, which cost every new database 0.45 s of CPU (more
 * than ingesting a small archive) and gave a few percent at best.
 */
extern const unsigned char pc_raw__builtin_dict[];
extern const size_t pc_raw__builtin_dict_len;

/* Stores the shipped dictionary (in the caller's transaction) and makes
 * it current. PC_EDB. */
int pc_raw_dict_builtin(struct pc_store *st, const struct pc_raw_dict **out,
			struct pc_err *err);

/*
 * Trains a dictionary on the first `samples` raw messages stored (in
 * the caller's transaction), stores it with `created` (seconds, or 0),
 * and makes it current. Fewer messages, or mail too uniform to train
 * on, is no error: *out is then NULL and nothing is stored. PC_EDB.
 */
int pc_raw_dict_train(struct pc_store *st, unsigned samples, int64_t created,
		      const struct pc_raw_dict **out, struct pc_err *err);

/* A message as it will be stored: bytes is raw itself (owned 0) when it
 * is stored as it is. */
struct pc_raw_encoded {
	enum pc_raw_codec codec;
	int64_t dict_id; /* 0 for none */
	const unsigned char *bytes;
	size_t len;
	unsigned char *owned; /* what to free, or NULL */
};

/* One per thread. dict may be NULL; it must outlive the encoder. */
struct pc_raw_encoder;
struct pc_raw_encoder *pc_raw_encoder_new(enum pc_raw_codec codec,
					  const struct pc_raw_dict *dict);
void pc_raw_encoder_free(struct pc_raw_encoder *enc);
const struct pc_raw_dict *pc_raw_encoder_dict(const struct pc_raw_encoder *e);

/*
 * Compresses (raw, len) as the encoder's codec says, into *out; stores
 * it as it is when it is 256 bytes or less or compression does not make
 * it smaller. Touches no store: safe in any thread with its own encoder.
 * Release with pc_raw_encoded_release().
 */
void pc_raw_encode(struct pc_raw_encoder *enc, const char *raw, size_t len,
		   struct pc_raw_encoded *out);
void pc_raw_encoded_release(struct pc_raw_encoded *e);

/* Stores an encoded message of len bytes as a new raw row; its id in
 * *id_out. PC_EDB. */
int pc_raw_put_encoded(struct pc_store *st, size_t len,
		       const struct pc_raw_encoded *enc, int64_t *id_out,
		       struct pc_err *err);

/*
 * Stores (raw, len) as a new raw row with the codec (zstd with the
 * current dictionary, if any); its id in *id_out. PC_EDB.
 */
int pc_raw_put(struct pc_store *st, const char *raw, size_t len,
	       enum pc_raw_codec codec, int64_t *id_out, struct pc_err *err);

/*
 * Bytes of raw rows this store has written since it was opened, as kept
 * (compressed), rolled-back ones included: what a transaction of ingest
 * adds to the page cache beside its rows and index entries.
 */
uint64_t pc_raw_stored_bytes(struct pc_store *st);

/*
 * The raw bytes of a message as stored (decompressed), NUL-terminated.
 * Caller frees *out with free(). PC_ENOTFOUND, or PC_EDB when the row is
 * corrupt or its dictionary is missing.
 */
int pc_message_raw(char **out, size_t *len_out, struct pc_store *st,
		   int64_t message_id, struct pc_err *err);

/* Frees what the store holds for raw (dictionaries, contexts); called by
 * pc_store_close(). */
void pc_raw__release(struct pc_store *st);

#endif
