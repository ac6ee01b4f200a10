// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/util/iniline.c: the one INI line reader of the
 * configuration and of profile override files (byte order mark, CR LF,
 * NUL bytes, long lines and comments, section lines).
 */
#include <string.h>

#include "testutil.h"
#include "util/err.h"
#include "util/iniline.h"

static void test_iniline__lines(void **state)
{
	static const char text[] = "\xef\xbb\xbf[general]\r\n"
				   "; a long comment is cut\n"
				   "key = value\n"
				   "nul = a\0b\n"
				   "long = 0123456789\n"
				   "last";
	struct pc_ini_lines l = { text, sizeof(text) - 1, 0, 0 };
	const char *p, *why = NULL;
	size_t n;

	(void)state;
	assert_int_equal(pc_ini_next(&l, 12, &p, &n, &why), 1);
	assert_int_equal(n, 9);
	assert_memory_equal(p, "[general]", 9);
	assert_int_equal(pc_ini_next(&l, 12, &p, &n, &why), 1);
	assert_int_equal(n, 12);
	assert_int_equal(pc_ini_next(&l, 12, &p, &n, &why), 1);
	assert_memory_equal(p, "key = value", n);
	assert_int_equal(pc_ini_next(&l, 12, &p, &n, &why), PC_EPARSE);
	assert_string_equal(why, "NUL byte in the line");
	assert_int_equal(pc_ini_next(&l, 12, &p, &n, &why), PC_ELIMIT);
	assert_int_equal(l.lineno, 5);
	assert_int_equal(pc_ini_next(&l, 12, &p, &n, &why), 1);
	assert_memory_equal(p, "last", n);
	assert_int_equal(pc_ini_next(&l, 12, &p, &n, &why), 0);
}

static void test_iniline__sections(void **state)
{
	const char *name = NULL, *why = NULL;
	size_t len = 0;

	(void)state;
	/* A MAINTAINERS entry's name holds ']'; a comment may follow. */
	assert_int_equal(pc_ini_section("[ NETWORKING [GENERAL] ] ; x", 28,
					&name, &len, &why),
			 1);
	assert_int_equal(len, 20);
	assert_memory_equal(name, "NETWORKING [GENERAL]", len);
	assert_int_equal(pc_ini_section("key = [x]", 9, &name, &len, &why), 0);
	assert_int_equal(pc_ini_section("[smtp", 5, &name, &len, &why),
			 PC_EPARSE);
	assert_string_equal(why, "section line without a closing ']'");
	assert_int_equal(pc_ini_section("[a] b", 5, &name, &len, &why),
			 PC_EPARSE);
	assert_int_equal(pc_ini_section("[ ]", 3, &name, &len, &why),
			 PC_EPARSE);
	assert_string_equal(why, "empty section name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iniline__lines),
		cmocka_unit_test(test_iniline__sections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
