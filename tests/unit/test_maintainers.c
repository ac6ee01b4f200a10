// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/maint/maintainers: the parser on odd input, and each
 * get_maintainer.pl quirk on small hand-made MAINTAINERS files in fresh
 * temporary trees. The expected outputs were checked against the kernel's
 * own scripts/get_maintainer.pl (6.1) run on the same trees.
 */
#include "testutil.h"
#include "maint/maint_internal.h"
#include "maint/maintainers.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------------ */

/* Writes dir/rel, making its directories. */
static void put(const char *dir, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel), *s;
	FILE *f;

	for (s = strchr(path + strlen(dir) + 1, '/'); s;
	     s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir '%s'", path);
		*s = '/';
	}
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
	assert_int_equal(fclose(f), 0);
	free(path);
}

static void mkdirs(const char *dir, const char *rel)
{
	char *p = xasprintf("%s/%s/.keep", dir, rel);

	put(dir, p + strlen(dir) + 1, "");
	free(p);
}

/* A tree with MAINTAINERS (and .mailmap if given); caller frees both. */
static struct pc_maint *load(char **dir, const char *maintainers,
			     const char *mailmap)
{
	struct pc_err err = { 0 };
	struct pc_maint *m = NULL;

	*dir = t_mkdtemp();
	put(*dir, "MAINTAINERS", maintainers);
	if (mailmap)
		put(*dir, ".mailmap", mailmap);
	if (pc_maint_load(&m, *dir, &err) < 0)
		fail_msg("load: %s", err.msg);
	return m;
}

static void unload(struct pc_maint *m, char *dir)
{
	pc_maint_free(m);
	t_rmtree(dir);
	free(dir);
}

static struct pc_maint *reload(struct pc_maint *m, const char *dir)
{
	struct pc_err err = { 0 };

	pc_maint_free(m);
	if (pc_maint_load(&m, dir, &err) < 0)
		fail_msg("load: %s", err.msg);
	return m;
}

/* "NAME:depth" (or "NAME:k") per hit, joined with ", ". */
static char *hits(const struct pc_maint_result *r)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;

	for (i = 0; i < r->n_hits; i++) {
		if (i)
			pc_buf_addstr(&b, ", ");
		if (r->hits[i].k_only)
			pc_buf_addf(&b, "%s:k", r->hits[i].entry->name);
		else
			pc_buf_addf(&b, "%s:%d", r->hits[i].entry->name,
				    r->hits[i].depth);
	}
	return pc_buf_detach(&b, NULL);
}

/* What the CLI prints: lines joined with '\n', roles in parentheses. */
static char *lines(const struct pc_maint *m, const struct pc_maint_result *r,
		   int roles)
{
	struct pc_maint_lines l = PC_MAINT_LINES_INIT;
	struct pc_buf b = PC_BUF_INIT;
	size_t i;

	pc_maint_lines(&l, m, r);
	for (i = 0; i < l.n; i++) {
		if (i)
			pc_buf_addch(&b, '\n');
		pc_buf_addstr(&b, l.v[i].text);
		if (roles)
			pc_buf_addf(&b, " (%s)", l.v[i].role);
	}
	pc_maint_lines_release(&l);
	return pc_buf_detach(&b, NULL);
}

static void check_file(const struct pc_maint *m, const char *path,
		       const char *want_hits)
{
	struct pc_maint_result r = PC_MAINT_RESULT_INIT;
	struct pc_err err = { 0 };
	char *h;

	assert_int_equal(pc_maint_map_file(&r, m, path, PC_MAINT_DEFAULT, &err),
			 0);
	h = hits(&r);
	if (strcmp(h, want_hits))
		fail_msg("%s: got '%s', want '%s'", path, h, want_hits);
	free(h);
	pc_maint_result_release(&r);
}

static void check_patch(const struct pc_maint *m, const char *patch,
			const char *want_hits)
{
	struct pc_maint_result r = PC_MAINT_RESULT_INIT;
	struct pc_err err = { 0 };
	char *h;

	assert_int_equal(pc_maint_map_patch(&r, m, patch, strlen(patch),
					    PC_MAINT_DEFAULT, &err),
			 0);
	h = hits(&r);
	if (strcmp(h, want_hits))
		fail_msg("patch: got '%s', want '%s'", h, want_hits);
	free(h);
	pc_maint_result_release(&r);
}

static void check_lines(const struct pc_maint *m, const char *path, int roles,
			const char *want)
{
	struct pc_maint_result r = PC_MAINT_RESULT_INIT;
	struct pc_err err = { 0 };
	char *got;

	assert_int_equal(pc_maint_map_file(&r, m, path, PC_MAINT_DEFAULT, &err),
			 0);
	got = lines(m, &r, roles);
	if (strcmp(got, want))
		fail_msg("%s: got\n%s\nwant\n%s", path, got, want);
	free(got);
	pc_maint_result_release(&r);
}

/* ---- parsing -------------------------------------------------------------------- */

static const char header[] =
	"List of maintainers\n"
	"===================\n"
	"\n"
	"Descriptions of section entries and preferred order\n"
	"\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\tR: Designated *Reviewer*: FullName <address@domain>\n"
	"\t   These reviewers should be CCed on patches.\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\t   F:\tdrivers/net/\tall files in and below drivers/net\n"
	"\n"
	"Maintainers List\n"
	"----------------\n"
	"\n";

