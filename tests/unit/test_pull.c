// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for lib/patch/pull: `git request-pull` text in mail. */
#include "testutil.h"
#include "patch/pull.h"
#include "util/util.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static int parse_str(struct pc_pull *p, const char *s)
{
	return pc_pull_parse(p, s, strlen(s));
}

static void parse_file(struct pc_pull *p, const char *rel, size_t maxlen)
{
	struct pc_buf raw = PC_BUF_INIT;

	t_read_file(&raw, t_data(rel));
	assert_int_equal(pc_pull_parse(p, raw.buf,
				       raw.len < maxlen ? raw.len : maxlen),
			 1);
	pc_buf_release(&raw);
}

static void test_pull__same_line(void **state)
{
	struct pc_pull p;

	(void)state;
	assert_int_equal(
		parse_str(&p, "The following changes since commit abc:\n\n"
			      "are available in the Git repository at:\n\n"
			      "  https://git.example.org/r.git tags/v1 \t\n\n"
			      "for you to fetch changes up to "
			      "0123456789abcdef0123456789abcdef01234567:\n"),
		1);
	assert_string_equal(p.url, "https://git.example.org/r.git");
	assert_string_equal(p.ref, "tags/v1");
	assert_string_equal(p.head, "0123456789abcdef0123456789abcdef01234567");
	pc_pull_release(&p);
	assert_null(p.url);
	pc_pull_release(NULL);
}

static void test_pull__backslash_and_wrapped(void **state)
{
	struct pc_pull p;

	(void)state;
	assert_int_equal(parse_str(&p,
				   "are available in the git repository at:\r\n"
				   "\r\n"
				   "  git://h/r.git \\\r\n"
				   "    for-linus\r\n"),
			 1);
	assert_string_equal(p.url, "git://h/r.git");
	assert_string_equal(p.ref, "for-linus");
	assert_null(p.head);
	pc_pull_release(&p);

	assert_int_equal(parse_str(&p,
				   "ARE AVAILABLE IN THE GIT REPOSITORY AT:\n"
				   "  git://h/r.git\n"
				   "tags/x-1.2\n\nmore text\n"),
			 1);
	assert_string_equal(p.ref, "tags/x-1.2");
	pc_pull_release(&p);

	/* No ref: a blank or prose line follows. */
	assert_int_equal(parse_str(&p,
				   "are available in the git repository at:\n"
				   "  git://h/r.git\n\n"),
			 1);
	assert_string_equal(p.url, "git://h/r.git");
	assert_null(p.ref);
	pc_pull_release(&p);
}

static void test_pull__none(void **state)
{
	struct pc_pull p;

	(void)state;
	assert_int_equal(parse_str(&p, "Hello\n\nPlease pull.\n"), 0);
	assert_null(p.url);
	assert_int_equal(
		parse_str(&p, "are available in the git repository at:"), 0);
	assert_int_equal(parse_str(&p,
				   "are available in the git repository at:\n"
				   "\n\n"),
			 0);
	assert_int_equal(pc_pull_parse(&p, "", 0), 0);
	pc_pull_release(&p);
}

static void test_pull__corpus(void **state)
{
	struct pc_pull p;

	(void)state;
	parse_file(&p,
		   "corpus/patchwork/mail/0003-git-pull-request-with-diff.mbox",
		   (size_t)-1);
	assert_string_equal(p.url, "git://git.kernel.org/pub/scm/linux/kernel/"
				   "git/tip/linux-2.6-tip.git");
	assert_string_equal(p.ref, "x86-fixes-for-linus");
	pc_pull_release(&p);

	parse_file(
		&p,
		"corpus/patchwork/mail/0024-git-pull-request-trailing-space.mbox",
		(size_t)-1);
	assert_string_equal(p.url, "git://git.kernel.org/pub/scm/linux/kernel/"
				   "git/nsekhar/linux-davinci.git");
	assert_string_equal(p.ref, "tags/davinci-for-v5.6/soc");
	assert_string_equal(p.head, "5e06d19694a463a012c2589e29078196eb209448");
	pc_pull_release(&p);

	parse_file(&p, "corpus/patchwork/mail/0001-git-pull-request.mbox",
		   (size_t)-1);
	assert_string_equal(p.url, "git://git.kernel.org/pub/scm/linux/kernel/"
				   "git/benh/powerpc.git");
	assert_string_equal(p.ref, "next");
	pc_pull_release(&p);
}

struct titles {
	unsigned n;
	char first[128], last[128];
};

