// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stage_bench: where ingest time goes, per message. Times each stage over
 * every message on its own: splitting the source (a first pass that
 * keeps nothing), then, on the messages held in memory, parsing the mail,
 * patch analysis (subject, diff, patch-id, trailers, a reply's intent;
 * then the reply-intent rules alone, per reply),
 * storing only the raw bytes (the floor of keeping every message, in
 * DBFILE.raw; for comparison, the same bytes appended to a plain file),
 * and the whole ingest into a fresh SQLite file.
 *
 * usage: stage_bench SOURCE DBFILE
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mail/message.h"
#include "mail/source.h"
#include "patch/diff.h"
#include "patch/intent.h"
#include "patch/subject.h"
#include "patch/trailer.h"
#include "store/ingest.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "util/xalloc.h"

struct msg {
	char *p;
	size_t len;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void report(const char *stage, double s, size_t n, size_t bytes)
{
	printf("%-28s %8.1f us/msg %8.0f msgs/s %7.1f MB/s\n", stage,
	       1e6 * s / (double)n, (double)n / s, (double)bytes / 1e6 / s);
}

/*
 * Stores the raw messages and nothing else, into the real `raw` table of
 * a store opened as ingest opens it (bulk mode, PC_INGEST_BATCH messages
 * a transaction): what keeping the bytes costs before anything is
 * parsed. Returns the CPU seconds it took, or -1 on an error.
 */
static double store_raw_only(const char *path, const struct msg *v, size_t n)
{
	static const char sql[] =
		"INSERT INTO raw (size, compression, bytes) VALUES (?, 'none', ?)";
	struct pc_err err = { 0 };
	struct pc_store *st = NULL;
	sqlite3_stmt *s;
	double t = -1;
	size_t i;

	unlink(path);
	if (pc_store_open(&st, path, &err) < 0 ||
	    pc_store_bulk(st, 1, &err) < 0)
		goto out;
	t = now();
	if (pc_store_begin(st, &err) < 0)
		goto fail;
	for (i = 0; i < n; i++) {
		if (!(s = pc_store__stmt(st, sql, &err)))
			goto fail;
		sqlite3_bind_int64(s, 1, (sqlite3_int64)v[i].len);
		sqlite3_bind_blob64(s, 2, v[i].p, v[i].len, SQLITE_STATIC);
		if (pc_store__exec(st, s, &err, "storing raw bytes") < 0 ||
		    ((i + 1) % PC_INGEST_BATCH == 0 &&
		     (pc_store_commit(st, &err) < 0 ||
		      pc_store_begin(st, &err) < 0)))
			goto fail;
	}
	if (pc_store_commit(st, &err) < 0)
		goto fail;
	t = now() - t;
	goto out;
fail:
	t = -1;
out:
	if (t < 0)
		fprintf(stderr, "%s\n", err.msg);
	pc_store_close(st);
	unlink(path);
	{
		char *journal = xasprintf("%s-journal", path);

		unlink(journal);
		free(journal);
	}
	return t;
}

/*
 * The same bytes appended to a plain file with write(): what keeping
 * them would cost outside SQLite, for comparison. CPU seconds, or -1.
 */
static double append_raw_only(const char *path, const struct msg *v, size_t n)
{
	double t;
	size_t i;
	int fd;

	unlink(path);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) {
		perror(path);
		return -1;
	}
	t = now();
	for (i = 0; i < n; i++)
		if (write(fd, v[i].p, v[i].len) != (ssize_t)v[i].len) {
			perror(path);
			close(fd);
			return -1;
		}
	t = now() - t;
	close(fd);
	unlink(path);
	return t;
}

