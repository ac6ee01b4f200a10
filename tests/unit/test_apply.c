// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/apply/apply.c on a real git repository made by the
 * git command line in a temporary directory: commits as git am makes
 * them, a patch that does not apply (no branch left, file and hunk
 * named), refused paths, an existing branch and a missing base.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "apply/apply.h"
#include "util/buf.h"
#include "util/xalloc.h"

struct fix {
	char *dir; /* owned */
};

static char *out_of(const char *dir, const char *cmd)
{
	char *full = xasprintf("cd '%s' && %s", dir, cmd);
	struct pc_buf b = PC_BUF_INIT;
	char line[512];
	FILE *p = popen(full, "r");

	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		pc_buf_addf(&b, "%s", line);
	pclose(p);
	free(full);
	return pc_buf_detach(&b, NULL);
}

static int setup(void **state)
{
	struct fix *f = xcalloc(1, sizeof(*f));

	f->dir = t_git_repo();
	/* A symbolic link in the tree, for the refused paths. */
	t_sh(f->dir, "ln -s /etc drivers/link && git add -A && "
		     "git commit -q --amend -m base && git tag base");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	t_rmtree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static const char P1[] = "diff --git a/drivers/w/w.c b/drivers/w/w.c\n"
			 "--- a/drivers/w/w.c\n"
			 "+++ b/drivers/w/w.c\n"
			 "@@ -1,3 +1,4 @@\n"
			 " a\n"
			 "+a2\n"
			 " b\n"
			 " c\n";
static const char P2[] = "diff --git a/drivers/w/new.c b/drivers/w/new.c\n"
			 "new file mode 100644\n"
			 "--- /dev/null\n"
			 "+++ b/drivers/w/new.c\n"
			 "@@ -0,0 +1 @@\n"
			 "+new\n";
/* Context that is not there. */
static const char BAD[] = "diff --git a/drivers/w/w.c b/drivers/w/w.c\n"
			  "--- a/drivers/w/w.c\n"
			  "+++ b/drivers/w/w.c\n"
			  "@@ -1,3 +1,3 @@\n"
			  " x\n"
			  "-y\n"
			  "+z\n"
			  " c\n";

static struct pc_apply_patch patch(const char *diff, const char *msg)
{
	struct pc_apply_patch p = { 0 };

	p.author_name = "A U Thor";
	p.author_email = "author@example.com";
	p.author_time = 1704103200; /* 2024-01-01 10:00 UTC */
	p.author_tz = 60;
	p.message = msg;
	p.diff = diff;
	p.diff_len = strlen(diff);
	return p;
}

static void test_apply__two_patches(void **state)
{
	struct fix *f = *state;
	struct pc_apply_patch ps[2] = {
		patch(P1, "w: add a2\n\nSigned-off-by: A U Thor "
			  "<author@example.com>\nReviewed-by: R <r@x>\n"),
		patch(P2, "w: add new.c\n"),
	};
	struct pc_apply_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	char *s;

	o.tree = f->dir;
	o.base = "base";
	o.branch = "patchclock/1-v1";
	o.now = 1704200000;
	assert_int_equal(pc_apply_series(&r, &o, ps, 2, &err), 0);
	assert_int_equal(r.applied, 1);
	assert_int_equal(r.ncommits, 2);
	s = out_of(f->dir, "git log --format='%an <%ae> %ad|%cn|%s' "
			   "--date=iso base..patchclock/1-v1");
	assert_string_equal(s, "A U Thor <author@example.com> 2024-01-01 "
			       "11:00:00 +0100|patchclock|w: add new.c\n"
			       "A U Thor <author@example.com> 2024-01-01 "
			       "11:00:00 +0100|patchclock|w: add a2\n");
	free(s);
	s = out_of(f->dir, "git show patchclock/1-v1:drivers/w/w.c "
			   "patchclock/1-v1:drivers/w/new.c");
	assert_string_equal(s, "a\na2\nb\nc\nnew\n");
	free(s);
	s = out_of(f->dir, "git rev-parse patchclock/1-v1");
	assert_int_equal(strncmp(s, r.commits[1], 40), 0);
	free(s);
	/* The work tree and HEAD are untouched. */
	s = out_of(f->dir, "git status --porcelain; git log -1 --format=%s");
	assert_string_equal(s, "base\n");
	free(s);
	pc_apply_result_release(&r);

	/* Again under the same name: refused, nothing changes. */
	assert_int_equal(pc_apply_series(&r, &o, ps, 2, &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "exists already"));
	pc_apply_result_release(&r);
}

static void test_apply__does_not_apply(void **state)
{
	struct fix *f = *state;
	struct pc_apply_patch ps[2] = { patch(P1, "w: one\n"),
					patch(BAD, "w: two\n") };
	struct pc_apply_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	char *s;

	o.tree = f->dir;
	o.branch = "patchclock/2-v1";
	assert_int_equal(pc_apply_series(&r, &o, ps, 2, &err), 0);
	assert_int_equal(r.applied, 0);
	assert_int_equal(r.failed_patch, 2);
	assert_int_equal(r.ncommits, 1);
	assert_string_equal(r.file, "drivers/w/w.c");
	assert_string_equal(r.hunk, "@@ -1,3 +1,3 @@");
	assert_non_null(strstr(r.reason,
			       "patch 2 does not apply: "
			       "drivers/w/w.c, hunk '@@ -1,3 +1,3 @@'"));
	/* No half-made branch. */
	s = out_of(f->dir, "git branch --list 'patchclock/*'");
	assert_string_equal(s, "");
	free(s);
	pc_apply_result_release(&r);
}

static void refused(struct fix *f, const char *diff, const char *why)
{
	struct pc_apply_patch p = patch(diff, "evil\n");
	struct pc_apply_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	char *s;

	o.tree = f->dir;
	o.branch = "patchclock/evil";
	assert_int_equal(pc_apply_series(&r, &o, &p, 1, &err), 0);
	if (r.applied)
		fail_msg("not refused: %s", diff);
	assert_int_equal(r.failed_patch, 1);
	if (strncmp(r.reason, "patch 1: ", 9) || !strstr(r.reason, why))
		fail_msg("'%s' does not say '%s'", r.reason, why);
	pc_apply_result_release(&r);
	s = out_of(f->dir, "git branch --list 'patchclock/*'");
	assert_string_equal(s, "");
	free(s);
}

static void test_apply__paths_refused(void **state)
{
	struct fix *f = *state;

	refused(f,
		"diff --git a/../x b/../x\nnew file mode 100644\n"
		"--- /dev/null\n+++ b/../x\n@@ -0,0 +1 @@\n+x\n",
		"could leave the tree");
	refused(f,
		"diff --git a/.git/config b/.git/config\nnew file mode 100644\n"
		"--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n",
		"reach into .git");
	refused(f,
		"diff --git a/d/.GIT/hooks/x b/d/.GIT/hooks/x\n"
		"new file mode 100644\n--- /dev/null\n+++ b/d/.GIT/hooks/x\n"
		"@@ -0,0 +1 @@\n+x\n",
		"reach into .git");
	refused(f,
		"diff --git a/drivers/link/passwd b/drivers/link/passwd\n"
		"new file mode 100644\n--- /dev/null\n"
		"+++ b/drivers/link/passwd\n@@ -0,0 +1 @@\n+x\n",
		"'drivers/link' is a symbolic link");
	refused(f,
		"diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n"
		"+++ b/l\n@@ -0,0 +1 @@\n+/etc/shadow\n\\ No newline at end "
		"of file\n",
		"symbolic link 'l'");
}

static void test_apply__missing_base(void **state)
{
	struct fix *f = *state;
	struct pc_apply_patch p = patch(P1, "w\n");
	struct pc_apply_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };

	o.tree = f->dir;
	o.base = "0123456789abcdef0123456789abcdef01234567";
	o.branch = "patchclock/3";
	assert_int_equal(pc_apply_series(&r, &o, &p, 1, &err), PC_ENOTFOUND);
	pc_apply_result_release(&r);
	assert_int_equal(pc_apply_has_commit(f->dir, o.base, &err), 0);
	assert_int_equal(pc_apply_has_commit(f->dir, "base", &err), 1);
	o.tree = "/nonexistent";
	assert_int_equal(pc_apply_series(&r, &o, &p, 1, &err), PC_EGIT);
	pc_apply_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_apply__two_patches, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_apply__does_not_apply,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply__paths_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply__missing_base, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
