// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/patch/diff: every diff form by hand, the corpus
 * oracles, hostile (truncated) input, and patch-ids compared with the real
 * `git patch-id --stable` on every message of the corpus mboxes.
 */
#include "testutil.h"
#include "patch/diff.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct pc_diff_file *find(const struct pc_diff *d,
				       const char *path)
{
	size_t i;

	for (i = 0; i < d->nfiles; i++) {
		const struct pc_diff_file *f = &d->files[i];

		if ((f->new_path && !strcmp(f->new_path, path)) ||
		    (!f->new_path && f->old_path && !strcmp(f->old_path, path)))
			return f;
	}
	fail_msg("no file '%s' in the diff", path);
	return NULL;
}

static void parse_str(struct pc_diff *d, const char *s)
{
	struct pc_err err = { 0 };

	assert_int_equal(pc_diff_parse(d, s, strlen(s), &err), 0);
}

/* Runs `git patch-id --stable` on (p, len); its first id, or "". */
static void git_patch_id(char out[41], const char *dir, const char *p,
			 size_t len)
{
	char *path = xasprintf("%s/msg", dir);
	char *cmd =
		xasprintf("GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "
			  "git patch-id --stable < '%s'",
			  path);
	char line[256];
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, len, f), len);
	fclose(f);
	f = popen(cmd, "r");
	assert_non_null(f);
	out[0] = '\0';
	if (fgets(line, sizeof(line), f)) {
		assert_true(strlen(line) > 40 && line[40] == ' ');
		memcpy(out, line, 40);
		out[40] = '\0';
	}
	while (fgets(line, sizeof(line), f))
		;
	assert_int_equal(pclose(f), 0);
	free(cmd);
	free(path);
}

/* ---- hand-written diffs -------------------------------------------- */

static void test_diff__git_modify(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "Subject: x\n\nbody\n---\n x | 2 +-\n\n"
			"diff --git a/dir/x.c b/dir/x.c\n"
			"index 1234567..89abcde 100644\n"
			"--- a/dir/x.c\n"
			"+++ b/dir/x.c\n"
			"@@ -1,3 +1,3 @@\n"
			" a\n"
			"-b\n"
			"+c\n"
			" d\n"
			"@@ -10 +10,2 @@ func\n"
			" e\n"
			"+f\n"
			"-- \n"
			"2.39.0\n";
	const struct pc_diff_file *f;

	(void)state;
	assert_true(pc_diff_present(s, strlen(s)));
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 1);
	f = &d.files[0];
	assert_string_equal(f->old_path, "dir/x.c");
	assert_string_equal(f->new_path, "dir/x.c");
	assert_int_equal(f->status, PC_DIFF_MODIFIED);
	assert_int_equal(f->added, 2);
	assert_int_equal(f->removed, 1);
	assert_int_equal(f->old_mode, 0100644);
	assert_int_equal(f->similarity, -1);
	assert_false(f->binary);
	assert_int_equal(d.insertions, 2);
	assert_int_equal(d.deletions, 1);
	assert_int_equal(d.diff_off, strstr(s, "diff --git") - s);
	assert_int_equal(strlen(d.patch_id), 40);
	assert_string_equal(d.base_commit, "");
	pc_diff_release(&d);
}

static void test_diff__content_looks_like_header(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	/* "+++ " and "--- " inside hunks are content, by the counts. */
	const char *s = "diff --git a/x b/x\n"
			"--- a/x\n"
			"+++ b/x\n"
			"@@ -1,2 +1,2 @@\n"
			"--- removed line starting with dashes\n"
			"+++ added line starting with pluses\n"
			"-diff --git a/y b/y\n"
			"+index 123..456\n"
			"\n"
			"trailing prose\n"
			"+not counted\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 1);
	assert_int_equal(d.files[0].added, 2);
	assert_int_equal(d.files[0].removed, 2);
	pc_diff_release(&d);
}

static void test_diff__add_delete_mode(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "diff --git a/new.c b/new.c\n"
			"new file mode 100644\n"
			"index 0000000..e69de29\n"
			"--- /dev/null\n"
			"+++ b/new.c\n"
			"@@ -0,0 +1,2 @@\n"
			"+a\n"
			"+b\n"
			"diff --git a/old.c b/old.c\n"
			"deleted file mode 100755\n"
			"index e69de29..0000000\n"
			"--- a/old.c\n"
			"+++ /dev/null\n"
			"@@ -1 +0,0 @@\n"
			"-a\n"
			"diff --git a/empty b/empty\n"
			"new file mode 100644\n"
			"index 0000000..e69de29\n"
			"diff --git a/run.sh b/run.sh\n"
			"old mode 100644\n"
			"new mode 100755\n";
	const struct pc_diff_file *f;

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 4);
	f = find(&d, "new.c");
	assert_int_equal(f->status, PC_DIFF_ADDED);
	assert_null(f->old_path);
	assert_int_equal(f->new_mode, 0100644);
	assert_int_equal(f->added, 2);
	f = find(&d, "old.c");
	assert_int_equal(f->status, PC_DIFF_DELETED);
	assert_null(f->new_path);
	assert_int_equal(f->old_mode, 0100755);
	assert_int_equal(f->removed, 1);
	f = find(&d, "empty");
	assert_int_equal(f->status, PC_DIFF_ADDED);
	assert_int_equal(f->added + f->removed, 0);
	f = find(&d, "run.sh");
	assert_int_equal(f->status, PC_DIFF_MODIFIED);
	assert_int_equal(f->old_mode, 0100644);
	assert_int_equal(f->new_mode, 0100755);
	assert_int_equal(d.insertions, 2);
	assert_int_equal(d.deletions, 1);
	pc_diff_release(&d);
}

