// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/util/hash: SHA-256 (sha256.c) on FIPS 180-4's
 * examples and on every length up to five blocks, whose expected digest
 * was computed with Python's hashlib; SHA-1 on its examples.
 */
#include "testutil.h"
#include "util/hash.h"
#include "util/util.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static void check256(const void *p, size_t len, const char *want)
{
	unsigned char d[PC_SHA256_LEN];
	char hex[2 * PC_SHA256_LEN + 1];

	pc_sha256(d, p, len);
	pc_hex(hex, d, sizeof(d));
	assert_string_equal(hex, want);
}

static void test_hash__sha256_examples(void **state)
{
	char *a = xmalloc(1000000);

	(void)state;
	check256(
		"", 0,
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check256(
		"abc", 3,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check256(
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(a, 'a', 1000000);
	check256(
		a, 1000000,
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

/* The digests of the prefixes of 0 to 300 bytes of a pattern, hashed in
 * a row: every way a message can end in its last block or two. */
static void test_hash__sha256_every_length(void **state)
{
	unsigned char pat[300], *all = xmalloc(301 * PC_SHA256_LEN);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pat); i++)
		pat[i] = (unsigned char)((i * 7 + 3) & 255);
	for (i = 0; i <= sizeof(pat); i++)
		pc_sha256(all + i * PC_SHA256_LEN, pat, i);
	check256(
		all, 301 * PC_SHA256_LEN,
		"7d917fbd2cf49ddff9ad0a8706bba32d204e92e71d2e369c5a03d6af29278c9f");
	free(all);
}

static void test_hash__sha1_examples(void **state)
{
	struct pc_sha1 *c = pc_sha1_new();
	unsigned char d[PC_SHA1_LEN];
	char hex[2 * PC_SHA1_LEN + 1];

	(void)state;
	pc_sha1_update(c, "abc", 3);
	pc_sha1_final(d, c);
	pc_hex(hex, d, sizeof(d));
	assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
	/* The context starts again after final. */
	pc_sha1_final(d, c);
	pc_hex(hex, d, sizeof(d));
	assert_string_equal(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	pc_sha1_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash__sha256_examples),
		cmocka_unit_test(test_hash__sha256_every_length),
		cmocka_unit_test(test_hash__sha1_examples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
