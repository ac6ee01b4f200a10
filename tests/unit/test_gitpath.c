// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/apply/gitpath.c: tables of paths git refuses (fsck,
 * verify_path with core.protectHFS and core.protectNTFS) or patchclock
 * refuses (gitlinks, .gitmodules, invalid UTF-8, backslashes), of names
 * just beside them that git accepts, and the messages. The paths go
 * through the real apply in test_apply.c as well.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "apply/gitpath.h"
#include "util/xalloc.h"

#define REG 0100644u
#define LNK PC_GITPATH_MODE_LINK
#define GITLINK PC_GITPATH_MODE_GITLINK

struct refusal {
	const char *path;
	unsigned mode;
	const char *why;
};

/* "\xe2\x80\x8c" is U+200C ZERO WIDTH NON-JOINER, and so on. */
static const struct refusal REFUSED[] = {
	{ "", REG, "empty path" },
	{ "/etc/passwd", REG, "absolute path" },
	{ "a//b", REG, "'..' component" },
	{ "a/", REG, "'..' component" },
	{ "./a", REG, "'..' component" },
	{ "a/./b", REG, "'..' component" },
	{ "a/../b", REG, "'..' component" },
	{ "..", REG, "'..' component" },
	/* .git in any case, and what NTFS takes for it. */
	{ ".git", REG, "reach into .git" },
	{ ".git/config", REG, "reach into .git" },
	{ "a/.git", REG, "reach into .git" },
	{ ".GIT/config", REG, "reach into .git" },
	{ "d/.GiT/hooks/x", REG, "reach into .git" },
	{ ".git./config", REG, "reach into .git" },
	{ ".git. . ./config", REG, "reach into .git" },
	{ ".git /config", REG, "reach into .git" },
	{ ".git:stream", REG, "reach into .git" },
	{ ".git::$INDEX_ALLOCATION/config", REG, "reach into .git" },
	{ ".git :$DATA/x", REG, "reach into .git" },
	{ "git~1/config", REG, "reach into .git" },
	{ "GIT~1", REG, "reach into .git" },
	{ "git~1. /x", REG, "reach into .git" },
	{ "git~1:x", REG, "reach into .git" },
	/* What HFS+ takes for .git: it ignores these code points. */
	{ ".g\xe2\x80\x8cit/config", REG, "reach into .git" },
	{ ".g\xe2\x80\x8dit", REG, "reach into .git" },
	{ ".g\xe2\x80\x8eit", REG, "reach into .git" },
	{ ".g\xe2\x80\x8fit", REG, "reach into .git" },
	{ ".g\xe2\x80\xaait", REG, "reach into .git" },
	{ ".g\xe2\x80\xaeit", REG, "reach into .git" },
	{ ".g\xe2\x81\xaait", REG, "reach into .git" },
	{ ".g\xe2\x81\xafit", REG, "reach into .git" },
	{ "a/.\xef\xbb\xbfgit/hooks/x", REG, "reach into .git" },
	{ "\xe2\x80\x8c.git/x", REG, "reach into .git" },
	{ ".git\xef\xbb\xbf/x", REG, "reach into .git" },
	{ ".\xe2\x80\x8c\xe2\x80\x8dG\xef\xbb\xbfI\xe2\x81\xacT/x", REG,
	  "reach into .git" },
	/* A backslash separates components too. */
	{ ".git\\config", REG, "reach into .git" },
	{ "a\\b", REG, "backslash" },
	{ "a\\.git", REG, "backslash" },
	/* .gitmodules, whatever it is, by git's HFS+ and NTFS rules. */
	{ ".gitmodules", REG, "no submodules" },
	{ ".gitmodules", 0, "no submodules" },
	{ ".gitmodules", LNK, "no submodules" },
	{ "drivers/.GitModules", REG, "no submodules" },
	{ "d/.gitmodules/x", REG, "no submodules" },
	{ ".gitmodules.", REG, "no submodules" },
	{ ".gitmodules :x", REG, "no submodules" },
	{ ".git\xe2\x80\x8dmodules", REG, "no submodules" },
	{ "gitmod~1", REG, "no submodules" },
	{ "GITMOD~1", REG, "no submodules" },
	{ "GitMod~4", REG, "no submodules" },
	{ "gi7eba~1", REG, "no submodules" },
	{ "GI7EBA~9", REG, "no submodules" },
	{ "gi7eb~12", REG, "no submodules" },
	{ "gi7~1234", REG, "no submodules" },
	/* Symbolic links git fsck refuses by name. */
	{ ".gitattributes", LNK, "symbolic link named .gitattributes" },
	{ "d/.GITIGNORE", LNK, "symbolic link named .gitignore" },
	{ ".mailmap", LNK, "symbolic link named .mailmap" },
	{ ".mailmap. ", LNK, "symbolic link named .mailmap" },
	{ ".git\xe2\x80\x8cignore", LNK, "symbolic link named .gitignore" },
	{ "gitatt~1", LNK, "symbolic link named .gitattributes" },
	{ "gi7d29~1", LNK, "symbolic link named .gitattributes" },
	{ "gitign~2", LNK, "symbolic link named .gitignore" },
	{ "gi250a~1", LNK, "symbolic link named .gitignore" },
	{ "MAILMA~3", LNK, "symbolic link named .mailmap" },
	{ "maba30~1", LNK, "symbolic link named .mailmap" },
	/* Gitlinks, a submodule commit. */
	{ "drivers/sub", GITLINK, "gitlink" },
	/* Invalid UTF-8. */
	{ "drivers/\xff.c", REG, "not valid UTF-8" },
	{ "\x80", REG, "not valid UTF-8" },
	{ "drivers/\xc0\xae\xc0\xae/x", REG, "not valid UTF-8" },
	{ "\xe0\x80\xae", REG, "not valid UTF-8" },
	{ "\xf0\x80\x80\xae", REG, "not valid UTF-8" },
	{ "drivers/\xed\xa0\x80.c", REG, "not valid UTF-8" },
	{ "\xf4\x90\x80\x80", REG, "not valid UTF-8" },
	{ "\xf8\x88\x80\x80\x80", REG, "not valid UTF-8" },
	{ "drivers/\xe2\x80.c", REG, "not valid UTF-8" },
	{ "a\xe2\x80/b", REG, "not valid UTF-8" },
	{ "a\xe2", REG, "not valid UTF-8" },
};

