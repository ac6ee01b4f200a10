// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/apply/am.c: where git am splits a patch mail, and
 * the commit message with the list's trailers merged as b4 does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "apply/am.h"
#include "util/buf.h"

static const char DIFF[] = "diff --git a/f.c b/f.c\n"
			   "index 1111111..2222222 100644\n"
			   "--- a/f.c\n"
			   "+++ b/f.c\n"
			   "@@ -1 +1 @@\n"
			   "-a\n"
			   "+b\n";

static void split(const char *body, const char *want_msg, const char *want_diff)
{
	const char *diff = NULL;
	size_t msg_len = 0, diff_len = 0;
	struct pc_err err = { 0 };

	if (pc_am_split(&msg_len, &diff, &diff_len, body, strlen(body), &err) !=
	    0)
		fail_msg("split: %s", err.msg);
	if (msg_len != strlen(want_msg) || memcmp(body, want_msg, msg_len))
		fail_msg("message: '%.*s', want '%s'", (int)msg_len, body,
			 want_msg);
	if (diff_len != strlen(want_diff) || memcmp(diff, want_diff, diff_len))
		fail_msg("diff: '%.*s', want '%s'", (int)diff_len, diff,
			 want_diff);
}

static void test_am__split(void **state)
{
	struct pc_err err = { 0 };
	const char *d;
	size_t a, b;
	char body[1024];

	(void)state;
	/* git format-patch: message, ---, diffstat, diff, signature. */
	snprintf(body, sizeof(body),
		 "Make f say b.\n\nSigned-off-by: A <a@x>\n---\n"
		 " f.c | 2 +-\n 1 file changed\n\n%s-- \n2.39.2\n\n",
		 DIFF);
	split(body, "Make f say b.\n\nSigned-off-by: A <a@x>\n", DIFF);
	/* No separator: the message ends where the diff starts. */
	snprintf(body, sizeof(body), "Why.\n%s", DIFF);
	split(body, "Why.\n", DIFF);
	/* A bare unified diff (no "diff --git" line). */
	split("Why.\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n", "Why.\n",
	      "--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-a\n+b\n");
	/* "---" inside the message body ends it (as in git). */
	assert_int_equal(pc_am_split(&a, &d, &b, "no diff\n---\ntext\n", 18,
				     &err),
			 PC_EPARSE);
}

static char *message(const char *title, const char *msg,
		     const struct pc_am_trailer *add, size_t n,
		     const char *link)
{
	struct pc_buf out = PC_BUF_INIT;

	pc_am_message(&out, title, msg, strlen(msg), add, n, link);
	return pc_buf_detach(&out, NULL);
}

static void test_am__message(void **state)
{
	static const struct pc_am_trailer add[] = {
		{ "Reviewed-by", "R Viewer <r@x>" },
		{ "Signed-off-by", "A U Thor <a@x>" }, /* already there */
		{ "Acked-by", "M Tainer <m@x>" },
		{ "reviewed-by", "R  Viewer <R@X>" }, /* the same, again */
	};
	char *s;

	(void)state;
	s = message("f: say b",
		    "Make f say b.\n\nSigned-off-by: A U Thor <a@x>\n", add, 4,
		    "https://lore.kernel.org/r/p1@x");
	assert_string_equal(s, "f: say b\n\nMake f say b.\n\n"
			       "Signed-off-by: A U Thor <a@x>\n"
			       "Reviewed-by: R Viewer <r@x>\n"
			       "Acked-by: M Tainer <m@x>\n"
			       "Link: https://lore.kernel.org/r/p1@x\n");
	free(s);
	/* In-body headers dropped; no trailer block yet: one is started. */
	s = message("f: say b",
		    "From: Real Author <ra@x>\nDate: Mon, 1 Jan 2024\n\n"
		    "Make f say b.\n\n\n",
		    add, 1, NULL);
	assert_string_equal(s, "f: say b\n\nMake f say b.\n\n"
			       "Reviewed-by: R Viewer <r@x>\n");
	free(s);
	/* A title alone. */
	s = message("f: say b", "\n", NULL, 0, "https://l/r/x");
	assert_string_equal(s, "f: say b\n\nLink: https://l/r/x\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_am__split),
		cmocka_unit_test(test_am__message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
