// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The raw table: messages as received. See raw.h. The one file that
 * includes zlib's and zstd's headers for the raw table.
 */
#include <stdlib.h>
#include <string.h>
#include <zdict.h>
#include <zlib.h>
#include <zstd.h>

#include "store/raw.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* zstd's level: see doc/speed.md ("Raw bytes") for the measurements. */
#define ZSTD_LEVEL 1
/* zstd's own default dictionary size (zstd --train). */
#define DICT_BYTES (110u << 10)
/* What one sample and all of them may weigh: a huge message teaches
 * nothing its head does not. */
#define SAMPLE_MAX (8u << 10)
#define SAMPLES_MAX_BYTES (8u << 20)
/* Smaller messages are stored as they are. */
#define COMPRESS_MIN 256

struct pc_raw_dict {
	int64_t id;
	ZSTD_CDict *cdict;
	ZSTD_DDict *ddict;
	struct pc_raw_dict *next;
};

/* What a store holds for raw (store_internal.h's raw). */
struct pc_raw_state {
	struct pc_raw_dict *dicts; /* every one loaded */
	const struct pc_raw_dict *current;
	int current_known;
	struct pc_raw_encoder *enc; /* pc_raw_put()'s */
	ZSTD_DCtx *dctx;
	/* the database is older than schema 16 (no dict_id column): a
	 * migration's C step reading mail (schema 14's) */
	int before_16, schema_known;
	uint64_t stored; /* bytes of raw rows written, as kept */
};

struct pc_raw_encoder {
	enum pc_raw_codec codec;
	const struct pc_raw_dict *dict;
	ZSTD_CCtx *cctx;
};

static const char *const codec_names[] = { "none", "zlib", "zstd" };

const char *pc_raw_codec_name(enum pc_raw_codec c)
{
	return (unsigned)c < 3 ? codec_names[c] : "none";
}

int pc_raw_codec_parse(const char *name, enum pc_raw_codec *out)
{
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(name, codec_names[i])) {
			*out = (enum pc_raw_codec)i;
			return 0;
		}
	return -1;
}

int64_t pc_raw_dict_id(const struct pc_raw_dict *d)
{
	return d ? d->id : 0;
}

static struct pc_raw_state *state(struct pc_store *st)
{
	if (!st->raw)
		st->raw = xcalloc(1, sizeof(*st->raw));
	return st->raw;
}

void pc_raw__release(struct pc_store *st)
{
	struct pc_raw_state *rs = st->raw;
	struct pc_raw_dict *d, *next;

	if (!rs)
		return;
	for (d = rs->dicts; d; d = next) {
		next = d->next;
		ZSTD_freeCDict(d->cdict);
		ZSTD_freeDDict(d->ddict);
		free(d);
	}
	pc_raw_encoder_free(rs->enc);
	ZSTD_freeDCtx(rs->dctx);
	free(rs);
	st->raw = NULL;
}

/* A dictionary from its bytes; NULL when zstd refuses them. */
static struct pc_raw_dict *dict_make(struct pc_raw_state *rs, int64_t id,
				     const void *bytes, size_t len)
{
	struct pc_raw_dict *d = xcalloc(1, sizeof(*d));

	d->id = id;
	d->cdict = ZSTD_createCDict(bytes, len, ZSTD_LEVEL);
	d->ddict = ZSTD_createDDict(bytes, len);
	if (!d->cdict || !d->ddict) {
		ZSTD_freeCDict(d->cdict);
		ZSTD_freeDDict(d->ddict);
		free(d);
		return NULL;
	}
	d->next = rs->dicts;
	rs->dicts = d;
	return d;
}

static const char SQL_DICT[] = "SELECT bytes FROM raw_dicts WHERE id = ?";

/* Dictionary id, loaded once; NULL (err set) when missing or bad. */
static const struct pc_raw_dict *dict_get(struct pc_store *st, int64_t id,
					  struct pc_err *err)
{
	struct pc_raw_state *rs = state(st);
	const struct pc_raw_dict *d;
	sqlite3_stmt *s;
	int rc;

