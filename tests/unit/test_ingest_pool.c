// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the parallel ingest (lib/store/ingest_pool.c through
 * pc_ingest_source()): with 2, 3 and 8 threads the database is the same,
 * row for row and byte for byte, as with one, and so are the counts, on
 * the real nvdimm archive mixed with hostile input (mail that does not
 * parse, an oversized message, a message larger than the pool's byte
 * budget, duplicates), on a gzip archive cut short, and when the store
 * fails half-way (a trigger refuses one message): the same batches are
 * kept, the threads are joined and nothing leaks (ASan). A transaction
 * ends at the loop's byte bound, right after the message that reaches it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "testutil.h"
#include "mail/source.h"
#include "store/ingest.h"
#include "store/ingest_internal.h"
#include "store/raw.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/xalloc.h"

static char *tmp;

static int group_setup(void **state)
{
	(void)state;
	tmp = t_mkdtemp();
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	t_rmtree(tmp);
	free(tmp);
	return 0;
}

struct run {
	struct pc_ingest_stats stats, committed;
	int rc;
	char err[256];
	char *dump; /* every table, every row, quoted */
	unsigned progress_calls;
	uint64_t last_done, last_total;
	int done_went_back;
};

static void on_progress(uint64_t done, uint64_t total,
			const struct pc_ingest_stats *stats, void *arg)
{
	struct run *r = arg;

	(void)stats;
	if (done < r->last_done)
		r->done_went_back = 1;
	r->last_done = done;
	r->last_total = total;
	r->progress_calls++;
}

static int add_text(int ncols, const char *const *cols, void *arg)
{
	struct pc_buf *b = arg;

	(void)ncols;
	pc_buf_addstr(b, cols[0] ? cols[0] : "<null>");
	pc_buf_addch(b, '\n');
	return 0;
}

/* One query per table that lists its rows, every column quoted, in a
 * canonical order. */
static int add_table_query(int ncols, const char *const *cols, void *arg)
{
	struct pc_buf *b = arg;

	(void)ncols;
	pc_buf_addf(b,
		    "SELECT '%s:' || (SELECT group_concat(r, char(10)) FROM "
		    "(SELECT (SELECT group_concat('quote(\"' || name || "
		    "'\")', '||char(31)||') FROM pragma_table_info('%s')) "
		    "AS r));\n",
		    cols[0], cols[0]);
	return 0;
}

struct dump_ctx {
	struct pc_store *st;
	struct pc_buf *out;
};

static int dump_table(int ncols, const char *const *cols, void *arg)
{
	struct dump_ctx *d = arg;
	struct pc_err err = { 0 };
	const char *colon = strchr(cols[0], ':');
	char *table = xmemdupz(cols[0], (size_t)(colon - cols[0]));
	char *sql =
		xasprintf("SELECT %s FROM \"%s\" ORDER BY 1", colon + 1, table);

	(void)ncols;
	pc_buf_addf(d->out, "== %s\n", table);
	if (pc_store_query(d->st, sql, add_text, d->out, &err) < 0)
		fail_msg("dumping %s: %s", table, err.msg);
	free(sql);
	free(table);
	return 0;
}

static char *dump(struct pc_store *st)
{
	struct pc_buf queries = PC_BUF_INIT, out = PC_BUF_INIT;
	struct dump_ctx d = { st, &out };
	struct pc_err err = { 0 };
	char *q, *line, *next;

	assert_int_equal(
		pc_store_query(st,
			       "SELECT name FROM sqlite_schema WHERE type = "
			       "'table' AND name NOT LIKE 'sqlite_%' "
			       "ORDER BY name",
			       add_table_query, &queries, &err),
		0);
	q = pc_buf_detach(&queries, NULL);
	for (line = q; *line; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		assert_int_equal(pc_store_query(st, line, dump_table, &d, &err),
				 0);
	}
	free(q);
	return pc_buf_detach(&out, NULL);
}

/* Ingests path into a fresh database with `jobs` threads. With
 * refuse_msgid, a trigger makes storing that message fail. */
