// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/store/raw: every codec stored and read back byte
 * for byte (empty, tiny, real and 1 MiB messages), a zstd dictionary
 * trained on the real archive, reused after the store reopens, and an
 * older dictionary still read after a newer one; a corrupt zstd frame and
 * a missing dictionary are clear errors, and the CHECK refuses a codec it
 * does not know. Encoders in two threads give the bytes one gives.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "mail/source.h"
#include "store/raw.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct fixture {
	char *dir, *db;
	struct pc_store *st;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct pc_err err = { 0 };

	f->dir = t_mkdtemp();
	f->db = xasprintf("%s/t.db", f->dir);
	assert_int_equal(pc_store_open(&f->st, f->db, &err), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pc_store_close(f->st);
	t_rmtree(f->dir);
	free(f->dir);
	free(f->db);
	free(f);
	return 0;
}

static int ignore(int ncols, const char *const *cols, void *arg)
{
	(void)ncols;
	(void)cols;
	(void)arg;
	return 0;
}

/* Stores raw as message `id` (a raw row and a messages row). */
static void put(struct fixture *f, int64_t id, const char *raw, size_t len,
		enum pc_raw_codec codec)
{
	struct pc_err err = { 0 };
	int64_t raw_id;
	char *sql;

	assert_int_equal(pc_raw_put(f->st, raw, len, codec, &raw_id, &err), 0);
	sql = xasprintf("INSERT INTO messages (id, msgid, raw_id, kind) "
			"VALUES (%lld, 'm%lld@x', %lld, 'other')",
			(long long)id, (long long)id, (long long)raw_id);
	assert_int_equal(pc_store_query(f->st, sql, ignore, NULL, &err), 0);
	free(sql);
}

static void check(struct fixture *f, int64_t id, const char *raw, size_t len)
{
	struct pc_err err = { 0 };
	char *back;
	size_t blen;

	assert_int_equal(pc_message_raw(&back, &blen, f->st, id, &err), 0);
	assert_int_equal(blen, len);
	assert_memory_equal(back, raw, len);
	assert_int_equal(back[len], '\0');
	free(back);
}

static int first_text(int ncols, const char *const *cols, void *arg)
{
	(void)ncols;
	*(char **)arg = xstrdup(cols[0] ? cols[0] : "<null>");
	return 1;
}

/* The first column of the first row, as text; caller frees. */
static char *text(struct fixture *f, const char *sql)
{
	struct pc_err err = { 0 };
	char *out = NULL;

	assert_int_equal(pc_store_query(f->st, sql, first_text, &out, &err), 0);
	assert_non_null(out);
	return out;
}

static void assert_text(struct fixture *f, const char *sql, const char *want)
{
	char *got = text(f, sql);

	assert_string_equal(got, want);
	free(got);
}

/* The first n messages of the real archive, stored with codec. */
static size_t put_archive(struct fixture *f, size_t n, int64_t first_id,
			  enum pc_raw_codec codec, struct pc_buf *keep)
{
	struct pc_source *src;
	struct pc_source_msg m;
	struct pc_err err = { 0 };
	size_t i = 0;

	assert_int_equal(
		pc_source_open(&src,
			       t_data("corpus/lore-nvdimm/"
				      "nvdimm-2021-05_2021-12.mboxrd.gz"),
			       NULL, &err),
		0);
	while (i < n && pc_source_next(src, &m, &err) == 1) {
		put(f, first_id + (int64_t)i, m.data, m.len, codec);
		if (keep && i == n - 1)
			pc_buf_add(keep, m.data, m.len);
		i++;
	}
	pc_source_free(src);
	return i;
}

static void test_raw__every_codec_round_trips(void **state)
{
	struct fixture *f = *state;
	struct pc_buf big = PC_BUF_INIT;
	static const char tiny[] = "From: a\n\nhi\n";
	enum pc_raw_codec c;
	int64_t id = 1;
	size_t i;

	for (i = 0; i < (1u << 20) / 64; i++)
		pc_buf_addf(&big, "line %zu of a large message, repetitive\n",
			    i);
	for (c = PC_RAW_NONE; c <= PC_RAW_ZSTD; c++) {
		struct pc_buf real = PC_BUF_INIT;

		put(f, id, "", 0, c);
		check(f, id++, "", 0);
		put(f, id, tiny, sizeof(tiny) - 1, c);
		check(f, id++, tiny, sizeof(tiny) - 1);
		put(f, id, big.buf, big.len, c);
		check(f, id++, big.buf, big.len);
		put_archive(f, 3, id, c, &real);
		check(f, id + 2, real.buf, real.len);
		id += 3;
		pc_buf_release(&real);
	}
	/* A large repetitive message is compressed, a tiny one is not. */
	assert_text(f,
		    "SELECT group_concat(compression) FROM (SELECT "
		    "compression FROM raw WHERE size > 500000 ORDER BY id)",
		    "none,zlib,zstd");
	assert_text(f,
		    "SELECT group_concat(DISTINCT compression) FROM raw "
		    "WHERE size < 20",
		    "none");
	pc_buf_release(&big);
}

