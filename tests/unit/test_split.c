// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/patch/split.c: whether a cover letter asks each
 * subsystem to apply its own part. The first is Uwe Kleine-König's
 * cover letter of "[PATCH 000/606] i2c: Complete conversion to
 * i2c_probe_new" (linux-integrity 2022-11-18), wrapped as he wrapped it.
 */
#include <string.h>

#include "testutil.h"
#include "patch/split.h"

static int split(const char *s)
{
	return pc_split_by_tree(s, strlen(s));
}

static void test_split__asks(void **state)
{
	(void)state;
	assert_true(split(
		"I don't think it's feasable to apply this series in one go, "
		"so I ask the\nmaintainers of the changed files to apply via "
		"their tree. I guess it\nwill take a few kernel release "
		"iterations until all patch are in, but I\nthink a single "
		"tree creates too much conflicts.\n"));
	/* Wrapped inside the phrase, indented. */
	assert_true(split("The patches are independent and should go through\n"
			  "   the respective subsystem trees.\n"));
	assert_true(split("Each patch can be applied\nindependently.\n"));
}

static void test_split__one_tree(void **state)
{
	(void)state;
	/* One tree, the series whole. */
	assert_false(split("Andrew, please take this via your tree.\n"));
	assert_false(split("This depends on patch 1, so the whole series "
			   "should go through the mm tree.\n"));
	/* Someone else's words, quoted; the patch below the prose. */
	assert_false(split("> can be applied independently\n\nNo: 3/5 "
			   "needs 1/5.\n"));
	assert_false(split("Cleanups.\n---\n+/* can be applied "
			   "independently */\n"));
	assert_false(split("") || pc_split_by_tree(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split__asks),
		cmocka_unit_test(test_split__one_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