static void test_maintainers__parse_tags(void **state)
{
	const char *text = "3C59X NETWORK DRIVER\n"
			   "M:\tSteffen Klassert <klassert@kernel.org>\n"
			   "R:\tRe Viewer <rv@example.org>\n"
			   "L:\tnetdev@vger.kernel.org\n"
			   "S:\tOdd Fixes\n"
			   "W:\thttps://example.org/\n"
			   "Q:\thttps://patchwork.example.org/\n"
			   "B:\tmailto:bugs@example.org\n"
			   "C:\tirc://irc.example.org/net\n"
			   "P:\tDocumentation/process/x.rst\n"
			   "T:\tgit git://example.org/net.git\n"
			   "F:\tdrivers/net/ethernet/3com/3c59x.c\n"
			   "X:\tdrivers/net/ethernet/3com/skip/\n"
			   "N:\tvortex\n"
			   "K:\t\\bvortex_\n"
			   "Y:\tan unknown tag\n"
			   "P:  https://example.org/profile  \n"
			   "\n"
			   "LIBNVDIMM PMEM AND CORE\n"
			   "M:\tDan Williams <dan.j.williams@intel.com>\n"
			   "S:\tSupported\n";
	char *dir, *full = xasprintf("%s%s", header, text);
	struct pc_maint *m = load(&dir, full, NULL);
	const struct pc_maint_entry *e;

	(void)state;
	assert_int_equal(pc_maint_count(m), 2);
	e = pc_maint_entry_at(m, 0);
	assert_string_equal(e->name, "3C59X NETWORK DRIVER");
	assert_int_equal(e->index, 0);
	assert_int_equal(e->line, 15);
	assert_int_equal(e->n_tags, 16);
	assert_int_equal(e->tags[15].tag, 'P');
	assert_int_equal(e->tags[14].tag, 'Y');
	assert_string_equal(e->tags[14].value, "an unknown tag");
	assert_int_equal(e->n_maintainers, 1);
	assert_string_equal(e->maintainers[0].value,
			    "Steffen Klassert <klassert@kernel.org>");
	assert_int_equal(e->maintainers[0].line, 16);
	assert_string_equal(e->reviewers[0].value,
			    "Re Viewer <rv@example.org>");
	assert_string_equal(e->lists[0].value, "netdev@vger.kernel.org");
	assert_string_equal(e->status[0].value, "Odd Fixes");
	assert_string_equal(e->web[0].value, "https://example.org/");
	assert_string_equal(e->patchwork[0].value,
			    "https://patchwork.example.org/");
	assert_string_equal(e->bugs[0].value, "mailto:bugs@example.org");
	assert_string_equal(e->chat[0].value, "irc://irc.example.org/net");
	assert_string_equal(e->scm[0].value, "git git://example.org/net.git");
	assert_string_equal(e->files[0].value,
			    "drivers/net/ethernet/3com/3c59x.c");
	assert_string_equal(e->excludes[0].value,
			    "drivers/net/ethernet/3com/skip/");
	assert_string_equal(e->regexes[0].value, "vortex");
	assert_string_equal(e->keywords[0].value, "\\bvortex_");
	assert_int_equal(e->keywords[0].line, 29);
	/* P: values as written: the script's \s* eats the leading blanks,
	 * the trailing ones stay. */
	assert_int_equal(e->n_profiles, 2);
	assert_string_equal(e->profiles[0], "Documentation/process/x.rst");
	assert_string_equal(e->profiles[1], "https://example.org/profile  ");
	assert_int_equal(e->profile_lines[1].line, 31);
	assert_string_equal(e->role, "odd fixer");

	e = pc_maint_find(m, "libnvdimm pmem and core");
	assert_non_null(e);
	assert_int_equal(e->index, 1);
	assert_int_equal(e->line, 33);
	assert_string_equal(e->role, "supporter");
	assert_null(pc_maint_find(m, "LIBNVDIMM"));
	assert_ptr_equal(pc_maint_find(m, "3c59x network DRIVER"),
			 pc_maint_entry_at(m, 0));
	/* As a person types it: a unique start, any case. */
	{
		size_t n = 99;

		assert_ptr_equal(pc_maint_find_prefix(m, "libnvdimm", &n),
				 pc_maint_find(m, "libnvdimm pmem and core"));
		assert_int_equal(n, 1);
		assert_ptr_equal(pc_maint_find_prefix(m, "3C59X", NULL),
				 pc_maint_entry_at(m, 0));
		assert_null(pc_maint_find_prefix(m, "", &n));
		assert_int_equal(n, 0);
		assert_null(pc_maint_find_prefix(m, "zzz", &n));
		assert_int_equal(n, 0);
	}

	assert_string_equal(pc_maint_header(m), header);
	assert_string_equal(pc_maint_tag_doc(m, 'M'),
			    "*Mail* patches to: FullName <address@domain>");
	assert_string_equal(pc_maint_tag_doc(m, 'R'),
			    "Designated *Reviewer*: FullName <address@domain>\n"
			    "These reviewers should be CCed on patches.");
	assert_string_equal(pc_maint_tag_doc(m, 'F'),
			    "*Files* and directories wildcard patterns.\n"
			    "F:\tdrivers/net/\tall files in and below "
			    "drivers/net");
	assert_null(pc_maint_tag_doc(m, 'K'));
	assert_int_equal(strlen(pc_maint_id(m)), 64);
	assert_int_equal(strlen(pc_maint_sha256(m)), 64);
	unload(m, dir);
	free(full);
}

/*
 * The script's notion of an entry: a run of tag lines named by the line
 * before it. Blank and comment lines do not end one; a stray text line
 * does (it names the rest); two names in a row make no empty entry.
 */
static void test_maintainers__parse_odd_input(void **state)
{
	const char *text =
		"A\r\n"
		"M:\ta <a@x.org>\r\n"
		"\r\n"
		"# a comment inside the entry\r\n"
		"F:\ta/\r\n"
		"\r\n"
		"EMPTY ENTRY\r\n"
		"\r\n"
		"B\r\n"
		"F:\tb/\r\n"
		"stray junk line\r\n"
		"F:\tjunk/\r\n"
		"  indented junk\r\n"
		"m: lower-case tag is text\r\n"
		"C\r\n"
		"F:c/"; /* no final newline, no blank after the colon */
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);
	const struct pc_maint_entry *e;

	(void)state;
	assert_int_equal(pc_maint_count(m), 4);
	e = pc_maint_entry_at(m, 0);
	assert_string_equal(e->name, "A");
	assert_int_equal(e->n_tags, 2);
	assert_string_equal(e->files[0].value, "a/");
	assert_int_equal(e->files[0].line, 5);
	assert_string_equal(e->role, "unknown");
	assert_string_equal(pc_maint_entry_at(m, 1)->name, "B");
	assert_string_equal(pc_maint_entry_at(m, 2)->name, "stray junk line");
	assert_string_equal(pc_maint_entry_at(m, 2)->files[0].value, "junk/");
	/* The text lines before C name nothing: C does. */
	e = pc_maint_entry_at(m, 3);
	assert_string_equal(e->name, "C");
	assert_string_equal(e->files[0].value, "c/");
	assert_int_equal(e->files[0].line, 16);
	assert_null(pc_maint_find(m, "EMPTY ENTRY"));
	check_file(m, "c/x.h", "C:1");
	check_file(m, "a/b/c", "A:1");
	unload(m, dir);
}

static void test_maintainers__parse_edge_files(void **state)
{
	struct pc_maint *m = NULL;
	struct pc_err err = { 0 };
	const char *s;
	char *dir;

	(void)state;
	/* Empty. */
	assert_int_equal(pc_maint_load_mem(&m, "", 0, NULL, 0, NULL, &err), 0);
	assert_int_equal(pc_maint_count(m), 0);
	check_file(m, "x.c", "");
	pc_maint_free(m);

	/* Only text: all of it is the header. */
	assert_int_equal(
		pc_maint_load_mem(&m, "a\nb\n", 4, NULL, 0, NULL, &err), 0);
	assert_int_equal(pc_maint_count(m), 0);
	assert_string_equal(pc_maint_header(m), "a\nb\n");
	pc_maint_free(m);

	/* A tag on the first line: the script names that entry by the
	 * line itself (F: converted) and the tag matches but gives no
	 * address. */
	s = "F:\tx.c\nM:\tA <a@b.org>\n";
	assert_int_equal(
		pc_maint_load_mem(&m, s, strlen(s), NULL, 0, NULL, &err), 0);
	assert_int_equal(pc_maint_count(m), 1);
	assert_string_equal(pc_maint_entry_at(m, 0)->name, "F:x\\.c");
	check_file(m, "x.c", "F:x\\.c:1");
	/* ... and finds it by that name (found by tests/fuzz). */
	assert_ptr_equal(pc_maint_find(m, "F:x\\.c"), pc_maint_entry_at(m, 0));
	pc_maint_free(m);

	/* A NUL byte is an error naming the line. */
	assert_int_equal(pc_maint_load_mem(&m, "A\nF:\tx\0y\n", 9, NULL, 0,
					   NULL, &err),
			 PC_EPARSE);
	assert_string_equal(err.msg, "MAINTAINERS:2: NUL byte in line");

	/* No MAINTAINERS. */
	dir = t_mkdtemp();
	assert_int_equal(pc_maint_load(&m, dir, &err), PC_EIO);
	assert_non_null(strstr(err.msg, "MAINTAINERS"));
	t_rmtree(dir);
	free(dir);
}