	for (d = rs->dicts; d; d = d->next)
		if (d->id == id)
			return d;
	if (!(s = pc_store__stmt(st, SQL_DICT, err)))
		return NULL;
	sqlite3_bind_int64(s, 1, id);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW) {
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			pc_store__fail(st, err, "reading a raw dictionary");
		else
			pc_err_set(err, PC_EDB,
				   "raw dictionary %lld is missing",
				   (long long)id);
		return NULL;
	}
	d = dict_make(rs, id, sqlite3_column_blob(s, 0),
		      (size_t)sqlite3_column_bytes(s, 0));
	sqlite3_reset(s);
	if (!d)
		pc_err_set(err, PC_EDB, "raw dictionary %lld is corrupt",
			   (long long)id);
	return d;
}

static const char SQL_NEWEST_DICT[] = "SELECT max(id) FROM raw_dicts";

int pc_raw_dict_current(struct pc_store *st, const struct pc_raw_dict **out,
			struct pc_err *err)
{
	struct pc_raw_state *rs = state(st);
	int64_t id = 0;
	int rc;

	if (!rs->current_known) {
		if ((rc = pc_store_int(st, SQL_NEWEST_DICT, 0, &id, err)) < 0)
			return rc;
		if (id && !(rs->current = dict_get(st, id, err)))
			return PC_EDB;
		rs->current_known = 1;
	}
	*out = rs->current;
	return 0;
}

struct pc_raw_encoder *pc_raw_encoder_new(enum pc_raw_codec codec,
					  const struct pc_raw_dict *dict)
{
	struct pc_raw_encoder *e = xcalloc(1, sizeof(*e));

	e->codec = codec;
	e->dict = codec == PC_RAW_ZSTD ? dict : NULL;
	/* zstd fails only for want of memory: abort, as xmalloc() does. */
	if (codec == PC_RAW_ZSTD && !(e->cctx = ZSTD_createCCtx()))
		abort();
	return e;
}

void pc_raw_encoder_free(struct pc_raw_encoder *enc)
{
	if (!enc)
		return;
	ZSTD_freeCCtx(enc->cctx);
	free(enc);
}

const struct pc_raw_dict *pc_raw_encoder_dict(const struct pc_raw_encoder *e)
{
	return e ? e->dict : NULL;
}

void pc_raw_encode(struct pc_raw_encoder *enc, const char *raw, size_t len,
		   struct pc_raw_encoded *out)
{
	unsigned char *z = NULL;
	size_t zlen = 0;

	memset(out, 0, sizeof(*out));
	out->codec = PC_RAW_NONE;
	out->bytes = (const unsigned char *)raw;
	out->len = len;
	if (!enc || enc->codec == PC_RAW_NONE || len <= COMPRESS_MIN)
		return;
	if (enc->codec == PC_RAW_ZLIB) {
		uLongf l = compressBound((uLong)len);

		z = xmalloc(l);
		if (compress2(z, &l, (const Bytef *)raw, (uLong)len, 1) != Z_OK)
			l = len;
		zlen = l;
	} else {
		size_t bound = ZSTD_compressBound(len), r;

		z = xmalloc(bound);
		r = enc->dict ?
			    ZSTD_compress_usingCDict(enc->cctx, z, bound, raw,
						     len, enc->dict->cdict) :
			    ZSTD_compressCCtx(enc->cctx, z, bound, raw, len,
					      ZSTD_LEVEL);
		zlen = ZSTD_isError(r) ? len : r;
	}
	if (zlen >= len) {
		free(z);
		return;
	}
	out->codec = enc->codec;
	out->dict_id = enc->codec == PC_RAW_ZSTD ? pc_raw_dict_id(enc->dict) :
						   0;
	out->bytes = z;
	out->len = zlen;
	out->owned = z;
}

void pc_raw_encoded_release(struct pc_raw_encoded *e)
{
	free(e->owned);
	memset(e, 0, sizeof(*e));
}

static const char SQL_INSERT_RAW[] =
	"INSERT INTO raw (size, compression, bytes, dict_id) "
	"VALUES (?, ?, ?, ?)";

int pc_raw_put_encoded(struct pc_store *st, size_t len,
		       const struct pc_raw_encoded *enc, int64_t *id_out,
		       struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_RAW, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, (sqlite3_int64)len);
	sqlite3_bind_text(s, 2, pc_raw_codec_name(enc->codec), -1,
			  SQLITE_STATIC);
	sqlite3_bind_blob64(s, 3, enc->bytes, enc->len, SQLITE_STATIC);
	if (enc->dict_id)
		sqlite3_bind_int64(s, 4, enc->dict_id);
	else
		sqlite3_bind_null(s, 4);
	rc = pc_store__exec(st, s, err, "storing a raw message");
	sqlite3_reset(s);
	if (rc == 0) {
		*id_out = sqlite3_last_insert_rowid(st->db);
		state(st)->stored += enc->len;
	}
	return rc;
}

