// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus test against patchwork's own test mails (corpus/patchwork), each
 * file ingested into a fresh store: series/ — how many messages are cover
 * letters, patches and comments (our 'reply'), how patches and covers are
 * grouped into series in series-date order, the series name and whether it
 * is complete; mail/ — pull requests (URL and ref, no diff), odd diffs
 * (CVS, pure renames, binary, mode-only, empty new file, "\ No newline"),
 * no Subject, HTML alternative ignored, invalid charset; fuzz/ — ingest
 * survives fuzzed mail and keeps every message, raw bytes included.
 */
/* memmem() */
#define _GNU_SOURCE
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "patch/diff.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ */
/* series/                                                             */
/* ------------------------------------------------------------------ */

struct series_case {
	const char *file;
	int covers, patches, replies;
	const char *patch_groups; /* patches per series, in series order */
	const char *cover_groups; /* covers per series */
	const char *name; /* name of the first series, or NULL */
	int complete; /* 1, 0, or -1 when the oracle is silent */
};

static const struct series_case series_cases[] = {
	{ "base-single-patch.mbox", 0, 1, 0, "1", "0", NULL, -1 },
	{ "base-cover-letter.mbox", 1, 2, 0, "2", "1", "A sample series", 1 },
	{ "base-no-cover-letter.mbox", 0, 2, 0, "2", "0",
	  "test: Add some lorem ipsum", -1 },
	{ "base-deep-threaded.mbox", 1, 2, 0, "2", "1", NULL, -1 },
	{ "base-incomplete.mbox", 1, 1, 0, "1", "1", NULL, 0 },
	{ "base-extra-patches.mbox", 1, 3, 0, "3", "1", NULL, 1 },
	{ "base-no-references.mbox", 0, 2, 0, "2", "0", NULL, -1 },
	{ "revision-basic.mbox", 2, 4, 0, "2,2", "1,1", NULL, -1 },
	{ "revision-threaded-to-cover.mbox", 2, 4, 0, "2,2", "1,1", NULL, -1 },
	{ "revision-no-cover-letter.mbox", 1, 4, 0, "2,2", "1,0", NULL, -1 },
	{ "mercurial-cover-letter.mbox", 1, 2, 0, "2", "1", NULL, -1 },
	{ "bugs-multiple-content-types.mbox", 0, 1, 1, "1", "0", NULL, -1 },
	{ "bugs-unnumbered.mbox", 1, 2, 0, "1,1", "1,0", NULL, -1 },
};

struct groups {
	struct pc_buf patches, covers;
	char *first_name;
	int first_complete;
	int n;
};

static int collect_series(const struct pc_series_info *s, void *arg)
{
	struct groups *g = arg;
	size_t i;
	int patches = 0, covers = 0;

	for (i = 0; i < s->npatches; i++) {
		if (!strcmp(s->patches[i].kind, "cover"))
			covers++;
		else
			patches++;
	}
	pc_buf_addf(&g->patches, "%s%d", g->n ? "," : "", patches);
	pc_buf_addf(&g->covers, "%s%d", g->n ? "," : "", covers);
	if (!g->n++) {
		g->first_name = xstrdup(s->name);
		/* patchwork's received_all: received_total >= total. */
		g->first_complete = s->total > 0 && s->received >= s->total;
	}
	return 0;
}

static void test_patchwork__series(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(series_cases) / sizeof(series_cases[0]); i++) {
		const struct series_case *c = &series_cases[i];
		struct pc_series_filter f = { .with_patches = 1 };
		struct groups g = { .patches = PC_BUF_INIT,
				    .covers = PC_BUF_INIT };
		struct pc_err err = { 0 };
		struct t_store ts;
		char rel[128], *kinds, *want;

		print_message("patchwork/series/%s\n", c->file);
		snprintf(rel, sizeof(rel), "corpus/patchwork/series/%s",
			 c->file);
		t_store_open(&ts);
		t_ingest(&ts, t_data(rel), PC_SOURCE_AUTO);
		kinds = t_query(&ts, "SELECT "
				     "(SELECT count(*) FROM messages "
				     " WHERE kind = 'cover'), "
				     "(SELECT count(*) FROM messages "
				     " WHERE kind = 'patch'), "
				     "(SELECT count(*) FROM messages "
				     " WHERE kind = 'reply')");
		want = xasprintf("%d|%d|%d", c->covers, c->patches, c->replies);
		assert_string_equal(kinds, want);
		assert_int_equal(
			pc_series_list(ts.st, &f, collect_series, &g, &err), 0);
		assert_string_equal(g.patches.buf, c->patch_groups);
		assert_string_equal(g.covers.buf, c->cover_groups);
		if (c->name)
			assert_string_equal(g.first_name, c->name);
		if (c->complete >= 0)
			assert_int_equal(g.first_complete, c->complete);
		free(kinds);
		free(want);
		free(g.first_name);
		pc_buf_release(&g.patches);
		pc_buf_release(&g.covers);
		t_store_close(&ts);
	}
}

