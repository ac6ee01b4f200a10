// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/mail/source: mbox splitting (mboxo and mboxrd, LF and
 * CRLF, plain and gzip), single messages, maildirs, standard input, the
 * per-message size limit and the errors for unusable paths. Every mbox is
 * also read 1 byte at a time and in random-sized reads, which must give
 * the same messages. Fixtures are written into a fresh temporary
 * directory; the last test reads the real lore nvdimm archive.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"
#include "mail/source.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/xalloc.h"

/* The messages read from a source, with what pc_source_next() said. */
struct msgs {
	size_t n, alloc;
	char **data; /* owned, NUL-terminated copies */
	size_t *len;
	int *rc; /* 1, or PC_ELIMIT */
	char **where; /* owned */
	enum pc_source_kind kind;
};

static void msgs_release(struct msgs *ms)
{
	size_t i;

	for (i = 0; i < ms->n; i++) {
		free(ms->data[i]);
		free(ms->where[i]);
	}
	free(ms->data);
	free(ms->len);
	free(ms->rc);
	free(ms->where);
	memset(ms, 0, sizeof(*ms));
}

static void msgs_add(struct msgs *ms, const struct pc_source_msg *m, int rc)
{
	if (ms->n == ms->alloc) {
		ms->alloc = ms->alloc ? 2 * ms->alloc : 8;
		ms->data =
			xreallocarray(ms->data, ms->alloc, sizeof(*ms->data));
		ms->len = xreallocarray(ms->len, ms->alloc, sizeof(*ms->len));
		ms->rc = xreallocarray(ms->rc, ms->alloc, sizeof(*ms->rc));
		ms->where =
			xreallocarray(ms->where, ms->alloc, sizeof(*ms->where));
	}
	ms->data[ms->n] = xmalloc(m->len + 1);
	memcpy(ms->data[ms->n], m->data, m->len);
	ms->data[ms->n][m->len] = '\0';
	ms->len[ms->n] = m->len;
	ms->rc[ms->n] = rc;
	ms->where[ms->n] = xstrdup(m->where ? m->where : "");
	ms->n++;
}

/* Reads every message of path; a failure other than PC_ELIMIT fails. */
static void read_all(struct msgs *out, const char *path,
		     const struct pc_source_options *opt)
{
	struct pc_source *src = NULL;
	struct pc_source_msg m;
	struct pc_err err = { 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	rc = pc_source_open(&src, path, opt, &err);
	if (rc < 0)
		fail_msg("cannot open '%s': %s", path, err.msg);
	out->kind = pc_source_kind(src);
	while ((rc = pc_source_next(src, &m, &err)) != 0) {
		if (rc < 0 && rc != PC_ELIMIT)
			fail_msg("reading '%s' failed: %s", path, err.msg);
		if (rc == PC_ELIMIT)
			assert_non_null(strstr(err.msg, "larger than"));
		msgs_add(out, &m, rc);
	}
	pc_source_free(src);
}

/* The ways every mbox is read: default, 1 byte, random sizes. */
struct mode {
	size_t read_size;
	unsigned seed;
};

#define NMODES 8

static struct mode mode_get(size_t i)
{
	struct mode m = { 0, 0 };
	unsigned x;

	if (i == 0)
		return m;
	if (i == 1) {
		m.read_size = 1;
		return m;
	}
	/* Random maximum read sizes in 7..4096, each with its own seed. */
	x = (unsigned)i * 2654435761u;
	m.read_size = 7 + x % 4090;
	m.seed = x | 1;
	return m;
}

static void mode_apply(struct pc_source_options *opt, size_t i)
{
	struct mode m = mode_get(i);

	opt->read_size = m.read_size;
	opt->read_seed = m.seed;
}

/* Compares what was read with the expected messages and results. */
static void expect_msgs(const struct msgs *got, const char *const *want,
			const int *want_rc, size_t n, const char *what)
{
	size_t i;

	if (got->n != n)
		fail_msg("%s: %zu messages, expected %zu", what, got->n, n);
	for (i = 0; i < n; i++) {
		int rc = want_rc ? want_rc[i] : 1;

		if (got->rc[i] != rc)
			fail_msg("%s: message %zu: result %d, expected %d",
				 what, i + 1, got->rc[i], rc);
		if (rc != 1)
			continue; /* an oversized message has no content */
		if (got->len[i] != strlen(want[i]) ||
		    memcmp(got->data[i], want[i], got->len[i]) != 0)
			fail_msg("%s: message %zu is\n[%s]\nexpected\n[%s]",
				 what, i + 1, got->data[i], want[i]);
	}
}

/*
 * Reads path in every mode and checks the messages, the results and the
 * kind opened.
 */
static void check_modes(const char *path, const struct pc_source_options *base,
			enum pc_source_kind kind, const char *const *want,
			const int *want_rc, size_t n)
{
	size_t i;

	for (i = 0; i < NMODES; i++) {
		struct pc_source_options opt = *base;
		struct msgs got;
		char what[256];

		mode_apply(&opt, i);
		snprintf(what, sizeof(what), "%s (read_size %zu, seed %u)",
			 path, opt.read_size, opt.read_seed);
		read_all(&got, path, &opt);
		if (got.kind != kind)
			fail_msg("%s: opened as %s, expected %s", what,
				 pc_source_kind_name(got.kind),
				 pc_source_kind_name(kind));
		expect_msgs(&got, want, want_rc, n, what);
		msgs_release(&got);
	}
}

/* Writes (data, len) to dir/name; returns the path (caller frees). */
static char *write_fixture(const char *dir, const char *name, const char *data,
			   size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static char *write_str(const char *dir, const char *name, const char *data)
{
	return write_fixture(dir, name, data, strlen(data));
}

/* Writes data gzip-compressed to dir/name. */
static char *write_gzip(const char *dir, const char *name, const char *data)
{
	char *path = xasprintf("%s/%s", dir, name);
	gzFile gz = gzopen(path, "wb9");

	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, data, (unsigned)strlen(data)),
			 (int)strlen(data));
	assert_int_equal(gzclose(gz), Z_OK);
	return path;
}