/* ---- F: X: N: -------------------------------------------------------------------- */

static void test_maintainers__slash_count(void **state)
{
	const char *text = "STAR\n"
			   "F:\tdrivers/foo*\n"
			   "\n"
			   "PREFIX\n"
			   "F:\tdrivers/bar.c\n"
			   "\n"
			   "QUESTION\n"
			   "F:\tdrivers/q?x.c\n"
			   "\n"
			   "CLASS\n"
			   "F:\tsound/da[79]*.[ch]\n"
			   "\n"
			   "DEEP STAR\n"
			   "F:\t*/*/vexpress*\n";
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);

	(void)state;
	/* Without a trailing slash, the path must have as many slashes. */
	check_file(m, "drivers/foo.c", "STAR:2");
	check_file(m, "drivers/foo/bar.c", "");
	/* Anchored at the start only: a longer name matches too. */
	check_file(m, "drivers/bar.c", "PREFIX:2");
	check_file(m, "drivers/bar.cpp", "PREFIX:2");
	check_file(m, "x/drivers/bar.c", "");
	/* '.' is literal, '?' one byte. */
	check_file(m, "drivers/barXc", "");
	check_file(m, "drivers/qqx.c", "QUESTION:2");
	check_file(m, "sound/da7219.c", "CLASS:2");
	check_file(m, "sound/da8219.c", "");
	/* A value starting with '*' scores -1. */
	check_file(m, "arch/arm/vexpress.c", "DEEP STAR:-1");
	check_file(m, "arch/vexpress.c", "");
	unload(m, dir);
}

static void test_maintainers__directory_without_slash(void **state)
{
	const char *text = "NET\n"
			   "F:\tdrivers/net\n"
			   "\n"
			   "DOTTED\n"
			   "F:\tdrivers/v4l2.core\n";
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);
	const char *id1;
	char *id;

	(void)state;
	/* Not a directory yet: the slash rule applies. */
	check_file(m, "drivers/net", "NET:2");
	check_file(m, "drivers/net/x.c", "");
	id = xstrdup(pc_maint_id(m));
	mkdirs(dir, "drivers/net");
	mkdirs(dir, "drivers/v4l2.core");
	m = reload(m, dir);
	/* Now it names a directory: everything below, depth 2. */
	check_file(m, "drivers/net/x.c", "NET:2");
	check_file(m, "drivers/net/a/b/c.c", "NET:2");
	/* The script tests the converted value ("v4l2\.core"): never a
	 * directory. */
	check_file(m, "drivers/v4l2.core/x.c", "");
	/* What mapping depends on changed, so the id did. */
	id1 = pc_maint_id(m);
	assert_string_not_equal(id, id1);
	free(id);
	unload(m, dir);
}

static void test_maintainers__exclude_and_last_line(void **state)
{
	const char *text = "NET\n"
			   "F:\tnet/\n"
			   "X:\tnet/ipv6/\n"
			   "\n"
			   "LAST WINS\n"
			   "F:\tnet/core/*\n"
			   "F:\tnet/\n"
			   "\n"
			   "LAST WINS 2\n"
			   "F:\tnet/\n"
			   "F:\tnet/core/*\n"
			   "\n"
			   "REGEX\n"
			   "F:\tnet/core/dev.c\n"
			   "N:\tcore\n"
			   "\n"
			   "X ONLY\n"
			   "X:\tnet/\n";
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);

	(void)state;
	/* One X: removes the entry; an entry with only X: never matches.
	 * Depth order, ties in file order; the last matching line sets an
	 * entry's depth, even when it is shallower (N: scores 0). */
	check_file(m, "net/core/dev.c",
		   "LAST WINS 2:3, NET:1, LAST WINS:1, "
		   "REGEX:0");
	check_file(m, "net/ipv6/route.c", "LAST WINS:1, LAST WINS 2:1");
	check_file(m, "lib/core.c", "REGEX:0");
	unload(m, dir);
}

static void test_maintainers__n_regex(void **state)
{
	const char *text = "TEGRA\n"
			   "N:\t[^a-z]tegra\n"
			   "\n"
			   "EXTENDED\n"
			   "N:\tfoo \\d+ # /x: blanks and comments ignored\n"
			   "\n"
			   "OPTIONAL\n"
			   "N:\tbcm[9]?4762\n"
			   "\n"
			   "CASE\n"
			   "N:\t(?i)pmac\n"
			   "\n"
			   "BROKEN\n"
			   "N:\t(unclosed\n";
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);

	(void)state;
	check_file(m, "drivers/gpu/tegra/x.c", "TEGRA:0");
	check_file(m, "drivers/integrator.c", "");
	check_file(m, "a/foo12.c", "EXTENDED:0");
	check_file(m, "a/foo.c", "");
	check_file(m, "arch/bcm94762.dts", "OPTIONAL:0");
	check_file(m, "arch/bcm4762.dts", "OPTIONAL:0");
	check_file(m, "x/PMAC.c", "CASE:0");
	/* The script dies on a bad regex; here it is reported and never
	 * matches. */
	assert_int_equal(pc_maint_warning_count(m), 1);
	assert_non_null(strstr(pc_maint_warning(m, 0), "MAINTAINERS:14: N:"));
	unload(m, dir);
}