static void test_diff__rename_copy(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "diff --git a/a/x.c b/b/x.c\n"
			"similarity index 90%\n"
			"rename from a/x.c\n"
			"rename to b/x.c\n"
			"index 1..2 100644\n"
			"--- a/a/x.c\n"
			"+++ b/b/x.c\n"
			"@@ -1 +1 @@\n"
			"-a\n"
			"+b\n"
			"diff --git a/c.c b/d.c\n"
			"similarity index 100%\n"
			"copy from c.c\n"
			"copy to d.c\n";
	const struct pc_diff_file *f;

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 2);
	f = find(&d, "b/x.c");
	assert_int_equal(f->status, PC_DIFF_RENAMED);
	assert_string_equal(f->old_path, "a/x.c");
	assert_int_equal(f->similarity, 90);
	assert_int_equal(f->added, 1);
	f = find(&d, "d.c");
	assert_int_equal(f->status, PC_DIFF_COPIED);
	assert_string_equal(f->old_path, "c.c");
	assert_int_equal(f->similarity, 100);
	pc_diff_release(&d);
}

static void test_diff__binary(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "diff --git a/img.png b/img.png\n"
			"index 1234567..89abcde 100644\n"
			"GIT binary patch\n"
			"delta 10\n"
			"zcmV+q3h?zGiwFQnOtxGC1HD&mbK*D\n"
			"\n"
			"delta 12\n"
			"zcmV+q3h?zGiwFQnOtxGC1HD&mbK*D\n"
			"\n"
			"diff --git a/other.bin b/other.bin\n"
			"index 1234567..89abcde 100644\n"
			"Binary files a/other.bin and b/other.bin differ\n"
			"diff --git a/t.c b/t.c\n"
			"--- a/t.c\n"
			"+++ b/t.c\n"
			"@@ -1 +1 @@\n"
			"-a\n"
			"+b\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 3);
	assert_true(find(&d, "img.png")->binary);
	assert_true(find(&d, "other.bin")->binary);
	assert_false(find(&d, "t.c")->binary);
	assert_int_equal(d.insertions, 1);
	assert_int_equal(d.deletions, 1);
	pc_diff_release(&d);
}

static void test_diff__quoted_paths(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s =
		"diff --git \"a/foo\\tbar\" \"b/foo\\tbar\"\n"
		"index 1..2 100644\n"
		"--- \"a/foo\\tbar\"\n"
		"+++ \"b/foo\\tbar\"\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n"
		"diff --git a/with space.c b/with space.c\n"
		"index 1..2 100644\n"
		"--- a/with space.c\t\n"
		"+++ b/with space.c\t\n"
		"@@ -1 +1 @@\n"
		"-a\n"
		"+b\n"
		"diff --git \"a/\\303\\251t\\303\\251\" \"b/\\303\\251t\\303\\251\"\n"
		"new file mode 100644\n"
		"index 0000000..e69de29\n"
		"diff --git a/sp ace b/sp ace\n"
		"old mode 100644\n"
		"new mode 100755\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 4);
	assert_string_equal(d.files[0].new_path, "foo\tbar");
	assert_string_equal(d.files[0].old_path, "foo\tbar");
	assert_string_equal(d.files[1].new_path, "with space.c");
	assert_string_equal(d.files[2].new_path, "\xc3\xa9t\xc3\xa9");
	assert_int_equal(d.files[2].status, PC_DIFF_ADDED);
	assert_string_equal(d.files[3].new_path, "sp ace");
	pc_diff_release(&d);
}

static void test_diff__no_prefix(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "diff --git drivers/x.c drivers/x.c\n"
			"index 1..2 100644\n"
			"--- drivers/x.c\n"
			"+++ drivers/x.c\n"
			"@@ -1 +1 @@\n"
			"-a\n"
			"+b\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 1);
	assert_string_equal(d.files[0].new_path, "drivers/x.c");
	assert_string_equal(d.files[0].old_path, "drivers/x.c");
	pc_diff_release(&d);
}

static void test_diff__plain_unified(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s =
		"Some text\n"
		"diff -urN linux.orig/fs/a.c linux/fs/a.c\n"
		"--- linux.orig/fs/a.c\t2005-01-01 00:00:00.000000000 +0100\n"
		"+++ linux/fs/a.c\t2005-01-02 00:00:00.000000000 +0100\n"
		"@@ -1,2 +1,2 @@\n"
		"-a\n"
		"+b\n"
		" c\n"
		"--- a/new.c\n"
		"+++ b/new.c\n"
		"@@ -0,0 +1 @@\n"
		"+x\n"
		"--- /dev/null\n"
		"+++ b/added.c\n"
		"@@ -0,0 +1 @@\n"
		"+x\n"
		"--- a/gone.c\n"
		"+++ /dev/null\n"
		"@@ -1 +0,0 @@\n"
		"-x\n"
		"--- x.c.orig\tMon Jan  1 00:00:00 2001\n"
		"+++ x.c\tMon Jan  1 00:00:01 2001\n"
		"@@ -1 +1 @@\n"
		"-x\n"
		"+y\n";
	const struct pc_diff_file *f;

	(void)state;
	assert_true(pc_diff_present(s, strlen(s)));
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 5);
	assert_int_equal(d.diff_off, strstr(s, "diff -urN") - s);
	f = find(&d, "fs/a.c");
	assert_int_equal(f->status, PC_DIFF_MODIFIED);
	assert_string_equal(f->old_path, "fs/a.c");
	f = find(&d, "new.c");
	assert_int_equal(f->status, PC_DIFF_MODIFIED);
	assert_int_equal(find(&d, "added.c")->status, PC_DIFF_ADDED);
	assert_int_equal(find(&d, "gone.c")->status, PC_DIFF_DELETED);
	f = find(&d, "x.c");
	assert_int_equal(f->status, PC_DIFF_MODIFIED);
	assert_int_equal(f->added, 1);
	assert_int_equal(d.insertions, 4);
	assert_int_equal(d.deletions, 3);
	/* git patch-id needs a "diff " line; this one has "diff -urN". */
	assert_int_equal(strlen(d.patch_id), 40);
	pc_diff_release(&d);
}