static void run_codec(struct run *r, const char *path, unsigned jobs,
		      unsigned batch, size_t max_message,
		      const char *refuse_msgid, enum pc_raw_codec codec)
{
	struct pc_source_options sopt = PC_SOURCE_OPTIONS_INIT;
	struct pc_ingest_options iopt = PC_INGEST_OPTIONS_INIT;
	struct pc_ingest_loop loop = {
		.batch = batch, .jobs = jobs, .progress = on_progress, .arg = r
	};
	/* One path for every run: errors name the database. */
	char *db = xasprintf("%s/run.db", tmp);
	struct pc_store *st;
	struct pc_source *src;
	struct pc_err err = { 0 };

	memset(r, 0, sizeof(*r));
	t_sh(tmp, "rm -f run.db run.db-wal run.db-shm");
	iopt.list_id = "test.example";
	iopt.compress = (int)codec;
	iopt.dict_samples = 300;
	if (max_message)
		sopt.max_message = max_message;
	assert_int_equal(pc_store_open(&st, db, &err), 0);
	if (refuse_msgid) {
		char *sql = xasprintf(
			"CREATE TRIGGER refuse BEFORE INSERT ON messages "
			"WHEN NEW.msgid = '%s' BEGIN SELECT RAISE(ABORT, "
			"'refused by the test'); END",
			refuse_msgid);

		assert_int_equal(pc_store_query(st, sql, NULL, NULL, &err), 0);
		free(sql);
	}
	assert_int_equal(pc_source_open(&src, path, &sopt, &err), 0);
	r->rc = pc_ingest_source(st, src, path, &iopt, &loop, &r->stats,
				 &r->committed, &err);
	snprintf(r->err, sizeof(r->err), "%s", r->rc ? err.msg : "");
	pc_source_free(src);
	r->dump = dump(st);
	pc_store_close(st);
	free(db);
}

static void run(struct run *r, const char *path, unsigned jobs, unsigned batch,
		size_t max_message, const char *refuse_msgid)
{
	run_codec(r, path, jobs, batch, max_message, refuse_msgid, PC_RAW_NONE);
}

static void assert_same_stats(const struct pc_ingest_stats *a,
			      const struct pc_ingest_stats *b)
{
	assert_int_equal(a->read, b->read);
	assert_int_equal(a->added, b->added);
	assert_int_equal(a->duplicates, b->duplicates);
	assert_int_equal(a->patches, b->patches);
	assert_int_equal(a->covers, b->covers);
	assert_int_equal(a->replies, b->replies);
	assert_int_equal(a->pulls, b->pulls);
	assert_int_equal(a->other, b->other);
	assert_int_equal(a->errors, b->errors);
	assert_int_equal(a->series, b->series);
}

static void assert_same_run(const struct run *one, const struct run *many)
{
	assert_int_equal(one->rc, many->rc);
	assert_string_equal(one->err, many->err);
	assert_same_stats(&one->stats, &many->stats);
	assert_same_stats(&one->committed, &many->committed);
	assert_int_equal(one->progress_calls, many->progress_calls);
	assert_int_equal(one->last_done, many->last_done);
	assert_false(many->done_went_back);
	/* Not assert_string_equal: cmocka prints both 50 MB strings. */
	assert_true(strlen(one->dump) == strlen(many->dump));
	assert_true(strcmp(one->dump, many->dump) == 0);
}

/* Appends a file, gunzipped when it is compressed. */
static void append_file(FILE *out, const char *path)
{
	struct pc_buf b = PC_BUF_INIT;

	t_read_file(&b, path);
	assert_int_equal(fwrite(b.buf, 1, b.len, out), b.len);
	pc_buf_release(&b);
}

/* The real archive, then hostile mail: one that does not parse, one
 * over the 256 KiB limit the test sets (its head is kept), one with no
 * Message-ID, a duplicate of the archive's first mail, and the whole
 * archive again (all duplicates). */
