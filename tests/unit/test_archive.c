// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/mail/archive.c: links to a message in the list's
 * archive, percent-encoded, and the patterns refused.
 */
#include "testutil.h"
#include "mail/archive.h"
#include "util/buf.h"

static void test_archive__url(void **state)
{
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(pc_archive_url(&out, NULL, "a/b%c?d#e@f.org", &err),
			 0);
	assert_string_equal(
		out.buf, "https://lore.kernel.org/r/a%2Fb%25c%3Fd%23e@f.org");
	pc_buf_reset(&out);
	assert_int_equal(pc_archive_url(&out, "https://mail.example/m/%s/raw",
					"x\xc3\xa9 y@z", &err),
			 0);
	assert_string_equal(out.buf,
			    "https://mail.example/m/x%C3%A9%20y@z/raw");
	pc_buf_reset(&out);
	assert_int_equal(pc_archive_url(&out, "https://x/", "a", &err),
			 PC_EUSAGE);
	assert_int_equal(pc_archive_url(&out, "https://x/%s/%s", "a", &err),
			 PC_EUSAGE);
	assert_int_equal(pc_archive_url(&out, "https://x /%s", "a", &err),
			 PC_EUSAGE);
	assert_int_equal(out.len, 0);
	pc_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_archive__url),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