static const struct refusal ACCEPTED[] = {
	{ "drivers/nvdimm/pmem.c", REG, NULL },
	{ "tools/testing/nvdimm/Kbuild", REG, NULL },
	{ "Documentation/.renames.txt", REG, NULL },
	{ "scripts/git.sh", REG, NULL },
	{ "a/.github/x", REG, NULL },
	{ ".github", LNK, NULL },
	{ ".gitignore", REG, NULL },
	{ "tools/.gitignore", 0100755u, NULL },
	{ ".gitattributes", REG, NULL },
	{ ".mailmap", REG, NULL },
	{ ".gitignore.d", LNK, NULL },
	{ ".git-blame-ignore-revs", REG, NULL },
	{ ".gitx", REG, NULL },
	{ ".git~", REG, NULL },
	{ ".gi", REG, NULL },
	{ "git", REG, NULL },
	{ "git~2/x", REG, NULL },
	{ "git~10", REG, NULL },
	{ "..a", REG, NULL },
	{ "...", REG, NULL },
	{ "a..b/.x", REG, NULL },
	{ "a:b", REG, NULL },
	{ "drivers/link", LNK, NULL },
	/* U+200B ZERO WIDTH SPACE is not one HFS+ ignores. */
	{ ".g\xe2\x80\x8bit", REG, NULL },
	{ "gitmodules", REG, NULL },
	{ ".gitmodulesx", REG, NULL },
	{ "gitmod~5", REG, NULL },
	{ "gi7eba~0", REG, NULL },
	{ "gi7ebb~1", REG, NULL },
	{ "gi7eba~1x", REG, NULL },
	{ "Documentation/translations/zh_CN/\xe4\xb8\xad.rst", REG, NULL },
	{ "tools/\xf0\x9f\x90\xa7/\xc3\xa9t\xc3\xa9", REG, NULL },
};