/* data with every LF turned into CRLF; caller frees. */
static char *to_crlf(const char *data)
{
	struct pc_buf b = PC_BUF_INIT;

	for (; *data; data++) {
		if (*data == '\n')
			pc_buf_addch(&b, '\r');
		pc_buf_addch(&b, *data);
	}
	return pc_buf_detach(&b, NULL);
}

/*
 * An mboxo file: a body line starting "From " after the header/body
 * separator that has no time and year, a ">From " line (left alone in
 * mboxo), a "From " line with a colon but no year, an undated "From "
 * line that does not follow a blank line, a message ending in a blank
 * line of its own, and a last message without the separating blank line.
 * (A dated From_ line splits even without a blank line before it, as in
 * git mailsplit: see test_source__dated_from_splits_anywhere.)
 */
static const char mboxo[] = "From alice@example.com Mon Jan  1 00:00:00 2001\n"
			    "From: Alice <alice@example.com>\n"
			    "Subject: one\n"
			    "\n"
			    "From the start this line is body.\n"
			    ">From quoted stays in mboxo\n"
			    "\n"
			    "From me to you, see you at 10:30.\n"
			    "Quoted below\n"
			    "From bob@example.com, on Tuesday\n"
			    "last\n"
			    "\n"
			    "\n"
			    "From bob@example.com Tue Jan  2 00:00:00 2001\n"
			    "Subject: two\n"
			    "\n"
			    "two\n"
			    "\n"
			    "From carol@example.com Wed Jan  3 12:34:56 2001\n"
			    "Subject: three\n"
			    "\n"
			    "three\n";

static const char *const mboxo_msgs[] = {
	"From: Alice <alice@example.com>\n"
	"Subject: one\n"
	"\n"
	"From the start this line is body.\n"
	">From quoted stays in mboxo\n"
	"\n"
	"From me to you, see you at 10:30.\n"
	"Quoted below\n"
	"From bob@example.com, on Tuesday\n"
	"last\n"
	"\n",
	"Subject: two\n"
	"\n"
	"two\n",
	"Subject: three\n"
	"\n"
	"three\n",
};

/* mboxo_msgs[0] read as mboxrd: one '>' is removed. */
static const char mboxo_as_rd_0[] = "From: Alice <alice@example.com>\n"
				    "Subject: one\n"
				    "\n"
				    "From the start this line is body.\n"
				    "From quoted stays in mboxo\n"
				    "\n"
				    "From me to you, see you at 10:30.\n"
				    "Quoted below\n"
				    "From bob@example.com, on Tuesday\n"
				    "last\n"
				    "\n";

/* An mboxrd file as lore and public-inbox serve it. */
static const char mboxrd[] = "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			     "Subject: rd\n"
			     "\n"
			     ">From quoted once\n"
			     ">>From quoted twice\n"
			     ">not from\n"
			     " >From with a space\n"
			     ">From\n"
			     "\n"
			     "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			     "Subject: rd2\n"
			     "\n"
			     "x\n"
			     "\n";

static const char *const mboxrd_msgs[] = {
	"Subject: rd\n"
	"\n"
	"From quoted once\n"
	">From quoted twice\n"
	">not from\n"
	" >From with a space\n"
	">From\n",
	"Subject: rd2\n"
	"\n"
	"x\n",
};

static const char *const mboxrd_as_o_msgs[] = {
	"Subject: rd\n"
	"\n"
	">From quoted once\n"
	">>From quoted twice\n"
	">not from\n"
	" >From with a space\n"
	">From\n",
	"Subject: rd2\n"
	"\n"
	"x\n",
};