static void test_raw__dictionary_trained_and_kept(void **state)
{
	struct fixture *f = *state;
	const struct pc_raw_dict *d = NULL, *d2 = NULL;
	struct pc_buf last = PC_BUF_INIT, later = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char *nodict, *withdict;

	/* Too few messages: no dictionary, no error. */
	put_archive(f, 50, 1, PC_RAW_ZSTD, NULL);
	assert_int_equal(pc_raw_dict_train(f->st, 100, 0, &d, &err), 0);
	assert_null(d);
	put_archive(f, 400, 1001, PC_RAW_ZSTD, &last);
	assert_int_equal(pc_raw_dict_train(f->st, 300, 1700000000, &d, &err),
			 0);
	assert_non_null(d);
	assert_int_equal(pc_raw_dict_id(d), 1);
	/* Mail stored after it uses it, and is smaller for it. */
	put_archive(f, 400, 5001, PC_RAW_ZSTD, &later);
	check(f, 5400, later.buf, later.len);
	check(f, 1400, last.buf, last.len);
	nodict = text(f, "SELECT sum(length(bytes)) FROM raw r JOIN messages "
			 "m ON m.raw_id = r.id WHERE m.id BETWEEN 1001 AND "
			 "1400");
	withdict = text(f, "SELECT sum(length(bytes)) FROM raw r JOIN "
			   "messages m ON m.raw_id = r.id WHERE m.id BETWEEN "
			   "5001 AND 5400 AND r.dict_id = 1");
	assert_true(atoll(withdict) > 0);
	assert_true(atoll(withdict) * 5 < atoll(nodict) * 4);
	free(nodict);
	free(withdict);
	assert_text(f, "SELECT created || ' ' || samples FROM raw_dicts",
		    "1700000000 300");
	/* Reopened: the dictionary is found again, and a second one does not
	 * make mail compressed with the first unreadable. */
	pc_store_close(f->st);
	assert_int_equal(pc_store_open(&f->st, f->db, &err), 0);
	assert_int_equal(pc_raw_dict_current(f->st, &d, &err), 0);
	assert_int_equal(pc_raw_dict_id(d), 1);
	assert_int_equal(pc_raw_dict_train(f->st, 800, 0, &d2, &err), 0);
	assert_int_equal(pc_raw_dict_id(d2), 2);
	put_archive(f, 2, 9001, PC_RAW_ZSTD, NULL);
	assert_text(f,
		    "SELECT dict_id FROM raw r JOIN messages m ON m.raw_id = "
		    "r.id WHERE m.id = 9002",
		    "2");
	check(f, 5400, later.buf, later.len);
	pc_buf_release(&last);
	pc_buf_release(&later);
}

/* The shipped dictionary: stored whole as the first, trained on 1,000
 * messages; mail stored with it reads back, two and a half times
 * smaller at least (the archive's messages 1,201 to 1,400: after those
 * it was trained on). */
static void test_raw__builtin_dictionary(void **state)
{
	struct fixture *f = *state;
	const struct pc_raw_dict *d = NULL;
	struct pc_buf last = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char *want, *plain, *packed;

	assert_true(pc_raw__builtin_dict_len > 1000);
	assert_int_equal(pc_raw_dict_builtin(f->st, &d, &err), 0);
	assert_non_null(d);
	assert_int_equal(pc_raw_dict_id(d), 1);
	want = xasprintf("%zu 1000", pc_raw__builtin_dict_len);
	assert_text(f, "SELECT length(bytes) || ' ' || samples FROM raw_dicts",
		    want);
	free(want);
	put_archive(f, 1400, 1, PC_RAW_NONE, NULL);
	put_archive(f, 1400, 10001, PC_RAW_ZSTD, &last);
	check(f, 11400, last.buf, last.len);
	plain = text(f, "SELECT sum(length(bytes)) FROM raw r JOIN messages m "
			"ON m.raw_id = r.id WHERE m.id BETWEEN 1201 AND 1400");
	packed = text(f, "SELECT sum(length(bytes)) FROM raw r JOIN messages "
			 "m ON m.raw_id = r.id WHERE m.id BETWEEN 11201 AND "
			 "11400 AND r.dict_id = 1");
	assert_true(atoll(packed) > 0);
	/* 2,138,468 bytes to 716,537 when it was written: 2.98 times. */
	assert_true(atoll(packed) * 5 < atoll(plain) * 2);
	free(plain);
	free(packed);
	pc_buf_release(&last);
}