/*
 * b4's trailers-followup-non-git-patch sample: a plain unified diff whose
 * hunk header has three '@' ("@@@ -1,1 +1,1 @@"); it used to go unseen,
 * so the mail was not a patch.
 */
static void test_diff__plain_combined_hunk_header(void **state)
{
	static const char text[] = "Follow-up trailer collating test.\n"
				   "\n"
				   "--- a/b4/junk.py\n"
				   "+++ b/b4/junk.py\n"
				   "@@@ -1,1 +1,1 @@ def junk():\n"
				   "-junk1\n"
				   "+junk2\n"
				   "\n"
				   "-- \n"
				   "2.wong.fu\n";
	struct pc_diff d = PC_DIFF_INIT;

	(void)state;
	assert_true(pc_diff_present(text, sizeof(text) - 1));
	parse_str(&d, text);
	assert_int_equal(d.nfiles, 1);
	assert_string_equal(d.files[0].new_path, "b4/junk.py");
	assert_int_equal(d.files[0].status, PC_DIFF_MODIFIED);
	assert_int_equal(d.files[0].removed, 1);
	assert_int_equal(d.files[0].added, 1);
	assert_int_equal(d.diff_off, strlen("Follow-up trailer collating "
					    "test.\n\n"));
	pc_diff_release(&d);
	/* A line of '@' alone is not a hunk header. */
	assert_false(pc_diff_present("--- a\n+++ b\n@@@\n", 17));
}

static void test_diff__cvs_index(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "Fix it.\n\n"
			"Index: src/x.c\n"
			"=============================================\n"
			"RCS file: /cvs/src/x.c,v\n"
			"retrieving revision 1.1\n"
			"diff -u -p -r1.1 x.c\n"
			"--- src/x.c\t17 Aug 2011 00:39:38 -0000\t1.1\n"
			"+++ src/x.c\t5 Dec 2011 20:15:49 -0000\n"
			"@@ -1 +1,2 @@\n"
			" a\n"
			"+b\n"
			"Index: y.c\n"
			"=============================================\n"
			"--- y.c\t(revision 12)\n"
			"+++ y.c\t(working copy)\n"
			"@@ -1 +1 @@\n"
			"-a\n"
			"+b\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 2);
	assert_int_equal(d.diff_off, strstr(s, "Index:") - s);
	assert_string_equal(d.files[0].new_path, "src/x.c");
	assert_string_equal(d.files[1].new_path, "y.c");
	assert_int_equal(d.insertions, 2);
	assert_int_equal(d.deletions, 1);
	pc_diff_release(&d);
}

static void test_diff__malformed_hunk_header(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "--- a/x\n"
			"+++ b/x\n"
			"@@ -49, 3 +49,3 @@\n"
			" a\n"
			"-b\n"
			"+c\n"
			" d\n"
			"--- a/y\n"
			"+++ b/y\n"
			"@@ -1,x +1 @@\n"
			"-a\n"
			"+b\n"
			"+c\n"
			"-- \n"
			"sig\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 2);
	assert_int_equal(find(&d, "x")->added, 1);
	assert_int_equal(find(&d, "x")->removed, 1);
	assert_int_equal(find(&d, "y")->added, 2);
	assert_int_equal(find(&d, "y")->removed, 1);
	pc_diff_release(&d);
}

static void test_diff__signature_after_short_hunk(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	/* The header claims more new lines than there are. */
	const char *s = "diff --git a/x b/x\n"
			"--- a/x\n"
			"+++ b/x\n"
			"@@ -0,0 +1,8 @@\n"
			"-a\n"
			"-- \n"
			"2.7.4\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 1);
	assert_int_equal(d.files[0].removed, 1);
	assert_int_equal(d.files[0].added, 0);
	pc_diff_release(&d);
}

static void test_diff__no_newline_and_crlf(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s =
		"diff --git a/x b/x\r\n"
		"index 1..2 100644\r\n"
		"--- a/x\r\n"
		"+++ b/x\r\n"
		"@@ -1,2 +1,2 @@\r\n"
		" a\r\n"
		"-b\r\n"
		"\\ No newline at end of file\r\n"
		"+c\r\n"
		"\\ No newline at end of file\r\n"
		"diff --git a/y b/y\r\n"
		"--- a/y\r\n"
		"+++ b/y\r\n"
		"@@ -1 +1 @@\r\n"
		"-a\r\n"
		"+b\r\n"
		"\r\n"
		"base-commit: 0123456789abcdef0123456789abcdef01234567 \r\n";

	(void)state;
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 2);
	assert_string_equal(d.files[0].new_path, "x");
	assert_int_equal(d.files[0].added, 1);
	assert_int_equal(d.files[0].removed, 1);
	assert_string_equal(d.files[1].new_path, "y");
	assert_string_equal(d.base_commit,
			    "0123456789abcdef0123456789abcdef01234567");
	pc_diff_release(&d);
}