static int setup_dir(void **state)
{
	*state = t_mkdtemp();
	return 0;
}

static int teardown_dir(void **state)
{
	t_rmtree(*state);
	free(*state);
	return 0;
}

static void test_source__mboxo_split(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *path = write_str(*state, "o.mbox", mboxo);
	struct msgs got;

	check_modes(path, &opt, PC_SOURCE_MBOX, mboxo_msgs, NULL, 3);
	opt.mbox_format = PC_MBOX_MBOXO;
	check_modes(path, &opt, PC_SOURCE_MBOX, mboxo_msgs, NULL, 3);
	opt.kind = PC_SOURCE_MBOX;
	check_modes(path, &opt, PC_SOURCE_MBOX, mboxo_msgs, NULL, 3);

	/* Where: the file and the line of the first header. */
	opt = (struct pc_source_options)PC_SOURCE_OPTIONS_INIT;
	read_all(&got, path, &opt);
	assert_int_equal(got.n, 3);
	assert_true(strstr(got.where[0], "o.mbox:2") != NULL);
	assert_true(strstr(got.where[1], "o.mbox:15") != NULL);
	assert_true(strstr(got.where[2], "o.mbox:20") != NULL);
	msgs_release(&got);
	free(path);
}

/*
 * git mailsplit's rules: whitespace-only lines before the first From_
 * line are no mail, and a dated From_ line splits even when it directly
 * follows the previous message's last line (git's t5100 sample.mbox has
 * three such).
 */
static void test_source__dated_from_splits_anywhere(void **state)
{
	static const char mbox[] =
		"  \n\t\n"
		"From a@example.com Mon Jan  1 00:00:00 2001\n"
		"Subject: a\n"
		"\n"
		"body a\n"
		"From b@example.com Mon Jan  1 00:00:00 2001\n"
		"Subject: b\n"
		"\n"
		"body b\n";
	static const char *const want[] = {
		"Subject: a\n\nbody a\n",
		"Subject: b\n\nbody b\n",
	};
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *path = write_str(*state, "git.mbox", mbox);

	check_modes(path, &opt, PC_SOURCE_MBOX, want, NULL, 2);
	free(path);
}

/*
 * A From_ line without a date ("From A", as patchew's fixtures have) is a
 * separator only when a header field follows it.
 */
static void test_source__loose_from(void **state)
{
	static const char mbox[] = "From A\n"
				   "Subject: a\n"
				   "\n"
				   "body\n"
				   "\n"
				   "From here on it is prose\n"
				   "and no header follows\n"
				   "\n"
				   "From B\n"
				   "Message-ID: <b@example.com>\n"
				   "\n"
				   "b\n";
	static const char *const want[] = {
		"Subject: a\n\nbody\n\nFrom here on it is prose\n"
		"and no header follows\n",
		"Message-ID: <b@example.com>\n\nb\n",
	};
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *crlf = to_crlf(mbox);
	char *p1 = write_str(*state, "loose.mbox", mbox);
	char *p2 = write_str(*state, "loose-crlf.mbox", crlf);

	check_modes(p1, &opt, PC_SOURCE_MBOX, want, NULL, 2);
	check_modes(p2, &opt, PC_SOURCE_MBOX, want, NULL, 2);
	free(crlf);
	free(p1);
	free(p2);
}

static void test_source__mboxo_forced_rd(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	const char *const want[] = { mboxo_as_rd_0, mboxo_msgs[1],
				     mboxo_msgs[2] };
	char *path = write_str(*state, "o.mbox", mboxo);

	opt.mbox_format = PC_MBOX_MBOXRD;
	check_modes(path, &opt, PC_SOURCE_MBOX, want, NULL, 3);
	free(path);
}

static void test_source__mboxrd_auto(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *path = write_str(*state, "rd.mbox", mboxrd);

	check_modes(path, &opt, PC_SOURCE_MBOX, mboxrd_msgs, NULL, 2);
	opt.mbox_format = PC_MBOX_MBOXRD;
	check_modes(path, &opt, PC_SOURCE_MBOX, mboxrd_msgs, NULL, 2);
	/* Forced mboxo leaves the quoting alone. */
	opt.mbox_format = PC_MBOX_MBOXO;
	check_modes(path, &opt, PC_SOURCE_MBOX, mboxrd_as_o_msgs, NULL, 2);
	free(path);
}