static char *hostile_mbox(void)
{
	char *path = xasprintf("%s/mixed.mbox", tmp);
	FILE *f = fopen(path, "w");
	const char *archive =
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz");
	size_t i;

	assert_non_null(f);
	append_file(f, archive);
	fputs("From junk@z Thu Jan  1 00:00:00 1970\n"
	      "\x01\x02\x03 not a mail at all\n\n",
	      f);
	fputs("From big@z Thu Jan  1 00:00:00 1970\n"
	      "From: Big <big@example.org>\nSubject: [PATCH] big\n"
	      "Message-ID: <big@example.org>\n\n",
	      f);
	for (i = 0; i < 8000; i++)
		fputs("+ a long line of a very large patch that goes on and "
		      "on\n",
		      f);
	fputs("\nFrom noid@z Thu Jan  1 00:00:00 1970\n"
	      "From: No Id <noid@example.org>\nSubject: hello\n\nbody\n\n",
	      f);
	append_file(f, archive);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void test_pool__same_database_on_real_and_hostile_mail(void **state)
{
	char *path = hostile_mbox();
	struct run one, many;
	static const unsigned jobs[] = { 2, 3, 8 };
	size_t i;

	(void)state;
	run(&one, path, 1, 500, 256 << 10, NULL);
	assert_int_equal(one.rc, 0);
	/* The archive twice, and the hostile mail read and kept. */
	assert_true(one.stats.read > 4600);
	assert_true(one.stats.duplicates > 2300);
	assert_true(one.stats.errors >= 2);
	assert_true(one.stats.patches > 800);
	assert_true(one.last_total > 0);
	assert_int_equal(one.last_done, one.last_total);
	/* What is compared: every table, the raw bytes quoted. */
	assert_true(strlen(one.dump) > 40u << 20);
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		run(&many, path, jobs[i], 500, 256 << 10, NULL);
		assert_same_run(&one, &many);
		free(many.dump);
	}
	free(one.dump);
	free(path);
}

/* A message larger than the pool's whole byte budget still passes,
 * alone. */
static void test_pool__message_over_the_byte_budget(void **state)
{
	char *path = xasprintf("%s/huge.mbox", tmp);
	FILE *f = fopen(path, "w");
	struct run one, many;
	size_t i;

	(void)state;
	assert_non_null(f);
	for (i = 0; i < 3; i++) {
		size_t k;

		fprintf(f,
			"From x@z Thu Jan  1 00:00:00 1970\n"
			"From: H <h@example.org>\nSubject: [PATCH %zu/3] h\n"
			"Message-ID: <huge%zu@example.org>\n\n",
			i + 1, i);
		for (k = 0; i == 1 && k < (PC_INGEST_POOL_BYTES / 60) + 10; k++)
			fputs("a line of a message larger than the pool's "
			      "budget\n",
			      f);
		fputs("body\n\n", f);
	}
	assert_int_equal(fclose(f), 0);
	run(&one, path, 1, 10, 0, NULL);
	run(&many, path, 2, 10, 0, NULL);
	assert_int_equal(one.stats.added, 3);
	assert_same_run(&one, &many);
	free(one.dump);
	free(many.dump);
	free(path);
}

/* A gzip archive cut short: what was read before the damage is kept and
 * the damage recorded, the same with threads. */
static void test_pool__damaged_archive(void **state)
{
	const char *archive =
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz");
	char *path = xasprintf("%s/cut.mbox.gz", tmp);
	struct pc_buf b = PC_BUF_INIT;
	struct pc_err err = { 0 };
	FILE *f;
	struct run one, many;

	(void)state;
	assert_int_equal(pc_read_file(&b, archive, 0, 0, NULL, &err), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(b.buf, 1, b.len / 2, f), b.len / 2);
	assert_int_equal(fclose(f), 0);
	pc_buf_release(&b);
	run(&one, path, 1, 100, 0, NULL);
	assert_int_equal(one.rc, 1);
	assert_true(one.stats.added > 500);
	run(&many, path, 4, 100, 0, NULL);
	assert_same_run(&one, &many);
	free(one.dump);
	free(many.dump);
	free(path);
}