/* The index must find exactly what trying every pattern finds. */
static void test_maintainers__index_equals_scan(void **state)
{
	static const char *const parts[] = { "a",   "b",  "ab", "x.c",	"*",
					     "?",   ".h", "/",	"[ab]", "dir/",
					     "a+b", "c",  "b*c" };
	struct pc_buf text = PC_BUF_INIT;
	struct pc_maint__recs scan = { 0 }, idx = { 0 };
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	struct pc_err err = { 0 };
	struct pc_maint *m = NULL;
	unsigned seed = 12345;
	size_t i, k, t;

	(void)state;
	for (i = 0; i < 400; i++) {
		pc_buf_addf(&text, "E%zu\n", i);
		for (t = 0; t < 1 + i % 3; t++) {
			pc_buf_addstr(&text, i % 7 == 0 ? "X:\t" : "F:\t");
			for (k = 0;
			     k < 1 + (seed = seed * 1103515245 + 12345) % 4;
			     k++) {
				seed = seed * 1103515245 + 12345;
				pc_buf_addstr(&text,
					      parts[(seed >> 16) %
						    PC_ARRAY_SIZE(parts)]);
			}
			pc_buf_addch(&text, '\n');
		}
		if (i % 50 == 0)
			pc_buf_addstr(&text, "N:\tab/x\n");
	}
	assert_int_equal(pc_maint_load_mem(&m, text.buf, text.len, NULL, 0,
					   NULL, &err),
			 0);
	for (i = 0; i < 20000; i++) {
		char path[64];
		size_t n = 0, slashes = 0, j;

		for (k = 0; k < 1 + i % 5; k++) {
			const char *p;

			seed = seed * 1103515245 + 12345;
			p = parts[(seed >> 16) % PC_ARRAY_SIZE(parts)];
			n += (size_t)snprintf(path + n, sizeof(path) - n, "%s",
					      p);
		}
		for (j = 0; j < n; j++)
			slashes += path[j] == '/';
		pc_maint__match_path(&idx, m, path, n, md);
		scan.n = 0;
		for (k = 0; k < m->n_fpats; k++) {
			const struct pc_maint__fpat *fp = &m->fpats[k];

			if (pc_maint__fpat_match(m, (uint32_t)k, path, n,
						 (unsigned)slashes, md)) {
				PC_ALLOC_GROW(scan.v, scan.n + 1, scan.alloc);
				scan.v[scan.n].entry = fp->entry;
				scan.v[scan.n++].ord = fp->ord;
			}
		}
		for (k = 0; k < m->n_npats; k++)
			if (strstr(path, "ab/x")) {
				PC_ALLOC_GROW(scan.v, scan.n + 1, scan.alloc);
				scan.v[scan.n].entry = m->npats[k].entry;
				scan.v[scan.n++].ord = m->npats[k].ord;
			}
		if (idx.n != scan.n)
			fail_msg("'%s': index found %zu, scan %zu", path, idx.n,
				 scan.n);
		for (k = 0; k < scan.n; k++) {
			for (j = 0; j < idx.n; j++)
				if (idx.v[j].entry == scan.v[k].entry &&
				    idx.v[j].ord == scan.v[k].ord)
					break;
			if (j == idx.n)
				fail_msg("'%s': index missed entry %u", path,
					 scan.v[k].entry);
		}
	}
	free(scan.v);
	free(idx.v);
	pcre2_match_data_free(md);
	pc_maint_free(m);
	pc_buf_release(&text);
}

/* ---- K: ---------------------------------------------------------------------------- */

static const char k_text[] = "NVDIMM\n"
			     "M:\tN <n@x.org>\n"
			     "F:\tdrivers/nvdimm/\n"
			     "\n"
			     "RISCV\n"
			     "M:\tR <r@x.org>\n"
			     "K:\triscv\n"
			     "\n"
			     "BPF\n"
			     "M:\tB <b@x.org>\n"
			     "K:\t(?:\\b|_)bpf(?:\\b|_)\n"
			     "\n"
			     "PHYLINK\n"
			     "M:\tP <p@x.org>\n"
			     "K:\tphylink\\.h|struct\\s+phylink\n"
			     "\n"
			     "ALSO NVDIMM\n"
			     "M:\tA <a@x.org>\n"
			     "K:\tnvdimm_bus\n"
			     "\n"
			     "CASELESS\n"
			     "M:\tC <c@x.org>\n"
			     "K:\t\\b(?i:rust)\\b\n";

static void test_maintainers__keywords_in_patch(void **state)
{
	char *dir;
	struct pc_maint *m = load(&dir, k_text, NULL);

	(void)state;
	/* In the message: anywhere. After the first ---/+++ line: only on
	 * lines starting with + or -, and never on header lines. */
	check_patch(m,
		    "Subject: [PATCH] riscv: x\n\nbody\n---\n"
		    "--- a/drivers/nvdimm/pmem.c\n+++ b/drivers/nvdimm/pmem.c\n"
		    "@@ -1,2 +1,2 @@\n context bpf\n-nvdimm_bus\n+RUST here\n",
		    "NVDIMM:2, ALSO NVDIMM:k, CASELESS:k, RISCV:k");
	check_patch(m,
		    "Subject: x\n\n---\n+++ b/README\n context riscv\n"
		    "+++ b/riscv/file\n--- a/riscv/other\n",
		    "");
	/* The ^[+-].* prefix binds to the first alternative only, as in
	 * the script: "struct phylink" matches a context line. */
	check_patch(m, "x\n--- a/x\n+++ b/x\n struct  phylink *pl;\n",
		    "PHYLINK:k");
	check_patch(m, "x\n--- a/x\n+++ b/x\n #include <phylink.h>\n", "");
	/* Fixes: and hunk lines are not scanned. */
	check_patch(m, "Fixes: 0123456789ab (\"riscv\")\n@@ -1,1 +1 @@ riscv\n",
		    "");
	/* Entries found by K: only come last, in the string order of the
	 * line's position in the script's list ("14" sorts before "5"). */
	check_patch(m, "rust riscv bpf nvdimm_bus\n",
		    "ALSO NVDIMM:k, CASELESS:k, RISCV:k, BPF:k");
	unload(m, dir);
}

/*
 * A K: regex with literals runs only on the lines that hold one of them:
 * the first line with the literal may fail the regex and a later one
 * match; a literal split across lines, or only in a header line, is no
 * match. The same answers without the prefilters.
 */
static void test_maintainers__keywords_by_line(void **state)
{
	static const char text[] = "WORD\n"
				   "M:\tW <w@x.org>\n"
				   "K:\t\\bfoo_bar\\b\n"
				   "\n"
				   "SPACED\n"
				   "M:\tS <s@x.org>\n"
				   "K:\tstruct\\s+phy_thing\n";
	static const struct {
		const char *patch, *want;
	} cases[] = {
		{ "xfoo_bar\nfoo_bar here\n", "WORD:k" },
		{ "xfoo_bar\nfoo_barx\n", "" },
		{ "foo_\nbar\n", "" },
		{ "x\n--- a/foo_bar\n+++ b/foo_bar\n context\n", "" },
		{ "x\n--- a/x\n+++ b/x\n foo_bar\n+foo_bar\n", "WORD:k" },
		{ "struct\nphy_thing\n", "" },
		{ "struct \t phy_thing x;\nfoo_bar\n", "WORD:k, SPACED:k" },
	};
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(cases); i++) {
		struct pc_maint_result a = PC_MAINT_RESULT_INIT,
				       b = PC_MAINT_RESULT_INIT;
		struct pc_err err = { 0 };
		const char *p = cases[i].patch;
		char *ha, *hb;

		assert_int_equal(pc_maint_map_patch(&a, m, p, strlen(p),
						    PC_MAINT_DEFAULT, &err),
				 0);
		assert_int_equal(
			pc_maint_map_patch(&b, m, p, strlen(p),
					   PC_MAINT_DEFAULT |
						   PC_MAINT__NO_PREFILTER,
					   &err),
			0);
		ha = hits(&a);
		hb = hits(&b);
		if (strcmp(ha, cases[i].want) || strcmp(hb, cases[i].want))
			fail_msg("case %zu: got '%s' (without prefilters "
				 "'%s'), want '%s'",
				 i, ha, hb, cases[i].want);
		free(ha);
		free(hb);
		pc_maint_result_release(&a);
		pc_maint_result_release(&b);
	}
	unload(m, dir);
}