uint64_t pc_raw_stored_bytes(struct pc_store *st)
{
	return st->raw ? st->raw->stored : 0;
}

int pc_raw_put(struct pc_store *st, const char *raw, size_t len,
	       enum pc_raw_codec codec, int64_t *id_out, struct pc_err *err)
{
	struct pc_raw_state *rs = state(st);
	const struct pc_raw_dict *dict = NULL;
	struct pc_raw_encoded enc;
	int rc;

	if (codec == PC_RAW_ZSTD &&
	    (rc = pc_raw_dict_current(st, &dict, err)) < 0)
		return rc;
	if (rs->enc && (rs->enc->codec != codec || rs->enc->dict != dict)) {
		pc_raw_encoder_free(rs->enc);
		rs->enc = NULL;
	}
	if (!rs->enc)
		rs->enc = pc_raw_encoder_new(codec, dict);
	pc_raw_encode(rs->enc, raw, len, &enc);
	rc = pc_raw_put_encoded(st, len, &enc, id_out, err);
	pc_raw_encoded_release(&enc);
	return rc;
}

/* Decodes one raw row's blob into buf (size bytes). */
static int decode(struct pc_store *st, const char *codec, int64_t dict_id,
		  const void *blob, size_t blen, char *buf, size_t size,
		  int64_t message_id, struct pc_err *err)
{
	struct pc_raw_state *rs;

	if (!codec || !strcmp(codec, "none")) {
		if (blen != size)
			return pc_err_set(err, PC_EDB,
					  "raw message %lld has a wrong size",
					  (long long)message_id);
		if (blen)
			memcpy(buf, blob, blen);
		return 0;
	}
	if (!strcmp(codec, "zlib")) {
		uLongf dlen = (uLongf)size;

		if (uncompress((Bytef *)buf, &dlen, blob, (uLong)blen) !=
			    Z_OK ||
		    dlen != size)
			return pc_err_set(err, PC_EDB,
					  "raw message %lld is corrupt",
					  (long long)message_id);
		return 0;
	}
	if (!strcmp(codec, "zstd")) {
		const struct pc_raw_dict *d = NULL;
		size_t r;

		rs = state(st);
		if (dict_id && !(d = dict_get(st, dict_id, err)))
			return pc_err_prefix(err, "raw message %lld",
					     (long long)message_id);
		if (!rs->dctx && !(rs->dctx = ZSTD_createDCtx()))
			abort();
		r = d ? ZSTD_decompress_usingDDict(rs->dctx, buf, size, blob,
						   blen, d->ddict) :
			ZSTD_decompressDCtx(rs->dctx, buf, size, blob, blen);
		if (ZSTD_isError(r) || r != size)
			return pc_err_set(err, PC_EDB,
					  "raw message %lld is corrupt (%s)",
					  (long long)message_id,
					  ZSTD_isError(r) ?
						  ZSTD_getErrorName(r) :
						  "wrong size");
		return 0;
	}
	return pc_err_set(err, PC_EDB,
			  "raw message %lld has an unknown compression '%s'",
			  (long long)message_id, codec);
}

/* Reads one row of SQL_RAW_* (size, compression, bytes, dict_id). */
static int read_row(struct pc_store *st, sqlite3_stmt *s, int64_t message_id,
		    char **out, size_t *len_out, struct pc_err *err)
{
	size_t size = (size_t)sqlite3_column_int64(s, 0);
	const char *codec = (const char *)sqlite3_column_text(s, 1);
	const void *blob = sqlite3_column_blob(s, 2);
	size_t blen = (size_t)sqlite3_column_bytes(s, 2);
	int64_t dict_id = sqlite3_column_int64(s, 3);
	char *buf;
	int rc;

	/* A negative size (a row edited by hand) would be a tiny buffer
	 * that zlib or zstd decode a whole message into. */
	if (sqlite3_column_int64(s, 0) < 0)
		return pc_err_set(err, PC_EDB,
				  "raw message %lld has a wrong size",
				  (long long)message_id);
	buf = xmalloc(size + 1);
	if ((rc = decode(st, codec, dict_id, blob, blen, buf, size, message_id,
			 err)) < 0) {
		free(buf);
		return rc;
	}
	buf[size] = '\0';
	*out = buf;
	*len_out = size;
	return 0;
}