/* CRLF mboxes give the same bytes as their LF twins, and so does gzip. */
static void test_source__crlf_and_gzip(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *o_crlf = to_crlf(mboxo), *rd_crlf = to_crlf(mboxrd);
	char *p1 = write_str(*state, "o-crlf.mbox", o_crlf);
	char *p2 = write_str(*state, "rd-crlf.mbox", rd_crlf);
	char *p3 = write_gzip(*state, "o.mbox.gz", mboxo);
	char *p4 = write_gzip(*state, "rd-crlf.mbox.gz", rd_crlf);
	/* A .gz name does not matter: gzip is found by its magic. */
	char *p5 = write_gzip(*state, "rd-gz-no-suffix", mboxrd);

	check_modes(p1, &opt, PC_SOURCE_MBOX, mboxo_msgs, NULL, 3);
	check_modes(p2, &opt, PC_SOURCE_MBOX, mboxrd_msgs, NULL, 2);
	check_modes(p3, &opt, PC_SOURCE_MBOX, mboxo_msgs, NULL, 3);
	check_modes(p4, &opt, PC_SOURCE_MBOX, mboxrd_msgs, NULL, 2);
	check_modes(p5, &opt, PC_SOURCE_MBOX, mboxrd_msgs, NULL, 2);
	free(o_crlf);
	free(rd_crlf);
	free(p1);
	free(p2);
	free(p3);
	free(p4);
	free(p5);
}

/* The last message may lack its final newline; no bytes are added. */
static void test_source__no_trailing_newline(void **state)
{
	static const char mbox[] =
		"From a@example.com Mon Jan  1 00:00:00 2001\n"
		"Subject: a\n"
		"\n"
		"a\n"
		"\n"
		"From b@example.com Mon Jan  1 00:00:00 2001\n"
		"Subject: b\n"
		"\n"
		"no newline";
	static const char *const want[] = {
		"Subject: a\n\na\n",
		"Subject: b\n\nno newline",
	};
	static const char *const want_msg[] = { "Subject: c\n\nno newline" };
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *crlf = to_crlf(mbox);
	char *p1 = write_str(*state, "nonl.mbox", mbox);
	char *p2 = write_str(*state, "nonl-crlf.mbox", crlf);
	char *p3 = write_str(*state, "nonl.eml", want_msg[0]);

	check_modes(p1, &opt, PC_SOURCE_MBOX, want, NULL, 2);
	check_modes(p2, &opt, PC_SOURCE_MBOX, want, NULL, 2);
	check_modes(p3, &opt, PC_SOURCE_MESSAGE, want_msg, NULL, 1);
	free(crlf);
	free(p1);
	free(p2);
	free(p3);
}

/* A file without a From_ line is one message, never split. */
static void test_source__single_message(void **state)
{
	static const char eml[] =
		"From: Dave <dave@example.com>\n"
		"Subject: single\n"
		"\n"
		"body\n"
		"\n"
		"From dave@example.com Mon Jan  1 00:00:00 2001\n"
		">From stays\n"
		"\n";
	static const char *const want[] = { eml };
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *crlf = to_crlf(eml);
	char *p1 = write_str(*state, "one.eml", eml);
	char *p2 = write_str(*state, "one-crlf.eml", crlf);
	char *p3 = write_gzip(*state, "one.eml.gz", eml);

	check_modes(p1, &opt, PC_SOURCE_MESSAGE, want, NULL, 1);
	check_modes(p2, &opt, PC_SOURCE_MESSAGE, want, NULL, 1);
	check_modes(p3, &opt, PC_SOURCE_MESSAGE, want, NULL, 1);
	/* Forcing the kind works on an mbox too: one message, framing kept. */
	{
		static const char *const whole[] = { mboxo };

		opt.kind = PC_SOURCE_MESSAGE;
		free(p1);
		p1 = write_str(*state, "o.mbox", mboxo);
		check_modes(p1, &opt, PC_SOURCE_MESSAGE, whole, NULL, 1);
	}
	free(crlf);
	free(p1);
	free(p2);
	free(p3);
}

static void test_source__empty_file(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *p1 = write_str(*state, "empty", "");
	char *p2 = write_gzip(*state, "empty.gz", "");
	struct msgs got;
	size_t i;

	for (i = 0; i < NMODES; i++) {
		mode_apply(&opt, i);
		read_all(&got, p1, &opt);
		assert_int_equal(got.n, 0);
		msgs_release(&got);
		read_all(&got, p2, &opt);
		assert_int_equal(got.n, 0);
		msgs_release(&got);
	}
	/* Forced mbox: still nothing. */
	opt.kind = PC_SOURCE_MBOX;
	for (i = 0; i < NMODES; i++) {
		mode_apply(&opt, i);
		read_all(&got, p1, &opt);
		assert_int_equal(got.n, 0);
		msgs_release(&got);
	}
	free(p1);
	free(p2);
}

/*
 * An oversized message is reported as PC_ELIMIT, and reading goes on
 * with the next message, whole; also when a single line is longer than
 * the limit.
 */