static void test_raw__damage_is_a_clear_error(void **state)
{
	struct fixture *f = *state;
	struct pc_buf m = PC_BUF_INIT;
	const struct pc_raw_dict *d;
	struct pc_err err = { 0 };
	char *back;
	size_t len;

	put_archive(f, 300, 1, PC_RAW_ZSTD, NULL);
	assert_int_equal(pc_raw_dict_train(f->st, 300, 0, &d, &err), 0);
	put_archive(f, 2, 401, PC_RAW_ZSTD, &m);
	/* A frame with its middle overwritten. */
	assert_int_equal(
		pc_store_query(f->st,
			       "UPDATE raw SET bytes = substr(bytes, 1, 20) || "
			       "zeroblob(40) || substr(bytes, 61) WHERE id = "
			       "(SELECT raw_id FROM messages WHERE id = 401)",
			       ignore, NULL, &err),
		0);
	assert_int_equal(pc_message_raw(&back, &len, f->st, 401, &err), PC_EDB);
	assert_non_null(strstr(err.msg, "raw message 401 is corrupt"));
	/* A dictionary that is gone (a database edited by hand). */
	pc_store_close(f->st);
	assert_int_equal(pc_store_open(&f->st, f->db, &err), 0);
	assert_int_equal(pc_store_query(f->st, "PRAGMA foreign_keys = OFF",
					ignore, NULL, &err),
			 0);
	assert_int_equal(pc_store_query(f->st, "DELETE FROM raw_dicts", ignore,
					NULL, &err),
			 0);
	assert_int_equal(pc_message_raw(&back, &len, f->st, 402, &err), PC_EDB);
	assert_non_null(strstr(err.msg, "raw message 402"));
	assert_non_null(strstr(err.msg, "dictionary 1 is missing"));
	/* Mail stored without one still reads. */
	assert_int_equal(pc_message_raw(&back, &len, f->st, 1, &err), 0);
	assert_true(len > 100);
	free(back);
	pc_buf_release(&m);
}

static void test_raw__check_refuses_unknown_codecs(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };

	assert_true(pc_store_query(f->st,
				   "INSERT INTO raw (size, compression, bytes) "
				   "VALUES (1, 'lz4', x'00')",
				   ignore, NULL, &err) < 0);
	assert_non_null(strstr(err.msg, "CHECK"));
	assert_int_equal(pc_store_query(f->st,
					"INSERT INTO raw (size, compression, "
					"bytes) VALUES (1, 'zstd', x'00')",
					ignore, NULL, &err),
			 0);
}

struct enc_job {
	const struct pc_raw_dict *dict;
	struct pc_buf *msgs; /* 20 messages, NUL-separated lengths below */
	size_t *lens, n;
	struct pc_buf out;
};

static void *encode_all(void *arg)
{
	struct enc_job *j = arg;
	struct pc_raw_encoder *e = pc_raw_encoder_new(PC_RAW_ZSTD, j->dict);
	size_t i, off = 0;

	for (i = 0; i < j->n; i++) {
		struct pc_raw_encoded r;

		pc_raw_encode(e, j->msgs->buf + off, j->lens[i], &r);
		pc_buf_add(&j->out, r.bytes, r.len);
		pc_raw_encoded_release(&r);
		off += j->lens[i];
	}
	pc_raw_encoder_free(e);
	return NULL;
}

static void test_raw__encoders_in_threads(void **state)
{
	struct fixture *f = *state;
	const struct pc_raw_dict *d;
	struct pc_err err = { 0 };
	struct pc_buf msgs = PC_BUF_INIT;
	struct pc_source *src;
	struct pc_source_msg m;
	size_t lens[200], n = 0;
	struct enc_job one, a, b;
	pthread_t ta, tb;

	put_archive(f, 300, 1, PC_RAW_ZSTD, NULL);
	assert_int_equal(pc_raw_dict_train(f->st, 300, 0, &d, &err), 0);
	assert_int_equal(
		pc_source_open(&src,
			       t_data("corpus/lore-nvdimm/"
				      "nvdimm-2021-05_2021-12.mboxrd.gz"),
			       NULL, &err),
		0);
	while (n < 200 && pc_source_next(src, &m, &err) == 1) {
		pc_buf_add(&msgs, m.data, m.len);
		lens[n++] = m.len;
	}
	pc_source_free(src);
	one = (struct enc_job){ d, &msgs, lens, n, PC_BUF_INIT };
	a = one;
	b = one;
	encode_all(&one);
	assert_int_equal(pthread_create(&ta, NULL, encode_all, &a), 0);
	assert_int_equal(pthread_create(&tb, NULL, encode_all, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_true(one.out.len > 0 && one.out.len < msgs.len / 2);
	assert_int_equal(a.out.len, one.out.len);
	assert_memory_equal(a.out.buf, one.out.buf, one.out.len);
	assert_int_equal(b.out.len, one.out.len);
	assert_memory_equal(b.out.buf, one.out.buf, one.out.len);
	pc_buf_release(&one.out);
	pc_buf_release(&a.out);
	pc_buf_release(&b.out);
	pc_buf_release(&msgs);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_raw__every_codec_round_trips),
		T(test_raw__dictionary_trained_and_kept),
		T(test_raw__builtin_dictionary),
		T(test_raw__damage_is_a_clear_error),
		T(test_raw__check_refuses_unknown_codecs),
		T(test_raw__encoders_in_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