int main(int argc, char **argv)
{
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg sm;
	struct msg *v = NULL;
	size_t n = 0, alloc = 0, bytes = 0, i;
	struct pc_store *st;
	struct pc_ingest_stats stats = { 0 };
	double t, split;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: stage_bench SOURCE DBFILE\n");
		return 64;
	}
	/* The split on its own, as ingest does it: nothing kept. */
	t = now();
	if (pc_source_open(&src, argv[1], NULL, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	while ((rc = pc_source_next(src, &sm, &err)) != 0)
		if (rc > 0)
			bytes += sm.len;
	pc_source_free(src);
	split = now() - t;
	bytes = 0;

	/* Then every message copied out, for the stages below. */
	if (pc_source_open(&src, argv[1], NULL, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	while ((rc = pc_source_next(src, &sm, &err)) != 0) {
		if (rc < 0)
			continue;
		PC_ALLOC_GROW(v, n + 1, alloc);
		v[n].p = xmemdupz(sm.data, sm.len);
		v[n].len = sm.len;
		bytes += sm.len;
		n++;
	}
	pc_source_free(src);
	report("split (read, unquote)", split, n, bytes);

	t = now();
	for (i = 0; i < n; i++) {
		struct pc_msg *m;

		if (pc_msg_parse(&m, v[i].p, v[i].len, &err) == 0)
			pc_msg_free(m);
	}
	report("parse (headers, MIME, text)", now() - t, n, bytes);

	{
		struct pc_msg **ms = xcalloc(n, sizeof(*ms));

		for (i = 0; i < n; i++)
			if (pc_msg_parse(&ms[i], v[i].p, v[i].len, &err) < 0)
				ms[i] = NULL;
		t = now();
		for (i = 0; i < n; i++) {
			struct pc_trailer_list tl = PC_TRAILER_LIST_INIT;
			struct pc_diff d = PC_DIFF_INIT;
			struct pc_subject s;

			if (!ms[i])
				continue;
			pc_subject_parse(&s, ms[i]->subject,
					 strlen(ms[i]->subject), NULL);
			if (pc_diff_present(ms[i]->body.buf, ms[i]->body.len))
				pc_diff_parse(&d, ms[i]->body.buf,
					      ms[i]->body.len, NULL);
			if (s.flags & PC_SUBJ_REPLY) {
				pc_trailers_from_reply(&tl, ms[i]->body.buf,
						       ms[i]->body.len, NULL);
				pc_intent_scan(ms[i]->body.buf,
					       ms[i]->body.len);
			}
			pc_diff_release(&d);
			pc_trailer_list_release(&tl);
		}
		report("analyse (subject, diff, tags)", now() - t, n, bytes);
		/* The reply-intent rules alone, per reply, ten times over
		 * (issue 39: the phrase search by the sentence). */
		{
			size_t replies = 0, k, rb = 0;

			t = now();
			for (k = 0; k < 10; k++)
				for (i = 0; i < n; i++) {
					struct pc_subject s;

					if (!ms[i])
						continue;
					pc_subject_parse(&s, ms[i]->subject,
							 strlen(ms[i]->subject),
							 NULL);
					if (!(s.flags & PC_SUBJ_REPLY))
						continue;
					pc_intent_scan(ms[i]->body.buf,
						       ms[i]->body.len);
					if (!k) {
						replies++;
						rb += ms[i]->body.len;
					}
				}
			if (replies)
				report("  reply intent alone (replies)",
				       (now() - t) / 10, replies, rb);
		}
		for (i = 0; i < n; i++)
			pc_msg_free(ms[i]);
		free(ms);
	}

	{
		char *raw_path = xasprintf("%s.raw", argv[2]);

		t = store_raw_only(raw_path, v, n);
		if (t < 0)
			return 1;
		report("store raw bytes only", t, n, bytes);
		t = append_raw_only(raw_path, v, n);
		if (t < 0)
			return 1;
		report("  (to a plain file instead)", t, n, bytes);
		free(raw_path);
	}

	/* As `patchclock ingest` stores: WAL in bulk mode, a
	 * transaction per PC_INGEST_BATCH messages. */
	unlink(argv[2]);
	if (pc_store_open(&st, argv[2], &err) < 0 ||
	    pc_store_bulk(st, 1, &err) < 0 || pc_store_begin(st, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	t = now();
	for (i = 0; i < n; i++) {
		if (pc_ingest_message(st, v[i].p, v[i].len, "bench", NULL,
				      &stats, &err) < 0 ||
		    ((i + 1) % PC_INGEST_BATCH == 0 &&
		     (pc_store_commit(st, &err) < 0 ||
		      pc_store_begin(st, &err) < 0))) {
			fprintf(stderr, "%s\n", err.msg);
			return 1;
		}
	}
	pc_ingest_finish(st, &err);
	pc_store_commit(st, &err);
	report("ingest (all of it, to SQLite)", now() - t, n, bytes);
	pc_store_close(st);
	for (i = 0; i < n; i++)
		free(v[i].p);
	free(v);
	return 0;
}
