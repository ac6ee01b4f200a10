// SPDX-License-Identifier: GPL-2.0-or-later
/* Helpers shared by the unit and corpus tests (see testutil.h). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"
#include "util/xalloc.h"

void t_read_file(struct pc_buf *out, const char *path)
{
	gzFile f = gzopen(path, "rb");
	char chunk[65536];
	int n;

	if (!f)
		fail_msg("cannot open '%s'", path);
	while ((n = gzread(f, chunk, sizeof(chunk))) > 0)
		pc_buf_add(out, chunk, (size_t)n);
	if (n < 0)
		fail_msg("cannot read '%s'", path);
	gzclose(f);
}

const char *t_data(const char *rel)
{
	static char path[4096];

	if (snprintf(path, sizeof(path), "%s/%s", PC_TEST_DATA, rel) >=
	    (int)sizeof(path))
		fail_msg("path too long");
	return path;
}

char *t_mkdtemp(void)
{
	const char *tmp = getenv("TMPDIR");
	char *d = xasprintf("%s/patchclock-test.XXXXXX", tmp ? tmp : "/tmp");

	if (!mkdtemp(d))
		fail_msg("mkdtemp failed");
	return d;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void t_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void t_sh(const char *dir, const char *cmd)
{
	char *full = xasprintf("cd '%s' && (%s) >/dev/null 2>&1", dir, cmd);

	if (system(full) != 0)
		fail_msg("command failed in %s: %s", dir, cmd);
	free(full);
}

char *t_git_repo(void)
{
	char *dir = t_mkdtemp();

	t_sh(dir, "git init -q -b main . && git config user.name T && "
		  "git config user.email t@x && mkdir -p drivers/w && "
		  "printf 'a\\nb\\nc\\n' >drivers/w/w.c && git add -A && "
		  "git commit -q -m base");
	return dir;
}

void t_store_open(struct t_store *ts)
{
	struct pc_err err = { 0 };
	char *path;

	memset(ts, 0, sizeof(*ts));
	ts->dir = t_mkdtemp();
	path = xasprintf("%s/test.db", ts->dir);
	if (pc_store_open(&ts->st, path, &err) < 0)
		fail_msg("cannot open store '%s': %s", path, err.msg);
	free(path);
}

void t_store_close(struct t_store *ts)
{
	pc_store_close(ts->st);
	t_rmtree(ts->dir);
	free(ts->dir);
	memset(ts, 0, sizeof(*ts));
}

size_t t_ingest(struct t_store *ts, const char *path, enum pc_source_kind kind)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	size_t n = 0;
	int rc;

	opt.kind = kind;
	if (pc_source_open(&src, path, &opt, &err) < 0)
		fail_msg("cannot open source '%s': %s", path, err.msg);
	if (pc_store_begin(ts->st, &err) < 0)
		fail_msg("begin: %s", err.msg);
	while ((rc = pc_source_next(src, &msg, &err)) == 1) {
		n++;
		if (pc_ingest_message(ts->st, msg.data, msg.len, msg.where,
				      NULL, &ts->stats, &err) < 0)
			fail_msg("ingest of %s failed: %s", msg.where, err.msg);
	}
	if (rc < 0)
		fail_msg("reading '%s' failed: %s", path, err.msg);
	if (pc_ingest_finish(ts->st, &err) < 0 ||
	    pc_store_commit(ts->st, &err) < 0)
		fail_msg("finishing '%s' failed: %s", path, err.msg);
	pc_source_free(src);
	return n;
}

struct rows {
	struct pc_buf out;
	size_t n;
};

static int query_row(int ncols, const char *const *cols, void *arg)
{
	struct rows *r = arg;
	struct pc_buf *out = &r->out;
	int i;

	if (r->n++)
		pc_buf_addch(out, '\n');
	for (i = 0; i < ncols; i++) {
		if (i)
			pc_buf_addch(out, '|');
		pc_buf_addstr(out, cols[i] ? cols[i] : "NULL");
	}
	return 0;
}

static char *vquery(struct t_store *ts, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static char *vquery(struct t_store *ts, const char *fmt, va_list ap)
{
	struct pc_buf sql = PC_BUF_INIT;
	struct rows r = { .out = PC_BUF_INIT };
	struct pc_err err = { 0 };

	pc_buf_vaddf(&sql, fmt, ap);
	if (pc_store_query(ts->st, sql.buf, query_row, &r, &err) < 0)
		fail_msg("query '%s' failed: %s", sql.buf, err.msg);
	pc_buf_release(&sql);
	return pc_buf_detach(&r.out, NULL);
}

char *t_query(struct t_store *ts, const char *fmt, ...)
{
	va_list ap;
	char *r;

	va_start(ap, fmt);
	r = vquery(ts, fmt, ap);
	va_end(ap);
	return r;
}

long long t_query_int(struct t_store *ts, const char *fmt, ...)
{
	va_list ap;
	long long v;
	char *r;

	va_start(ap, fmt);
	r = vquery(ts, fmt, ap);
	va_end(ap);
	v = strtoll(r, NULL, 10);
	free(r);
	return v;
}

void t_ingest_mail(struct t_store *ts, const char *id, const char *from,
		   const char *subject, int64_t date, const char *irt,
		   const char *headers, const char *body)
{
	struct pc_err err = { 0 };
	char datebuf[64];
	time_t t = (time_t)date;
	struct tm tm;
	char *raw;

	gmtime_r(&t, &tm);
	strftime(datebuf, sizeof(datebuf), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	raw = xasprintf("From: %s\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n"
			"%s%s%s%s\n%s",
			from, subject, datebuf, id, irt ? "In-Reply-To: <" : "",
			irt ? irt : "", irt ? ">\n" : "",
			headers ? headers : "", body);
	assert_int_equal(pc_store_begin(ts->st, &err), 0);
	assert_true(pc_ingest_message(ts->st, raw, strlen(raw), "test", NULL,
				      &ts->stats, &err) >= 0);
	assert_int_equal(pc_ingest_finish(ts->st, &err), 0);
	assert_int_equal(pc_store_commit(ts->st, &err), 0);
	free(raw);
}