static void test_diff__pasted_twice(void **state)
{
	struct pc_diff d = PC_DIFF_INIT, once = PC_DIFF_INIT;
	const char *one = "diff --git a/x b/x\n"
			  "--- a/x\n"
			  "+++ b/x\n"
			  "@@ -1 +1 @@\n"
			  "-a\n"
			  "+b\n";
	char *two =
		xasprintf("%s\nsome text between\n\n%s-- \nsig\n", one, one);

	(void)state;
	parse_str(&once, one);
	parse_str(&d, two);
	assert_int_equal(d.nfiles, 1);
	assert_int_equal(d.insertions, 1);
	assert_int_equal(d.deletions, 1);
	assert_int_equal(d.diff_off, 0);
	assert_string_equal(d.patch_id, once.patch_id);
	pc_diff_release(&d);
	pc_diff_release(&once);
	free(two);
}

static void test_diff__none(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	const char *s = "Hello,\n\n--- quoted\n> diff --git a/x b/x\nbye\n";

	(void)state;
	assert_false(pc_diff_present(s, strlen(s)));
	assert_false(pc_diff_present("", 0));
	parse_str(&d, s);
	assert_int_equal(d.nfiles, 0);
	assert_int_equal(d.diff_off, strlen(s));
	assert_string_equal(d.patch_id, "");
	pc_diff_release(&d);
	parse_str(&d, "");
	assert_int_equal(d.nfiles, 0);
	pc_diff_release(&d);
}

static void test_diff__limit(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	struct pc_err err = { 0 };
	struct pc_buf b = PC_BUF_INIT;
	int i;

	(void)state;
	for (i = 0; i <= PC_DIFF_MAX_FILES; i++)
		pc_buf_addf(&b,
			    "diff --git a/f%d b/f%d\nold mode 100644\n"
			    "new mode 100755\n",
			    i, i);
	assert_int_equal(pc_diff_parse(&d, b.buf, b.len, &err), PC_ELIMIT);
	assert_int_equal(err.code, PC_ELIMIT);
	assert_int_equal(d.nfiles, 0);
	pc_diff_release(&d);
	pc_buf_release(&b);
}

/* ---- corpus oracles ------------------------------------------------- */

/* Splits an mbox at "From " lines that follow a blank line. */
struct msgs {
	size_t off[512], len[512];
	size_t n;
};

static void split_mbox(struct msgs *m, const char *p, size_t len)
{
	size_t i, start = 0;

	m->n = 0;
	for (i = 0; i < len;
	     i = (const char *)memchr(p + i, '\n', len - i) ?
			 (size_t)((const char *)memchr(p + i, '\n', len - i) -
				  p) +
				 1 :
			 len) {
		if (i > 0 && pc_mem_starts(p + i, len - i, "From ") &&
		    (i < 2 || p[i - 2] == '\n')) {
			assert_true(m->n < 511);
			m->off[m->n] = start;
			m->len[m->n++] = i - start;
			start = i;
		}
	}
	m->off[m->n] = start;
	m->len[m->n++] = len - start;
}

static int hexdig(int c)
{
	return pc_isdigit(c) ? c - '0' : pc_tolower(c) - 'a' + 10;
}

/*
 * Decodes a quoted-printable body of a single-part message in place (the
 * header is kept): enough for the corpus, not a MIME parser.
 */
static void decode_qp(struct pc_buf *out, const char *p, size_t len)
{
	const char *hdr_end = NULL;
	size_t i, h;

	pc_buf_reset(out);
	for (i = 0; i + 1 < len; i++)
		if (p[i] == '\n' && p[i + 1] == '\n') {
			hdr_end = p + i + 2;
			break;
		}
	if (!hdr_end ||
	    !pc_memimem(p, (size_t)(hdr_end - p),
			"content-transfer-encoding: quoted-printable")) {
		pc_buf_add(out, p, len);
		return;
	}
	h = (size_t)(hdr_end - p);
	pc_buf_add(out, p, h);
	for (i = h; i < len; i++) {
		if (p[i] == '=' && i + 1 < len && p[i + 1] == '\n') {
			i++;
		} else if (p[i] == '=' && i + 2 < len &&
			   (pc_isdigit(p[i + 1]) ||
			    (p[i + 1] >= 'A' && p[i + 1] <= 'F')) &&
			   (pc_isdigit(p[i + 2]) ||
			    (p[i + 2] >= 'A' && p[i + 2] <= 'F'))) {
			pc_buf_addch(out,
				     hexdig(p[i + 1]) * 16 + hexdig(p[i + 2]));
			i += 2;
		} else {
			pc_buf_addch(out, p[i]);
		}
	}
}

static void parse_file(struct pc_diff *d, struct pc_buf *raw, const char *rel,
		       int qp)
{
	struct pc_buf dec = PC_BUF_INIT;

	t_read_file(raw, t_data(rel));
	if (qp) {
		decode_qp(&dec, raw->buf, raw->len);
		pc_buf_reset(raw);
		pc_buf_add(raw, dec.buf, dec.len);
	}
	assert_int_equal(pc_diff_parse(d, raw->buf, raw->len, NULL), 0);
	pc_buf_release(&dec);
}