static const char SQL_RAW[] =
	"SELECT r.size, r.compression, r.bytes, r.dict_id FROM raw r "
	"JOIN messages m ON m.raw_id = r.id WHERE m.id = ?";
static const char SQL_RAW_BEFORE_16[] =
	"SELECT r.size, r.compression, r.bytes, NULL FROM raw r "
	"JOIN messages m ON m.raw_id = r.id WHERE m.id = ?";

int pc_message_raw(char **out, size_t *len_out, struct pc_store *st,
		   int64_t message_id, struct pc_err *err)
{
	struct pc_raw_state *rs = state(st);
	sqlite3_stmt *s;
	int rc;

	if (!rs->schema_known) {
		rs->before_16 = pc_store_schema_version(st) < 16;
		rs->schema_known = 1;
	}
	s = pc_store__stmt(st, rs->before_16 ? SQL_RAW_BEFORE_16 : SQL_RAW,
			   err);
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
	rc = read_row(st, s, message_id, out, len_out, err);
	sqlite3_reset(s);
	return rc;
}

static const char SQL_FIRST_RAWS[] =
	"SELECT size, compression, bytes, dict_id, id FROM raw "
	"ORDER BY id LIMIT ?";
static const char SQL_INSERT_DICT[] =
	"INSERT INTO raw_dicts (created, samples, bytes) VALUES (?, ?, ?)";

/* Stores dictionary (bytes, len), trained on samples messages, and
 * makes it current. */
static int dict_store(struct pc_store *st, const unsigned char *bytes,
		      size_t len, size_t samples, int64_t created,
		      const struct pc_raw_dict **out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_DICT, err);
	struct pc_raw_state *rs = state(st);
	int rc;

	if (!s)
		return PC_EDB;
	if (created)
		sqlite3_bind_int64(s, 1, created);
	else
		sqlite3_bind_null(s, 1);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)samples);
	sqlite3_bind_blob64(s, 3, bytes, len, SQLITE_STATIC);
	if ((rc = pc_store__exec(st, s, err, "storing a raw dictionary")) < 0)
		return rc;
	if (!(rs->current = dict_make(rs, sqlite3_last_insert_rowid(st->db),
				      bytes, len)))
		return pc_err_set(err, PC_EDB, "zstd refused the dictionary");
	rs->current_known = 1;
	*out = rs->current;
	return 0;
}

int pc_raw_dict_builtin(struct pc_store *st, const struct pc_raw_dict **out,
			struct pc_err *err)
{
	*out = NULL;
	return dict_store(st, pc_raw__builtin_dict, pc_raw__builtin_dict_len,
			  PC_RAW_DICT_SAMPLES, 0, out, err);
}

int pc_raw_dict_train(struct pc_store *st, unsigned samples, int64_t created,
		      const struct pc_raw_dict **out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_FIRST_RAWS, err);
	char *all = NULL;
	size_t *sizes = NULL, n = 0, total = 0, alloc = 0, nalloc = 0;
	unsigned char *dict = NULL;
	size_t dlen;
	int rc;

	*out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int(s, 1, (int)samples);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		char *one;
		size_t len;

		if ((rc = read_row(st, s, sqlite3_column_int64(s, 4), &one,
				   &len, err)) < 0)
			goto out;
		if (len > SAMPLE_MAX)
			len = SAMPLE_MAX;
		if (total + len > SAMPLES_MAX_BYTES) {
			free(one);
			break;
		}
		PC_ALLOC_GROW(all, total + len, alloc);
		memcpy(all + total, one, len);
		free(one);
		PC_ALLOC_GROW(sizes, n + 1, nalloc);
		sizes[n++] = len;
		total += len;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "reading raw messages");
		goto out;
	}
	rc = 0;
	/* zstd wants plenty of samples; fewer than asked is too early. */
	if (n < samples)
		goto out;
	dict = xmalloc(DICT_BYTES);
	dlen = ZDICT_trainFromBuffer(dict, DICT_BYTES, all, sizes, (unsigned)n);
	if (ZDICT_isError(dlen))
		goto out; /* too uniform or too small: no dictionary */
	rc = dict_store(st, dict, dlen, n, created, out, err);
out:
	free(dict);
	free(sizes);
	free(all);
	return rc;
}