/* ------------------------------------------------------------------ */
/* mail/                                                               */
/* ------------------------------------------------------------------ */

/* One mail file in a fresh store, and its parsed message and diff. */
struct one {
	struct t_store ts;
	struct pc_message_info *info;
	struct pc_msg *m;
	struct pc_diff d;
	const char *text; /* where the diff is: body or an attachment */
	size_t text_len;
};

static void one_load(struct one *o, const char *file)
{
	struct pc_err err = { 0 };
	char rel[128], *msgid, *raw;
	size_t len, i;

	memset(o, 0, sizeof(*o));
	snprintf(rel, sizeof(rel), "corpus/patchwork/mail/%s", file);
	print_message("patchwork/mail/%s\n", file);
	t_store_open(&o->ts);
	assert_int_equal(t_ingest(&o->ts, t_data(rel), PC_SOURCE_AUTO), 1);
	msgid = t_query(&o->ts, "SELECT msgid FROM messages");
	assert_int_equal(pc_message_get(&o->info, o->ts.st, msgid, &err), 0);
	assert_int_equal(
		pc_message_raw(&raw, &len, o->ts.st, o->info->id, &err), 0);
	assert_int_equal(pc_msg_parse(&o->m, raw, len, &err), 0);
	o->text = o->m->body.buf;
	o->text_len = o->m->body.len;
	/* As ingest looks: inline, else the first attachment with a diff. */
	for (i = 0; !pc_diff_present(o->text, o->text_len) && i < o->m->natt;
	     i++) {
		if (pc_diff_present(o->m->att[i].text.buf,
				    o->m->att[i].text.len)) {
			o->text = o->m->att[i].text.buf;
			o->text_len = o->m->att[i].text.len;
		}
	}
	assert_int_equal(pc_diff_parse(&o->d, o->text, o->text_len, &err), 0);
	free(raw);
	free(msgid);
}

static void one_release(struct one *o)
{
	pc_diff_release(&o->d);
	pc_msg_free(o->m);
	pc_message_info_free(o->info);
	t_store_close(&o->ts);
}

/* The diff as patchwork splits it: from the first diff header on. */
static const char *diff_text(const struct one *o, size_t *len)
{
	assert_true(o->d.nfiles > 0);
	*len = o->text_len - o->d.diff_off;
	return o->text + o->d.diff_off;
}

/*
 * patchwork's "comment": the body text before the diff (all of it when
 * the diff is in an attachment) holds something.
 */
static void assert_comment(const struct one *o)
{
	const char *body = o->m->body.buf;
	size_t i, end = o->m->body.len;

	if (o->text == body && o->d.nfiles)
		end = o->d.diff_off;
	for (i = 0; i < end; i++)
		if (!pc_isspace((unsigned char)body[i]))
			return;
	fail_msg("no comment before the diff");
}

static void assert_diff_starts(const struct one *o, const char *prefix)
{
	size_t len;
	const char *d = diff_text(o, &len);

	if (!pc_mem_starts(d, len, prefix))
		fail_msg("diff starts '%.60s', not '%s'", d, prefix);
}

static size_t count_in(const char *p, size_t len, const char *needle)
{
	size_t n = 0, nl = strlen(needle);
	const char *q;

	while ((q = memmem(p, len, needle, nl))) {
		n++;
		len -= (size_t)(q + nl - p);
		p = q + nl;
	}
	return n;
}

static void assert_pull(struct one *o, const char *url_ref)
{
	char *got = t_query(&o->ts, "SELECT kind, has_diff, "
				    "pull_url || ' ' || pull_ref "
				    "FROM messages");
	char *want = xasprintf("pull|%d|%s", o->d.nfiles > 0, url_ref);

	assert_string_equal(got, want);
	free(got);
	free(want);
}