static void test_maintainers__keywords_in_file(void **state)
{
	char *dir;
	struct pc_maint *m = load(&dir, k_text, NULL);

	(void)state;
	put(dir, "drivers/nvdimm/bus.c", "struct nvdimm_bus *b;\n");
	put(dir, "arch/x/y.c", "/* riscv */\nint bpf;\n");
	put(dir, "MAINTAINERS.txt", "riscv\n");
	/* -f: the whole file; K: hits of an entry already found by F: mark
	 * it. */
	check_file(m, "drivers/nvdimm/bus.c", "NVDIMM:2, ALSO NVDIMM:k");
	check_file(m, "arch/x/y.c", "RISCV:k, BPF:k");
	check_file(m, "MAINTAINERS.txt", "RISCV:k");
	/* MAINTAINERS itself is not scanned. */
	check_file(m, "MAINTAINERS", "");
	{
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;
		struct pc_err err = { 0 };

		assert_int_equal(pc_maint_map_file(&r, m,
						   "drivers/nvdimm/bus.c",
						   PC_MAINT_DEFAULT, &err),
				 0);
		assert_int_equal(r.n_hits, 2);
		assert_true(r.hits[0].keyword == 0);
		assert_true(r.hits[1].keyword && r.hits[1].k_only);
		assert_int_equal(r.hits[1].file, PC_MAINT_NONE);
		pc_maint_result_release(&r);
		/* Without the tree's files: paths only. */
		assert_int_equal(pc_maint_map_file(&r, m, "arch/x/y.c",
						   PC_MAINT_KEYWORDS, &err),
				 0);
		assert_int_equal(r.n_hits, 0);
		pc_maint_result_release(&r);
	}
	unload(m, dir);
}

/* ---- patches ------------------------------------------------------------------------ */

static void test_maintainers__patch_paths(void **state)
{
	const char *text = "ALL\n"
			   "F:\t*\n"
			   "F:\t*/\n";
	const char *patch = "Subject: x\n\n"
			    "--- v2: a changelog line is a path too\n"
			    "diff --git a/old/name.c b/new/name.c\n"
			    "rename from r/from.c\n"
			    "rename to r/to.c\n"
			    " mode change 100644 => 100755 scripts/x.sh\n"
			    "--- a/gone.c\n"
			    "+++ /dev/null\r\n"
			    "diff --git a/with space.c b/with space.c\n"
			    "Fixes: abcdef123456\n"
			    "+++\tb/tabbed.c\tdate\n";
	struct pc_maint_query *q;
	struct pc_maint_result r = PC_MAINT_RESULT_INIT;
	struct pc_err err = { 0 };
	struct pc_maint *m = NULL;
	struct pc_buf all = PC_BUF_INIT;
	size_t n, i;

	(void)state;
	assert_int_equal(pc_maint_load_mem(&m, text, strlen(text), NULL, 0,
					   NULL, &err),
			 0);
	q = pc_maint_query_new(m, PC_MAINT_DEFAULT);
	pc_maint_query_add_patch(q, patch, strlen(patch), &n);
	assert_int_equal(n, 9);
	assert_int_equal(pc_maint_query_run(&r, q, &err), 0);
	for (i = 0; i < r.n_files; i++)
		pc_buf_addf(&all, "%s|", r.files[i]);
	/* Sorted and unique, as the script leaves @files. */
	assert_string_equal(all.buf, "dev/null|gone.c|new/name.c|old/name.c|"
				     "r/from.c|r/to.c|scripts/x.sh|tabbed.c|"
				     "v2:|");
	/* Not a patch. */
	pc_maint_query_add_patch(q, "hello\n", 6, &n);
	assert_int_equal(n, 0);
	pc_maint_result_release(&r);
	pc_maint_query_free(q);
	pc_buf_release(&all);
	pc_maint_free(m);
}

/* ---- addresses ------------------------------------------------------------------------ */

static void test_maintainers__addresses(void **state)
{
	const char *text =
		"LIBNVDIMM PMEM: PERSISTENT MEMORY DRIVER\n"
		"M:\tDan Williams <dan.j.williams@intel.com>\n"
		"M:\tVishal Verma <vishal.l.verma@intel.com>\n"
		"R:\tJohn Doe <JOHN@example.org>\n"
		"M:\tjohn doe <other@example.org>\n"
		"M:\tplain@example.org\n"
		"M:\t\"Lee, Chun-Yi\" <jlee@suse.com>\n"
		"M:\tPan, Xinhui <Xinhui.Pan@amd.com>\n"
		"M:\tfirst@example.org, second@example.org\n"
		"R:\tPaulo Alcantara <pc@cjr.nz> (DFS, global name space)\n"
		"M:\tUwe Kleine-K\xc3\xb6nig <uwe@example.org>\n"
		"L:\tnvdimm@lists.linux.dev\n"
		"L:\tmod@example.org (moderated for non-subscribers)\n"
		"L:\tsub@example.org (subscribers-only)\n"
		"S:\tSupported\n"
		"F:\tdrivers/nvdimm/pmem.c\n"
		"\n"
		"A NAME THAT IS LONGER THAN FIFTY BYTES, SO IT  GETS CUT SHORT\n"
		"M:\tDan Williams <DAN.J.WILLIAMS@intel.com>\n"
		"L:\tNVDIMM@lists.linux.dev\n"
		"S:\tMaintained\n"
		"F:\tdrivers/nvdimm/\n"
		"\n"
		"THE REST\n"
		"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
		"L:\tlinux-kernel@vger.kernel.org\n"
		"S:\tBuried alive in reporters\n"
		"F:\t*/\n";
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);

	(void)state;
	check_lines(
		m, "drivers/nvdimm/pmem.c", 1,
		"Dan Williams <dan.j.williams@intel.com> (supporter:LIBNVDIMM "
		"PMEM: PERSISTENT MEMORY DRIVER)\n"
		"Vishal Verma <vishal.l.verma@intel.com> (supporter:LIBNVDIMM "
		"PMEM: PERSISTENT MEMORY DRIVER)\n"
		"John Doe <JOHN@example.org> (reviewer:LIBNVDIMM PMEM: "
		"PERSISTENT MEMORY DRIVER)\n"
		"plain@example.org (supporter:LIBNVDIMM PMEM: PERSISTENT "
		"MEMORY DRIVER)\n"
		"\"Lee, Chun-Yi\" <jlee@suse.com> (supporter:LIBNVDIMM PMEM: "
		"PERSISTENT MEMORY DRIVER)\n"
		"\"Pan, Xinhui\" <Xinhui.Pan@amd.com> (supporter:LIBNVDIMM "
		"PMEM: PERSISTENT MEMORY DRIVER)\n"
		"first@example.org (supporter:LIBNVDIMM PMEM: PERSISTENT "
		"MEMORY DRIVER)\n"
		"second@example.org (supporter:LIBNVDIMM PMEM: PERSISTENT "
		"MEMORY DRIVER)\n"
		"Paulo Alcantara <pc@cjr.nz> (reviewer:LIBNVDIMM PMEM: "
		"PERSISTENT MEMORY DRIVER)\n"
		"\"Uwe Kleine-K\xc3\xb6nig\" <uwe@example.org> "
		"(supporter:LIBNVDIMM PMEM: PERSISTENT MEMORY DRIVER)\n"
		"nvdimm@lists.linux.dev (open list:LIBNVDIMM PMEM: PERSISTENT "
		"MEMORY DRIVER)\n"
		"mod@example.org (moderated list:LIBNVDIMM PMEM: PERSISTENT "
		"MEMORY DRIVER)\n"
		"linux-kernel@vger.kernel.org (open list)");
	/* The second entry adds nobody: same name or address in another
	 * case. Its name is cut to 47 bytes, blanks dropped, "..." added. */
	check_lines(
		m, "drivers/nvdimm/bus.c", 1,
		"Dan Williams <DAN.J.WILLIAMS@intel.com> (maintainer:A NAME "
		"THAT IS LONGER THAN FIFTY BYTES, SO IT...)\n"
		"NVDIMM@lists.linux.dev (open list:A NAME THAT IS LONGER "
		"THAN FIFTY BYTES, SO IT...)\n"
		"linux-kernel@vger.kernel.org (open list)");
	unload(m, dir);
}

