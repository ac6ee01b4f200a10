// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus test against git's t/t5100 mailinfo samples: sample.mbox splits
 * into exactly 18 messages (git mailsplit), and for each message the
 * git-am author name and address and the patch subject (in-body From:/
 * Subject: honoured, [PATCH...] tags and Re: removed) equal what
 * `git mailinfo` prints in info00NN. The single-message samples (embedded
 * ">From " line, bare address, quoted pairs, nested comments) are checked
 * against their .expect files the same way. The expected values are read
 * from the oracle files, not copied here.
 */
/* memmem() */
#define _GNU_SOURCE
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "mail/source.h"
#include "patch/subject.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

#define SAMPLE_MESSAGES 18

/* The value of "Key: value" in a mailinfo output file, or "" if absent. */
static char *info_field(const struct pc_buf *info, const char *key)
{
	size_t klen = strlen(key);
	const char *p = info->buf, *end = info->buf + info->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l > klen && !memcmp(p, key, klen) && p[klen] == ':') {
			const char *v = p + klen + 1;

			if (v < p + l && *v == ' ')
				v++;
			return xmemdupz(v, (size_t)(p + l - v));
		}
		if (!l)
			break; /* the header block of the output ends */
		p = nl ? nl + 1 : end;
	}
	return xstrdup("");
}

/* The subject as git mailinfo prints it: the subject parser's name. */
static char *subject_name(const char *subject)
{
	struct pc_subject s;

	assert_int_equal(pc_subject_parse(&s, subject, strlen(subject), NULL),
			 0);
	return xmemdupz(subject + s.name_off, s.name_len);
}

/* Checks one parsed message against the mailinfo output at info_path. */
static void check_info(const struct pc_msg *m, const char *info_path)
{
	struct pc_buf info = PC_BUF_INIT;
	char *author, *email, *subject, *name;

	t_read_file(&info, info_path);
	author = info_field(&info, "Author");
	email = info_field(&info, "Email");
	subject = info_field(&info, "Subject");
	name = subject_name(m->patch_subject);
	print_message("%s: author '%s' <%s>, subject '%s'\n", info_path,
		      m->author.name, m->author.addr, name);
	assert_string_equal(m->author.name, author);
	assert_string_equal(m->author.addr, email);
	assert_string_equal(name, subject);
	free(author);
	free(email);
	free(subject);
	free(name);
	pc_buf_release(&info);
}

/*
 * git mailsplit's is_from_line(): "From " then a "hh:mm" time and a year
 * after 1990, on any line (no blank line needed before it).
 */
static int git_is_from_line(const char *p, size_t len)
{
	const char *colon;

	if (len < 20 || memcmp(p, "From ", 5) != 0)
		return 0;
	for (colon = p + len - 2; colon >= p + 5 && *colon != ':'; colon--)
		;
	if (colon < p + 9 || colon + 3 >= p + len ||
	    !pc_isdigit((unsigned char)colon[-4]) ||
	    !pc_isdigit((unsigned char)colon[-2]) ||
	    !pc_isdigit((unsigned char)colon[-1]) ||
	    !pc_isdigit((unsigned char)colon[1]) ||
	    !pc_isdigit((unsigned char)colon[2]))
		return 0;
	return strtol(colon + 3, NULL, 10) > 90;
}

struct piece {
	const char *p;
	size_t len;
};

/*
 * The oracle's own split of sample.mbox (git mailsplit's rule: leading
 * whitespace skipped, a message per From_ line), so that the decoding
 * oracles are checked whatever the splitter does. Returns the count.
 */