static void test_diff__corpus_patchwork(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	struct pc_buf raw = PC_BUF_INIT;
	const struct pc_diff_file *f;

	(void)state;
	parse_file(&d, &raw, "corpus/patchwork/mail/0008-git-rename.mbox", 0);
	assert_int_equal(d.nfiles, 2);
	assert_int_equal(d.files[0].status, PC_DIFF_RENAMED);
	assert_int_equal(d.files[1].status, PC_DIFF_RENAMED);
	assert_int_equal(d.files[0].similarity, 100);
	assert_string_equal(
		d.files[0].old_path,
		"package/rpi-userland/rpi-userland-add-pkgconfig-files.patch");
	assert_string_equal(
		d.files[0].new_path,
		"package/rpi-userland/rpi-userland-000-add-pkgconfig-files.patch");
	assert_true(pc_mem_starts(raw.buf + d.diff_off, raw.len - d.diff_off,
				  "diff --git a/package/rpi-userland/"));
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw,
		   "corpus/patchwork/mail/0021-git-empty-new-file.mbox", 0);
	assert_int_equal(d.nfiles, 1);
	assert_int_equal(d.files[0].status, PC_DIFF_ADDED);
	assert_string_equal(d.files[0].new_path, "banana");
	assert_int_equal(d.insertions + d.deletions, 0);
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw, "corpus/patchwork/mail/0022-git-mode-change.mbox",
		   0);
	assert_int_equal(d.nfiles, 1);
	f = &d.files[0];
	assert_string_equal(f->new_path, "scripts/kconfig/nconf-cfg.sh");
	assert_int_equal(f->old_mode, 0100644);
	assert_int_equal(f->new_mode, 0100755);
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw,
		   "corpus/patchwork/mail/0025-git-add-binary-file.mbox", 0);
	assert_int_equal(d.nfiles, 1);
	assert_string_equal(d.files[0].new_path, "pixel.bmp");
	assert_int_equal(d.files[0].status, PC_DIFF_ADDED);
	assert_true(d.files[0].binary);
	assert_true(pc_mem_starts(raw.buf + d.diff_off, raw.len - d.diff_off,
				  "diff --git pixel.bmp pixel.bmp"));
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw,
		   "corpus/patchwork/mail/0027-git-modify-binary-file.mbox", 0);
	assert_int_equal(d.nfiles, 1);
	assert_string_equal(d.files[0].new_path, "pixel.bmp");
	assert_string_equal(d.files[0].old_path, "pixel.bmp");
	assert_int_equal(d.files[0].status, PC_DIFF_MODIFIED);
	assert_true(d.files[0].binary);
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw,
		   "corpus/patchwork/mail/0011-no-newline-at-end-of-file.mbox",
		   0);
	assert_int_equal(d.nfiles, 3);
	assert_string_equal(d.files[0].new_path,
			    "tools/testing/selftests/powerpc/Makefile");
	assert_int_equal(d.files[0].added, 1);
	assert_int_equal(d.files[0].removed, 1);
	/* Symlinks, each ending with the marker. */
	assert_int_equal(d.files[1].status, PC_DIFF_ADDED);
	assert_int_equal(d.files[1].new_mode, 0120000);
	assert_int_equal(d.files[1].added, 1);
	assert_true(pc_mem_starts(
		raw.buf + d.diff_off, raw.len - d.diff_off,
		"diff --git a/tools/testing/selftests/powerpc/Makefile"));
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw, "corpus/patchwork/mail/0007-cvs-format-diff.mbox",
		   0);
	assert_true(d.nfiles >= 3);
	assert_string_equal(d.files[0].new_path, "bfd/elf-bfd.h");
	assert_string_equal(d.files[1].new_path, "bfd/elflink.c");
	assert_true(pc_mem_starts(raw.buf + d.diff_off, raw.len - d.diff_off,
				  "Index: bfd/elf-bfd.h"));
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw,
		   "corpus/patchwork/mail/0003-git-pull-request-with-diff.mbox",
		   0);
	assert_true(pc_mem_starts(raw.buf + d.diff_off, raw.len - d.diff_off,
				  "diff --git a/arch/x86/include/asm/smp.h"));
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw, "corpus/patchwork/mail/0001-git-pull-request.mbox",
		   0);
	assert_int_equal(d.nfiles, 0);
	assert_false(pc_diff_present(raw.buf, raw.len));
	pc_diff_release(&d);
	pc_buf_release(&raw);
}

static void test_diff__corpus_patchew(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	struct pc_buf raw = PC_BUF_INIT;
	size_t i, renames = 0, binary = 0;

	(void)state;
	parse_file(&d, &raw, "corpus/patchew/0021-mode-only-patch.mbox.gz", 0);
	assert_int_equal(d.nfiles, 9);
	assert_int_equal(d.insertions, 0);
	assert_int_equal(d.deletions, 0);
	for (i = 0; i < d.nfiles; i++) {
		assert_int_equal(d.files[i].old_mode, 0100644);
		assert_int_equal(d.files[i].new_mode, 0100755);
	}
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	/* QP-encoded: decoded in the test. */
	parse_file(&d, &raw, "corpus/patchew/0029-diffstat-in-patch.gz", 1);
	assert_int_equal(d.nfiles, 3);
	assert_int_equal(d.insertions, 15);
	assert_int_equal(d.deletions, 84);
	for (i = 0; i < d.nfiles; i++)
		binary += d.files[i].binary;
	assert_int_equal(binary, 1);
	assert_true(
		find(&d, "tests/data/0008-complex-diffstat.mbox.gz")->binary);
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	parse_file(&d, &raw, "corpus/patchew/0008-complex-diffstat.mbox.gz", 1);
	assert_int_equal(d.nfiles, 9);
	assert_int_equal(d.insertions, 10);
	assert_int_equal(d.deletions, 10);
	for (i = 0; i < d.nfiles; i++)
		renames += d.files[i].status == PC_DIFF_RENAMED;
	assert_int_equal(renames, 2);
	assert_string_equal(find(&d, "hw/display/i2c-ddc.c")->old_path,
			    "hw/i2c/i2c-ddc.c");
	pc_diff_release(&d);
	pc_buf_reset(&raw);

	/* A raw diff (no git header) with CRLF lines. */
	parse_file(&d, &raw, "corpus/patchew/0033-raw-diff.mbox.gz", 0);
	assert_true(pc_diff_present(raw.buf, raw.len));
	assert_int_equal(d.nfiles, 1);
	assert_string_equal(d.files[0].new_path, "xen/common/memory.c");
	assert_int_equal(d.files[0].added, 3);
	assert_int_equal(d.files[0].removed, 2);
	pc_diff_release(&d);
	pc_buf_release(&raw);
}

