// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/maint/tracked.c: tracked paths of a real git
 * repository, as `git ls-files` answers them, from the cache and without
 * it; a new index is read again; a worktree's .git file is followed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "testutil.h"
#include "maint/tracked.h"
#include "util/xalloc.h"

static void check_all(const char *repo, const char *cache)
{
	assert_int_equal(pc_tracked(repo, cache, "drivers/w/w.c"), 1);
	assert_int_equal(pc_tracked(repo, cache, "drivers/w"), 1);
	assert_int_equal(pc_tracked(repo, cache, "drivers"), 1);
	assert_int_equal(pc_tracked(repo, cache, "."), 1);
	/* A patch saved in the tree is no file of it. */
	assert_int_equal(pc_tracked(repo, cache, "fix.patch"), 0);
	assert_int_equal(pc_tracked(repo, cache, "drivers/w/w"), 0);
	assert_int_equal(pc_tracked(repo, cache, "drivers/w/w.c/x"), 0);
}

static void test_tracked__answers(void **state)
{
	char *repo = t_git_repo(), *tmp = t_mkdtemp();
	char *cache = xasprintf("%s/cache", tmp);
	char *patch = xasprintf("%s/fix.patch", repo);
	char *wt = xasprintf("%s/wt", tmp);
	char *add = xasprintf("git worktree add -q '%s' -b other", wt);
	char *wtgit = xasprintf("%s/.git", wt);
	struct stat st;
	FILE *f;

	(void)state;
	f = fopen(patch, "w");
	assert_non_null(f);
	fclose(f);
	/* Without a cache: git each time. */
	check_all(repo, NULL);
	/* The first call writes the cache, the next ones read it. */
	check_all(repo, cache);
	check_all(repo, cache);
	/* A new index (the patch added) is read again. */
	t_sh(repo, "git add fix.patch");
	assert_int_equal(pc_tracked(repo, cache, "fix.patch"), 1);
	assert_int_equal(pc_tracked(repo, cache, "drivers/w/w.c"), 1);
	/* A worktree: .git is a file naming the git directory. */
	t_sh(repo, add);
	assert_int_equal(stat(wtgit, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(pc_tracked(wt, cache, "drivers/w/w.c"), 1);
	assert_int_equal(pc_tracked(wt, cache, "fix.patch"), 0);
	/* No repository: git cannot tell. */
	assert_int_equal(pc_tracked(tmp, cache, "x"), -1);
	t_rmtree(repo);
	t_rmtree(tmp);
	free(repo);
	free(tmp);
	free(cache);
	free(patch);
	free(wt);
	free(add);
	free(wtgit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracked__answers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