static void test_source__oversized(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_buf mbox = PC_BUF_INIT;
	static const char *const want[] = {
		"Subject: small\n\nok\n",	  NULL,
		"Subject: after\n\nstill here\n", NULL,
		"Subject: last\n\nfine\n",
	};
	static const int want_rc[] = { 1, PC_ELIMIT, 1, PC_ELIMIT, 1 };
	char *path, *crlf;
	size_t i;

	pc_buf_addstr(&mbox, "From a@example.com Mon Jan  1 00:00:00 2001\n"
			     "Subject: small\n\nok\n\n"
			     "From b@example.com Mon Jan  1 00:00:00 2001\n"
			     "Subject: big\n\n");
	for (i = 0; i < 40; i++)
		pc_buf_addstr(&mbox, "many short lines make it too big\n");
	pc_buf_addstr(&mbox, "\nFrom c@example.com Mon Jan  1 00:00:00 2001\n"
			     "Subject: after\n\nstill here\n\n"
			     "From d@example.com Mon Jan  1 00:00:00 2001\n"
			     "Subject: long line\n\n");
	for (i = 0; i < 3000; i++)
		pc_buf_addch(&mbox, 'x');
	pc_buf_addstr(&mbox, "\n\nFrom e@example.com Mon Jan  1 00:00:00 2001\n"
			     "Subject: last\n\nfine\n");
	path = write_fixture(*state, "big.mbox", mbox.buf, mbox.len);
	crlf = to_crlf(mbox.buf);
	opt.max_message = 200;
	check_modes(path, &opt, PC_SOURCE_MBOX, want, want_rc, 5);
	free(path);
	path = write_str(*state, "big-crlf.mbox", crlf);
	check_modes(path, &opt, PC_SOURCE_MBOX, want, want_rc, 5);
	free(path);
	free(crlf);

	/* A single message over the limit. */
	{
		static const int one_rc[] = { PC_ELIMIT };

		path = write_fixture(*state, "big.eml", mbox.buf + 44,
				     mbox.len - 44);
		check_modes(path, &opt, PC_SOURCE_MESSAGE, NULL, one_rc, 1);
		free(path);
	}
	pc_buf_release(&mbox);
}

/* Creates dir/sub/name holding data. */
static void put(const char *dir, const char *sub, const char *name,
		const char *data)
{
	char *d = xasprintf("%s/%s", dir, sub);
	char *p = write_str(d, name, data);

	free(p);
	free(d);
}

static void test_source__maildir(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *md = xasprintf("%s/Maildir", (char *)*state);
	char *sub;
	struct msgs got;
	static const char *const want[] = {
		"Subject: first\n\n1\n",
		"Subject: second\n\n2\n",
		"Subject: third\n\n3\n",
		"Subject: fourth\n\nFrom x@y Mon Jan  1 00:00:00 2001\n",
	};
	size_t i;

	assert_int_equal(mkdir(md, 0700), 0);
	for (i = 0; i < 3; i++) {
		static const char *const subs[] = { "cur", "new", "tmp" };

		sub = xasprintf("%s/%s", md, subs[i]);
		assert_int_equal(mkdir(sub, 0700), 0);
		free(sub);
	}
	/*
	 * Arrival order is name order across cur/ and new/: a message
	 * still unread in new/ can be older than one already in cur/.
	 */
	put(md, "new", "1000.M1P1.host", "Subject: first\n\n1\n");
	put(md, "cur", "2000.M2P2.host:2,S", "Subject: second\r\n\r\n2\r\n");
	put(md, "new", "3000.M3P3.host", "Subject: third\n\n3\n");
	put(md, "cur", "4000.M4P4.host:2,",
	    "Subject: fourth\n\nFrom x@y Mon Jan  1 00:00:00 2001\n");
	/* Ignored: dotfiles and tmp/. */
	put(md, "cur", ".hidden", "Subject: hidden\n\nno\n");
	put(md, "new", ".0000.dot", "Subject: dot\n\nno\n");
	put(md, "tmp", "0500.M0P0.host", "Subject: in delivery\n\nno\n");

	read_all(&got, md, &opt);
	assert_int_equal(got.kind, PC_SOURCE_MAILDIR);
	expect_msgs(&got, want, NULL, 4, md);
	assert_string_equal(got.where[0], "new/1000.M1P1.host");
	assert_string_equal(got.where[1], "cur/2000.M2P2.host:2,S");
	assert_string_equal(got.where[2], "new/3000.M3P3.host");
	msgs_release(&got);

	/* Forced maildir, and the size limit: skipped, then reading goes
	 * on. */
	{
		static const int want_rc[] = { 1, 1, 1, PC_ELIMIT };

		opt.kind = PC_SOURCE_MAILDIR;
		opt.max_message = 22;
		read_all(&got, md, &opt);
		expect_msgs(&got, want, want_rc, 4, md);
		msgs_release(&got);
		opt.max_message = 17;
		read_all(&got, md, &opt);
		assert_int_equal(got.n, 4);
		for (i = 0; i < 4; i++)
			assert_int_equal(got.rc[i], PC_ELIMIT);
		msgs_release(&got);
	}
	free(md);
}

