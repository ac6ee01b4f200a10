// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/util/buf: growth, NUL-termination, embedded NULs. */
#include "testutil.h"
#include "util/buf.h"
#include "util/err.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf__empty_is_terminated),
		cmocka_unit_test(test_buf__grows_and_keeps_nuls),
		cmocka_unit_test(test_buf__addf),
		cmocka_unit_test(test_buf__err_prefix_keeps_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