static void test_patchwork__pull_requests(void **state)
{
	struct one o;
	char *got;

	(void)state;
	one_load(&o, "0001-git-pull-request.mbox");
	got = t_query(&o.ts, "SELECT kind, has_diff, pull_url IS NOT NULL "
			     "FROM messages");
	assert_string_equal(got, "pull|0|1");
	assert_int_equal(o.d.nfiles, 0);
	assert_comment(&o);
	free(got);
	one_release(&o);

	one_load(&o, "0003-git-pull-request-with-diff.mbox");
	assert_pull(&o, "git://git.kernel.org/pub/scm/linux/kernel/git/tip/"
			"linux-2.6-tip.git x86-fixes-for-linus");
	assert_diff_starts(&o, "diff --git a/arch/x86/include/asm/smp.h");
	one_release(&o);

	one_load(&o, "0024-git-pull-request-trailing-space.mbox");
	assert_pull(&o, "git://git.kernel.org/pub/scm/linux/kernel/git/"
			"nsekhar/linux-davinci.git tags/davinci-for-v5.6/soc");
	assert_int_equal(o.d.nfiles, 0);
	one_release(&o);
}

/* A patch: kind, a diff and a comment, the files' paths in order. */
static void assert_patch(struct one *o, const char *files)
{
	char *got = t_query(&o->ts, "SELECT kind, has_diff FROM messages");
	struct pc_buf f = PC_BUF_INIT;
	size_t i;

	assert_string_equal(got, "patch|1");
	assert_comment(o);
	for (i = 0; i < o->info->nfiles; i++)
		pc_buf_addf(&f, "%s%s", i ? "," : "", o->info->files[i].path);
	assert_string_equal(f.buf, files);
	pc_buf_release(&f);
	free(got);
}

static void test_patchwork__odd_diffs(void **state)
{
	struct one o;
	const char *d;
	size_t len;
	char *got;

	(void)state;
	one_load(&o, "0007-cvs-format-diff.mbox");
	assert_patch(&o, "bfd/elf-bfd.h,bfd/elflink.c,bfd/elfxx-mips.c");
	assert_diff_starts(&o, "Index");
	one_release(&o);

	one_load(&o, "0008-git-rename.mbox");
	assert_patch(&o, "package/rpi-userland/"
			 "rpi-userland-000-add-pkgconfig-files.patch,"
			 "package/rpi-userland/"
			 "rpi-userland-001-makefiles-cmake-vmcs.cmake-allow-"
			 "to-override-VMCS_IN.patch");
	d = diff_text(&o, &len);
	assert_int_equal(count_in(d, len, "rename from "), 2);
	assert_int_equal(count_in(d, len, "rename to "), 2);
	got = t_query(&o.ts, "SELECT group_concat(status || similarity) "
			     "FROM patch_files");
	assert_string_equal(got, "R100,R100");
	free(got);
	one_release(&o);

	one_load(&o, "0011-no-newline-at-end-of-file.mbox");
	assert_patch(&o, "tools/testing/selftests/powerpc/Makefile,"
			 "tools/testing/selftests/powerpc/vphn/vphn.c,"
			 "tools/testing/selftests/powerpc/vphn/vphn.h");
	assert_diff_starts(&o, "diff --git a/tools/testing/selftests/powerpc/"
			       "Makefile");
	d = diff_text(&o, &len);
	assert_int_equal(count_in(d, len, "\\ No newline at end of file"), 2);
	assert_int_equal(count_in(o.text, o.d.diff_off,
				  "\\ No newline at end of file"),
			 0);
	one_release(&o);

	one_load(&o, "0021-git-empty-new-file.mbox");
	assert_patch(&o, "banana");
	got = t_query(&o.ts, "SELECT status FROM patch_files");
	assert_string_equal(got, "A");
	free(got);
	one_release(&o);

	one_load(&o, "0022-git-mode-change.mbox");
	assert_patch(&o, "scripts/kconfig/nconf-cfg.sh");
	assert_int_equal(o.d.files[0].old_mode, 0100644);
	assert_int_equal(o.d.files[0].new_mode, 0100755);
	one_release(&o);

	one_load(&o, "0025-git-add-binary-file.mbox");
	assert_patch(&o, "pixel.bmp");
	assert_diff_starts(&o, "diff --git pixel.bmp pixel.bmp");
	d = diff_text(&o, &len);
	assert_true(count_in(d, len, "GIT binary patch") == 1 &&
		    count_in(d, len, "literal 142") == 1 &&
		    count_in(d, len, "literal 0") == 1);
	assert_true(o.d.files[0].binary);
	assert_int_equal(o.d.files[0].status, PC_DIFF_ADDED);
	one_release(&o);

	one_load(&o, "0027-git-modify-binary-file.mbox");
	assert_patch(&o, "pixel.bmp");
	assert_diff_starts(&o, "diff --git pixel.bmp pixel.bmp");
	d = diff_text(&o, &len);
	assert_true(count_in(d, len, "GIT binary patch") == 1 &&
		    count_in(d, len, "literal 0") == 1 &&
		    count_in(d, len, "literal 142") == 1);
	assert_true(o.d.files[0].binary);
	assert_int_equal(o.d.files[0].status, PC_DIFF_MODIFIED);
	one_release(&o);
}

