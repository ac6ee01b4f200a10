// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * raw_bench: what each way of keeping raw mail costs, on real mail.
 *
 *   raw_bench MBOX [N]
 *
 * Stores the first N messages (default 20,000) of MBOX in a fresh
 * database once per codec: none, zlib, zstd without a dictionary, and
 * zstd with the dictionary trained on the first 1,000 (as ingest does),
 * and prints the stored bytes per message, the compression CPU per
 * message (one thread, pc_raw_encode() alone), the training time, and
 * the time to read every message back (pc_message_raw()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mail/source.h"
#include "store/raw.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/xalloc.h"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int ignore(int n, const char *const *c, void *a)
{
	(void)n;
	(void)c;
	(void)a;
	return 0;
}

static void die(const char *what, const struct pc_err *err)
{
	fprintf(stderr, "raw_bench: %s: %s\n", what, err->msg);
	exit(1);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		enum pc_raw_codec codec;
		int dict;
	} ways[] = { { "none", PC_RAW_NONE, 0 },
		     { "zlib (level 1)", PC_RAW_ZLIB, 0 },
		     { "zstd, no dictionary", PC_RAW_ZSTD, 0 },
		     { "zstd + dictionary", PC_RAW_ZSTD, 1 } };
	struct pc_buf all = PC_BUF_INIT;
	size_t *off, *len, n = 0,
			   want = argc > 2 ? strtoul(argv[2], 0, 10) : 20000;
	struct pc_source *src;
	struct pc_source_msg m;
	struct pc_err err = { 0 };
	char db[] = "/tmp/raw_bench.XXXXXX";
	size_t w, i;

	if (argc < 2) {
		fprintf(stderr, "usage: raw_bench MBOX [N]\n");
		return 64;
	}
	off = xcalloc(want, sizeof(*off));
	len = xcalloc(want, sizeof(*len));
	if (pc_source_open(&src, argv[1], NULL, &err) < 0)
		die("open", &err);
	while (n < want && pc_source_next(src, &m, &err) == 1) {
		off[n] = all.len;
		len[n] = m.len;
		pc_buf_add(&all, m.data, m.len);
		n++;
	}
	pc_source_free(src);
	printf("%zu messages, %.0f bytes each on average\n\n", n,
	       (double)all.len / (double)n);
	printf("| codec | stored bytes/msg | ratio | compress us/msg | "
	       "train s | read back us/msg |\n| --- | --- | --- | --- | --- "
	       "| --- |\n");
	for (w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
		const struct pc_raw_dict *dict = NULL;
		struct pc_raw_encoder *enc;
		struct pc_store *st;
		double t0, t_enc = 0, t_train = 0, t_read;
		size_t stored = 0;
		int fd = mkstemp(db);
		char *sql;

		close(fd);
		unlink(db);
		if (pc_store_open(&st, db, &err) < 0 ||
		    pc_store_begin(st, &err) < 0)
			die("store", &err);
		for (i = 0; i < n; i++) {
			struct pc_raw_encoded e;
			int64_t id;

			if (ways[w].dict && i == 1000) {
				t0 = cpu_s();
				if (pc_raw_dict_train(st, 1000, 0, &dict,
						      &err) < 0)
					die("train", &err);
				t_train = cpu_s() - t0;
			}
			enc = pc_raw_encoder_new(ways[w].codec,
						 ways[w].dict ? dict : NULL);
			t0 = cpu_s();
			pc_raw_encode(enc, all.buf + off[i], len[i], &e);
			t_enc += cpu_s() - t0;
			if (i >= 1000 || !ways[w].dict)
				stored += e.len;
			if (pc_raw_put_encoded(st, len[i], &e, &id, &err) < 0)
				die("put", &err);
			sql = xasprintf("INSERT INTO messages (id, msgid, "
					"raw_id, kind) VALUES (%lld, '%zu', "
					"%lld, 'other')",
					(long long)id, i, (long long)id);
			if (pc_store_query(st, sql, ignore, NULL, &err) < 0)
				die("message", &err);
			free(sql);
			pc_raw_encoded_release(&e);
			pc_raw_encoder_free(enc);
		}
		if (pc_store_commit(st, &err) < 0)
			die("commit", &err);
		t0 = cpu_s();
		for (i = 0; i < n; i++) {
			char *back;
			size_t blen;

			if (pc_message_raw(&back, &blen, st, (int64_t)i + 1,
					   &err) < 0)
				die("read", &err);
			if (blen != len[i] ||
			    memcmp(back, all.buf + off[i], blen)) {
				fprintf(stderr,
					"raw_bench: message %zu "
					"differs\n",
					i);
				return 1;
			}
			free(back);
		}
		t_read = cpu_s() - t0;
		{
			size_t counted = ways[w].dict && n > 1000 ? n - 1000 :
								    n;
			size_t raw_bytes = 0;

			for (i = ways[w].dict && n > 1000 ? 1000 : 0; i < n;
			     i++)
				raw_bytes += len[i];
			printf("| %s | %.0f | %.2f | %.1f | %.2f | %.1f |\n",
			       ways[w].name, (double)stored / (double)counted,
			       (double)raw_bytes / (double)stored,
			       1e6 * t_enc / (double)n, t_train,
			       1e6 * t_read / (double)n);
		}
		pc_store_close(st);
		sql = xasprintf("rm -f %s %s-wal %s-shm", db, db, db);
		if (system(sql) != 0)
			return 1;
		free(sql);
		memcpy(db + strlen(db) - 6, "XXXXXX", 6);
	}
	pc_buf_release(&all);
	free(off);
	free(len);
	return 0;
}
