// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/store/mapping.c: series mapped to MAINTAINERS
 * entries at ingest (union over the patches' files, K: hits marked),
 * remapped when a patch joins or MAINTAINERS changes, and left alone
 * otherwise; on hand-built mail and a small MAINTAINERS in memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "maint/maintainers.h"
#include "store/ingest.h"
#include "store/mapping.h"
#include "store/store.h"
#include "util/xalloc.h"

static const char MAINTAINERS_V1[] =
	"List of maintainers\n"
	"===================\n"
	"\n"
	"LIBNVDIMM PMEM AND CORE\n"
	"M:\tDan Williams <dan.j.williams@intel.com>\n"
	"R:\tVishal Verma <vishal.l.verma@intel.com>\n"
	"L:\tnvdimm@lists.linux.dev\n"
	"S:\tSupported\n"
	"P:\tDocumentation/nvdimm/maintainer-entry-profile.rst\n"
	"F:\tdrivers/nvdimm/\n"
	"\n"
	"LIBNVDIMM BTT: BLOCK TRANSLATION TABLE\n"
	"M:\tVishal Verma <vishal.l.verma@intel.com>\n"
	"L:\tnvdimm@lists.linux.dev\n"
	"S:\tSupported\n"
	"F:\tdrivers/nvdimm/btt*\n"
	"\n"
	"DAX\n"
	"M:\tDan Williams <dan.j.williams@intel.com>\n"
	"S:\tSupported\n"
	"F:\tdrivers/dax/\n"
	"K:\\bdax_region\\b\n"
	"\n"
	"THE REST\n"
	"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
	"L:\tlinux-kernel@vger.kernel.org\n"
	"S:\tBuried alive in reporters\n"
	"F:\t*\n"
	"F:\t*/\n";

/* V1 with the BTT entry handed to someone else: a different id. */
static const char MAINTAINERS_V2_EXTRA[] =
	"\n"
	"NVDIMM BTT REVIEW\n"
	"M:\tRita Viewer <rita@example.com>\n"
	"S:\tMaintained\n"
	"F:\tdrivers/nvdimm/btt.c\n";

struct fixture {
	char *dir, *db;
	struct pc_store *st;
	struct pc_maint *m;
	struct pc_ingest_stats stats;
};

static struct pc_maint *load(const char *extra)
{
	char *text = xasprintf("%s%s", MAINTAINERS_V1, extra);
	struct pc_maint *m = NULL;
	struct pc_err err = { 0 };

	assert_int_equal(pc_maint_load_mem(&m, text, strlen(text), NULL, 0,
					   NULL, &err),
			 0);
	free(text);
	return m;
}

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct pc_err err = { 0 };

	f->dir = t_mkdtemp();
	f->db = xasprintf("%s/t.db", f->dir);
	assert_int_equal(pc_store_open(&f->st, f->db, &err), 0);
	f->m = load("");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pc_store_close(f->st);
	pc_maint_free(f->m);
	t_rmtree(f->dir);
	free(f->dir);
	free(f->db);
	free(f);
	return 0;
}

/* Stores one raw mail, in its own transaction. */
static void ingest_raw(struct fixture *f, const char *raw)
{
	struct pc_err err = { 0 };

	assert_int_equal(pc_store_begin(f->st, &err), 0);
	assert_true(pc_ingest_message(f->st, raw, strlen(raw), "test", NULL,
				      &f->stats, &err) >= 0);
	assert_int_equal(pc_ingest_finish(f->st, &err), 0);
	assert_int_equal(pc_store_commit(f->st, &err), 0);
}

/* A patch mail touching path, with an added line `added`. */
static void patch(struct fixture *f, const char *id, const char *subject,
		  const char *minute, const char *irt, const char *path,
		  const char *added)
{
	char *raw = xasprintf(
		"From: A U Thor <author@example.com>\nSubject: %s\n"
		"Date: Mon, 01 Jan 2024 10:%s:00 +0000\nMessage-ID: <%s>\n"
		"%s%s%s\n"
		"Commit message.\n\nSigned-off-by: A U Thor <author@example.com>\n"
		"---\ndiff --git a/%s b/%s\nindex 1111111..2222222 100644\n"
		"--- a/%s\n+++ b/%s\n@@ -1,2 +1,3 @@\n a\n+%s\n c\n",
		subject, minute, id, irt ? "In-Reply-To: <" : "",
		irt ? irt : "", irt ? ">\n" : "", path, path, path, path,
		added);

	ingest_raw(f, raw);
	free(raw);
}

static void map(struct fixture *f, struct pc_map_stats *ms)
{
	struct pc_err err = { 0 };

	assert_int_equal(pc_store_begin(f->st, &err), 0);
	assert_int_equal(pc_map_series(f->st, f->m, NULL, 1700000000, ms, &err),
			 0);
	assert_int_equal(pc_store_commit(f->st, &err), 0);
}