static void test_gitpath__refused(void **state)
{
	struct pc_err err = { 0 };
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(REFUSED) / sizeof(REFUSED[0]); i++) {
		const struct refusal *r = &REFUSED[i];

		memset(&err, 0, sizeof(err));
		if (pc_gitpath_check(r->path, r->mode, &err) != PC_EUSAGE ||
		    err.code != PC_EUSAGE || !strstr(err.msg, r->why)) {
			print_message("REFUSED[%zu] (mode %o): '%s' does not "
				      "say '%s'\n",
				      i, r->mode, err.msg, r->why);
			bad++;
		}
	}
	if (bad)
		fail_msg("%d paths not refused as they should be", bad);
}

static void test_gitpath__accepted(void **state)
{
	struct pc_err err = { 0 };
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(ACCEPTED) / sizeof(ACCEPTED[0]); i++) {
		const struct refusal *r = &ACCEPTED[i];

		if (pc_gitpath_check(r->path, r->mode, &err) != 0) {
			print_message("ACCEPTED[%zu]: %s\n", i, err.msg);
			bad++;
		}
	}
	if (bad)
		fail_msg("%d ordinary paths refused", bad);
}

/* The message names the path, hostile bytes written out, and why. */
static void test_gitpath__message(void **state)
{
	struct pc_err err = { 0 };

	(void)state;
	assert_int_equal(pc_gitpath_check(".g\xe2\x80\x8cit/config", REG, &err),
			 PC_EUSAGE);
	assert_string_equal(err.msg,
			    "refusing path '.g\\342\\200\\214it/config': "
			    "'.g\\342\\200\\214it' is .git to git or to a "
			    "filesystem, it could reach into .git");
	assert_int_equal(pc_gitpath_check("a\\b", REG, &err), PC_EUSAGE);
	assert_string_equal(err.msg, "refusing path 'a\\134b': a backslash "
				     "is a directory separator on Windows");
	assert_int_equal(pc_gitpath_check("drivers/sub", GITLINK, &err),
			 PC_EUSAGE);
	assert_string_equal(err.msg,
			    "refusing the gitlink 'drivers/sub' (a submodule "
			    "commit): the kernel tree has no submodules, "
			    "apply it by hand");
	/* NULL err is allowed. */
	assert_int_equal(pc_gitpath_check(".git", REG, NULL), PC_EUSAGE);
}

/* A long path is cut short in the message, which still says why. */
static void test_gitpath__long(void **state)
{
	struct pc_err err = { 0 };
	char *p = xcalloc(1, PC_GITPATH_MAX + 1);

	(void)state;
	memset(p, 'a', PC_GITPATH_MAX - 1);
	assert_int_equal(pc_gitpath_check(p, REG, &err), 0);
	p[PC_GITPATH_MAX - 1] = 'a';
	assert_int_equal(pc_gitpath_check(p, REG, &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "...': it is 4096 bytes long, "
					"more than 4095"));
	memset(p, 0, PC_GITPATH_MAX + 1);
	memset(p, 'a', 200);
	memcpy(p + 200, "/.GIT", 5);
	assert_int_equal(pc_gitpath_check(p, REG, &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "...': '.GIT' is .git"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gitpath__refused),
		cmocka_unit_test(test_gitpath__accepted),
		cmocka_unit_test(test_gitpath__message),
		cmocka_unit_test(test_gitpath__long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