/* The store fails on one message half-way through: the batches before it
 * are kept, the rest rolled back, the error said; the reader and workers
 * are stopped and joined with the ring full. */
static void test_pool__store_failure_stops_the_threads(void **state)
{
	const char *archive =
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz");
	struct run one, many;
	/* A reply two thirds into the archive. */
	static const char victim[] = "CAPcyv4g4mEVDcUw2Ph0oMH1=ZQgCbnLx+"
				     "ZdgoavyOQt+9q6aVw@mail.gmail.com";

	(void)state;
	run(&one, archive, 1, 200, 0, victim);
	assert_true(one.rc < 0);
	assert_non_null(strstr(one.err, "refused by the test"));
	assert_true(one.committed.added > 0);
	assert_true(one.committed.added < one.stats.read);
	run(&many, archive, 3, 200, 0, victim);
	assert_same_run(&one, &many);
	free(one.dump);
	free(many.dump);
}

/* zstd: the dictionary is trained at the same message whatever the
 * number of threads (right after the 300th is stored), and what workers
 * compressed before it is compressed again: the raw rows are the same
 * bytes. */
static void test_pool__zstd_dictionary_same_bytes(void **state)
{
	const char *archive =
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz");
	struct run one, many;
	static const unsigned jobs[] = { 2, 5 };
	size_t i;

	(void)state;
	run_codec(&one, archive, 1, 400, 0, NULL, PC_RAW_ZSTD);
	assert_int_equal(one.rc, 0);
	assert_non_null(strstr(one.dump, "== raw_dicts\n1\x1f"
					 "NULL\x1f"
					 "300\x1f"
					 "X'"));
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		run_codec(&many, archive, jobs[i], 400, 0, NULL, PC_RAW_ZSTD);
		assert_same_run(&one, &many);
		free(many.dump);
	}
	free(one.dump);
}

static int64_t file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 ? (int64_t)sb.st_size : 0;
}

/* Bulk mode's checkpointer copies the WAL into the database while the
 * writer goes on, and the WAL starts over: with a threshold of 256
 * pages (2 MiB), the WAL of a 23 MB archive stays well under what was
 * written, and the database file holds the mail before bulk mode ends. */
static void test_pool__bulk_checkpoints_beside_the_writer(void **state)
{
	const char *archive =
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz");
	struct pc_ingest_loop loop = { .batch = 50, .jobs = 2 };
	struct pc_ingest_stats stats = { 0 };
	char *db = xasprintf("%s/bulk.db", tmp);
	char *wal = xasprintf("%s/bulk.db-wal", tmp);
	struct pc_store *st;
	struct pc_source *src;
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(pc_store_open(&st, db, &err), 0);
	st->ckpt_pages = 256;
	assert_int_equal(pc_store_bulk(st, 1, &err), 0);
	assert_non_null(st->ckpt);
	assert_int_equal(pc_source_open(&src, archive, NULL, &err), 0);
	assert_int_equal(pc_ingest_source(st, src, archive, NULL, &loop, &stats,
					  NULL, &err),
			 0);
	pc_source_free(src);
	assert_int_equal(stats.added, 2309);
	assert_true(file_size(db) > (20 << 20));
	/* Without the thread every page of the 45 MB written would still
	 * be in the WAL. With it the WAL starts over again and again; how
	 * far it grows before each restart depends on how far the
	 * checkpointer lags behind the writer, which depends on the load
	 * on the machine (8 to 15 MiB measured, idle and with two busy
	 * cores beside it): under 20 MiB is less than half of 45 MB, which
	 * no WAL that never restarted could be. */
	assert_true(file_size(wal) < (20 << 20));
	assert_int_equal(pc_store_bulk(st, 0, &err), 0);
	assert_null(st->ckpt);
	pc_store_close(st);
	free(wal);
	free(db);
}