struct collected {
	char text[1024];
};

static int collect(const struct pc_series_entry *e, void *arg)
{
	struct collected *c = arg;
	size_t n = strlen(c->text);

	snprintf(c->text + n, sizeof(c->text) - n, "%s%s:%d:%d%s%s",
		 n ? "|" : "", e->name, e->depth, e->files,
		 e->k_hit ? ":K" : "", e->k_only ? "only" : "");
	return 0;
}

/* The entries of the series holding message msgid, as one string. */
static char *entries_of(struct fixture *f, const char *msgid)
{
	struct collected c = { { 0 } };
	struct pc_err err = { 0 };
	int64_t sid = 0, mid = 0;

	assert_int_equal(pc_series_of_message(f->st, msgid, &sid, &mid, &err),
			 0);
	assert_true(sid > 0);
	assert_int_equal(pc_series_entries(f->st, sid, collect, &c, &err), 0);
	return xstrdup(c.text);
}

static long long count(struct fixture *f, const char *sql)
{
	struct t_store ts = { .st = f->st };

	return t_query_int(&ts, "%s", sql);
}

static void test_mapping__series_is_union_of_its_files(void **state)
{
	struct fixture *f = *state;
	struct pc_map_stats ms;
	char *s;

	patch(f, "p1@x", "[PATCH 1/2] nvdimm: one", "01", NULL,
	      "drivers/nvdimm/pmem.c", "x");
	patch(f, "p2@x", "[PATCH 2/2] nvdimm: two", "02", "p1@x",
	      "drivers/nvdimm/btt.c", "y");
	map(f, &ms);
	assert_int_equal(ms.maintainers_changed, 1);
	assert_int_equal(ms.series, 1);
	assert_int_equal(ms.patches, 2);
	s = entries_of(f, "p2@x");
	/* Worked out from get_maintainer.pl: btt.c maps to BTT at depth 3
	 * ("drivers/nvdimm/btt*": 2 slashes, +1 without a trailing one),
	 * PMEM AND CORE at 2 ("drivers/nvdimm/": 2 slashes) and THE REST at
	 * -1 (only "*\/" matches a path with slashes, and a value starting
	 * with '*' scores -1); pmem.c adds no entry. files counts the
	 * series' files each entry covers. */
	assert_string_equal(s, "LIBNVDIMM BTT: BLOCK TRANSLATION TABLE:3:1|"
			       "LIBNVDIMM PMEM AND CORE:2:2|THE REST:-1:2");
	free(s);
	/* Entries and people are stored for dashboards. */
	assert_int_equal(count(f, "SELECT count(*) FROM maint_entries"), 4);
	assert_int_equal(count(f, "SELECT count(*) FROM maint_people WHERE "
				  "entry = 'LIBNVDIMM PMEM AND CORE' AND "
				  "role = 'M' AND addr = "
				  "'dan.j.williams@intel.com'"),
			 1);
	assert_int_equal(count(f, "SELECT count(*) FROM v_series_entries "
				  "WHERE maintainers LIKE '%vishal%'"),
			 1);
}

/* A MAINTAINERS patch, raw, with one hunk of lines. */
static void maintainers_patch(struct fixture *f, const char *id,
			      const char *hunk)
{
	char *raw = xasprintf(
		"From: A U Thor <author@example.com>\nSubject: [PATCH] "
		"update %s\nDate: Mon, 01 Jan 2024 10:05:00 +0000\n"
		"Message-ID: <%s>\n\nCommit message.\n\nSigned-off-by: A U "
		"Thor <author@example.com>\n---\ndiff --git a/MAINTAINERS "
		"b/MAINTAINERS\nindex 1111111..2222222 100644\n--- "
		"a/MAINTAINERS\n+++ b/MAINTAINERS\n@@ -10,6 +10,7 @@\n%s",
		id, id, hunk);

	ingest_raw(f, raw);
	free(raw);
}

/* A patch to MAINTAINERS alone is for the entries it edits, not THE
 * REST (lore nvdimm 2021-10-16, "virtio-pmem: add myself as virtio-pmem
 * maintainer", a new entry whose F: lines are LIBNVDIMM's files; an R:
 * added below an entry's title); one that names no entry's lines
 * stays with THE REST, as get_maintainer.pl says. */