/*
 * Runs read_all() on "-" with fd as standard input, restoring the real
 * standard input afterwards.
 */
static void read_stdin_fd(struct msgs *out, int fd,
			  const struct pc_source_options *opt)
{
	int saved = dup(STDIN_FILENO);

	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	read_all(out, "-", opt);
	assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
	close(saved);
}

/* Standard input from a pipe holding data (small enough to fit). */
static void read_stdin_pipe(struct msgs *out, const char *data, size_t len,
			    const struct pc_source_options *opt)
{
	int p[2];

	assert_true(len < 60000);
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], data, len), (ssize_t)len);
	close(p[1]);
	read_stdin_fd(out, p[0], opt);
}

static void test_source__stdin(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	static const char eml[] = "Subject: piped\n\nbody\n";
	static const char *const want_eml[] = { eml };
	char *gz = write_gzip(*state, "rd.mbox.gz", mboxrd);
	char *crlf = to_crlf(mboxo);
	struct msgs got;
	size_t i;

	for (i = 0; i < NMODES; i++) {
		char what[64];
		int fd;

		mode_apply(&opt, i);
		snprintf(what, sizeof(what), "stdin (read_size %zu, seed %u)",
			 opt.read_size, opt.read_seed);
		read_stdin_pipe(&got, mboxo, strlen(mboxo), &opt);
		assert_int_equal(got.kind, PC_SOURCE_MBOX);
		expect_msgs(&got, mboxo_msgs, NULL, 3, what);
		msgs_release(&got);

		read_stdin_pipe(&got, crlf, strlen(crlf), &opt);
		expect_msgs(&got, mboxo_msgs, NULL, 3, what);
		msgs_release(&got);

		read_stdin_pipe(&got, eml, strlen(eml), &opt);
		assert_int_equal(got.kind, PC_SOURCE_MESSAGE);
		expect_msgs(&got, want_eml, NULL, 1, what);
		assert_string_equal(got.where[0], "standard input");
		msgs_release(&got);

		/* A gzip file redirected to standard input. */
		fd = open(gz, O_RDONLY);
		assert_true(fd >= 0);
		read_stdin_fd(&got, fd, &opt);
		expect_msgs(&got, mboxrd_msgs, NULL, 2, what);
		msgs_release(&got);

		read_stdin_pipe(&got, "", 0, &opt);
		assert_int_equal(got.n, 0);
		msgs_release(&got);
	}
	free(gz);
	free(crlf);
}

/* Reads path, a FIFO that a child process fills with data. */
static void read_fifo(struct msgs *out, const char *path, const void *data,
		      size_t len, const struct pc_source_options *opt)
{
	pid_t pid;
	int status;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(path, O_WRONLY);

		_exit(fd >= 0 && write(fd, data, len) == (ssize_t)len ? 0 : 1);
	}
	read_all(out, path, opt);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/*
 * A named pipe is read through zlib (it cannot be peeked into), plain or
 * gzip-compressed; a regular file is read directly.
 */
static void test_source__fifo(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	char *fifo = xasprintf("%s/fifo", (char *)*state);
	char *gz = write_gzip(*state, "fifo.mbox.gz", mboxrd);
	struct pc_buf zipped = PC_BUF_INIT;
	struct msgs got;
	char chunk[4096];
	ssize_t n;
	int fd;

	fd = open(gz, O_RDONLY);
	assert_true(fd >= 0);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		pc_buf_add(&zipped, chunk, (size_t)n);
	close(fd);
	assert_int_equal(mkfifo(fifo, 0600), 0);

	read_fifo(&got, fifo, mboxo, strlen(mboxo), &opt);
	assert_int_equal(got.kind, PC_SOURCE_MBOX);
	expect_msgs(&got, mboxo_msgs, NULL, 3, "fifo");
	msgs_release(&got);

	read_fifo(&got, fifo, zipped.buf, zipped.len, &opt);
	expect_msgs(&got, mboxrd_msgs, NULL, 2, "gzip fifo");
	msgs_release(&got);

	pc_buf_release(&zipped);
	free(gz);
	free(fifo);
}