static void test_diff__corpus_seeds(void **state)
{
	struct pc_diff d = PC_DIFF_INIT;
	struct pc_buf raw = PC_BUF_INIT;

	(void)state;
	/* The lore page dump holds the same diff three times. */
	parse_file(
		&d, &raw,
		"seeds/002-patch-maintainers-reclaim-the-p-tag-for-subsystem-profile.patch",
		0);
	assert_int_equal(d.nfiles, 1);
	assert_string_equal(d.files[0].new_path, "MAINTAINERS");
	assert_int_equal(d.insertions, 9);
	assert_int_equal(d.deletions, 9);
	pc_diff_release(&d);
	pc_buf_release(&raw);
}

/* ---- patch-id against git -------------------------------------------- */

static const char *const pid_files[] = {
	"corpus/patchwork/mail/0001-git-pull-request.mbox",
	"corpus/patchwork/mail/0003-git-pull-request-with-diff.mbox",
	"corpus/patchwork/mail/0007-cvs-format-diff.mbox",
	"corpus/patchwork/mail/0008-git-rename.mbox",
	"corpus/patchwork/mail/0010-invalid-charset.mbox",
	"corpus/patchwork/mail/0011-no-newline-at-end-of-file.mbox",
	"corpus/patchwork/mail/0013-with-utf8-body.mbox",
	"corpus/patchwork/mail/0016-no-subject.mbox",
	"corpus/patchwork/mail/0019-multipart-patch.mbox",
	"corpus/patchwork/mail/0021-git-empty-new-file.mbox",
	"corpus/patchwork/mail/0022-git-mode-change.mbox",
	"corpus/patchwork/mail/0024-git-pull-request-trailing-space.mbox",
	"corpus/patchwork/mail/0025-git-add-binary-file.mbox",
	"corpus/patchwork/mail/0027-git-modify-binary-file.mbox",
	"corpus/patchwork/series/base-cover-letter.mbox",
	"corpus/patchwork/series/base-deep-threaded.mbox",
	"corpus/patchwork/series/base-extra-patches.mbox",
	"corpus/patchwork/series/base-incomplete.mbox",
	"corpus/patchwork/series/base-no-cover-letter.mbox",
	"corpus/patchwork/series/base-no-references.mbox",
	"corpus/patchwork/series/base-single-patch.mbox",
	"corpus/patchwork/series/bugs-multiple-content-types.mbox",
	"corpus/patchwork/series/bugs-unnumbered.mbox",
	"corpus/patchwork/series/mercurial-cover-letter.mbox",
	"corpus/patchwork/series/revision-basic.mbox",
	"corpus/patchwork/series/revision-no-cover-letter.mbox",
	"corpus/patchwork/series/revision-threaded-to-cover.mbox",
	"corpus/patchew/0001-simple-patch.mbox.gz",
	"corpus/patchew/0003-single-patch-reviewed.mbox.gz",
	"corpus/patchew/0004-multiple-patch-reviewed.mbox.gz",
	"corpus/patchew/0005-non-utf-8.mbox.gz",
	"corpus/patchew/0008-complex-diffstat.mbox.gz",
	"corpus/patchew/0009-obsolete-by.mbox.gz",
	"corpus/patchew/0016-nested-multipart.mbox.gz",
	"corpus/patchew/0018-mime-word-recipient.mbox.gz",
	"corpus/patchew/0021-mode-only-patch.mbox.gz",
	"corpus/patchew/0023-multiple-project-patch.mbox.gz",
	"corpus/patchew/0029-diffstat-in-patch.gz",
	"corpus/patchew/0033-raw-diff.mbox.gz",
	"corpus/patchew/0036-patch-with-no-to-header.mbox.gz",
	"corpus/b4/naked-cover-single.mbox",
	"corpus/b4/shazam-git1-just-series.mbox",
	"corpus/b4/trailers-followup-custody.mbox",
	"corpus/b4/trailers-followup-non-git-patch.mbox",
	"corpus/b4/trailers-followup-single.mbox",
	"corpus/b4/trailers-followup-stripped-lines.mbox",
	"corpus/b4/trailers-followup-with-cover.mbox",
	"corpus/b4/trailers-followup-with-diffstat.mbox",
	"corpus/b4/trailers-thread-with-followups.mbox",
	"corpus/git-t5100/sample.mbox",
	"corpus/lore-nvdimm/threads/git-pull-dax-libnvdimm-v5.17.mbox",
	"corpus/lore-nvdimm/threads/patch-attachment-in-reply-badblocks-bug.mbox",
	"corpus/lore-nvdimm/threads/poison-list-retrieval-v11-v12.mbox",
	"corpus/public-inbox/plack-attached-patch.eml",
	"seeds/002-patch-maintainers-reclaim-the-p-tag-for-subsystem-profile.patch",
	"seeds/003-patch-maintainers-handbook-subsystem-profile.patch",
	"seeds/004-patch-libnvdimm-maintainers-subsystem-profile.patch",
};

