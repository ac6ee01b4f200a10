// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/apply/tags.c: the tags of a real git repository
 * (made with the git command line in a temporary directory), with the
 * tagger date of annotated tags and the commit date of lightweight ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "apply/tags.h"
#include "util/xalloc.h"

struct seen {
	char names[4][32];
	int64_t when[4];
	int n;
};

static int collect(const char *name, int64_t when, void *arg)
{
	struct seen *s = arg;

	if (s->n < 4) {
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", name);
		s->when[s->n++] = when;
	}
	return 0;
}

static void test_tags__annotated_and_lightweight(void **state)
{
	char *dir = t_mkdtemp(), *cmd;
	struct seen s = { 0 };
	struct pc_err err = { 0 };
	int i;

	(void)state;
	/* Commit dated 2023-01-01 00:00 UTC; v6.2-rc1 annotated, tagged
	 * 2022-12-25 22:00 UTC; v6.1 lightweight (the commit's date). */
	t_sh(dir, "git init -q r && cd r && "
		  "GIT_COMMITTER_DATE=2023-01-01T00:00:00Z git -c user.name=t "
		  "-c user.email=t@x commit -q --allow-empty -m c && "
		  "GIT_COMMITTER_DATE=2022-12-25T22:00:00Z git -c user.name=t "
		  "-c user.email=t@x tag -a -m rc1 v6.2-rc1 && git tag v6.1");
	cmd = xasprintf("%s/r", dir);
	assert_int_equal(pc_tree_tags(cmd, collect, &s, &err), 0);
	assert_int_equal(s.n, 2);
	for (i = 0; i < s.n; i++) {
		if (!strcmp(s.names[i], "v6.2-rc1"))
			assert_int_equal(s.when[i], 1672005600);
		else if (!strcmp(s.names[i], "v6.1"))
			assert_int_equal(s.when[i], 1672531200);
		else
			fail_msg("unexpected tag %s", s.names[i]);
	}
	free(cmd);
	/* Not a repository: a clear error. */
	assert_int_equal(pc_tree_tags(dir, collect, &s, &err), PC_EIO);
	assert_non_null(strstr(err.msg, "git repository"));
	t_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tags__annotated_and_lightweight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