static void test_maintainers__mailmap(void **state)
{
	const char *text = "E\n"
			   "M:\tOld Name <old@example.org>\n"
			   "M:\tSomeone <wrong@example.org>\n"
			   "M:\tBad Name <bad@example.org>\n"
			   "M:\tcase <CASE@example.org>\n"
			   "M:\tNamed Twice <n2@example.org>\n"
			   "F:\tx\n";
	const char *mailmap =
		"# comment\n"
		"New Name <old@example.org>\n"
		"<right@example.org> <wrong@example.org>\n"
		"Good Name <good@example.org> <bad@example.org>  # trailing\n"
		"Real <real@example.org> Named Twice <n2@example.org>\n"
		"Lower <lower@example.org> <case@example.org>\n";
	char *dir;
	struct pc_maint *m = load(&dir, text, mailmap);

	(void)state;
	/* Keys are case-sensitive, as Perl hashes are. */
	check_lines(m, "x", 0,
		    "New Name <old@example.org>\n"
		    "Someone <right@example.org>\n"
		    "Good Name <good@example.org>\n"
		    "case <CASE@example.org>\n"
		    "Real <real@example.org>");
	unload(m, dir);
}

static void test_maintainers__yaml_addresses(void **state)
{
	const char *text = "DT\n"
			   "M:\tRob Herring <robh+dt@kernel.org>\n"
			   "F:\tbindings/\n";
	char *dir;
	struct pc_maint *m = load(&dir, text, NULL);

	(void)state;
	put(dir, "bindings/x.yaml",
	    "maintainers:\n"
	    "  - Stefan Popa <stefan.popa@analog.com>\n"
	    "  - Rob Herring <ROBH+DT@kernel.org>\n"
	    "  - nobody@example.org\n");
	/* The scraping regex takes the "- " of the list item as a name;
	 * a person already there gets "in file" added to their role. */
	check_lines(m, "bindings/x.yaml", 1,
		    "Rob Herring <robh+dt@kernel.org> (unknown:DT,in file)\n"
		    "Stefan Popa <stefan.popa@analog.com> (in file)\n"
		    "- <nobody@example.org> (in file)");
	/* Only .yaml files are read. */
	put(dir, "bindings/x.txt", "Stefan Popa <stefan.popa@analog.com>\n");
	check_lines(m, "bindings/x.txt", 0, "Rob Herring <robh+dt@kernel.org>");
	unload(m, dir);
}

static void test_maintainers__identity(void **state)
{
	const char *text = "E\nF:\tx\n";
	char *dir, *id, *sha;
	struct pc_maint *m = load(&dir, text, NULL);

	(void)state;
	id = xstrdup(pc_maint_id(m));
	sha = xstrdup(pc_maint_sha256(m));
	m = reload(m, dir);
	assert_string_equal(pc_maint_id(m), id);
	put(dir, ".mailmap", "A <a@b.org> <c@d.org>\n");
	m = reload(m, dir);
	assert_string_not_equal(pc_maint_id(m), id);
	assert_string_equal(pc_maint_sha256(m), sha);
	put(dir, "MAINTAINERS", "E\nF:\ty\n");
	m = reload(m, dir);
	assert_string_not_equal(pc_maint_sha256(m), sha);
	free(id);
	free(sha);
	unload(m, dir);
}

/* Prefixes longer than the index keys; several paths in one query. */
static void test_maintainers__query(void **state)
{
	struct pc_buf text = PC_BUF_INIT, longdir = PC_BUF_INIT;
	struct pc_maint_query *q;
	struct pc_maint_result r = PC_MAINT_RESULT_INIT;
	struct pc_maint_lines l = PC_MAINT_LINES_INIT;
	struct pc_err err = { 0 };
	struct pc_maint *m = NULL;
	char *p1, *p2, *h;
	size_t i;

	(void)state;
	for (i = 0; i < 60; i++)
		pc_buf_addstr(&longdir, "abcde/");
	pc_buf_addf(&text,
		    "LONG\nM:\tL <l@x.org>\nF:\t%sx*\n\n"
		    "LONGER\nM:\tM <m@x.org>\nF:\t%s\n\n"
		    "KW\nM:\tK <k@x.org>\nK:\tneedle\n\n"
		    "SHORT\nM:\tS <s@x.org>\nF:\tabcde/\n",
		    longdir.buf, longdir.buf);
	assert_int_equal(pc_maint_load_mem(&m, text.buf, text.len, NULL, 0,
					   NULL, &err),
			 0);
	p1 = xasprintf("%sxyz.c", longdir.buf);
	p2 = xasprintf("%sy/z.c", longdir.buf);
	check_file(m, p1, "LONG:61, LONGER:60, SHORT:1");
	check_file(m, p2, "LONGER:60, SHORT:1");

	/* Paths in the order given, an entry once; K:-only last. */
	q = pc_maint_query_new(m, PC_MAINT_DEFAULT);
	assert_int_equal(pc_maint_query_add_file(q, p2, &err), 0);
	assert_int_equal(pc_maint_query_add_file(q, p1, &err), 0);
	assert_int_equal(pc_maint_query_run(&r, q, &err), 0);
	h = hits(&r);
	assert_string_equal(h, "LONGER:60, SHORT:1, LONG:61");
	assert_int_equal(r.hits[0].file, 0);
	assert_int_equal(r.hits[2].file, 1);
	pc_maint_result_release(&r);
	free(h);
	/* A patch sorts every path so far, as the script's sort_and_uniq(). */
	pc_maint_query_add_patch(q, "a needle\n", 9, NULL);
	assert_int_equal(pc_maint_query_run(&r, q, &err), 0);
	h = hits(&r);
	assert_string_equal(h, "LONG:61, LONGER:60, SHORT:1, KW:k");
	assert_int_equal(r.n_files, 2);
	assert_string_equal(r.files[0], p1);
	assert_int_equal(r.hits[2].file, 0);
	assert_int_equal(r.hits[3].file, PC_MAINT_NONE);
	pc_maint_lines(&l, m, &r);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.v[3].text, "K <k@x.org>");
	assert_string_equal(l.v[3].role, "unknown:KW");
	assert_int_equal(l.v[3].hit, 3);
	pc_maint_lines_release(&l);
	pc_maint_result_release(&r);
	/* A query runs again the same. */
	assert_int_equal(pc_maint_query_run(&r, q, &err), 0);
	free(h);
	h = hits(&r);
	assert_string_equal(h, "LONG:61, LONGER:60, SHORT:1, KW:k");
	pc_maint_result_release(&r);
	pc_maint_query_free(q);
	free(h);
	free(p1);
	free(p2);
	pc_buf_release(&text);
	pc_buf_release(&longdir);
	pc_maint_free(m);
}