static void test_mapping__maintainers_patch_maps_to_what_it_edits(void **state)
{
	struct fixture *f = *state;
	struct pc_map_stats ms;
	char *s;

	maintainers_patch(f, "new-entry@x",
			  " \n+VIRTIO PMEM DRIVER\n+M:\tP G <pg@example.com>\n"
			  "+S:\tMaintained\n+F:\tdrivers/nvdimm/virtio_pmem.c\n"
			  "+F:\tdrivers/nvdimm/nd_virtio*\n \n");
	maintainers_patch(
		f, "reviewer@x",
		" DAX\n M:\tDan Williams <dan.j.williams@intel.com>\n"
		"+R:\tRita Viewer <rita@example.com>\n S:\tSupported\n");
	maintainers_patch(f, "elsewhere@x",
			  " \n+ORPHANED THING\n+S:\tOrphan\n");
	map(f, &ms);
	s = entries_of(f, "new-entry@x");
	assert_string_equal(s, "LIBNVDIMM PMEM AND CORE:2:1|THE REST:-1:1");
	free(s);
	s = entries_of(f, "reviewer@x");
	assert_string_equal(s, "DAX:2:1|THE REST:-1:1");
	free(s);
	s = entries_of(f, "elsewhere@x");
	assert_string_equal(s, "THE REST:-1:1");
	free(s);
}

static void test_mapping__keyword_hits_are_marked(void **state)
{
	struct fixture *f = *state;
	struct pc_map_stats ms;
	char *s;

	patch(f, "k1@x", "[PATCH] nvdimm: use dax", "01", NULL,
	      "drivers/nvdimm/pmem.c", "struct dax_region *r;");
	map(f, &ms);
	s = entries_of(f, "k1@x");
	assert_string_equal(s, "LIBNVDIMM PMEM AND CORE:2:1|THE REST:-1:1|"
			       "DAX:0:0:Konly");
	free(s);
}

static void test_mapping__only_changed_series_are_remapped(void **state)
{
	struct fixture *f = *state;
	struct pc_map_stats ms;
	char *s;

	patch(f, "a1@x", "[PATCH 1/2] nvdimm: one", "01", NULL,
	      "drivers/nvdimm/pmem.c", "x");
	patch(f, "b1@x", "[PATCH] dax: other", "05", NULL, "drivers/dax/bus.c",
	      "z");
	map(f, &ms);
	assert_int_equal(ms.series, 2);
	/* Nothing new: nothing to do. */
	map(f, &ms);
	assert_int_equal(ms.maintainers_changed, 0);
	assert_int_equal(ms.series, 0);
	/* A patch joins the first series: only that one is mapped again,
	 * and it gains the BTT entry. */
	patch(f, "a2@x", "[PATCH 2/2] nvdimm: two", "02", "a1@x",
	      "drivers/nvdimm/btt.c", "y");
	map(f, &ms);
	assert_int_equal(ms.series, 1);
	s = entries_of(f, "a1@x");
	assert_non_null(strstr(s, "LIBNVDIMM BTT"));
	free(s);
	/* MAINTAINERS changes: everything is mapped again. */
	pc_maint_free(f->m);
	f->m = load(MAINTAINERS_V2_EXTRA);
	map(f, &ms);
	assert_int_equal(ms.maintainers_changed, 1);
	assert_int_equal(ms.series, 2);
	s = entries_of(f, "a1@x");
	assert_non_null(strstr(s, "NVDIMM BTT REVIEW:3:1"));
	free(s);
	assert_int_equal(count(f, "SELECT count(*) FROM maint_entries"), 5);
}

static void test_mapping__no_patch_files_maps_nothing(void **state)
{
	struct fixture *f = *state;
	struct pc_map_stats ms;
	struct pc_err err = { 0 };
	const char *raw = "From: A U Thor <author@example.com>\n"
			  "Subject: [PATCH 0/2] nvdimm: cover\n"
			  "Date: Mon, 01 Jan 2024 10:00:00 +0000\n"
			  "Message-ID: <c0@x>\n\nA cover letter.\n";

	assert_int_equal(pc_store_begin(f->st, &err), 0);
	assert_true(pc_ingest_message(f->st, raw, strlen(raw), "test", NULL,
				      &f->stats, &err) >= 0);
	assert_int_equal(pc_store_commit(f->st, &err), 0);
	map(f, &ms);
	assert_int_equal(ms.series, 1);
	assert_int_equal(ms.unmapped, 1);
	assert_int_equal(count(f, "SELECT count(*) FROM series_entries"), 0);
}

/*
 * A patch sent base64-encoded (linux-integrity, 2022-10-18: "[PATCH v8
 * 01/11] tpm, tpm_tis: ...", from gmx.net): its raw lines hold no diff,
 * the decoded text does; it maps by its files and K: sees the decoded
 * lines.
 */
