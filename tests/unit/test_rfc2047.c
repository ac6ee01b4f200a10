// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/mail/rfc2047: a table of hand-written header values
 * for every decoding rule, real headers from the shared corpus (git's
 * t5100, public-inbox, lore, patchew, patchwork) against their oracles,
 * and random bytes and truncations that must give valid UTF-8.
 */
#include "testutil.h"
#include "mail/charset.h"
#include "mail/rfc2047.h"
#include "util/util.h"
#include "util/xalloc.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EX PC_CHARSET_EXACT
#define FB PC_CHARSET_FALLBACK

struct dec_case {
	const char *in;
	const char *want;
	int rc;
};

static void check_dec(const char *in, size_t len, const char *want, int want_rc)
{
	struct pc_buf out = PC_BUF_INIT;
	int rc;

	pc_buf_addstr(&out, "<");
	rc = pc_rfc2047_decode(&out, in, len);
	if (strcmp(out.buf + 1, want) || rc != want_rc)
		fail_msg("'%s': got '%s' rc %d, want '%s' rc %d", in,
			 out.buf + 1, rc, want, want_rc);
	assert_true(pc_utf8_valid(out.buf, out.len));
	pc_buf_release(&out);
}

static void run_cases(const struct dec_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_dec(c[i].in, strlen(c[i].in), c[i].want, c[i].rc);
}

