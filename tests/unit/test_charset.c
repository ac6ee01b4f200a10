// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/mail/charset: UTF-8 validation, the WHATWG-style label
 * mapping, the UTF-8/windows-1252 fallback, BOM removal, and valid UTF-8
 * out of random bytes in every charset.
 */
#include "testutil.h"
#include "mail/charset.h"
#include "util/util.h"
#include <stdint.h>
#include <string.h>

struct conv_case {
	const char *charset;
	const char *in;
	size_t inlen; /* 0: strlen(in) */
	const char *want;
	int rc;
};

static void check_conv(const struct conv_case *c)
{
	struct pc_buf out = PC_BUF_INIT;
	size_t n = c->inlen ? c->inlen : strlen(c->in);
	int rc;

	pc_buf_addstr(&out, "<");
	rc = pc_charset_to_utf8(&out, c->charset, c->in, n);
	if (strcmp(out.buf + 1, c->want) || rc != c->rc)
		fail_msg("charset '%s': got '%s' rc %d, want '%s' rc %d",
			 c->charset ? c->charset : "(null)", out.buf + 1, rc,
			 c->want, c->rc);
	assert_int_equal(out.buf[0], '<');
	assert_true(pc_utf8_valid(out.buf, out.len));
	pc_buf_release(&out);
}

static void run_cases(const struct conv_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		check_conv(&c[i]);
}

#define EX PC_CHARSET_EXACT
#define FB PC_CHARSET_FALLBACK

