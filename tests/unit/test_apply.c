// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/apply/apply.c on a real git repository made by the
 * git command line in a temporary directory: commits as git am makes
 * them, a patch that does not apply (no branch left, file and hunk
 * named), refused paths (git's own rules: what `git fsck` and verify_path
 * refuse, gitlinks and .gitmodules), ordinary kernel paths that must still
 * apply, an existing branch and a missing base.
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
	/* A symbolic link and a gitlink in the tree, for the refused
	 * paths; dotfiles the kernel has, for the accepted ones. */
	t_sh(f->dir, "ln -s /etc drivers/link && mkdir drivers/sub && "
		     "printf '*.o\\n' >.gitignore && "
		     "printf 'A <a@x>\\n' >.mailmap && git add -A && "
		     "git update-index --add --cacheinfo "
		     "160000,$(git rev-parse HEAD),drivers/sub && "
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

/* A diff adding path (a regular file) as git writes it. */
static char *add_diff(const char *path)
{
	return xasprintf("diff --git a/%s b/%s\nnew file mode 100644\n"
			 "--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+x\n",
			 path, path, path);
}

/* Whether diff is refused, saying why; otherwise says so and counts it in
 * *bad, so that one run lists every case that fails. */
static void refused_as(struct fix *f, int *bad, const char *label,
		       const char *diff, const char *why)
{
	struct pc_apply_patch p = patch(diff, "evil\n");
	struct pc_apply_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	char *s;

	o.tree = f->dir;
	o.branch = "patchclock/evil";
	assert_int_equal(pc_apply_series(&r, &o, &p, 1, &err), 0);
	if (r.applied) {
		print_message("not refused: %s\n", label);
		++*bad;
	} else if (strncmp(r.reason, "patch 1: ", 9) ||
		   !strstr(r.reason, why)) {
		print_message("%s: '%s' does not say '%s'\n", label, r.reason,
			      why);
		++*bad;
	}
	pc_apply_result_release(&r);
	/* Nothing is left behind either way, for the next case. */
	t_sh(f->dir, "git branch -D patchclock/evil || true");
	s = out_of(f->dir, "git branch --list 'patchclock/*'");
	assert_string_equal(s, "");
	free(s);
}

/* Paths that git fsck or git's verify_path refuses, or that would reach a
 * submodule, each in a patch of its own. The C escapes are the hostile
 * bytes: U+200C ZERO WIDTH NON-JOINER is e2 80 8c, U+200F e2 80 8f,
 * U+FEFF is ef bb bf. */
static const struct {
	const char *label, *path, *why;
} HOSTILE[] = {
	{ ".g<U+200C>it/config", ".g\xe2\x80\x8cit/config", "reach into .git" },
	{ ".GIT/config", ".GIT/config", "reach into .git" },
	{ ".git./config", ".git./config", "reach into .git" },
	{ ".git /config", ".git /config", "reach into .git" },
	{ "git~1/config", "git~1/config", "reach into .git" },
	{ "GIT~1/config", "GIT~1/config", "reach into .git" },
	{ ".git::$INDEX_ALLOCATION/config", ".git::$INDEX_ALLOCATION/config",
	  "reach into .git" },
	{ ".git:stream", ".git:stream", "reach into .git" },
	{ "a/.<U+FEFF>git/hooks/x", "a/.\xef\xbb\xbfgit/hooks/x",
	  "reach into .git" },
	{ "drivers/.Git<U+200F>/x", "drivers/.Git\xe2\x80\x8f/x",
	  "reach into .git" },
	{ ".gitmodules", ".gitmodules", "no submodules" },
	{ "drivers/.GitModules", "drivers/.GitModules", "no submodules" },
	{ ".gitmodules.", ".gitmodules.", "no submodules" },
	{ ".git<U+200D>modules", ".git\xe2\x80\x8dmodules", "no submodules" },
	{ "GITMOD~1", "GITMOD~1", "no submodules" },
	{ "gi7eba~1", "gi7eba~1", "no submodules" },
	{ "invalid UTF-8 \\377", "drivers/\xff.c", "not valid UTF-8" },
	{ "overlong '.' \\300\\256", "drivers/\xc0\xae\xc0\xae/x",
	  "not valid UTF-8" },
	{ "UTF-16 surrogate", "drivers/\xed\xa0\x80.c", "not valid UTF-8" },
	{ "truncated UTF-8", "drivers/\xe2\x80.c", "not valid UTF-8" },
	{ "backslash", "drivers\\w\\x.c", "backslash" },
};

static void test_apply__hostile_paths_refused(void **state)
{
	struct fix *f = *state;
	int bad = 0;
	size_t i;

	for (i = 0; i < sizeof(HOSTILE) / sizeof(HOSTILE[0]); i++) {
		char *d = add_diff(HOSTILE[i].path);

		refused_as(f, &bad, HOSTILE[i].label, d, HOSTILE[i].why);
		free(d);
	}
	/* The zero-width non-joiner as git itself writes it, quoted. */
	refused_as(f, &bad, "quoted .g\\342\\200\\214it/config",
		   "diff --git \"a/.g\\342\\200\\214it/config\" "
		   "\"b/.g\\342\\200\\214it/config\"\n"
		   "new file mode 100644\n--- /dev/null\n"
		   "+++ \"b/.g\\342\\200\\214it/config\"\n@@ -0,0 +1 @@\n+x\n",
		   "reach into .git");
	/* A submodule and its URL, as git diff writes them. */
	refused_as(f, &bad, "gitlink add",
		   "diff --git a/drivers/evil b/drivers/evil\n"
		   "new file mode 160000\nindex 0000000..0123456\n"
		   "--- /dev/null\n+++ b/drivers/evil\n@@ -0,0 +1 @@\n"
		   "+Subproject commit "
		   "0123456789abcdef0123456789abcdef01234567\n",
		   "gitlink");
	refused_as(f, &bad, "gitlink change",
		   "diff --git a/drivers/sub b/drivers/sub\n"
		   "index 0123456..789abcd 160000\n"
		   "--- a/drivers/sub\n+++ b/drivers/sub\n@@ -1 +1 @@\n"
		   "-Subproject commit "
		   "0123456789abcdef0123456789abcdef01234567\n"
		   "+Subproject commit "
		   "789abcdef0123456789abcdef0123456789abcde\n",
		   "gitlink");
	refused_as(f, &bad, "a file inside a gitlink",
		   "diff --git a/drivers/sub/x b/drivers/sub/x\n"
		   "new file mode 100644\n--- /dev/null\n+++ b/drivers/sub/x\n"
		   "@@ -0,0 +1 @@\n+x\n",
		   "gitlink");
	refused_as(f, &bad, "file to gitlink",
		   "diff --git a/drivers/w/w.c b/drivers/w/w.c\n"
		   "old mode 100644\nnew mode 160000\n",
		   "gitlink");
	refused_as(f, &bad, ".gitmodules with a URL",
		   "diff --git a/.gitmodules b/.gitmodules\n"
		   "new file mode 100644\n--- /dev/null\n+++ b/.gitmodules\n"
		   "@@ -0,0 +1,3 @@\n+[submodule \"evil\"]\n"
		   "+\tpath = drivers/evil\n"
		   "+\turl = https://example.com/evil.git\n",
		   "no submodules");
	/* Symbolic links git fsck refuses by name; every symbolic link is
	 * refused anyway, but the reason says which rule. */
	refused_as(
		f, &bad, "symbolic .gitattributes",
		"diff --git a/.gitattributes b/.gitattributes\n"
		"new file mode 120000\n--- /dev/null\n+++ b/.gitattributes\n"
		"@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n",
		"symbolic link named .gitattributes");
	refused_as(
		f, &bad, "symbolic MAILMA~1",
		"diff --git a/MAILMA~1 b/MAILMA~1\n"
		"new file mode 120000\n--- /dev/null\n+++ b/MAILMA~1\n"
		"@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n",
		"symbolic link named .mailmap");
	if (bad)
		fail_msg("%d hostile paths not refused as they should be", bad);
}

/* Ordinary kernel paths, some close to the refused ones, still apply. */
static void test_apply__kernel_paths_accepted(void **state)
{
	static const char *const add[] = {
		"drivers/nvdimm/pmem.c",
		"tools/testing/nvdimm/Kbuild",
		"Documentation/.renames.txt",
		"scripts/git.sh",
		"a/.github/x",
		".gitattributes",
		"tools/.gitignore",
		".git-blame-ignore-revs",
		"Documentation/translations/zh_CN/\xe4\xb8\xad.rst",
		"drivers/git~2/x",
		"drivers/.gitx/y",
	};
	struct fix *f = *state;
	int bad = 0;
	struct pc_apply_options o = { 0 };
	struct pc_apply_result r;
	struct pc_err err = { 0 };
	char *diffs[sizeof(add) / sizeof(add[0]) + 2];
	struct pc_apply_patch ps[sizeof(add) / sizeof(add[0]) + 2];
	size_t i, n = sizeof(add) / sizeof(add[0]);

	for (i = 0; i < n; i++)
		diffs[i] = add_diff(add[i]);
	diffs[n++] = xasprintf("diff --git a/.gitignore b/.gitignore\n"
			       "--- a/.gitignore\n+++ b/.gitignore\n"
			       "@@ -1 +1,2 @@\n *.o\n+*.ko\n");
	diffs[n++] = xasprintf("diff --git a/.mailmap b/.mailmap\n"
			       "--- a/.mailmap\n+++ b/.mailmap\n"
			       "@@ -1 +1,2 @@\n A <a@x>\n+B <b@x>\n");
	o.tree = f->dir;
	o.base = "base";
	for (i = 0; i < n; i++) {
		char branch[32];

		snprintf(branch, sizeof(branch), "patchclock/ok-%zu", i);
		o.branch = branch;
		ps[i] = patch(diffs[i], "ok\n");
		assert_int_equal(pc_apply_series(&r, &o, &ps[i], 1, &err), 0);
		if (!r.applied) {
			print_message("refused: %s\n", r.reason);
			bad++;
		}
		pc_apply_result_release(&r);
	}
	/* All of them in one series, too. */
	o.branch = "patchclock/ok-all";
	assert_int_equal(pc_apply_series(&r, &o, ps, n, &err), 0);
	if (!r.applied) {
		print_message("the whole series refused: %s\n", r.reason);
		bad++;
	}
	pc_apply_result_release(&r);
	for (i = 0; i < n; i++)
		free(diffs[i]);
	if (bad)
		fail_msg("%d ordinary paths refused", bad);
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
		cmocka_unit_test_setup_teardown(
			test_apply__hostile_paths_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_apply__kernel_paths_accepted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply__missing_base, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