static void test_rfc2047__q_and_b(void **state)
{
	static const struct dec_case c[] = {
		{ "plain text", "plain text", EX },
		{ "", "", EX },
		{ "=?utf-8?q?caf=C3=A9?=", "caf\xc3\xa9", EX },
		{ "=?UTF-8?Q?caf=C3=A9?=", "caf\xc3\xa9", EX },
		{ "=?utf-8?Q?caf=c3=a9?=", "caf\xc3\xa9", EX },
		{ "=?utf-8?q?a_b__c?=", "a b  c", EX },
		{ "=?utf-8?q?a=20b=5F?=", "a b_", EX },
		{ "=?utf-8?b?Y2Fmw6k=?=", "caf\xc3\xa9", EX },
		{ "=?UTF-8?B?Y2Fmw6k=?=", "caf\xc3\xa9", EX },
		{ "=?iso-8859-1?q?caf=E9?=", "caf\xc3\xa9", EX },
		{ "=?ISO8859-1?Q?David_K=E5gedal?=", "David K\xc3\xa5gedal",
		  EX },
		{ "=?utf-8?q?\?=", "", EX },
		{ "=?utf-8?b?\?=", "", EX },
		/* =0A decodes to a newline; callers collapse it later. */
		{ "=?us-ascii?q?updates=0A=0AThis_is?=", "updates\n\nThis is",
		  EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_rfc2047__bad_q_escapes_stay(void **state)
{
	static const struct dec_case c[] = {
		{ "=?utf-8?q?a=zz?=", "a=zz", EX },
		{ "=?utf-8?q?100=?=", "100=", EX },
		{ "=?utf-8?q?a=4?=", "a=4", EX },
		{ "=?utf-8?q?a=4g?=", "a=4g", EX },
		{ "=?utf-8?q?=3D=3d?=", "==", EX },
		/* An invalid byte from a good escape falls back. */
		{ "=?utf-8?q?caf=E9?=", "caf\xc3\xa9", FB },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_rfc2047__lenient_base64(void **state)
{
	static const struct dec_case c[] = {
		{ "=?utf-8?b?Y2Fmw6k?=", "caf\xc3\xa9", EX }, /* no pad */
		{ "=?utf-8?b?YWJj=?=", "abc", EX }, /* extra pad */
		{ "=?utf-8?b?YQ=?=", "a", EX }, /* short pad */
		{ "=?utf-8?b?YQ===?=", "a", EX },
		{ "=?utf-8?b?Y2F*mw6k?=", "caf\xc3\xa9", EX }, /* junk */
		{ "=?utf-8?b?Y-2F.mw!6k?=", "caf\xc3\xa9", EX }, /* junk */
		{ "=?utf-8?b?YQ==Yg==?=", "ab", EX }, /* two */
		{ "=?utf-8?b?Y?=", "", EX }, /* six bits: nothing */
		{ "=?utf-8?b?!!!?=", "", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_rfc2047__adjacent_words(void **state)
{
	static const struct dec_case c[] = {
		{ "=?utf-8?q?a?= =?utf-8?q?b?=", "ab", EX },
		{ "=?utf-8?q?a?=\t \t=?UTF-8?Q?b?=", "ab", EX },
		{ "=?utf-8?q?a?=\r\n =?utf-8?q?b?=", "ab", EX },
		{ "=?utf-8?q?a?==?utf-8?q?b?=", "ab", EX },
		{ "=?utf-8?q?a_?= =?utf-8?q?_b?=", "a  b", EX },
		/* Text in between keeps all whitespace around it. */
		{ "=?utf-8?q?a?= b =?utf-8?q?c?=", "a b c", EX },
		{ "x =?utf-8?q?a?= ", "x a ", EX },
		{ "  =?utf-8?q?a?=", "  a", EX },
		/* A character split across words comes out whole. */
		{ "=?utf-8?q?=C3?= =?utf-8?q?=A9?=", "\xc3\xa9", EX },
		{ "=?utf-8?b?ww==?= =?utf-8?b?qQ==?=", "\xc3\xa9", EX },
		{ "=?utf-8?q?=E2=82?= =?utf-8?b?rA==?=", "\xe2\x82\xac", EX },
		{ "=?UTF8?q?=E2=82?= =?utf-8?b?rA==?=", "\xe2\x82\xac", EX },
		/* Different charsets are converted separately. */
		{ "=?iso-8859-1?q?=E9?= =?utf-8?q?=C3=A9?=", "\xc3\xa9\xc3\xa9",
		  EX },
		{ "=?utf-8?q?=C3?= =?iso-8859-1?q?=A9?=", "\xc3\x83\xc2\xa9",
		  FB },
		/* Both halves of an ISO-2022-JP name in two words. */
		{ "=?ISO-2022-JP?B?GyRCNUhGIxsoQg==?= "
		  "=?ISO-2022-JP?B?GyRCMVFMQBsoQg==?=",
		  "\xe5\x90\x89\xe8\x97\xa4\xe8\x8b\xb1\xe6\x98\x8e", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_rfc2047__bom_and_language(void **state)
{
	static const struct dec_case c[] = {
		{ "=?utf-8?b?77u/YWJj?=", "abc", EX },
		{ "=?utf-8?q?a?= =?utf-8?q?=EF=BB=BFb?=", "ab", EX },
		{ "=?utf-16?b?//5hAA==?=", "a", EX },
		{ "=?utf-8*en?q?=C3=A9?=", "\xc3\xa9", EX },
		{ "=?UTF-8*EN-us?Q?x?= =?utf-8?q?y?=", "xy", EX },
		{ "=?iso-8859-1*fr?q?=E9?=", "\xc3\xa9", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_rfc2047__placement(void **state)
{
	static const struct dec_case c[] = {
		{ "Testing for =?utf-8?Q?El=C3=A9anor?=",
		  "Testing for El\xc3\xa9\x61nor", EX },
		{ "\"=?utf-8?q?El=C3=A9anor?=\" <e@example.com>",
		  "\"El\xc3\xa9\x61nor\" <e@example.com>", EX },
		{ "(=?utf-8?q?a?=)", "(a)", EX },
		/* Glued to text: decoded all the same (as git does). */
		{ "foo=?utf-8?q?x?=", "foox", EX },
		{ "=?utf-8?q?x?=bar", "xbar", EX },
		{ "foo=?utf-8?q?x?=bar", "fooxbar", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_rfc2047__malformed_kept(void **state)
{
	static const struct dec_case c[] = {
		/* '?' inside the text is part of it. */
		{ "=?utf-8?q?a?b?=", "a?b", EX },
		{ "=?utf-8?b?YWJj?ZGVm?=", "abcdef", EX },
		{ "=?utf-8?q?abc", "=?utf-8?q?abc", EX },
		{ "=?utf-8?q?abc?", "=?utf-8?q?abc?", EX },
		{ "=?utf-8?q?", "=?utf-8?q?", EX },
		{ "=?utf-8?", "=?utf-8?", EX },
		{ "=?", "=?", EX },
		{ "=", "=", EX },
		{ "?=", "?=", EX },
		{ "=?utf-8?q?abc =?utf-8?q?d?=", "=?utf-8?q?abc d", EX },
		{ "=?utf-8?q?a b?=", "=?utf-8?q?a b?=", EX },
		{ "=?utf-8?x?abc?=", "=?utf-8?x?abc?=", EX },
		{ "=?utf-8?qq?abc?=", "=?utf-8?qq?abc?=", EX },
		{ "=?\?q?abc?=", "=?\?q?abc?=", EX },
		{ "=?*en?q?abc?=", "=?*en?q?abc?=", EX },
		{ "=?\"utf-8\"?q?abc?=", "=?\"utf-8\"?q?abc?=", EX },
		{ "a = b ?= c", "a = b ?= c", EX },
		{ "==?utf-8?q?a?=", "=a", EX },
		{ "=?=?utf-8?q?a?=", "=?a", EX },
		/* Unknown charsets go through the fallback. */
		{ "=?x-unknown?q?caf=E9?=", "caf\xc3\xa9", FB },
		{ "=?x-unknown?q?caf=C3=A9?=", "caf\xc3\xa9", FB },
		{ "=?bogus?q?abc?=", "abc", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_rfc2047__raw_8bit(void **state)
{
	static const struct dec_case c[] = {
		{ "Caf\xc3\xa9 =?utf-8?q?x?=", "Caf\xc3\xa9 x", EX },
		{ "dm-pcache \xe2\x80\x93 cache",
		  "dm-pcache \xe2\x80\x93 cache", EX },
		{ "Caf\xe9", "Caf\xc3\xa9", FB },
		{ "Sandstr\xf6m =?utf-8?q?=C3=A9?=",
		  "Sandstr\xc3\xb6m \xc3\xa9", FB },
		{ "\x93quoted\x94", "\xe2\x80\x9cquoted\xe2\x80\x9d", FB },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

/*
 * Corpus helpers: the header `name` of a message, unfolded (a line break
 * before whitespace is removed, the whitespace kept) and trimmed.
 */
static int header_value(struct pc_buf *val, const char *msg, size_t len,
			const char *name)
{
	size_t nlen = strlen(name), i = 0, eol;

	pc_buf_reset(val);
	while (i < len) {
		const char *nl = memchr(msg + i, '\n', len - i);

		eol = nl ? (size_t)(nl - msg) : len;
		if (eol == i || (eol == i + 1 && msg[i] == '\r'))
			return 0; /* end of the header block */
		if (eol - i > nlen && msg[i + nlen] == ':' &&
		    pc_mem_istarts(msg + i, eol - i, name)) {
			size_t v = i + nlen + 1;

			for (;;) {
				size_t e = eol;

				if (e > v && msg[e - 1] == '\r')
					e--;
				pc_buf_add(val, msg + v, e - v);
				if (eol + 1 >= len || (msg[eol + 1] != ' ' &&
						       msg[eol + 1] != '\t'))
					break;
				v = eol + 1;
				nl = memchr(msg + v, '\n', len - v);
				eol = nl ? (size_t)(nl - msg) : len;
			}
			while (val->len && pc_isspace(val->buf[0])) {
				memmove(val->buf, val->buf + 1, val->len);
				val->len--;
			}
			pc_buf_rtrim(val);
			return 1;
		}
		i = eol + 1;
	}
	return 0;
}

/*
 * Steps through an mbox: sets (*msg, *mlen) to the next message at or
 * after *pos and returns 1, or 0 at the end. Every line starting with
 * "From " opens a message (the corpus files quote such body lines); what
 * comes before the first is skipped; a file without any is one message.
 */
static int next_message(const char **msg, size_t *mlen, const char *mbox,
			size_t len, size_t *pos)
{
	size_t i = *pos, start = len;
	const char *nl;

	if (i == 0 && len && !pc_mem_starts(mbox, len, "From ") &&
	    !pc_memimem(mbox, len, "\nFrom ")) {
		*msg = mbox;
		*mlen = len;
		*pos = len;
		return 1;
	}
	while (i < len) {
		nl = memchr(mbox + i, '\n', len - i);
		if (pc_mem_starts(mbox + i, len - i, "From ")) {
			if (start < len) {
				*msg = mbox + start;
				*mlen = i - start;
				*pos = i;
				return 1;
			}
			start = nl ? (size_t)(nl - mbox) + 1 : len;
		}
		i = nl ? (size_t)(nl - mbox) + 1 : len;
	}
	if (start >= len)
		return 0;
	*msg = mbox + start;
	*mlen = len - start;
	*pos = len;
	return 1;
}

/* Decodes header `name` of message `nth` (1-based) of an mbox file. */
static int decode_mbox_header(struct pc_buf *out, const char *rel, int nth,
			      const char *name)
{
	struct pc_buf file = PC_BUF_INIT, val = PC_BUF_INIT;
	const char *msg = NULL;
	size_t mlen = 0, pos = 0;
	int i, rc;

	t_read_file(&file, t_data(rel));
	for (i = 0; i < nth; i++)
		assert_true(
			next_message(&msg, &mlen, file.buf, file.len, &pos));
	assert_true(header_value(&val, msg, mlen, name));
	pc_buf_reset(out);
	rc = pc_rfc2047_decode(out, val.buf, val.len);
	assert_true(pc_utf8_valid(out->buf, out->len));
	pc_buf_release(&val);
	pc_buf_release(&file);
	return rc;
}

/* The value after "<field>: " in a git t5100 info file. */
static void info_field(struct pc_buf *out, const char *rel, const char *field)
{
	struct pc_buf file = PC_BUF_INIT;

	t_read_file(&file, t_data(rel));
	assert_true(header_value(out, file.buf, file.len, field));
	pc_buf_release(&file);
}

static void assert_starts(const struct pc_buf *b, const struct pc_buf *pre)
{
	if (b->len < pre->len || memcmp(b->buf, pre->buf, pre->len))
		fail_msg("'%s' does not start with '%s'", b->buf, pre->buf);
}

static void test_rfc2047__git_t5100(void **state)
{
	static const struct {
		int msg;
		const char *header, *info, *field;
	} c[] = {
		{ 4, "From", "corpus/git-t5100/info0004", "Author" },
		{ 5, "From", "corpus/git-t5100/info0005", "Author" },
		{ 10, "From", "corpus/git-t5100/info0010", "Author" },
	};
	struct pc_buf got = PC_BUF_INIT, want = PC_BUF_INIT;
	const char *subj;
	size_t i, n = 0, pos = 0, mlen;
	struct pc_buf file = PC_BUF_INIT;
	const char *msg;

	(void)state;
	/* The splitter above agrees with git mailsplit's count. */
	t_read_file(&file, t_data("corpus/git-t5100/sample.mbox"));
	while (next_message(&msg, &mlen, file.buf, file.len, &pos))
		n++;
	assert_int_equal(n, 18);
	pc_buf_release(&file);

	for (i = 0; i < PC_ARRAY_SIZE(c); i++) {
		assert_int_equal(
			decode_mbox_header(&got, "corpus/git-t5100/sample.mbox",
					   c[i].msg, c[i].header),
			EX);
		info_field(&want, c[i].info, c[i].field);
		pc_buf_addch(&want, ' ');
		assert_starts(&got, &want);
	}
	assert_string_equal(got.buf,
			    "Lukas Sandstr\xc3\xb6m <lukass@etek.chalmers.se>");

	/* Three folded B words after a list tag. */
	assert_int_equal(decode_mbox_header(&got,
					    "corpus/git-t5100/sample.mbox", 12,
					    "Subject"),
			 EX);
	info_field(&want, "corpus/git-t5100/info0012", "Subject");
	subj = "[Navy-patches] [PATCH]\t";
	assert_int_equal(got.len, strlen(subj) + want.len);
	assert_memory_equal(got.buf, subj, strlen(subj));
	assert_string_equal(got.buf + strlen(subj), want.buf);
	assert_string_equal(want.buf,
			    "\xd0\x98\xd0\xb7\xd0\xbc\xd0\xb5\xd0\xbd\xd1\x91"
			    "\xd0\xbd \xd1\x81\xd0\xbf\xd0\xb8\xd1\x81\xd0\xbe"
			    "\xd0\xba \xd0\xbf\xd0\xb0\xd0\xba\xd0\xb5\xd1\x82"
			    "\xd0\xbe\xd0\xb2 \xd0\xbd\xd0\xb5\xd0\xbe\xd0\xb1"
			    "\xd1\x85\xd0\xbe\xd0\xb4\xd0\xb8\xd0\xbc\xd1\x8b"
			    "\xd1\x85 \xd0\xb4\xd0\xbb\xd1\x8f \xd1\x81\xd0\xb1"
			    "\xd0\xbe\xd1\x80\xd0\xba\xd0\xb8");
	pc_buf_release(&got);
	pc_buf_release(&want);
}

static void test_rfc2047__public_inbox_utf8(void **state)
{
	struct pc_buf got = PC_BUF_INIT;

	(void)state;
	assert_int_equal(decode_mbox_header(&got,
					    "corpus/public-inbox/utf8.eml", 1,
					    "From"),
			 EX);
	assert_string_equal(got.buf, "El\xc3\xa9\x61nor <e@example.com>");
	assert_int_equal(decode_mbox_header(&got,
					    "corpus/public-inbox/utf8.eml", 1,
					    "Subject"),
			 EX);
	assert_string_equal(got.buf, "Testing for El\xc3\xa9\x61nor");
	pc_buf_release(&got);
}

static void test_rfc2047__gb2312_label_gbk_bytes(void **state)
{
	struct pc_buf got = PC_BUF_INIT;

	(void)state;
	assert_int_equal(decode_mbox_header(
				 &got,
				 "corpus/lore-nvdimm/messages/"
				 "gb2312-encoded-subject-spam.2b7354f16de7.eml",
				 1, "Subject"),
			 EX);
	assert_string_equal(got.buf,
			    "ヨドバシドットコム：「お客様情報」変更依頼受付の"
			    "ご連絡 cs0cmtfh8etr");
	pc_buf_release(&got);
}

static void test_rfc2047__patchew_cc(void **state)
{
	struct pc_buf got = PC_BUF_INIT;

	(void)state;
	assert_int_equal(
		decode_mbox_header(
			&got, "corpus/patchew/0018-mime-word-recipient.mbox.gz",
			1, "Cc"),
		EX);
	assert_non_null(strstr(got.buf,
			       "nongnu.org,\tPhilippe Mathieu-Daud\xc3\xa9 "
			       "<f4bug@amsat.org>,\tqemu-devel"));
	pc_buf_release(&got);
}

static void test_rfc2047__lore_dm_pcache(void **state)
{
	const char *want = "[RFC v2 00/11] dm-pcache \xe2\x80\x93 "
			   "persistent-memory cache for block devices";
	struct pc_buf file = PC_BUF_INIT, val = PC_BUF_INIT, got = PC_BUF_INIT;
	size_t pos = 0, mlen, n = 0, replies = 0;
	const char *msg;

	(void)state;
	t_read_file(&file, t_data("corpus/lore-nvdimm/threads/"
				  "rfc2047-subjects-dm-pcache.mbox"));
	while (next_message(&msg, &mlen, file.buf, file.len, &pos)) {
		if (!header_value(&val, msg, mlen, "Subject"))
			continue;
		pc_buf_reset(&got);
		assert_int_equal(pc_rfc2047_decode(&got, val.buf, val.len), EX);
		assert_true(pc_utf8_valid(got.buf, got.len));
		assert_null(strstr(got.buf, "=?"));
		if (n++ == 0)
			assert_string_equal(got.buf, want); /* raw en dash */
		if (pc_memimem(val.buf, val.len, "=?UTF-8?Q?")) {
			assert_string_equal(got.buf + 4, want);
			assert_memory_equal(got.buf, "Re: ", 4);
			replies++;
		}
	}
	assert_true(n >= 12);
	assert_int_equal(replies, 6);
	pc_buf_release(&got);
	pc_buf_release(&val);
	pc_buf_release(&file);
}

static void test_rfc2047__patchwork_fuzz(void **state)
{
	static const char *const files[] = {
		"corpus/patchwork/fuzz/base64err.mbox",
		"corpus/patchwork/fuzz/charset.mbox",
		"corpus/patchwork/fuzz/msgid-len.mbox",
		"corpus/patchwork/fuzz/refshdr.mbox",
		"corpus/patchwork/fuzz/dateheader.mbox",
	};
	static const char *const headers[] = { "From", "To",	     "Subject",
					       "Cc",   "References", "Date" };
	struct pc_buf file = PC_BUF_INIT, val = PC_BUF_INIT, got = PC_BUF_INIT;
	size_t f, h;

	(void)state;
	for (f = 0; f < PC_ARRAY_SIZE(files); f++) {
		pc_buf_reset(&file);
		t_read_file(&file, t_data(files[f]));
		for (h = 0; h < PC_ARRAY_SIZE(headers); h++) {
			if (!header_value(&val, file.buf, file.len, headers[h]))
				continue;
			pc_buf_reset(&got);
			pc_rfc2047_decode(&got, val.buf, val.len);
			assert_true(pc_utf8_valid(got.buf, got.len));
		}
	}
	/* The broken word holds whitespace: it stays text. */
	decode_mbox_header(&got, "corpus/patchwork/fuzz/base64err.mbox", 1,
			   "From");
	assert_non_null(strstr(got.buf, "=?utf-8?b?UmFmYcWCo alho"));
	pc_buf_release(&got);
	pc_buf_release(&val);
	pc_buf_release(&file);
}

/* xorshift64*: deterministic, state on the caller's stack. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static void test_rfc2047__truncations_and_random(void **state)
{
	static const char *const real[] = {
		"[Navy-patches] [PATCH]\t"
		"=?utf-8?b?0JjQt9C80LXQvdGR0L0g0YHQv9C40YHQvtC6INC/0LA=?=\t"
		"=?utf-8?b?0LrQtdGC0L7QsiDQvdC10L7QsdGF0L7QtNC40LzRi9GFINC00LvRjyA="
		"?=\t=?utf-8?b?0YHQsdC+0YDQutC4?=",
		"=?gb2312?B?peilyaXQpbelyaXDpcils6Xgo7qhuKSqv82YlMfpiPOhuYnkuPzSwA=="
		"?=\t=?gb2312?B?7m3K3Li2pM6ktN9CvWogY3MwY210Zmg4ZXRy?=",
		"YOSHIFUJI Hideaki / =?ISO-2022-JP?B?GyRCNUhGIzFRTEAbKEI=?= "
		"\t<yoshfuji@linux-ipv6.org>",
		"=?UTF-8?Q?Re=3A_=5BRFC_v2_00=2F11=5D_dm-pcache_=E2=80=93_pers?= "
		"=?UTF-8?Q?istent-memory_cache_for_block_devices?=",
	};
	static const char alphabet[] = "=?=?QqBb_ \t\r\nutf-8*iso-2022-jp"
				       "\x1b$(\xc3\xa9\xe9\x80\xff\xef\xbb\xbf"
				       "YQ==0123456789ABCDEF";
	struct pc_buf out = PC_BUF_INIT;
	uint64_t seed = 0x243f6a8885a308d3u;
	char bytes[160];
	size_t i, n, k;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(real); i++) {
		size_t len = strlen(real[i]);

		for (n = 0; n <= len; n++) {
			/* Heap copies, so ASan sees reads past the end. */
			char *p = xmemdupz(real[i], n);

			pc_buf_reset(&out);
			pc_rfc2047_decode(&out, p, n);
			assert_true(pc_utf8_valid(out.buf, out.len));
			pc_buf_reset(&out);
			pc_rfc2047_decode(&out, real[i] + n, len - n);
			assert_true(pc_utf8_valid(out.buf, out.len));
			free(p);
		}
	}
	for (i = 0; i < 20000; i++) {
		n = rnd(&seed) % sizeof(bytes);
		for (k = 0; k < n; k++) {
			uint64_t r = rnd(&seed);

			bytes[k] =
				(r >> 32) % 8 ?
					alphabet[r % (sizeof(alphabet) - 1)] :
					(char)(r >> 16);
		}
		pc_buf_reset(&out);
		pc_rfc2047_decode(&out, bytes, n);
		assert_true(pc_utf8_valid(out.buf, out.len));
	}
	pc_buf_release(&out);
}

/*
 * Inputs built to make a naive scanner quadratic: many "=?" starts whose
 * text runs on, a word that never ends, many adjacent words. Linear time
 * keeps each well under the generous CPU-time bound.
 */
static void test_rfc2047__linear_on_pathological_input(void **state)
{
	static const char *const unit[] = {
		"=?a?q?",
		"AAAAAAAA" /* after one "=?utf-8?q?" */,
		"=?utf-8?q?=C3?= ",
		"=?=?",
		"=?utf-8?b?YWJj",
		"?",
		"=",
	};
	struct pc_buf in = PC_BUF_INIT, out = PC_BUF_INIT;
	size_t u;
	clock_t t0;

	(void)state;
	for (u = 0; u < PC_ARRAY_SIZE(unit); u++) {
		pc_buf_reset(&in);
		if (u == 1)
			pc_buf_addstr(&in, "=?utf-8?q?");
		while (in.len < (1 << 18))
			pc_buf_addstr(&in, unit[u]);
		pc_buf_reset(&out);
		t0 = clock();
		pc_rfc2047_decode(&out, in.buf, in.len);
		assert_true(pc_utf8_valid(out.buf, out.len));
		if (clock() - t0 > 10 * CLOCKS_PER_SEC)
			fail_msg("pattern %zu is slow", u);
	}
	pc_buf_release(&in);
	pc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc2047__q_and_b),
		cmocka_unit_test(test_rfc2047__bad_q_escapes_stay),
		cmocka_unit_test(test_rfc2047__lenient_base64),
		cmocka_unit_test(test_rfc2047__adjacent_words),
		cmocka_unit_test(test_rfc2047__bom_and_language),
		cmocka_unit_test(test_rfc2047__placement),
		cmocka_unit_test(test_rfc2047__malformed_kept),
		cmocka_unit_test(test_rfc2047__raw_8bit),
		cmocka_unit_test(test_rfc2047__git_t5100),
		cmocka_unit_test(test_rfc2047__public_inbox_utf8),
		cmocka_unit_test(test_rfc2047__gb2312_label_gbk_bytes),
		cmocka_unit_test(test_rfc2047__patchew_cc),
		cmocka_unit_test(test_rfc2047__lore_dm_pcache),
		cmocka_unit_test(test_rfc2047__patchwork_fuzz),
		cmocka_unit_test(test_rfc2047__truncations_and_random),
		cmocka_unit_test(test_rfc2047__linear_on_pathological_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