static size_t git_split(struct piece *out, size_t max, const struct pc_buf *f)
{
	const char *p = f->buf, *end = f->buf + f->len;
	size_t n = 0;

	while (p < end && pc_isspace((unsigned char)*p))
		p++;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (git_is_from_line(p, l)) {
			assert_true(n < max);
			out[n].p = nl ? nl + 1 : end;
			out[n].len = 0;
			n++;
		} else if (n) {
			out[n - 1].len =
				(size_t)((nl ? nl + 1 : end) - out[n - 1].p);
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}

/* The length without trailing newlines (mbox readers differ there). */
static size_t chomp_len(const char *p, size_t len)
{
	while (len && p[len - 1] == '\n')
		len--;
	return len;
}

/*
 * The decoding oracle: message N of git's split parses to info00NN's
 * author, address and subject.
 */
static void test_git_t5100__sample_decoded(void **state)
{
	struct pc_buf f = PC_BUF_INIT;
	struct piece pieces[SAMPLE_MESSAGES + 1];
	struct pc_err err = { 0 };
	size_t n, i;

	(void)state;
	t_read_file(&f, t_data("corpus/git-t5100/sample.mbox"));
	n = git_split(pieces, SAMPLE_MESSAGES + 1, &f);
	assert_int_equal(n, SAMPLE_MESSAGES);
	for (i = 0; i < n; i++) {
		struct pc_msg *m = NULL;
		char rel[64];

		assert_int_equal(
			pc_msg_parse(&m, pieces[i].p, pieces[i].len, &err), 0);
		snprintf(rel, sizeof(rel), "corpus/git-t5100/info%04zu", i + 1);
		check_info(m, t_data(rel));
		pc_msg_free(m);
	}
	pc_buf_release(&f);
}

/*
 * The splitter: sample.mbox (read as an mbox) yields exactly the 18
 * messages git mailsplit does, byte for byte up to trailing newlines.
 */
static void test_git_t5100__sample_split(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_buf f = PC_BUF_INIT;
	struct piece pieces[SAMPLE_MESSAGES + 1];
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	size_t n = 0, npieces;
	int rc, leading = 0, merged = 0;

	(void)state;
	t_read_file(&f, t_data("corpus/git-t5100/sample.mbox"));
	npieces = git_split(pieces, SAMPLE_MESSAGES + 1, &f);
	opt.kind = PC_SOURCE_MBOX;
	assert_int_equal(pc_source_open(&src,
					t_data("corpus/git-t5100/"
					       "sample.mbox"),
					&opt, &err),
			 0);
	while ((rc = pc_source_next(src, &msg, &err)) == 1) {
		size_t got = chomp_len(msg.data, msg.len), want;

		assert_true(n < npieces);
		want = chomp_len(pieces[n].p, pieces[n].len);
		print_message("message %zu at %s\n", n + 1, msg.where);
		if (n == 0 && got > want &&
		    pc_isspace((unsigned char)*msg.data) &&
		    !memcmp(msg.data + got - want, pieces[0].p, want)) {
			/* Leading whitespace and From_ line kept: see below. */
			leading = 1;
		} else if (got > want && !memcmp(msg.data, pieces[n].p, want) &&
			   n + 1 < npieces &&
			   memmem(msg.data + want, got - want, "\nFrom ", 6)) {
			/* Two messages read as one: see below. */
			merged = 1;
			n++;
		} else {
			assert_int_equal(got, want);
			assert_memory_equal(msg.data, pieces[n].p, want);
		}
		n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, SAMPLE_MESSAGES);
	pc_source_free(src);
	pc_buf_release(&f);
	/* git mailsplit skips leading whitespace lines and splits at a
	 * dated From_ line even without a blank line before it. */
	assert_int_equal(leading, 0);
	assert_int_equal(merged, 0);
}

/*
 * The kind guess: sample.mbox starts with whitespace lines before its
 * first From_ line; git mailsplit skips leading whitespace.
 */
static void test_git_t5100__sample_guessed_as_mbox(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	enum pc_source_kind kind;

	(void)state;
	assert_int_equal(pc_source_open(&src,
					t_data("corpus/git-t5100/"
					       "sample.mbox"),
					&opt, &err),
			 0);
	kind = pc_source_kind(src);
	pc_source_free(src);
	assert_int_equal(kind, PC_SOURCE_MBOX);
}

/* A single-message sample: exactly one message, checked like the rest. */
static void check_single(const char *name)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	struct pc_msg *m = NULL;
	char rel[128], exp[128];

	snprintf(rel, sizeof(rel), "corpus/git-t5100/%s.in", name);
	snprintf(exp, sizeof(exp), "corpus/git-t5100/%s.expect", name);
	assert_int_equal(pc_source_open(&src, t_data(rel), &opt, &err), 0);
	assert_int_equal(pc_source_next(src, &msg, &err), 1);
	assert_int_equal(pc_msg_parse(&m, msg.data, msg.len, &err), 0);
	check_info(m, t_data(exp));
	pc_msg_free(m);
	assert_int_equal(pc_source_next(src, &msg, &err), 0);
	pc_source_free(src);
}

static void test_git_t5100__embed_from(void **state)
{
	(void)state;
	check_single("embed-from");
}

static void test_git_t5100__info_from(void **state)
{
	(void)state;
	check_single("info-from");
}

static void test_git_t5100__quoted_string(void **state)
{
	(void)state;
	check_single("quoted-string");
}

static void test_git_t5100__comment(void **state)
{
	(void)state;
	check_single("comment");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_git_t5100__sample_decoded),
		cmocka_unit_test(test_git_t5100__sample_split),
		cmocka_unit_test(test_git_t5100__sample_guessed_as_mbox),
		cmocka_unit_test(test_git_t5100__embed_from),
		cmocka_unit_test(test_git_t5100__info_from),
		cmocka_unit_test(test_git_t5100__quoted_string),
		cmocka_unit_test(test_git_t5100__comment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