static void test_diff__patch_id_matches_git(void **state)
{
	char *dir = t_mkdtemp();
	struct pc_buf raw = PC_BUF_INIT, msg = PC_BUF_INIT;
	struct msgs *m = xcalloc(1, sizeof(*m));
	size_t k, i, compared = 0, with_id = 0, qp = 0;

	(void)state;
	for (k = 0; k < PC_ARRAY_SIZE(pid_files); k++) {
		pc_buf_reset(&raw);
		t_read_file(&raw, t_data(pid_files[k]));
		split_mbox(m, raw.buf, raw.len);
		for (i = 0; i < m->n; i++) {
			struct pc_diff d = PC_DIFF_INIT;
			char want[41];
			const char *p = raw.buf + m->off[i];

			/* Quoted-printable bodies are decoded first. */
			decode_qp(&msg, p, m->len[i]);
			qp += msg.len != m->len[i];
			assert_int_equal(
				pc_diff_parse(&d, msg.buf, msg.len, NULL), 0);
			git_patch_id(want, dir, msg.buf, msg.len);
			if (strcmp(want, d.patch_id))
				fail_msg("%s message %zu: git '%s', ours '%s'",
					 pid_files[k], i + 1, want, d.patch_id);
			compared++;
			with_id += want[0] != '\0';
			pc_diff_release(&d);
		}
	}
	print_message("patch-id: %zu messages compared with git (%zu with an "
		      "id, %zu QP-decoded), all equal\n",
		      compared, with_id, qp);
	assert_true(with_id >= 40);
	free(m);
	pc_buf_release(&raw);
	pc_buf_release(&msg);
	t_rmtree(dir);
	free(dir);
}

/*
 * Hunks longer than the hasher's 8 KiB buffer: one line of 20,000
 * characters with spaces in it, and 3,000 short lines, so the buffer
 * fills in the middle of a line and on a line boundary.
 */
static void long_hunks_match_git(const char *dir)
{
	struct pc_buf b = PC_BUF_INIT;
	struct pc_diff d = PC_DIFF_INIT;
	char want[41];
	int i;

	pc_buf_addstr(&b, "diff --git a/x b/x\n--- a/x\n+++ b/x\n"
			  "@@ -1 +1 @@\n-a\n+");
	for (i = 0; i < 20000; i++)
		pc_buf_addch(&b, i % 7 ? (char)('a' + i % 26) : ' ');
	pc_buf_addstr(&b, "\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n"
			  "@@ -0,0 +1,3000 @@\n");
	for (i = 0; i < 3000; i++)
		pc_buf_addf(&b, "+\tline %d of many\n", i);
	assert_int_equal(pc_diff_parse(&d, b.buf, b.len, NULL), 0);
	git_patch_id(want, dir, b.buf, b.len);
	assert_true(want[0] != '\0');
	assert_string_equal(d.patch_id, want);
	pc_diff_release(&d);
	pc_buf_release(&b);
}

static void test_diff__patch_id_edge_cases_match_git(void **state)
{
	static const char *const cases[] = {
		/* Binary followed by text; the "diff " after binary. */
		"diff --git a/x b/x\nindex 1234567..89abcde 100644\n"
		"GIT binary patch\nliteral 1\nabc\n\n"
		"diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1,1 +1,1 @@\n-a\n+b\n",
		/* git 2.39's atoi() hunk header quirk. */
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1, 1 +1,1 @@\n-a\n+b\n"
		"diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1,1 +1,1 @@\n-a\n+b\n",
		/* Mode-only then text, header-only files. */
		"diff --git a/m b/m\nold mode 100644\nnew mode 100755\n"
		"diff --git a/y b/y\nindex 1..2\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n",
		/* Index line without mode, no final newline. */
		"diff --git a/x b/x\nindex 1234567..89abcde\nBinary files a/x and b/x differ",
		/* A commit line ends the patch; a second patch follows. */
		"text\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n"
		"commit 0123456789012345678901234567890123456789\n"
		"diff --git a/z b/z\n--- a/z\n+++ b/z\n@@ -1 +1 @@\n-a\n+c\n",
		/* Prose "diff " line before the real diff. */
		"diff between v1 and v2\n\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n"
		"@@ -1 +1 @@\n-a\n+b\n",
		/* CRLF, whitespace, no-newline marker, vertical tab kept. */
		"diff --git a/y b/y\r\n--- a/y\r\n+++ b/y\r\n@@ -1 +1 @@\r\n"
		"-a \t b\r\n\\ No newline at end of file\r\n+a\vb\r\n",
		/* Negative counts. */
		"diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1,-3 +1 @@\n-a\n+b\n c\n",
		"",
		"diff \n",
	};
	char *dir = t_mkdtemp();
	size_t k;

	(void)state;
	for (k = 0; k < PC_ARRAY_SIZE(cases); k++) {
		struct pc_diff d = PC_DIFF_INIT;
		char want[41];

		assert_int_equal(
			pc_diff_parse(&d, cases[k], strlen(cases[k]), NULL), 0);
		git_patch_id(want, dir, cases[k], strlen(cases[k]));
		if (strcmp(want, d.patch_id))
			fail_msg("case %zu: git '%s', ours '%s'", k, want,
				 d.patch_id);
		pc_diff_release(&d);
	}
	long_hunks_match_git(dir);
	t_rmtree(dir);
	free(dir);
}

