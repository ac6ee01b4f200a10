// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pc-train-dict: trains the zstd dictionary patchclock ships
 * (lib/store/kernel-mail.zdict), as ingest trains one.
 *
 *   pc-train-dict MBOX OUT
 *
 * Stores the first PC_RAW_DICT_SAMPLES messages of MBOX in a scratch
 * database, trains on them with pc_raw_dict_train() (the code ingest
 * used to run on every new database) and writes the dictionary's bytes
 * to OUT. The shipped one was trained on the nvdimm list's archive
 * (tests/data/corpus/lore-nvdimm, a public list archive).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mail/source.h"
#include "store/raw.h"
#include "store/store.h"
#include "util/xalloc.h"

static void die(const char *what, const char *msg) __attribute__((noreturn));

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "pc-train-dict: %s: %s\n", what, msg);
	exit(1);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/pc-train-dict.XXXXXX", *db;
	struct pc_store *st;
	struct pc_source *src;
	struct pc_source_msg m;
	struct pc_err err = { 0 };
	const struct pc_raw_dict *dict = NULL;
	struct pc_raw_encoder *enc = pc_raw_encoder_new(PC_RAW_NONE, NULL);
	unsigned n = 0;
	sqlite3 *h = NULL;
	sqlite3_stmt *s = NULL;
	FILE *out;

	if (argc != 3) {
		fprintf(stderr, "usage: pc-train-dict MBOX OUT\n");
		return 64;
	}
	if (!mkdtemp(dir))
		die("scratch directory", "cannot make it");
	db = xasprintf("%s/t.db", dir);
	if (pc_store_open(&st, db, &err) < 0 || pc_store_begin(st, &err) < 0)
		die("store", err.msg);
	if (pc_source_open(&src, argv[1], NULL, &err) < 0)
		die(argv[1], err.msg);
	while (n < PC_RAW_DICT_SAMPLES && pc_source_next(src, &m, &err) == 1) {
		struct pc_raw_encoded e;
		int64_t id;

		pc_raw_encode(enc, m.data, m.len, &e);
		if (pc_raw_put_encoded(st, m.len, &e, &id, &err) < 0)
			die("storing", err.msg);
		pc_raw_encoded_release(&e);
		n++;
	}
	pc_source_free(src);
	pc_raw_encoder_free(enc);
	if (pc_raw_dict_train(st, PC_RAW_DICT_SAMPLES, 0, &dict, &err) < 0)
		die("training", err.msg);
	if (!dict)
		die("training", "too few messages, or too uniform");
	if (pc_store_commit(st, &err) < 0)
		die("commit", err.msg);
	pc_store_close(st);
	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, "SELECT bytes FROM raw_dicts", -1, &s,
			       NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW)
		die(db, sqlite3_errmsg(h));
	if (!(out = fopen(argv[2], "wb")) ||
	    fwrite(sqlite3_column_blob(s, 0), 1,
		   (size_t)sqlite3_column_bytes(s, 0),
		   out) != (size_t)sqlite3_column_bytes(s, 0) ||
	    fclose(out))
		die(argv[2], "cannot write it");
	printf("%s: %d bytes, trained on %u messages of %s\n", argv[2],
	       sqlite3_column_bytes(s, 0), n, argv[1]);
	sqlite3_finalize(s);
	sqlite3_close(h);
	unlink(db);
	free(db);
	return 0;
}