/* ---- the image cache ----------------------------------------------------------- */

static const char cache_text[] =
	"Header of the file\n"
	"\tM: *Mail* patches to: FullName <address@domain>\n"
	"\n"
	"NVDIMM\n"
	"M:\tDan Williams <dan@x.org>\n"
	"R:\tA <a@x.org>, B <b@x.org>\n"
	"L:\tnvdimm@lists.linux.dev\n"
	"L:\tmod@x.org (moderated for non-subscribers)\n"
	"S:\tSupported\n"
	"P:\tDocumentation/nvdimm/profile.rst\n"
	"F:\tdrivers/nvdimm/\n"
	"F:\tdrivers/dax\n"
	"F:\tinclude/linux/nd*.h\n"
	"X:\tdrivers/nvdimm/nope.c\n"
	"N:\tpmem\n"
	"K:\tnvdimm_bus\n"
	"\n"
	"DAX FILE OR DIR\n"
	"M:\tOld Name <old@x.org>\n"
	"S:\tMaintained\n"
	"F:\tfs/dax\n"
	"F:\tfs/d[ab]x*.[ch]\n"
	"F:\tbindings/\n"
	"\n"
	"REGEX\n"
	"M:\tR <r@x.org>\n"
	"F:\tarch/x+y/\n"
	"K:\t\\b(?i:rust)\\b\n"
	"K:\t(unclosed\n"
	"\n"
	"THE REST\n"
	"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
	"L:\tlinux-kernel@vger.kernel.org\n"
	"S:\tBuried alive in reporters\n"
	"F:\t*\n"
	"F:\t*/\n";

static const char cache_mailmap[] = "New Name <old@x.org>\n";

/* Everything a load answers, as one string: entries, warnings, ids,
 * and the hits and lines of a few files and patches. */
static char *everything(const struct pc_maint *m)
{
	static const char *const files[] = {
		"drivers/nvdimm/pmem.c",
		"drivers/nvdimm/nope.c",
		"drivers/dax/super.c",
		"drivers/daxx",
		"fs/dax",
		"fs/dax/x.c",
		"fs/dbx1.c",
		"include/linux/nd.h",
		"arch/x+y/a.c",
		"bindings/a.yaml",
		"README",
		"lib/pmem_x.c",
	};
	static const char *const patches[] = {
		"Subject: rust\n\n---\n--- a/fs/dax/a.c\n+++ b/fs/dax/a.c\n"
		"@@ -1 +1 @@\n-x\n+struct nvdimm_bus *b; /* RUST */\n",
		"diff --git a/drivers/dax/x.c b/fs/dbx.c\nrename from a\n",
	};
	struct pc_buf b = PC_BUF_INIT;
	struct pc_err err = { 0 };
	size_t i, j;

	pc_buf_addf(&b, "count %zu\nsha %s\nid %s\nheader %s\ndoc %s\n",
		    pc_maint_count(m), pc_maint_sha256(m), pc_maint_id(m),
		    pc_maint_header(m), pc_maint_tag_doc(m, 'M'));
	for (i = 0; i < pc_maint_warning_count(m); i++)
		pc_buf_addf(&b, "warning %s\n", pc_maint_warning(m, i));
	for (i = 0; i < pc_maint_count(m); i++) {
		const struct pc_maint_entry *e = pc_maint_entry_at(m, i);

		pc_buf_addf(&b, "entry %s %zu %u %s %zu/%zu/%zu/%zu/%zu/%zu\n",
			    e->name, e->index, e->line, e->role, e->n_tags,
			    e->n_maintainers, e->n_lists, e->n_files,
			    e->n_profiles, e->n_keywords);
		for (j = 0; j < e->n_tags; j++)
			pc_buf_addf(&b, " %c %s %u\n", e->tags[j].tag,
				    e->tags[j].value, e->tags[j].line);
		assert_ptr_equal(pc_maint_find(m, e->name), e);
	}
	for (i = 0; i < PC_ARRAY_SIZE(files) + PC_ARRAY_SIZE(patches); i++) {
		struct pc_maint_result r = PC_MAINT_RESULT_INIT;
		char *h, *l;

		if (i < PC_ARRAY_SIZE(files))
			assert_int_equal(pc_maint_map_file(&r, m, files[i],
							   PC_MAINT_DEFAULT,
							   &err),
					 0);
		else
			assert_int_equal(
				pc_maint_map_patch(
					&r, m,
					patches[i - PC_ARRAY_SIZE(files)],
					strlen(patches[i - PC_ARRAY_SIZE(files)]),
					PC_MAINT_DEFAULT, &err),
				0);
		h = hits(&r);
		l = lines(m, &r, 1);
		pc_buf_addf(&b, "query %zu: %s\n%s\n", i, h, l);
		for (j = 0; j < r.n_hits; j++)
			pc_buf_addf(&b, " spec %u keyword %d\n", r.hits[j].spec,
				    r.hits[j].keyword);
		free(h);
		free(l);
		pc_maint_result_release(&r);
	}
	return pc_buf_detach(&b, NULL);
}

/* A cached load of dir, which must have gone as want; what it answers
 * must be what a plain load answers. */
static void check_cached(const char *dir, const char *cache, int want)
{
	struct pc_maint *plain = NULL, *cached = NULL;
	struct pc_err err = { 0 };
	char *a, *b;

	if (pc_maint_load(&plain, dir, &err) < 0 ||
	    pc_maint_load_cached(&cached, dir, cache, &err) < 0)
		fail_msg("load: %s", err.msg);
	if (pc_maint_cache(cached) != want)
		fail_msg("cache: got %d, want %d", pc_maint_cache(cached),
			 want);
	a = everything(plain);
	b = everything(cached);
	if (strcmp(a, b))
		fail_msg("plain load:\n%s\ncached load:\n%s", a, b);
	free(a);
	free(b);
	pc_maint_free(plain);
	pc_maint_free(cached);
}

/* The one image file in cache (its path, caller frees). */
static char *cache_file(const char *cache)
{
	char *cmd = xasprintf("ls %s/maint-*.img", cache), line[4096];
	FILE *f = popen(cmd, "r");

	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	pclose(f);
	free(cmd);
	line[strcspn(line, "\n")] = '\0';
	return xstrdup(line);
}

static void set_mtime(const char *dir, const char *rel,
		      const struct timespec *ts)
{
	char *p = xasprintf("%s/%s", dir, rel);
	struct timespec t[2] = { ts[0], ts[1] };

	assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
	free(p);
}