static void test_source__bad_paths(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_source *src = NULL;
	struct pc_err err = { 0 };
	char *dir = xasprintf("%s/just-a-dir", (char *)*state);
	char *missing = xasprintf("%s/no/such/file.mbox", (char *)*state);
	char *half = xasprintf("%s/half-maildir", (char *)*state);
	char *cur = xasprintf("%s/cur", half);

	assert_int_equal(mkdir(dir, 0700), 0);
	put(*state, "just-a-dir", "file", "Subject: x\n\nx\n");
	assert_int_equal(pc_source_open(&src, dir, &opt, &err), PC_EUSAGE);
	assert_int_equal(err.code, PC_EUSAGE);
	assert_non_null(strstr(err.msg, dir));
	assert_non_null(strstr(err.msg, "maildir"));
	assert_non_null(strstr(err.msg, "public-inbox"));

	/* cur/ without new/ is not a maildir either. */
	assert_int_equal(mkdir(half, 0700), 0);
	assert_int_equal(mkdir(cur, 0700), 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(pc_source_open(&src, half, &opt, &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, half));

	memset(&err, 0, sizeof(err));
	assert_int_equal(pc_source_open(&src, missing, &opt, &err), PC_EIO);
	assert_int_equal(err.code, PC_EIO);
	assert_non_null(strstr(err.msg, missing));
	assert_non_null(strstr(err.msg, "No such file"));

	/* Forcing a kind on a missing path fails the same way. */
	opt.kind = PC_SOURCE_MAILDIR;
	memset(&err, 0, sizeof(err));
	assert_true(pc_source_open(&src, missing, &opt, &err) < 0);
	assert_non_null(strstr(err.msg, missing));
	free(dir);
	free(missing);
	free(half);
	free(cur);
}

/* FNV-1a, to compare messages across modes without keeping them all. */
static uint64_t fnv1a(const char *p, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ull;
	}
	return h;
}

#define LORE_MESSAGES 2317

/*
 * Reads up to limit messages of path into lens and hashes; returns the
 * number read.
 */
