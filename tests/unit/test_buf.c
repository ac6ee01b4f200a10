// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/util/buf: growth, NUL-termination, embedded NULs. */
#include "testutil.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include <stdlib.h>

#include <string.h>

static void test_buf__empty_is_terminated(void **state)
{
	struct pc_buf b = PC_BUF_INIT;

	(void)state;
	assert_non_null(b.buf);
	assert_int_equal(b.buf[0], '\0');
	pc_buf_release(&b);
	assert_int_equal(b.len, 0);
}

static void test_buf__grows_and_keeps_nuls(void **state)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i, len;
	char *p;

	(void)state;
	for (i = 0; i < 10000; i++)
		pc_buf_add(&b, "a\0b", 3);
	assert_int_equal(b.len, 30000);
	assert_memory_equal(b.buf + 29997, "a\0b", 3);
	assert_int_equal(b.buf[b.len], '\0');
	p = pc_buf_detach(&b, &len);
	assert_int_equal(len, 30000);
	assert_int_equal(b.len, 0);
	free(p);
}

static void test_buf__addf(void **state)
{
	struct pc_buf b = PC_BUF_INIT;
	char big[300];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pc_buf_addf(&b, "%d-%s", 42, "z");
	pc_buf_addf(&b, "%s", big);
	assert_int_equal(b.len, 4 + 299);
	assert_memory_equal(b.buf, "42-z", 4);
	pc_buf_addstr(&b, "  \n");
	pc_buf_rtrim(&b);
	assert_int_equal(b.len, 4 + 299);
	pc_buf_release(&b);
}

static void test_buf__err_prefix_keeps_code(void **state)
{
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(pc_err_set(&err, PC_EPARSE, "bad '%s'", "x"),
			 PC_EPARSE);
	assert_int_equal(pc_err_prefix(&err, "msg <%s>", "a@b"), PC_EPARSE);
	assert_string_equal(err.msg, "msg <a@b>: bad 'x'");
}

/* The plain definition pc_memimem must agree with. */
static const char *memimem_reference(const char *p, size_t len,
				     const char *needle)
{
	size_t n = strlen(needle), i, k;

	for (i = 0; i + n <= len; i++) {
		for (k = 0; k < n; k++)
			if (pc_tolower((unsigned char)p[i + k]) !=
			    pc_tolower((unsigned char)needle[k]))
				break;
		if (k == n)
			return p + i;
	}
	return NULL;
}

static void test_util__memimem_agrees_with_definition(void **state)
{
	static const char alphabet[] = "aAbBbB-\n\xc3";
	static const char *const needles[] = {
		"",    "a",	"B",	   "ab",     "Ba",	    "aab",
		"b-A", "abab-", "aBba-bA", "ab\nba", "bBbBbBbBbBbB"
	};
	unsigned seed = 12345;
	char hay[700];
	size_t i, k, len;
	int round;

	(void)state;
	assert_null(pc_memimem("abc", 3, "abcd"));
	assert_ptr_equal(pc_memimem("xyz", 0, ""), "xyz");
	/* Short and long haystacks: the long ones take the skip search. */
	for (round = 0; round < 6000; round++) {
		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % (round % 2 ? sizeof(hay) : 24);
		for (i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			hay[i] =
				alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		for (k = 0; k < sizeof(needles) / sizeof(needles[0]); k++)
			assert_ptr_equal(pc_memimem(hay, len, needles[k]),
					 memimem_reference(hay, len,
							   needles[k]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf__empty_is_terminated),
		cmocka_unit_test(test_buf__grows_and_keeps_nuls),
		cmocka_unit_test(test_buf__addf),
		cmocka_unit_test(test_util__memimem_agrees_with_definition),
		cmocka_unit_test(test_buf__err_prefix_keeps_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