static void test_maintainers__cache_same_answers(void **state)
{
	char *dir = t_mkdtemp(), *cache = xasprintf("%s/cache/a/b", dir), *sub;

	(void)state;
	put(dir, "MAINTAINERS", cache_text);
	put(dir, ".mailmap", cache_mailmap);
	mkdirs(dir, "drivers/dax");
	put(dir, "bindings/a.yaml", "maintainers:\n  - X Y <x@y.org>\n");
	/* Made with its directories, then used. */
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	/* No cache asked for. */
	check_cached(dir, NULL, PC_MAINT_CACHE_NONE);
	check_cached(dir, "", PC_MAINT_CACHE_NONE);
	/* An F: value that becomes a directory after the image was made
	 * (or stops being one): the tree is asked, not the image. */
	mkdirs(dir, "fs/dax");
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	sub = xasprintf("%s/drivers/dax", dir);
	t_rmtree(sub);
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	free(sub);
	free(cache);
	t_rmtree(dir);
	free(dir);
}

static void test_maintainers__cache_stale(void **state)
{
	char *dir = t_mkdtemp(), *cache = xasprintf("%s/cache", dir), *v;
	struct timespec ts[2] = { { 1600000000, 0 }, { 1600000000, 0 } };

	(void)state;
	put(dir, "MAINTAINERS", cache_text);
	set_mtime(dir, "MAINTAINERS", ts);
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	/* The same size and time, another byte: not the image's text. */
	v = xstrdup(cache_text);
	*strstr(v, "fs/dax") = 'g';
	put(dir, "MAINTAINERS", v);
	set_mtime(dir, "MAINTAINERS", ts);
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	/* .mailmap added, changed, removed. */
	put(dir, ".mailmap", cache_mailmap);
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	put(dir, ".mailmap", "Newer Name <old@x.org>\n");
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	{
		char *mm = xasprintf("%s/.mailmap", dir);

		assert_int_equal(unlink(mm), 0);
		free(mm);
	}
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	/* Back to the first text: its image is gone, made again. */
	put(dir, "MAINTAINERS", cache_text);
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	free(v);
	free(cache);
	t_rmtree(dir);
	free(dir);
}

/* Rewrites file with what fn makes of its bytes. */
static void damage(const char *file, void (*fn)(struct pc_buf *b))
{
	struct pc_buf b = PC_BUF_INIT;
	FILE *f = fopen(file, "rb");
	char chunk[65536];
	size_t n;

	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		pc_buf_add(&b, chunk, n);
	fclose(f);
	fn(&b);
	f = fopen(file, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b.buf, 1, b.len, f), b.len);
	assert_int_equal(fclose(f), 0);
	pc_buf_release(&b);
}

static void flip_middle(struct pc_buf *b)
{
	b->buf[b->len / 2] ^= 0x10;
}

static void flip_header(struct pc_buf *b)
{
	b->buf[100] ^= 0x01; /* in the recorded hashes of the texts */
}

static void truncate_half(struct pc_buf *b)
{
	pc_buf_setlen(b, b->len / 2);
}

static void append_byte(struct pc_buf *b)
{
	pc_buf_addch(b, 0);
}

static void emptied(struct pc_buf *b)
{
	pc_buf_reset(b);
}

static void garbage(struct pc_buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		b->buf[i] = (char)(i * 7);
}

static void test_maintainers__cache_damaged(void **state)
{
	static void (*const how[])(struct pc_buf *) = {
		flip_middle, flip_header, truncate_half,
		append_byte, emptied,	  garbage,
	};
	char *dir = t_mkdtemp(), *cache = xasprintf("%s/cache", dir), *file;
	size_t i;

	(void)state;
	put(dir, "MAINTAINERS", cache_text);
	put(dir, ".mailmap", cache_mailmap);
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	file = cache_file(cache);
	for (i = 0; i < PC_ARRAY_SIZE(how); i++) {
		damage(file, how[i]);
		check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
		check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	}
	/* A symbolic link in its place is not followed. */
	{
		char *other = xasprintf("%s/other.img", dir);

		assert_int_equal(rename(file, other), 0);
		assert_int_equal(symlink(other, file), 0);
		check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
		check_cached(dir, cache, PC_MAINT_CACHE_HIT);
		free(other);
	}
	free(file);
	free(cache);
	t_rmtree(dir);
	free(dir);
}

static void test_maintainers__cache_unwritable(void **state)
{
	char *dir = t_mkdtemp(), *cache = xasprintf("%s/afile/cache", dir);

	(void)state;
	put(dir, "MAINTAINERS", cache_text);
	put(dir, "afile", "not a directory\n");
	check_cached(dir, cache, PC_MAINT_CACHE_UNWRITTEN);
	check_cached(dir, cache, PC_MAINT_CACHE_UNWRITTEN);
	free(cache);
	t_rmtree(dir);
	free(dir);
}

/* MAINTAINERS that starts with an F: tag: the entry is named by the
 * converted value, with a '/' when the tree has that directory. */
static void test_maintainers__cache_first_line_tag(void **state)
{
	char *dir = t_mkdtemp(), *cache = xasprintf("%s/cache", dir);
	struct pc_maint *m;
	struct pc_err err = { 0 };

	(void)state;
	put(dir, "MAINTAINERS", "F:\tsrc\nM:\tA <a@x.org>\n");
	check_cached(dir, cache, PC_MAINT_CACHE_WRITTEN);
	assert_int_equal(pc_maint_load_cached(&m, dir, cache, &err), 0);
	assert_string_equal(pc_maint_entry_at(m, 0)->name, "F:src");
	pc_maint_free(m);
	mkdirs(dir, "src");
	check_cached(dir, cache, PC_MAINT_CACHE_HIT);
	assert_int_equal(pc_maint_load_cached(&m, dir, cache, &err), 0);
	assert_string_equal(pc_maint_entry_at(m, 0)->name, "F:src/");
	assert_non_null(pc_maint_find(m, "f:SRC/"));
	assert_null(pc_maint_find(m, "F:src"));
	pc_maint_free(m);
	free(cache);
	t_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maintainers__parse_tags),
		cmocka_unit_test(test_maintainers__parse_odd_input),
		cmocka_unit_test(test_maintainers__parse_edge_files),
		cmocka_unit_test(test_maintainers__slash_count),
		cmocka_unit_test(test_maintainers__directory_without_slash),
		cmocka_unit_test(test_maintainers__exclude_and_last_line),
		cmocka_unit_test(test_maintainers__n_regex),
		cmocka_unit_test(test_maintainers__index_equals_scan),
		cmocka_unit_test(test_maintainers__keywords_in_patch),
		cmocka_unit_test(test_maintainers__keywords_by_line),
		cmocka_unit_test(test_maintainers__keywords_in_file),
		cmocka_unit_test(test_maintainers__patch_paths),
		cmocka_unit_test(test_maintainers__addresses),
		cmocka_unit_test(test_maintainers__mailmap),
		cmocka_unit_test(test_maintainers__yaml_addresses),
		cmocka_unit_test(test_maintainers__identity),
		cmocka_unit_test(test_maintainers__query),
		cmocka_unit_test(test_maintainers__cache_same_answers),
		cmocka_unit_test(test_maintainers__cache_stale),
		cmocka_unit_test(test_maintainers__cache_damaged),
		cmocka_unit_test(test_maintainers__cache_unwritable),
		cmocka_unit_test(test_maintainers__cache_first_line_tag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