static size_t read_lore(const char *path, const struct pc_source_options *opt,
			size_t limit, size_t *lens, uint64_t *hashes)
{
	struct pc_source *src = NULL;
	struct pc_source_msg m;
	struct pc_err err = { 0 };
	size_t n = 0;
	int rc;

	if (pc_source_open(&src, path, opt, &err) < 0)
		fail_msg("cannot open '%s': %s", path, err.msg);
	assert_int_equal(pc_source_kind(src), PC_SOURCE_MBOX);
	while (n < limit && (rc = pc_source_next(src, &m, &err)) != 0) {
		if (rc < 0)
			fail_msg("message %zu of '%s': %s", n + 1, path,
				 err.msg);
		if (n < LORE_MESSAGES) {
			lens[n] = m.len;
			hashes[n] = fnv1a(m.data, m.len);
		}
		n++;
	}
	pc_source_free(src);
	return n;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The real archive: 2317 messages whose lengths are the raw_bytes column
 * of the collector's index, the same in every read mode.
 */
static void test_source__lore_nvdimm(void **state)
{
	char *tsv_path = xstrdup(
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.index.tsv"));
	char *mbox = xstrdup(
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz"));
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	size_t raw[LORE_MESSAGES], lens[LORE_MESSAGES], lens2[LORE_MESSAGES];
	uint64_t hashes[LORE_MESSAGES], hashes2[LORE_MESSAGES];
	struct pc_buf tsv = PC_BUF_INIT;
	size_t n = 0, i, got, limit;
	const char *p, *end;
	double t0, t;

	(void)state;
	if (access(mbox, R_OK) != 0) {
		free(mbox);
		free(tsv_path);
		skip();
	}
	t_read_file(&tsv, tsv_path);
	/* Skip the header line; raw_bytes is the fourth column. */
	p = memchr(tsv.buf, '\n', tsv.len);
	assert_non_null(p);
	end = tsv.buf + tsv.len;
	for (p++; p < end; n++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *f = p;
		int col;

		assert_true(n < LORE_MESSAGES);
		for (col = 0; col < 3; col++) {
			f = memchr(f, '\t', (size_t)(end - f));
			assert_non_null(f);
			f++;
		}
		raw[n] = strtoul(f, NULL, 10);
		p = eol ? eol + 1 : end;
	}
	assert_int_equal(n, LORE_MESSAGES);
	pc_buf_release(&tsv);
	free(tsv_path);

	t0 = now_s();
	got = read_lore(mbox, &opt, SIZE_MAX, lens, hashes);
	t = now_s() - t0;
	assert_int_equal(got, LORE_MESSAGES);
	for (i = 0; i < LORE_MESSAGES; i++)
		if (lens[i] != raw[i])
			fail_msg("message %zu: %zu bytes, the index says %zu",
				 i + 1, lens[i], raw[i]);

	/* Random read sizes: the same bytes. */
	for (i = 2; i < 4; i++) {
		size_t j;

		mode_apply(&opt, i);
		got = read_lore(mbox, &opt, SIZE_MAX, lens2, hashes2);
		assert_int_equal(got, LORE_MESSAGES);
		for (j = 0; j < LORE_MESSAGES; j++)
			if (lens2[j] != lens[j] || hashes2[j] != hashes[j])
				fail_msg(
					"read_size %zu seed %u: message %zu differs",
					opt.read_size, opt.read_seed, j + 1);
	}

	/*
	 * One byte at a time: the whole archive unless that would be slow
	 * (sanitizers), then a 200-message prefix. The default read took t;
	 * 1-byte reads cost about 40 times that.
	 */
	limit = t * 40 > 20 ? 200 : SIZE_MAX;
	mode_apply(&opt, 1);
	got = read_lore(mbox, &opt, limit, lens2, hashes2);
	assert_int_equal(got, limit == SIZE_MAX ? LORE_MESSAGES : limit);
	for (i = 0; i < got; i++)
		if (lens2[i] != lens[i] || hashes2[i] != hashes[i])
			fail_msg("read_size 1: message %zu differs", i + 1);
	free(mbox);
}

/* A list the caller holds (an IMAP fetch) reads back in order, as given;
 * a message not received is PC_ELIMIT with an empty head and the
 * caller's reason; it cannot be opened by path. */
static void test_source__list(void **state)
{
	static const char a[] = "Subject: a\r\n\r\nx\r\n";
	static const char c[] = "Subject: c\n\ny\n";
	const struct pc_source_msg in[] = {
		{ a, sizeof(a) - 1, "imap:l:1:7", 0 },
		{ NULL, 0, "imap:l:1:8", 0 },
		{ c, sizeof(c) - 1, "imap:l:1:9", 0 },
	};
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_source *src = NULL;
	struct pc_source_msg m;
	struct pc_err err = { 0 };
	uint64_t done, total;

	(void)state;
	pc_source_from_list(&src, in, 3, "not fetched");
	assert_int_equal(pc_source_kind(src), PC_SOURCE_LIST);
	assert_int_equal(pc_source_next(src, &m, &err), 1);
	assert_int_equal(m.len, sizeof(a) - 1);
	assert_memory_equal(m.data, a, sizeof(a) - 1);
	assert_string_equal(m.where, "imap:l:1:7");
	assert_int_equal(m.ordinal, 1);
	assert_int_equal(pc_source_next(src, &m, &err), PC_ELIMIT);
	assert_int_equal(m.len, 0);
	assert_string_equal(m.where, "imap:l:1:8");
	assert_string_equal(err.msg, "not fetched");
	pc_source_progress(src, &done, &total);
	assert_int_equal(done, 2);
	assert_int_equal(total, 3);
	assert_int_equal(pc_source_next(src, &m, &err), 1);
	assert_int_equal(m.ordinal, 3);
	assert_string_equal(m.where, "imap:l:1:9");
	assert_int_equal(pc_source_next(src, &m, &err), 0);
	pc_source_free(src);
	src = NULL;
	opt.kind = PC_SOURCE_LIST;
	assert_int_equal(pc_source_open(&src, "x", &opt, &err), PC_EUSAGE);
	assert_null(src);
}

/* Progress through a gzip archive: the compressed bytes read so far,
 * never going back, the file's size at the end (noted at each read of
 * the file, not asked of it for every message). */
static void test_source__gzip_progress(void **state)
{
	char *mbox = xstrdup(
		t_data("corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz"));
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_source *src = NULL;
	struct pc_source_msg m;
	struct pc_err err = { 0 };
	uint64_t done, total, last = 0;
	struct stat sb;
	size_t n = 0, moved = 0;
	int rc;

	(void)state;
	if (stat(mbox, &sb) != 0) {
		free(mbox);
		skip();
	}
	assert_int_equal(pc_source_open(&src, mbox, &opt, &err), 0);
	while ((rc = pc_source_next(src, &m, &err)) == 1) {
		n++;
		pc_source_progress(src, &done, &total);
		assert_int_equal(total, (uint64_t)sb.st_size);
		assert_true(done >= last && done <= total);
		moved += done > last;
		last = done;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, LORE_MESSAGES);
	assert_int_equal(last, (uint64_t)sb.st_size);
	/* 5.6 MB read in 256 KiB steps of uncompressed mail */
	assert_true(moved > 10);
	pc_source_free(src);
	free(mbox);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source__gzip_progress),
		cmocka_unit_test_setup_teardown(
			test_source__dated_from_splits_anywhere, setup_dir,
			teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__mboxo_split,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__loose_from,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__mboxo_forced_rd,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__mboxrd_auto,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__crlf_and_gzip,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__no_trailing_newline,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__single_message,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__fifo, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__empty_file,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__oversized,
						setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__maildir, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__stdin, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_source__bad_paths,
						setup_dir, teardown_dir),
		cmocka_unit_test(test_source__lore_nvdimm),
		cmocka_unit_test(test_source__list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