static void test_charset__utf8_valid(void **state)
{
	static const struct {
		const char *s;
		size_t len;
		int valid;
	} v[] = {
		{ "", 0, 1 },
		{ "abc\0def", 7, 1 },
		{ "\xc3\xa9", 2, 1 },
		{ "\xe2\x82\xac", 3, 1 },
		{ "\xf0\x9f\x98\x80", 4, 1 },
		{ "\xf4\x8f\xbf\xbf", 4, 1 },
		{ "\xef\xbf\xbd", 3, 1 },
		{ "0123456789abcdef\xc3\xa9xyz", 21, 1 },
		{ "\xc3", 1, 0 }, /* truncated */
		{ "\xe2\x82", 2, 0 }, /* truncated */
		{ "\xc0\x80", 2, 0 }, /* overlong NUL */
		{ "\xc1\xbf", 2, 0 }, /* overlong */
		{ "\xe0\x80\xaf", 3, 0 }, /* overlong '/' */
		{ "\xf0\x80\x80\xaf", 4, 0 }, /* overlong '/' */
		{ "\xed\xa0\x80", 3, 0 }, /* surrogate */
		{ "\xed\xbf\xbf", 3, 0 }, /* surrogate */
		{ "\xf4\x90\x80\x80", 4, 0 }, /* above U+10FFFF */
		{ "\xf5\x80\x80\x80", 4, 0 },
		{ "\xff", 1, 0 },
		{ "\x80", 1, 0 }, /* lone continuation */
		{ "abcdefgh\xe9ijklmnop", 17, 0 }, /* Latin-1 */
		{ "\xc3\xa9\xc3", 3, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(v); i++)
		if (pc_utf8_valid(v[i].s, v[i].len) != v[i].valid)
			fail_msg("case %zu: want %d", i, v[i].valid);
}

static void test_charset__utf8_and_ascii(void **state)
{
	static const struct conv_case c[] = {
		{ "utf-8", "caf\xc3\xa9", 0, "caf\xc3\xa9", EX },
		{ "UTF-8", "caf\xc3\xa9", 0, "caf\xc3\xa9", EX },
		{ "utf8", "caf\xc3\xa9", 0, "caf\xc3\xa9", EX },
		{ "Utf_8", "caf\xc3\xa9", 0, "caf\xc3\xa9", EX },
		/* Invalid bytes in declared UTF-8 read as windows-1252. */
		{ "utf-8", "caf\xe9 \xc3\xa9", 0, "caf\xc3\xa9 \xc3\xa9", FB },
		{ "utf-8", "\xed\xa0\x80", 0, "\xc3\xad\xc2\xa0\xe2\x82\xac",
		  FB },
		{ "us-ascii", "plain", 0, "plain", EX },
		{ "US-ASCII", "plain", 0, "plain", EX },
		{ "ascii", "plain", 0, "plain", EX },
		{ "ANSI_X3.4-1968", "plain", 0, "plain", EX },
		/* Declared us-ascii but UTF-8 or Latin-1 bytes. */
		{ "us-ascii", "caf\xc3\xa9", 0, "caf\xc3\xa9", FB },
		{ "us-ascii", "caf\xe9", 0, "caf\xc3\xa9", FB },
		{ "us-ascii", "\x80", 0, "\xe2\x82\xac", FB },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__latin1_is_windows_1252(void **state)
{
	static const struct conv_case c[] = {
		{ "iso-8859-1", "caf\xe9", 0, "caf\xc3\xa9", EX },
		{ "ISO8859-1", "K\xe5gedal", 0, "K\xc3\xa5gedal", EX },
		{ "ISO_8859-1", "\xe9", 0, "\xc3\xa9", EX },
		{ "iso_8859-1:1987", "\xe9", 0, "\xc3\xa9", EX },
		{ "latin1", "\xe9", 0, "\xc3\xa9", EX },
		{ "l1", "\xe9", 0, "\xc3\xa9", EX },
		{ "cp819", "\xe9", 0, "\xc3\xa9", EX },
		{ "windows-1252", "\xe9", 0, "\xc3\xa9", EX },
		{ "cp1252", "\xe9", 0, "\xc3\xa9", EX },
		/* 0x80..0x9f are windows-1252's, not C1 controls. */
		{ "iso-8859-1", "\x80\x93\x94\x9f", 0,
		  "\xe2\x82\xac\xe2\x80\x9c\xe2\x80\x9d\xc5\xb8", EX },
		{ "iso-8859-1", "\xa0\xff", 0, "\xc2\xa0\xc3\xbf", EX },
		/* The five undefined bytes become U+FFFD. */
		{ "windows-1252", "a\x81\x62\x8d\x8f\x90\x9d", 0,
		  "a\xef\xbf\xbd\x62\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
		  FB },
		/* Declared Latin-1 wins over a UTF-8 reading. */
		{ "iso-8859-1", "\xc3\xa9", 0, "\xc3\x83\xc2\xa9", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__cjk(void **state)
{
	static const struct conv_case c[] = {
		/* GB2312 and GBK-only bytes, GB18030 four-byte forms. */
		{ "gb2312", "\xb0\xa1", 0, "\xe5\x95\x8a", EX },
		{ "gb2312", "\x81\x40", 0, "\xe4\xb8\x82", EX },
		{ "GBK", "\x81\x40", 0, "\xe4\xb8\x82", EX },
		{ "x-gbk", "\x81\x40", 0, "\xe4\xb8\x82", EX },
		{ "gb18030", "\x81\x30\x81\x30", 0, "\xc2\x80", EX },
		{ "euc-cn", "\xb0\xa1", 0, "\xe5\x95\x8a", EX },
		{ "chinese", "\xb0\xa1", 0, "\xe5\x95\x8a", EX },
		/* 吉藤英明 as ISO-2022-JP. */
		{ "iso-2022-jp", "\x1b$B5HF#1QL@\x1b(B", 0,
		  "\xe5\x90\x89\xe8\x97\xa4\xe8\x8b\xb1\xe6\x98\x8e", EX },
		{ "ISO-2022-JP", "A\x1b$B$\"\x1b(BB", 0, "A\xe3\x81\x82\x42",
		  EX },
		/* Shift_JIS, with CP932's NEC row 13 and backslash. */
		{ "shift_jis", "\x82\xa0", 0, "\xe3\x81\x82", EX },
		{ "sjis", "\x87\x40\\", 0, "\xe2\x91\xa0\\", EX },
		{ "x-sjis", "\x82\xa0", 0, "\xe3\x81\x82", EX },
		{ "euc-jp", "\xa4\xa2", 0, "\xe3\x81\x82", EX },
		/* EUC-KR and a CP949-only syllable. */
		{ "ks_c_5601-1987", "\xb0\xa1", 0, "\xea\xb0\x80", EX },
		{ "euc-kr", "\x81\x41", 0, "\xea\xb0\x82", EX },
		{ "big5", "\xa4\xa4", 0, "\xe4\xb8\xad", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__single_byte(void **state)
{
	static const struct conv_case c[] = {
		{ "iso-8859-2", "\xb1", 0, "\xc4\x85", EX },
		{ "ISO8859-15", "\xa4", 0, "\xe2\x82\xac", EX },
		{ "latin9", "\xa4", 0, "\xe2\x82\xac", EX },
		/* iso-8859-9 reads as windows-1254, as WHATWG says. */
		{ "iso-8859-9", "\x80\xfd", 0, "\xe2\x82\xac\xc4\xb1", EX },
		{ "windows-1251", "\xc0", 0, "\xd0\x90", EX },
		{ "cp1250", "\x8a", 0, "\xc5\xa0", EX },
		{ "koi8-r", "\xc1", 0, "\xd0\xb0", EX },
		{ "koi8-u", "\xa4", 0, "\xd1\x94", EX },
		/* Not in the table: handed to iconv, no ASCII shortcut. */
		{ "IBM037", "\xc1\xc2", 0, "AB", EX },
		{ "iso-8859-8-i", "\xe0", 0, "\xd7\x90", EX },
		/* ISO-8859-7 has holes: 0xae is undefined. */
		{ "iso-8859-7", "a\xae\x62", 0, "a\xc2\xae\x62", FB },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__utf16_utf7(void **state)
{
	static const struct conv_case c[] = {
		{ "utf-16", "\xff\xfe\x41\0\xe9\0", 6, "A\xc3\xa9", EX },
		{ "utf-16", "\xfe\xff\0A\0\xe9", 6, "A\xc3\xa9", EX },
		{ "UTF-16", "A\0", 2, "A", EX }, /* no BOM: little-endian */
		{ "utf-16le", "\xff\xfe\x41\0", 4, "A", EX },
		{ "utf-16be", "\xfe\xff\0A", 4, "A", EX },
		/* A lone surrogate and an odd byte out. */
		{ "utf-16le", "\x00\xd8\x41\0", 4, "\xef\xbf\xbd\x41", FB },
		{ "utf-16le", "A\0B", 3, "A\xef\xbf\xbd", FB },
		{ "utf-16be", "\xff\376A\0", 4, "A", EX }, /* BOM wins */
		{ "utf-7", "caf+AOk-", 0, "caf\xc3\xa9", EX },
		{ "UTF-7", "a+-b", 0, "a+b", EX },
		{ "utf-7", "plain", 0, "plain", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__unknown_labels(void **state)
{
	static const struct conv_case c[] = {
		{ NULL, "caf\xc3\xa9", 0, "caf\xc3\xa9", FB },
		{ "", "caf\xe9", 0, "caf\xc3\xa9", FB },
		{ NULL, "plain", 0, "plain", EX },
		{ "x-unknown", "caf\xc3\xa9", 0, "caf\xc3\xa9", FB },
		{ "X-UNKNOWN", "caf\xe9", 0, "caf\xc3\xa9", FB },
		{ "unknown-8bit", "caf\xe9", 0, "caf\xc3\xa9", FB },
		{ "no-such-charset", "caf\xe9", 0, "caf\xc3\xa9", FB },
		{ "no-such-charset", "plain", 0, "plain", EX },
		/* Quotes, whitespace and iconv suffixes are not labels. */
		{ "\"iso-8859-2\"", "\xc3\xa9", 0, "\xc3\xa9", FB },
		{ " iso-8859-2", "\xb1", 0, "\xc2\xb1", FB },
		{ "iso-8859-2 ", "\xb1", 0, "\xc2\xb1", FB },
		{ "utf-8//IGNORE", "\xe9", 0, "\xc3\xa9", FB },
		{ "iso-8859-2,utf-8", "\xe9", 0, "\xc3\xa9", FB },
		{ "iso-8859-99", "\xe9", 0, "\xc3\xa9", FB },
		{ "windows-1259", "\xe9", 0, "\xc3\xa9", FB },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__bad_bytes_fall_back(void **state)
{
	static const struct conv_case c[] = {
		/* Valid UTF-8 under a label it breaks: all of it is UTF-8. */
		{ "iso-2022-jp", "Kh\xc3\xa1n", 0, "Kh\xc3\xa1n", FB },
		{ "euc-jp", "\xe3\x81\x82", 0, "\xe3\x81\x82", FB },
		/* Else the bytes iconv rejects are windows-1252. */
		{ "shift_jis", "\x82\xa0\xa0\x82", 0,
		  "\xe3\x81\x82\xc2\xa0\xe2\x80\x9a", FB },
		{ "euc-jp", "a\xff\x62", 0, "a\xc3\xbf\x62", FB },
		{ "gb2312", "\xb0\xa1\xff", 0, "\xe5\x95\x8a\xc3\xbf", FB },
		/* A cut-off ISO-2022-JP shift keeps its bytes. */
		{ "iso-2022-jp", "a\x1b$B5", 0, "a\x1b$B5", FB },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__ascii_shortcut(void **state)
{
	static const struct conv_case c[] = {
		{ "iso-2022-jp", "plain text", 0, "plain text", EX },
		{ "gb2312", "plain text", 0, "plain text", EX },
		{ "koi8-r", "", 0, "", EX },
		{ "utf-16", "", 0, "", EX },
		{ "iso-2022-jp", "", 0, "", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

static void test_charset__bom_dropped(void **state)
{
	static const struct conv_case c[] = {
		{ "utf-8", "\xef\xbb\277abc", 0, "abc", EX },
		{ "utf-8", "\xef\xbb\xbf", 0, "", EX },
		{ NULL, "\xef\xbb\277caf\xc3\xa9", 0, "caf\xc3\xa9", FB },
		{ "us-ascii", "\xef\xbb\277abc", 0, "abc", EX },
		{ "iso-8859-1", "\xef\xbb\xbf\xe9", 0, "\xc3\xa9", EX },
		{ "utf-7", "+/v8-a", 0, "a", EX },
		/* Only a leading one. */
		{ "utf-8", "a\xef\xbb\xbf", 0, "a\xef\xbb\xbf", EX },
	};

	(void)state;
	run_cases(c, PC_ARRAY_SIZE(c));
}

/* xorshift64*: deterministic, state on the caller's stack. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static void test_charset__random_bytes_give_valid_utf8(void **state)
{
	static const char *const labels[] = {
		NULL,		"utf-8",	"us-ascii",    "iso-8859-1",
		"windows-1252", "gb2312",	"gb18030",     "iso-2022-jp",
		"shift_jis",	"euc-jp",	"euc-kr",      "big5",
		"iso-8859-7",	"koi8-r",	"utf-16",      "utf-16le",
		"utf-16be",	"utf-7",	"IBM037",      "x-unknown",
		"iso-2022-kr",	"windows-1258", "iso-8859-11", "macintosh",
	};
	unsigned char bytes[96];
	uint64_t seed = 0x9e3779b97f4a7c15u;
	struct pc_buf out = PC_BUF_INIT;
	size_t i, j, k, n;
	int rc;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(labels); i++) {
		for (j = 0; j < 1500; j++) {
			n = rnd(&seed) % sizeof(bytes);
			for (k = 0; k < n; k++) {
				uint64_t r = rnd(&seed);

				/* Mostly high bytes, escapes and '+'. */
				bytes[k] =
					(r >> 8) % 4 ?
						(unsigned char)r :
						(unsigned char)"\x1b$B(+-\x0e\x0f"
							[r % 8];
			}
			pc_buf_reset(&out);
			rc = pc_charset_to_utf8(&out, labels[i],
						(const char *)bytes, n);
			assert_true(rc == EX || rc == FB);
			if (!pc_utf8_valid(out.buf, out.len))
				fail_msg("invalid UTF-8 from '%s'",
					 labels[i] ? labels[i] : "(null)");
		}
	}
	pc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_charset__utf8_valid),
		cmocka_unit_test(test_charset__utf8_and_ascii),
		cmocka_unit_test(test_charset__latin1_is_windows_1252),
		cmocka_unit_test(test_charset__cjk),
		cmocka_unit_test(test_charset__single_byte),
		cmocka_unit_test(test_charset__utf16_utf7),
		cmocka_unit_test(test_charset__unknown_labels),
		cmocka_unit_test(test_charset__bad_bytes_fall_back),
		cmocka_unit_test(test_charset__ascii_shortcut),
		cmocka_unit_test(test_charset__bom_dropped),
		cmocka_unit_test(test_charset__random_bytes_give_valid_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