/* ---- hostile input --------------------------------------------------- */

static void test_diff__truncated_everywhere(void **state)
{
	static const char *const files[] = {
		"corpus/patchwork/mail/0025-git-add-binary-file.mbox",
		"corpus/patchwork/mail/0008-git-rename.mbox",
		"corpus/patchwork/mail/0007-cvs-format-diff.mbox",
		"seeds/003-patch-maintainers-handbook-subsystem-profile.patch",
	};
	struct pc_buf raw = PC_BUF_INIT;
	size_t k, n;

	(void)state;
	for (k = 0; k < PC_ARRAY_SIZE(files); k++) {
		pc_buf_reset(&raw);
		t_read_file(&raw, t_data(files[k]));
		for (n = 0; n <= raw.len; n++) {
			/* An exact-size copy, so ASan sees any over-read. */
			char *p = xmalloc(n ? n : 1);
			struct pc_diff d = PC_DIFF_INIT;

			memcpy(p, raw.buf, n);
			assert_int_equal(pc_diff_parse(&d, p, n, NULL), 0);
			assert_true(d.diff_off <= n);
			(void)pc_diff_present(p, n);
			pc_diff_release(&d);
			free(p);
		}
	}
	pc_buf_release(&raw);
}

static void test_diff__garbage(void **state)
{
	static const char *const cases[] = {
		"diff --git \n",
		"diff --git \"unterminated\n",
		"diff --git \"a\\7\" \"b\\400\"\n",
		"diff --git a b\n--- \n+++ \n@@ -\n",
		"--- a\n+++ b\n@@ -1,99999999999999999999 +1 @@\n-x\n",
		"diff --git a/x b/x\nGIT binary patch\nliteral 5\n",
		"diff --git a/x b/x\nsimilarity index 9999999999%\nrename from\n",
		"\n\n\r\r\n--- \n+++ \n@@ -",
	};
	size_t k;

	(void)state;
	for (k = 0; k < PC_ARRAY_SIZE(cases); k++) {
		size_t len = strlen(cases[k]);
		char *p = xmemdupz(cases[k], len);
		struct pc_diff d = PC_DIFF_INIT;

		assert_int_equal(pc_diff_parse(&d, p, len, NULL), 0);
		pc_diff_release(&d);
		free(p);
	}
}

/* The changed lines: signs kept, context and trailing blanks not, each
 * once; a "--- " line inside a hunk is content; a hunk without counts
 * and text after the last hunk are not read. */
static void test_diff__changes(void **state)
{
	static const char a[] =
		"intro\n-not a hunk line\n"
		"diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
		"@@ -1,4 +1,4 @@\n ctx\n-old\n+new \n--- dashes\n+new\n"
		" ctx\n"
		"diff --git a/y.c b/y.c\n--- a/y.c\n+++ b/y.c\n"
		"@@ -1 +1 @@\n-old\n+other\n-- \n2.39.0\n";
	static const char b[] = "diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
				"@@ -9,2 +9,2 @@\n other ctx\n-old\n+new\t\n";
	static const char c[] = "diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
				"@@ -9,2 +9,2 @@\n other ctx\n+old\n-new\n";
	uint64_t *va = NULL, *vb = NULL, *vc = NULL;
	size_t na, nb, nc;

	(void)state;
	/* -old, +new, --- dashes (as "-" + "-- dashes"), +other */
	na = pc_diff_changes(a, sizeof(a) - 1, &va);
	assert_int_equal(na, 4);
	nb = pc_diff_changes(b, sizeof(b) - 1, &vb);
	assert_int_equal(nb, 2);
	nc = pc_diff_changes(c, sizeof(c) - 1, &vc);
	assert_int_equal(nc, 2);
	assert_true(pc_diff_changes_within(vb, nb, va, na));
	assert_false(pc_diff_changes_within(va, na, vb, nb));
	/* The same lines with the signs swapped undo the change. */
	assert_false(pc_diff_changes_within(vc, nc, va, na));
	free(vc);
	assert_int_equal(pc_diff_changes("no diff\n", 8, &vc), 0);
	assert_null(vc);
	free(va);
	free(vb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff__git_modify),
		cmocka_unit_test(test_diff__content_looks_like_header),
		cmocka_unit_test(test_diff__add_delete_mode),
		cmocka_unit_test(test_diff__rename_copy),
		cmocka_unit_test(test_diff__binary),
		cmocka_unit_test(test_diff__quoted_paths),
		cmocka_unit_test(test_diff__no_prefix),
		cmocka_unit_test(test_diff__plain_unified),
		cmocka_unit_test(test_diff__plain_combined_hunk_header),
		cmocka_unit_test(test_diff__cvs_index),
		cmocka_unit_test(test_diff__malformed_hunk_header),
		cmocka_unit_test(test_diff__signature_after_short_hunk),
		cmocka_unit_test(test_diff__no_newline_and_crlf),
		cmocka_unit_test(test_diff__pasted_twice),
		cmocka_unit_test(test_diff__none),
		cmocka_unit_test(test_diff__limit),
		cmocka_unit_test(test_diff__corpus_patchwork),
		cmocka_unit_test(test_diff__corpus_patchew),
		cmocka_unit_test(test_diff__corpus_seeds),
		cmocka_unit_test(test_diff__patch_id_matches_git),
		cmocka_unit_test(test_diff__patch_id_edge_cases_match_git),
		cmocka_unit_test(test_diff__truncated_everywhere),
		cmocka_unit_test(test_diff__garbage),
		cmocka_unit_test(test_diff__changes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