static void test_mapping__encoded_patch_maps_by_its_files(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	struct pc_map_stats ms;
	static const char raw[] =
		"From: Lino <lino@example.com>\n"
		"Subject: [PATCH] nvdimm: encoded\n"
		"Date: Mon, 01 Jan 2024 10:05:00 +0000\n"
		"Message-ID: <b64@x>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=UTF-8\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"Q29tbWl0IG1lc3NhZ2UuCgpTaWduZWQtb2ZmLWJ5OiBMaW5vIDxsaW5vQGV4YW1wbGUuY29tPgot\n"
		"LS0KZGlmZiAtLWdpdCBhL2RyaXZlcnMvbnZkaW1tL2J0dC5jIGIvZHJpdmVycy9udmRpbW0vYnR0\n"
		"LmMKaW5kZXggMTExMTExMS4uMjIyMjIyMiAxMDA2NDQKLS0tIGEvZHJpdmVycy9udmRpbW0vYnR0\n"
		"LmMKKysrIGIvZHJpdmVycy9udmRpbW0vYnR0LmMKQEAgLTEsMiArMSwzIEBACiBhCitkYXhfcmVn\n"
		"aW9uCiBjCg==\n";
	char *s;

	assert_int_equal(pc_store_begin(f->st, &err), 0);
	assert_true(pc_ingest_message(f->st, raw, strlen(raw), "test", NULL,
				      &f->stats, &err) >= 0);
	assert_int_equal(pc_ingest_finish(f->st, &err), 0);
	assert_int_equal(pc_store_commit(f->st, &err), 0);
	map(f, &ms);
	assert_int_equal(ms.unmapped, 0);
	s = entries_of(f, "b64@x");
	assert_string_equal(s, "LIBNVDIMM BTT: BLOCK TRANSLATION TABLE:3:1|"
			       "LIBNVDIMM PMEM AND CORE:2:1|THE REST:-1:1|"
			       "DAX:0:0:Konly");
	free(s);
}

/*
 * Two entries of another list that share it (linux-mm: HWPOISON for
 * mm/memory-failure.c, MEMORY MANAGEMENT for mm/ with akpm's tree): the
 * one with the tree takes the file, so its lines count for it
 * (nvdimm, 2021-09-21: "mm: don't include <linux/dax.h> in
 * <linux/mempolicy.h>" went through akpm).
 */
static void test_mapping__shared_list_tree_takes_it(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	struct pc_map_stats ms;
	static const char raw[] =
		"From: A U Thor <author@example.com>\n"
		"Subject: [PATCH] mm: one\n"
		"Date: Mon, 01 Jan 2024 10:07:00 +0000\n"
		"Message-ID: <mm@x>\n"
		"List-Id: <nvdimm.lists.linux.dev>\n"
		"\n"
		"Commit message.\n\nSigned-off-by: A U Thor <author@example.com>\n"
		"---\ndiff --git a/mm/memory-failure.c b/mm/memory-failure.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/mm/memory-failure.c\n+++ b/mm/memory-failure.c\n"
		"@@ -1,2 +1,3 @@\n a\n+b\n c\n";

	pc_maint_free(f->m);
	f->m = load("\n"
		    "HWPOISON MEMORY FAILURE HANDLING\n"
		    "M:\tNao <nao@example.org>\n"
		    "L:\tlinux-mm@kvack.org\n"
		    "S:\tMaintained\n"
		    "F:\tmm/memory-failure.c\n"
		    "\n"
		    "MEMORY MANAGEMENT\n"
		    "M:\tAndy <akpm@example.org>\n"
		    "L:\tlinux-mm@kvack.org\n"
		    "S:\tMaintained\n"
		    "T:\tgit git://git.example.org/akpm/mm\n"
		    "F:\tmm/\n");
	assert_int_equal(pc_store_begin(f->st, &err), 0);
	assert_true(pc_ingest_message(f->st, raw, strlen(raw), "test", NULL,
				      &f->stats, &err) >= 0);
	assert_int_equal(pc_ingest_finish(f->st, &err), 0);
	assert_int_equal(pc_store_commit(f->st, &err), 0);
	map(f, &ms);
	assert_int_equal(count(f, "SELECT lines FROM series_entries WHERE "
				  "entry = 'MEMORY MANAGEMENT'"),
			 1);
	assert_int_equal(count(f, "SELECT lines FROM series_entries WHERE "
				  "entry = 'HWPOISON MEMORY FAILURE HANDLING'"),
			 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_mapping__series_is_union_of_its_files),
		T(test_mapping__maintainers_patch_maps_to_what_it_edits),
		T(test_mapping__keyword_hits_are_marked),
		T(test_mapping__only_changed_series_are_remapped),
		T(test_mapping__no_patch_files_maps_nothing),
		T(test_mapping__encoded_patch_maps_by_its_files),
		T(test_mapping__shared_list_tree_takes_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