static void test_patchwork__encodings_and_headers(void **state)
{
	struct one o;
	char *got;

	(void)state;
	/* charset="none": decoded with the fallback, diff and comment. */
	one_load(&o, "0010-invalid-charset.mbox");
	assert_patch(&o, "sysdeps/x86_64/fpu/multiarch/e_pow.c");
	one_release(&o);

	one_load(&o, "0013-with-utf8-body.mbox");
	assert_patch(&o, "MAINTAINERS");
	assert_int_equal(t_query_int(&o.ts, "SELECT count(*) FROM messages "
					    "WHERE kind = 'patch'"),
			 1);
	one_release(&o);

	one_load(&o, "0016-no-subject.mbox");
	assert_patch(&o, "package/rpi-userland/"
			 "rpi-userland-000-add-pkgconfig-files.patch,"
			 "package/rpi-userland/"
			 "rpi-userland-001-makefiles-cmake-vmcs.cmake-allow-"
			 "to-override-VMCS_IN.patch");
	got = t_query(&o.ts, "SELECT subject FROM messages");
	assert_string_equal(got, "");
	free(got);
	one_release(&o);

	/* multipart/alternative: the text/plain part, never the HTML. */
	one_load(&o, "0019-multipart-patch.mbox");
	assert_patch(&o, "patchwork/parser.py");
	assert_null(memmem(o.m->body.buf, o.m->body.len, "<div", 4));
	assert_null(memmem(o.m->body.buf, o.m->body.len, "<html", 5));
	one_release(&o);
}

/* ------------------------------------------------------------------ */
/* fuzz/                                                               */
/* ------------------------------------------------------------------ */

static const char *const fuzz_files[] = {
	"base64err.mbox", "charset.mbox",    "date.mbox",      "msgid-len.mbox",
	"x-face.mbox",	  "dateheader.mbox", "email-len.mbox", "refshdr.mbox",
};

static void test_patchwork__fuzz_nothing_lost(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fuzz_files) / sizeof(fuzz_files[0]); i++) {
		struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
		struct pc_err err = { 0 };
		struct pc_source *src;
		struct pc_source_msg msg;
		struct t_store ts;
		char rel[128];
		size_t n = 0;
		int rc;

		print_message("patchwork/fuzz/%s\n", fuzz_files[i]);
		snprintf(rel, sizeof(rel), "corpus/patchwork/fuzz/%s",
			 fuzz_files[i]);
		t_store_open(&ts);
		assert_int_equal(pc_source_open(&src, t_data(rel), &opt, &err),
				 0);
		assert_int_equal(pc_store_begin(ts.st, &err), 0);
		while ((rc = pc_source_next(src, &msg, &err)) == 1) {
			char *raw = NULL, *row;
			size_t len;
			long long id;

			n++;
			assert_int_equal(pc_ingest_message(ts.st, msg.data,
							   msg.len, msg.where,
							   NULL, &ts.stats,
							   &err),
					 0);
			/* The newest row is this message, raw bytes kept. */
			id = t_query_int(&ts, "SELECT max(id) FROM messages");
			assert_int_equal(t_query_int(&ts,
						     "SELECT count(*) FROM "
						     "messages"),
					 (long long)n);
			assert_int_equal(
				pc_message_raw(&raw, &len, ts.st, id, &err), 0);
			assert_int_equal(len, msg.len);
			assert_memory_equal(raw, msg.data, len);
			free(raw);
			/* An error row says why; others are classified. */
			row = t_query(&ts,
				      "SELECT kind = 'error', "
				      "parse_error IS NOT NULL FROM messages "
				      "WHERE id = %lld",
				      id);
			assert_true(!strcmp(row, "0|0") || !strcmp(row, "1|1"));
			free(row);
		}
		assert_int_equal(rc, 0);
		assert_true(n >= 1);
		assert_int_equal(pc_ingest_finish(ts.st, &err), 0);
		assert_int_equal(pc_store_commit(ts.st, &err), 0);
		assert_int_equal(ts.stats.added, n);
		pc_source_free(src);
		t_store_close(&ts);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patchwork__series),
		cmocka_unit_test(test_patchwork__pull_requests),
		cmocka_unit_test(test_patchwork__odd_diffs),
		cmocka_unit_test(test_patchwork__encodings_and_headers),
		cmocka_unit_test(test_patchwork__fuzz_nothing_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