/* What the byte bound sees at each commit (a commit hook). */
struct commits {
	struct pc_store *st;
	uint64_t at_last_commit; /* raw bytes stored at the last commit */
	uint64_t before_last, last; /* after the message before the last */
	unsigned n;
	unsigned early; /* ended before reaching the bound */
	unsigned early_at; /* the last such commit's number */
	unsigned late; /* went on after reaching it */
	size_t bound;
};

static void on_message_stored(uint64_t done, uint64_t total,
			      const struct pc_ingest_stats *stats, void *arg)
{
	struct commits *c = arg;

	(void)done, (void)total, (void)stats;
	c->before_last = c->last;
	c->last = pc_raw_stored_bytes(c->st);
}

static int on_commit(void *arg)
{
	struct commits *c = arg;
	uint64_t now = pc_raw_stored_bytes(c->st);

	/* Every commit but the source's last: the bound was reached by the
	 * message just stored, and not before it. The last one may fall
	 * short: the test checks that only it did (early_at == n). */
	c->n++;
	if (now - c->at_last_commit < c->bound) {
		c->early++;
		c->early_at = c->n;
	} else if (c->before_last - c->at_last_commit >= c->bound)
		c->late++;
	c->at_last_commit = now;
	return 0;
}

/* A transaction ends once it has stored batch_bytes of raw rows, however
 * many messages that is: on the real archive kept uncompressed (10 KB a
 * message), a 256 KiB bound commits every 20-30 messages, each right
 * after the message that reached it; without the bound the one
 * transaction holds the whole source. */
static void test_pool__byte_bound_ends_transactions(void **state)
{
	const char *archive =
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz");
	struct pc_ingest_options iopt = PC_INGEST_OPTIONS_INIT;
	unsigned jobs[] = { 1, 2 };
	size_t bounds[] = { 256u << 10, 0 };
	size_t i, b;

	(void)state;
	iopt.compress = PC_RAW_NONE;
	for (b = 0; b < 2; b++) {
		for (i = 0; i < 2; i++) {
			struct commits c = { .bound = bounds[b] };
			struct pc_ingest_loop loop = {
				.batch = UINT_MAX,
				.batch_bytes = bounds[b],
				.jobs = jobs[i],
				.progress = on_message_stored,
				.arg = &c,
			};
			struct pc_ingest_stats stats = { 0 }, committed = { 0 };
			char *db = xasprintf("%s/bound-%zu-%zu.db", tmp, b, i);
			struct pc_source *src;
			struct pc_err err = { 0 };
			uint64_t total;

			assert_int_equal(pc_store_open(&c.st, db, &err), 0);
			sqlite3_commit_hook(c.st->db, on_commit, &c);
			assert_int_equal(
				pc_source_open(&src, archive, NULL, &err), 0);
			assert_int_equal(pc_ingest_source(c.st, src, archive,
							  &iopt, &loop, &stats,
							  &committed, &err),
					 0);
			pc_source_free(src);
			sqlite3_commit_hook(c.st->db, NULL, NULL);
			total = pc_raw_stored_bytes(c.st);
			assert_int_equal(committed.added, 2309);
			assert_true(total > (20u << 20));
			if (bounds[b]) {
				/* 23 MB in 256 KiB steps: about 90 commits
				 * (the last may fall short of the bound). */
				assert_true(c.n >=
					    total / (bounds[b] + (256u << 10)));
				assert_true(c.n <= total / bounds[b] + 1);
				assert_true(c.early <= 1);
				if (c.early)
					assert_int_equal(c.early_at, c.n);
				assert_int_equal(c.late, 0);
			} else {
				assert_int_equal(c.n, 1);
			}
			pc_store_close(c.st);
			free(db);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_pool__same_database_on_real_and_hostile_mail),
		cmocka_unit_test(test_pool__message_over_the_byte_budget),
		cmocka_unit_test(test_pool__damaged_archive),
		cmocka_unit_test(test_pool__store_failure_stops_the_threads),
		cmocka_unit_test(test_pool__bulk_checkpoints_beside_the_writer),
		cmocka_unit_test(test_pool__zstd_dictionary_same_bytes),
		cmocka_unit_test(test_pool__byte_bound_ends_transactions),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