static int on_title(const char *t, size_t len, void *arg)
{
	struct titles *ts = arg;

	if (!ts->n++)
		snprintf(ts->first, sizeof(ts->first), "%.*s", (int)len, t);
	snprintf(ts->last, sizeof(ts->last), "%.*s", (int)len, t);
	return 0;
}

/* The kernel test robot's build report of a maintainer's branch names
 * the commit at its head (linux-hwmon 2022-11-15, hwmon-next). */
static void test_pull__branch_head(void **state)
{
	static const char report[] =
		"tree/branch: https://git.kernel.org/pub/scm/linux/kernel/git/"
		"groeck/linux-staging.git hwmon-next\n"
		"branch HEAD: 27fea302952d8c90cafbdbee96bafeca03544401  hwmon: "
		"(nct6775) add ASUS CROSSHAIR VIII/TUF/ProArt B550M  \r\n"
		"\nelapsed time: 863m\n";
	static const char *const not_heads[] = {
		"branch HEAD: 27fea30\n", /* no title */
		"branch HEAD: notahex1234 hwmon: x\n",
		"branch HEAD: 27fea hwmon: x\n", /* too short an id */
		" branch HEAD: 27fea302952d hwmon: x\n", /* quoted, indented */
		"> branch HEAD: 27fea302952d hwmon: x\n",
		"branch HEAD:",
		"",
	};
	struct titles ts = { 0 };
	size_t i;

	(void)state;
	assert_int_equal(pc_pull_branch_head(report, sizeof(report) - 1,
					     on_title, &ts),
			 1);
	assert_string_equal(ts.first, "hwmon: (nct6775) add ASUS CROSSHAIR "
				      "VIII/TUF/ProArt B550M");
	for (i = 0; i < PC_ARRAY_SIZE(not_heads); i++) {
		memset(&ts, 0, sizeof(ts));
		assert_int_equal(pc_pull_branch_head(not_heads[i],
						     strlen(not_heads[i]),
						     on_title, &ts),
				 0);
		assert_int_equal(ts.n, 0);
	}
}

static void test_pull__lore_nvdimm(void **state)
{
	struct pc_buf raw = PC_BUF_INIT;
	struct pc_pull p;
	const char *second;

	(void)state;
	t_read_file(&raw, t_data("corpus/lore-nvdimm/threads/"
				 "git-pull-dax-libnvdimm-v5.17.mbox"));
	/* The first message only: the second is the bot's reply. */
	second = strstr(raw.buf + 1, "\nFrom ");
	assert_non_null(second);
	assert_int_equal(pc_pull_parse(&p, raw.buf, (size_t)(second - raw.buf)),
			 1);
	assert_string_equal(p.url, "git://git.kernel.org/pub/scm/linux/kernel/"
				   "git/nvdimm/nvdimm");
	assert_string_equal(p.ref, "tags/libnvdimm-for-5.17");
	assert_string_equal(p.head, "9e05e95ca8dae8de4a7a1645014e1bbd9c8a4dab");
	pc_pull_release(&p);
	/* The shortlog: 5 authors ("Matthew Wilcox (Oracle) (1):"), 38
	 * titles; the summary's indented bullets and the diffstat are not
	 * titles. */
	{
		struct titles ts = { 0 };

		assert_int_equal(pc_pull_titles(raw.buf,
						(size_t)(second - raw.buf),
						on_title, &ts),
				 38);
		assert_int_equal(ts.n, 38);
		assert_string_equal(ts.first,
				    "ACPI: NFIT: Import GUID before use");
		assert_string_equal(ts.last, "xfs: add xfs_zero_range and "
					     "xfs_truncate_page helpers");
	}
	pc_buf_release(&raw);
}

static void test_pull__truncated_everywhere(void **state)
{
	struct pc_buf raw = PC_BUF_INIT;
	size_t n;

	(void)state;
	t_read_file(&raw, t_data("corpus/patchwork/mail/"
				 "0024-git-pull-request-trailing-space.mbox"));
	for (n = 0; n <= raw.len; n++) {
		char *p = malloc(n ? n : 1);
		struct pc_pull pl;

		assert_non_null(p);
		memcpy(p, raw.buf, n);
		(void)pc_pull_parse(&pl, p, n);
		pc_pull_release(&pl);
		free(p);
	}
	pc_buf_release(&raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pull__same_line),
		cmocka_unit_test(test_pull__backslash_and_wrapped),
		cmocka_unit_test(test_pull__none),
		cmocka_unit_test(test_pull__corpus),
		cmocka_unit_test(test_pull__branch_head),
		cmocka_unit_test(test_pull__lore_nvdimm),
		cmocka_unit_test(test_pull__truncated_everywhere),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
