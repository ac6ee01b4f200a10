// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/store: ingest (identity, idempotence, raw bytes,
 * unparseable mail), series assembly (threading, broken threading, any
 * arrival order, cover adoption, naked covers, versions and RFCs), and
 * trailer attribution, on hand-built mail in a fresh SQLite file; the
 * statement profile (PATCHCLOCK_SQL_PROFILE) counts what ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "store/ingest.h"
#include "store/sqlprofile.h"
#include "store/query.h"
#include "store/store.h"
#include "mail/message.h"
#include "patch/intent.h"
#include "util/util.h"
#include "util/xalloc.h"

struct fixture {
	char *dir, *db;
	struct pc_store *st;
	struct pc_ingest_stats stats;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct pc_err err = { 0 };

	f->dir = t_mkdtemp();
	f->db = xasprintf("%s/t.db", f->dir);
	assert_int_equal(pc_store_open(&f->st, f->db, &err), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pc_store_close(f->st);
	t_rmtree(f->dir);
	free(f->dir);
	free(f->db);
	free(f);
	return 0;
}

/* A mail: irt may be NULL; date is "DD HH:MM" in Jan 2024, UTC. */
static char *mail(const char *msgid, const char *from, const char *subject,
		  const char *date, const char *irt, const char *body)
{
	return xasprintf("From: %s\nSubject: %s\nDate: Mon, %s:00 +0000\n"
			 "%s%s%s%s%s%s\n%s",
			 from, subject, date, msgid ? "Message-ID: <" : "",
			 msgid ? msgid : "", msgid ? ">\n" : "",
			 irt ? "In-Reply-To: <" : "", irt ? irt : "",
			 irt ? ">\n" : "", body);
}

static const char PATCH_BODY[] =
	"Commit message.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\n drivers/nvdimm/pmem.c | 1 +\n\n"
	"diff --git a/drivers/nvdimm/pmem.c b/drivers/nvdimm/pmem.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/nvdimm/pmem.c\n"
	"+++ b/drivers/nvdimm/pmem.c\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"
	"-- \n2.39.5\n";

static int ingest(struct fixture *f, char *raw)
{
	struct pc_err err = { 0 };
	int rc;

	assert_int_equal(pc_store_begin(f->st, &err), 0);
	rc = pc_ingest_message(f->st, raw, strlen(raw), "test", NULL, &f->stats,
			       &err);
	assert_true(rc >= 0);
	assert_int_equal(pc_ingest_finish(f->st, &err), 0);
	assert_int_equal(pc_store_commit(f->st, &err), 0);
	free(raw);
	return rc;
}

static void patch(struct fixture *f, const char *id, const char *from,
		  const char *subject, const char *date, const char *irt)
{
	ingest(f, mail(id, from, subject, date, irt, PATCH_BODY));
}

static void cover(struct fixture *f, const char *id, const char *from,
		  const char *subject, const char *date, const char *irt)
{
	ingest(f, mail(id, from, subject, date, irt, "The cover letter.\n"));
}

/* Row callbacks: the first column of the first row, or nothing. */
static int first_int(int ncols, const char *const *cols, void *arg)
{
	(void)ncols;
	*(int64_t *)arg = cols[0] ? strtoll(cols[0], NULL, 10) : 0;
	return 1;
}

static int first_text(int ncols, const char *const *cols, void *arg)
{
	(void)ncols;
	*(char **)arg = cols[0] ? strdup(cols[0]) : NULL;
	return 1;
}

static int ignore_rows(int ncols, const char *const *cols, void *arg)
{
	(void)ncols;
	(void)cols;
	(void)arg;
	return 0;
}

/* Fails the test unless the first row's first column says "ok". */
static int first_int_text_ok(int ncols, const char *const *cols, void *arg)
{
	(void)arg;
	assert_true(ncols > 0);
	assert_string_equal(cols[0], "ok");
	return 1;
}

/* The integer in the first row of a query, or -1 when there is none. */
static int64_t count(struct fixture *f, const char *sql)
{
	struct pc_err err = { 0 };
	int64_t n = -1;

	assert_int_equal(pc_store_query(f->st, sql, first_int, &n, &err), 0);
	return n;
}

/* The series id of a message. */
static int64_t series_of(struct fixture *f, const char *msgid)
{
	struct pc_err err = { 0 };
	int64_t sid, mid;

	assert_int_equal(pc_series_of_message(f->st, msgid, &sid, &mid, &err),
			 0);
	assert_true(mid > 0);
	return sid;
}

static int64_t superseded_by(struct fixture *f, int64_t sid)
{
	char sql[128];

	snprintf(
		sql, sizeof(sql),
		"SELECT coalesce(superseded_by, 0) FROM series WHERE id = %lld",
		(long long)sid);
	return count(f, sql);
}

#define A "A U Thor <author@example.com>"
#define B "Bo Other <bo@example.com>"

static void test_ingest__idempotent_by_message_id(void **state)
{
	struct fixture *f = *state;
	char *crlf, *lf = mail("one@x", A, "hello", "01 Jan 2024 10:00", NULL,
			       "body\n");
	size_t i, j;

	/* The same mail with CRLF line ends is the same Message-ID. */
	crlf = xmalloc(2 * strlen(lf) + 1);
	for (i = j = 0; lf[i]; i++) {
		if (lf[i] == '\n')
			crlf[j++] = '\r';
		crlf[j++] = lf[i];
	}
	crlf[j] = '\0';
	assert_int_equal(ingest(f, lf), 0);
	assert_int_equal(ingest(f, crlf), 1);
	assert_int_equal(f->stats.read, 2);
	assert_int_equal(f->stats.added, 1);
	assert_int_equal(f->stats.duplicates, 1);
	assert_int_equal(count(f, "SELECT count(*) FROM messages"), 1);
	assert_int_equal(count(f, "SELECT count(*) FROM raw"), 1);
}

static void test_ingest__no_message_id_gets_stable_hash_id(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	const char *raw = "From: x@y\nSubject: no id\n\nbody\n";
	char *bytes, *id = pc_msg_hash_id(raw, strlen(raw));
	struct pc_message_info *m = NULL;
	size_t len;

	assert_int_equal(ingest(f, xstrdup(raw)), 0);
	assert_int_equal(ingest(f, xstrdup(raw)), 1);
	/* The id is the SHA-256 of the bytes, so the same bytes dedupe. */
	assert_int_equal(pc_message_get(&m, f->st, id, &err), 0);
	assert_string_equal(m->subject, "no id");
	assert_int_equal(pc_message_raw(&bytes, &len, f->st, m->id, &err), 0);
	assert_int_equal(len, strlen(raw));
	assert_memory_equal(bytes, raw, len);
	free(bytes);
	pc_message_info_free(m);
	free(id);
}

static void test_ingest__unparseable_is_kept_raw(void **state)
{
	struct fixture *f = *state;
	static const char junk[] = "\x01\x02\x03 not a mail at all\n\xff\xfe";
	char *bytes;
	size_t len;
	struct pc_err err = { 0 };

	assert_int_equal(ingest(f, xmemdupz(junk, sizeof(junk) - 1)), 0);
	assert_int_equal(f->stats.errors, 1);
	assert_int_equal(count(f, "SELECT count(*) FROM messages WHERE "
				  "kind = 'error' AND parse_error != ''"),
			 1);
	assert_int_equal(count(f, "SELECT count(*) FROM ingest_errors"), 1);
	assert_int_equal(pc_message_raw(&bytes, &len, f->st,
					count(f, "SELECT id FROM messages"),
					&err),
			 0);
	assert_int_equal(len, sizeof(junk) - 1);
	assert_memory_equal(bytes, junk, len);
	free(bytes);
}

/* The bots' hint is kept, and the columns schema 8 adds to messages
 * keep every constraint where it was: a fresh database runs schema 7's
 * text rewrite and schema 8's ALTER TABLE on one connection, and SQLite
 * used to splice the new column into the old text's offsets, moving the
 * series_id foreign key onto it (every hinted mail then failed). */
static void test_ingest__patchwork_hint_kept(void **state)
{
	struct fixture *f = *state;

	ingest(f, xasprintf("From: kernel test robot <lkp@intel.com>\n"
			    "Subject: [RFC PATCH] x: can be static\n"
			    "Date: Mon, 01 Jan 2024 10:00:00 +0000\n"
			    "Message-ID: <lkp@x>\nX-Patchwork-Hint: ignore\n"
			    "\n%s",
			    PATCH_BODY));
	assert_int_equal(count(f, "SELECT count(*) FROM messages WHERE "
				  "pw_hint = 'ignore'"),
			 1);
	assert_int_equal(count(f, "SELECT count(*) FROM "
				  "pragma_foreign_key_list('messages') "
				  "WHERE \"from\" = 'series_id' "
				  "AND \"table\" = 'series'"),
			 1);
	assert_int_equal(count(f, "SELECT count(*) FROM "
				  "pragma_foreign_key_list('messages') "
				  "WHERE \"from\" = 'pw_hint'"),
			 0);
}

static void test_series__threaded_cover_and_patches(void **state)
{
	struct fixture *f = *state;

	cover(f, "c@x", A, "[PATCH 0/2] widgets", "01 Jan 2024 10:00", NULL);
	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      "c@x");
	patch(f, "p2@x", A, "[PATCH 2/2] widget: two", "01 Jan 2024 10:02",
	      "c@x");
	assert_int_equal(count(f, "SELECT count(*) FROM series"), 1);
	assert_int_equal(series_of(f, "p1@x"), series_of(f, "c@x"));
	assert_int_equal(series_of(f, "p2@x"), series_of(f, "c@x"));
	assert_int_equal(count(f, "SELECT received FROM v_series"), 2);
	assert_int_equal(count(f, "SELECT count(*) FROM series s JOIN "
				  "messages m ON m.id = s.anchor_id WHERE "
				  "m.msgid = 'c@x' AND s.name = 'widgets'"),
			 1);
}

static void test_series__any_order_adopts_patches(void **state)
{
	struct fixture *f = *state;

	/* Patches first (their cover is unknown), then the cover. */
	patch(f, "p2@x", A, "[PATCH 2/2] widget: two", "01 Jan 2024 10:02",
	      "c@x");
	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      "c@x");
	cover(f, "c@x", A, "[PATCH 0/2] widgets", "01 Jan 2024 10:00", NULL);
	assert_int_equal(count(f, "SELECT count(*) FROM series"), 1);
	assert_int_equal(series_of(f, "p1@x"), series_of(f, "c@x"));
	assert_int_equal(series_of(f, "p2@x"), series_of(f, "c@x"));
	/* The cover became the anchor and named the series. */
	assert_int_equal(count(f, "SELECT count(*) FROM series s JOIN "
				  "messages m ON m.id = s.anchor_id WHERE "
				  "m.msgid = 'c@x' AND s.name = 'widgets'"),
			 1);
}

static void test_series__late_undated_cover_adopts_by_thread(void **state)
{
	struct fixture *f = *state;

	/* No Date: only the patches' In-Reply-To can tie them to it. */
	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      "c@x");
	patch(f, "p2@x", A, "[PATCH 2/2] widget: two", "01 Jan 2024 10:02",
	      "c@x");
	ingest(f, xstrdup("From: " A "\nSubject: [PATCH 0/2] widgets\n"
			  "Message-ID: <c@x>\n\nThe cover letter.\n"));
	assert_int_equal(count(f, "SELECT count(*) FROM series"), 1);
	assert_int_equal(series_of(f, "p1@x"), series_of(f, "c@x"));
	assert_int_equal(series_of(f, "p2@x"), series_of(f, "c@x"));
}

static void test_series__late_cover_merging_two_series_counts_down(void **state)
{
	struct fixture *f = *state;

	/* Patch 2 comes a week after patch 1: two series until the cover,
	 * which joins the first by date and adopts the second by thread. */
	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      "c@x");
	patch(f, "p2@x", A, "[PATCH 2/2] widget: two", "08 Jan 2024 10:01",
	      "c@x");
	assert_int_equal(count(f, "SELECT count(*) FROM series"), 2);
	f->stats.series = 0;
	cover(f, "c@x", A, "[PATCH 0/2] widgets", "01 Jan 2024 10:00", NULL);
	assert_int_equal(count(f, "SELECT count(*) FROM series"), 1);
	assert_int_equal(series_of(f, "p2@x"), series_of(f, "c@x"));
	/* This run removed a series: -1, not 2^64 - 1. */
	assert_true(f->stats.series < 0);
	assert_true(f->stats.series == -1);
}

static void test_series__broken_threading_joins_by_sender(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      NULL);
	patch(f, "q1@x", B, "[PATCH 1/2] other: one", "01 Jan 2024 10:01",
	      NULL);
	patch(f, "p2@x", A, "[PATCH 2/2] widget: two", "01 Jan 2024 10:05",
	      NULL);
	patch(f, "q2@x", B, "[PATCH 2/2] other: two", "01 Jan 2024 10:06",
	      NULL);
	assert_int_equal(count(f, "SELECT count(*) FROM series"), 2);
	assert_int_equal(series_of(f, "p1@x"), series_of(f, "p2@x"));
	assert_int_equal(series_of(f, "q1@x"), series_of(f, "q2@x"));
	assert_int_not_equal(series_of(f, "p1@x"), series_of(f, "q1@x"));
}

static void test_series__far_apart_postings_do_not_join(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      NULL);
	patch(f, "p2@x", A, "[PATCH 2/2] widget: two", "20 Jan 2024 10:05",
	      NULL);
	assert_int_not_equal(series_of(f, "p1@x"), series_of(f, "p2@x"));
}

static void test_series__same_slot_twice_is_a_new_series(void **state)
{
	struct fixture *f = *state;

	/* An unlabelled resend of 1/2 the same day: patch 1 is taken. */
	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      NULL);
	patch(f, "r1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 12:00",
	      NULL);
	assert_int_not_equal(series_of(f, "p1@x"), series_of(f, "r1@x"));
	/* Same version, later: the resend supersedes the first posting. */
	assert_int_equal(superseded_by(f, series_of(f, "p1@x")),
			 series_of(f, "r1@x"));
}

static void test_series__new_version_supersedes(void **state)
{
	struct fixture *f = *state;
	int64_t v1, v2;

	cover(f, "c1@x", A, "[PATCH 0/1] widgets: make them spin",
	      "01 Jan 2024 10:00", NULL);
	patch(f, "p1@x", A, "[PATCH 1/1] widget: spin", "01 Jan 2024 10:01",
	      "c1@x");
	/* v2 is sent in reply to the v1 cover: still a series of its own. */
	cover(f, "c2@x", A, "[PATCH v2 0/1] widgets: make them spin",
	      "08 Jan 2024 10:00", "c1@x");
	patch(f, "p2@x", A, "[PATCH v2 1/1] widget: spin", "08 Jan 2024 10:01",
	      "c2@x");
	v1 = series_of(f, "c1@x");
	v2 = series_of(f, "c2@x");
	assert_int_not_equal(v1, v2);
	assert_int_equal(series_of(f, "p2@x"), v2);
	assert_int_equal(superseded_by(f, v1), v2);
	assert_int_equal(superseded_by(f, v2), 0);
}

static void test_series__versions_order_by_number_not_date(void **state)
{
	struct fixture *f = *state;

	/* patchew's obsolete-by case: v3 carries an older date than v2. */
	patch(f, "v1@x", A, "[PATCH] quorum: only compile when supported",
	      "01 Jan 2024 10:01", NULL);
	patch(f, "v2@x", A, "[PATCH v2] quorum: only compile when supported",
	      "01 Jan 2024 10:02", NULL);
	patch(f, "v3@x", A, "[PATCH v3] quorum: only compile when supported",
	      "01 Jan 2024 10:00", NULL);
	assert_int_equal(superseded_by(f, series_of(f, "v1@x")),
			 series_of(f, "v2@x"));
	assert_int_equal(superseded_by(f, series_of(f, "v2@x")),
			 series_of(f, "v3@x"));
	assert_int_equal(superseded_by(f, series_of(f, "v3@x")), 0);
}

static void test_series__rfc_precedes_real_versions(void **state)
{
	struct fixture *f = *state;

	patch(f, "r3@x", A, "[RFC PATCH v3] widget: spin", "01 Jan 2024 10:00",
	      NULL);
	patch(f, "v1@x", A, "[PATCH] widget: spin", "10 Jan 2024 10:00", NULL);
	assert_int_equal(superseded_by(f, series_of(f, "r3@x")),
			 series_of(f, "v1@x"));
	assert_int_equal(superseded_by(f, series_of(f, "v1@x")), 0);
}

static void test_series__unrelated_subjects_stay_apart(void **state)
{
	struct fixture *f = *state;

	patch(f, "a@x", A, "[PATCH] widget: spin faster", "01 Jan 2024 10:00",
	      NULL);
	patch(f, "b@x", A, "[PATCH v2] nvdimm: fix label area overflow",
	      "02 Jan 2024 10:00", NULL);
	assert_int_equal(superseded_by(f, series_of(f, "a@x")), 0);
	assert_int_equal(superseded_by(f, series_of(f, "b@x")), 0);
}

/* lore nvdimm 2021: Vaibhav's "[PATCH] powerpc/papr_scm: Implement initial
 * support for injecting smart errors" came back as v2 from Shivaprasad,
 * with Vaibhav's in-body From:; between them, Vaibhav's "[ndctl PATCH
 * 0/2] papr: ..." of nearly the same title is another project's. */
static void test_series__colleague_repost_and_other_project(void **state)
{
	static const char reposted[] =
		"From: A U Thor <author@example.com>\n\n"
		"Commit message.\n\nSigned-off-by: A U Thor <author@example.com>\n"
		"Signed-off-by: Bo Other <bo@example.com>\n"
		"---\ndiff --git a/drivers/nvdimm/pmem.c b/drivers/nvdimm/pmem.c\n"
		"index 1111111..2222222 100644\n--- a/drivers/nvdimm/pmem.c\n"
		"+++ b/drivers/nvdimm/pmem.c\n@@ -1,2 +1,3 @@\n a\n+b\n c\n";
	struct fixture *f = *state;
	int64_t v1, tool, v2;

	patch(f, "v1@x", A,
	      "[PATCH] papr: Implement initial support for "
	      "injecting smart errors",
	      "01 Jan 2024 10:00", NULL);
	patch(f, "n1@x", A,
	      "[ndctl PATCH] papr: Implement initial support for injecting "
	      "smart errors",
	      "01 Jan 2024 18:00", NULL);
	ingest(f, mail("v2@x", B,
		       "[PATCH v2] papr: Implement initial support "
		       "for injecting smart errors",
		       "20 Feb 2024 10:00", NULL, reposted));
	v1 = series_of(f, "v1@x");
	tool = series_of(f, "n1@x");
	v2 = series_of(f, "v2@x");
	assert_int_equal(superseded_by(f, v1), v2);
	assert_int_equal(superseded_by(f, tool), 0);
	assert_int_equal(superseded_by(f, v2), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM series WHERE "
				  "co_author = 'author@example.com'"),
			 1);
}

static void test_series__b4_link_to_previous_version(void **state)
{
	struct fixture *f = *state;

	patch(f, "old@x", A, "[PATCH] widget: spin", "01 Jan 2024 10:00", NULL);
	/* Reworded subject, but b4's changelog names the old posting. */
	ingest(f, mail("new@x", A, "[PATCH v2] widget: rotate instead",
		       "05 Jan 2024 10:00", NULL,
		       "Changes in v2:\n- Link to v1: "
		       "https://lore.kernel.org/r/old@x\n\n"
		       "Signed-off-by: A U Thor <author@example.com>\n---\n"
		       "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n"
		       "-a\n+b\n"));
	assert_int_equal(superseded_by(f, series_of(f, "old@x")),
			 series_of(f, "new@x"));
}

static void test_series__naked_cover(void **state)
{
	struct fixture *f = *state;

	/* b4's naked cover letter: an untagged root by the same sender. */
	ingest(f, mail("root@x", A, "do a thing to the widget subsystem",
		       "01 Jan 2024 10:00", NULL, "Why.\n"));
	patch(f, "p@x", A, "[PATCH] widget: do the thing", "01 Jan 2024 10:01",
	      "root@x");
	assert_int_equal(series_of(f, "p@x"), series_of(f, "root@x"));
	assert_int_equal(count(f, "SELECT count(*) FROM messages WHERE "
				  "msgid = 'root@x' AND kind = 'cover'"),
			 1);
}

static void test_series__untagged_reply_patch_is_own_series(void **state)
{
	struct fixture *f = *state;

	/* patchwork's bugs-unnumbered: an untagged diff answering a cover. */
	cover(f, "c@x", A, "[PATCH 0/2] widgets", "01 Jan 2024 10:00", NULL);
	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      "c@x");
	patch(f, "o@x", A, "This is an orphaned patch!", "01 Jan 2024 10:02",
	      "c@x");
	assert_int_not_equal(series_of(f, "o@x"), series_of(f, "c@x"));
	assert_int_equal(count(f, "SELECT count(*) FROM series"), 2);
}

static const char REVIEW[] =
	"On Mon, A U Thor wrote:\n> Reviewed-by: Quoted Person <q@example.com>\n"
	"\nLooks good.\n\nReviewed-by: Rita Viewer <rita@example.com>\n";

static void test_trailers__reply_to_patch_and_to_cover(void **state)
{
	struct fixture *f = *state;

	cover(f, "c@x", A, "[PATCH 0/2] widgets", "01 Jan 2024 10:00", NULL);
	patch(f, "p1@x", A, "[PATCH 1/2] widget: one", "01 Jan 2024 10:01",
	      "c@x");
	patch(f, "p2@x", A, "[PATCH 2/2] widget: two", "01 Jan 2024 10:02",
	      "c@x");
	ingest(f, mail("r1@x", B, "Re: [PATCH 1/2] widget: one",
		       "02 Jan 2024 10:00", "p1@x", REVIEW));
	ingest(f,
	       mail("r0@x", B, "Re: [PATCH 0/2] widgets", "02 Jan 2024 11:00",
		    "c@x",
		    "For the series:\nAcked-by: Bo Other <bo@example.com>\n"));
	/* The quoted Reviewed-by is not collected. */
	assert_int_equal(count(f, "SELECT count(*) FROM trailers WHERE "
				  "addr = 'q@example.com'"),
			 0);
	assert_int_equal(count(f, "SELECT count(*) FROM trailers t JOIN "
				  "messages m ON m.id = t.target_id WHERE "
				  "m.msgid = 'p1@x' AND t.addr = "
				  "'rita@example.com'"),
			 1);
	assert_int_equal(count(f, "SELECT count(*) FROM trailers t JOIN "
				  "messages m ON m.id = t.target_id WHERE "
				  "m.msgid = 'c@x' AND t.name = 'Acked-by'"),
			 1);
}

struct per_patch {
	int acks[3];
};

static int collect(const struct pc_series_info *s, void *arg)
{
	struct per_patch *pp = arg;
	size_t i, j;

	for (i = 0; i < s->npatches; i++)
		for (j = 0; j < s->patches[i].ntrailers; j++)
			if (!strcmp(s->patches[i].trailers[j].name,
				    "Acked-by") &&
			    s->patches[i].idx < 3)
				pp->acks[s->patches[i].idx] +=
					s->patches[i].trailers[j].via_cover;
	return 0;
}

static int count_reviews(const struct pc_series_info *s, void *arg)
{
	size_t i, j;

	for (i = 0; i < s->npatches; i++)
		for (j = 0; j < s->patches[i].ntrailers; j++)
			if (!strcmp(s->patches[i].trailers[j].name,
				    "Reviewed-by"))
				(*(int64_t *)arg)++;
	return 0;
}

static void test_trailers__cover_tag_fans_out_to_every_patch(void **state)
{
	struct fixture *f = *state;
	struct pc_series_filter flt = { .with_patches = 1 };
	struct per_patch pp = { { 0 } };
	struct pc_err err = { 0 };

	test_trailers__reply_to_patch_and_to_cover(state);
	assert_int_equal(pc_series_list(f->st, &flt, collect, &pp, &err), 0);
	assert_int_equal(pp.acks[1], 1);
	assert_int_equal(pp.acks[2], 1);
}

static void test_trailers__reply_before_its_patch(void **state)
{
	struct fixture *f = *state;

	/* The review arrives first (archives are not always in order). */
	ingest(f, mail("r1@x", B, "Re: [PATCH] widget: one",
		       "02 Jan 2024 10:00", "p1@x", REVIEW));
	assert_int_equal(count(f, "SELECT count(*) FROM trailers WHERE "
				  "target_id IS NULL"),
			 1);
	patch(f, "p1@x", A, "[PATCH] widget: one", "01 Jan 2024 10:01", NULL);
	assert_int_equal(count(f, "SELECT count(*) FROM trailers t JOIN "
				  "messages m ON m.id = t.target_id WHERE "
				  "m.msgid = 'p1@x' AND t.origin = 'reply'"),
			 1);
}

static void test_trailers__bot_tags_are_suggestions(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", A, "[PATCH] widget: one", "01 Jan 2024 10:01", NULL);
	ingest(f,
	       mail("bot@x", "kernel test robot <lkp@intel.com>",
		    "Re: [PATCH] widget: one", "02 Jan 2024 10:00", "p1@x",
		    "Hi,\n\nReported-by: kernel test robot <lkp@intel.com>\n"));
	assert_int_equal(count(f, "SELECT count(*) FROM trailers WHERE "
				  "origin = 'reply' AND suggested = 1"),
			 1);
	assert_int_equal(count(f, "SELECT is_bot FROM messages WHERE "
				  "msgid = 'bot@x'"),
			 1);
}

static int64_t review_count(struct fixture *f)
{
	struct pc_series_filter flt = { .with_patches = 1 };
	struct pc_err err = { 0 };
	int64_t n = 0;

	assert_int_equal(pc_series_list(f->st, &flt, count_reviews, &n, &err),
			 0);
	return n;
}

static void test_trailers__tag_for_someone_else_is_not_applied(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", A, "[PATCH] widget: one", "01 Jan 2024 10:01", NULL);
	/* Bo forwards a tag in Rita's name: kept, marked, not a review. */
	ingest(f,
	       mail("r1@x", B, "Re: [PATCH] widget: one", "02 Jan 2024 10:00",
		    "p1@x", "Reviewed-by: Rita Viewer <rita@example.com>\n"));
	assert_int_equal(count(f, "SELECT mismatch FROM trailers WHERE "
				  "addr = 'rita@example.com'"),
			 1);
	assert_int_equal(review_count(f), 0);
	/* Rita from her home address, under a short name: the same person. */
	ingest(f, mail("r2@x", "rita <rv@home.example>",
		       "Re: [PATCH] widget: one", "02 Jan 2024 11:00", "p1@x",
		       "Reviewed-by: Rita Viewer <rita@example.com>\n"));
	assert_int_equal(review_count(f), 1);
}

static void test_store__migrations_and_reopen(void **state)
{
	struct fixture *f = *state;
	struct pc_store *again = NULL;
	struct pc_err err = { 0 };

	assert_int_equal(pc_store_schema_version(f->st),
			 pc_store_schema_latest());
	patch(f, "p1@x", A, "[PATCH] widget: one", "01 Jan 2024 10:01", NULL);
	pc_store_close(f->st);
	f->st = NULL;
	assert_int_equal(pc_store_open(&again, f->db, &err), 0);
	f->st = again;
	assert_int_equal(count(f, "SELECT count(*) FROM messages"), 1);
}

/*
 * Every earlier schema migrates to the latest, keeping what it held. The
 * old database gets rows written with schema 1's columns only (as the
 * patchclock of that time wrote them); today's ingest then works on it.
 */
static void test_store__migrates_from_every_earlier_schema(void **state)
{
	static const char *const v1_rows[] = {
		"INSERT INTO raw (id, size, compression, bytes) "
		"VALUES (1, 1, 'none', x'41')",
		"INSERT INTO messages (id, msgid, raw_id, kind, subject, name, "
		"from_addr, author_addr, date, version, idx, total, numbered) "
		"VALUES (1, 'c0@x', 1, 'cover', '[PATCH 0/2] widget: all', "
		"'widget: all', 'author@example.com', 'author@example.com', "
		"1704103200, 1, 0, 2, 1)",
		"INSERT INTO series (id, anchor_id, cover_id, name, norm_name, "
		"author_name, author_addr, version, total, first_posted, "
		"last_posted) VALUES (1, 1, 1, 'widget: all', 'widget all', "
		"'A U Thor', 'author@example.com', 1, 2, 1704103200, "
		"1704103200)",
		"UPDATE messages SET series_id = 1 WHERE id = 1",
	};
	struct pc_err err = { 0 };
	struct fixture *f = *state;
	size_t i;
	int v;

	for (v = 1; v < pc_store_schema_latest(); v++) {
		char *db = xasprintf("%s/v%d.db", f->dir, v);

		pc_store_close(f->st);
		assert_int_equal(pc_store_open_upto(&f->st, db, v, &err), 0);
		assert_int_equal(pc_store_schema_version(f->st), v);
		for (i = 0; i < sizeof(v1_rows) / sizeof(v1_rows[0]); i++)
			assert_int_equal(pc_store_query(f->st, v1_rows[i],
							ignore_rows, NULL,
							&err),
					 0);
		pc_store_close(f->st);
		assert_int_equal(pc_store_open(&f->st, db, &err), 0);
		assert_int_equal(pc_store_schema_version(f->st),
				 pc_store_schema_latest());
		assert_int_equal(count(f, "SELECT count(*) FROM messages"), 1);
		assert_int_equal(count(f, "SELECT count(*) FROM series"), 1);
		/* Schema 2 and 3: series from before wait to be mapped and
		 * evaluated; a series whose messages move is marked again. */
		assert_int_equal(count(f, "SELECT count(*) FROM series "
					  "WHERE mapped_hash IS NULL "
					  "AND status_dirty = 1"),
				 1);
		assert_int_equal(
			pc_store_query(f->st,
				       "UPDATE series SET mapped_hash = 'h', "
				       "status_dirty = 0",
				       ignore_rows, NULL, &err),
			0);
		patch(f, "p1@x", A, "[PATCH 1/2] widget: one",
		      "01 Jan 2024 10:01", "c0@x");
		assert_int_equal(count(f, "SELECT count(*) FROM series"), 1);
		assert_int_equal(count(f, "SELECT count(*) FROM series "
					  "WHERE mapped_hash IS NULL "
					  "AND status_dirty = 1"),
				 1);
		free(db);
	}
}

static const char RAW_REPLY[] = "From: M <m@x>\r\nMessage-ID: <r1@x>\r\n"
				"In-Reply-To: <c0@x>\r\n"
				"Subject: Re: [PATCH 0/2] widget: all\r\n"
				"\r\nApplied, thanks.\r\n";
static const char RAW_OTHER[] = "From: M <m@x>\r\nMessage-ID: <o1@x>\r\n"
				"Subject: widget plans\r\n\r\nNAK\r\n";

/* s as SQL's hexadecimal blob digits. Caller frees. */
static char *hex(const char *s)
{
	size_t n = strlen(s), i;
	char *h = xmalloc(2 * n + 1);

	for (i = 0; i < n; i++)
		snprintf(h + 2 * i, 3, "%02x", (unsigned char)s[i]);
	h[2 * n] = '\0';
	return h;
}

/* Schema 14 reads the intent of every stored message outside a series
 * that has none from its raw bytes, once, so judging never parses mail. */
static void test_store__backfills_intents_once(void **state)
{
	struct pc_err err = { 0 };
	struct fixture *f = *state;
	char *db = xasprintf("%s/v13.db", f->dir);
	char *hr = hex(RAW_REPLY), *ho = hex(RAW_OTHER);
	char *raw = xasprintf(
		"INSERT INTO raw (id, size, compression, bytes) VALUES "
		"(1, %zu, 'none', x'%s'), (2, %zu, 'none', x'%s'), "
		"(3, 4, 'none', x'00ff0a0d')",
		strlen(RAW_REPLY), hr, strlen(RAW_OTHER), ho);

	free(hr);
	free(ho);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open_upto(&f->st, db, 13, &err), 0);
	assert_int_equal(pc_store_query(f->st, raw, ignore_rows, NULL, &err),
			 0);
	assert_int_equal(
		pc_store_query(f->st,
			       "INSERT INTO messages (id, msgid, raw_id, kind, "
			       "subject) VALUES (1, 'r1@x', 1, 'reply', "
			       "'Re: [PATCH 0/2] widget: all'), (2, 'o1@x', 2, "
			       "'other', 'widget plans'), "
			       "(3, 'e1@x', 3, 'error', '')",
			       ignore_rows, NULL, &err),
		0);
	free(raw);
	assert_int_equal(count(f, "SELECT count(*) FROM messages "
				  "WHERE intent IS NULL"),
			 3);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open(&f->st, db, &err), 0);
	assert_int_equal(count(f, "SELECT intent FROM messages WHERE id = 1"),
			 PC_INTENT_APPLIED);
	assert_int_equal(count(f, "SELECT intent FROM messages WHERE id = 2"),
			 PC_INTENT_CHANGES);
	assert_int_equal(count(f, "SELECT intent FROM messages WHERE id = 3"),
			 0);
	free(db);
}

/* Schema 27 reads the bits of recent postings (a draft specification)
 * from their raw bytes once; older postings are left without them, and
 * ingest stores them from then on. */
static void test_store__backfills_posting_bits(void **state)
{
	static const char draft[] =
		"From: A <a@x>\r\nMessage-ID: <p1@x>\r\n"
		"Date: Tue, 1 Nov 2022 10:00:00 +0000\r\n"
		"Subject: [PATCH] riscv: Add pointer masking\r\n\r\n"
		"This implements the draft v0.4 of the Zjpm spec.\r\n\r\n"
		"Signed-off-by: A <a@x>\r\n---\r\n"
		"diff --git a/k b/k\r\n--- a/k\r\n+++ b/k\r\n"
		"@@ -1 +1,2 @@\r\n a\r\n+b\r\n";
	struct pc_err err = { 0 };
	struct fixture *f = *state;
	char *db = xasprintf("%s/v26.db", f->dir);
	char *hd = hex(draft);
	char *sql = xasprintf(
		"INSERT INTO raw (id, size, compression, bytes) VALUES "
		"(1, %zu, 'none', x'%s'), (2, %zu, 'none', x'%s')",
		strlen(draft), hd, strlen(draft), hd);

	free(hd);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open_upto(&f->st, db, 26, &err), 0);
	assert_int_equal(pc_store_query(f->st, sql, ignore_rows, NULL, &err),
			 0);
	assert_int_equal(
		pc_store_query(f->st,
			       "INSERT INTO messages (id, msgid, raw_id, kind, "
			       "subject, date) VALUES (1, 'p1@x', 1, 'patch', "
			       "'riscv: recent', 1667296800), (2, 'p0@x', 2, "
			       "'patch', 'riscv: old', 1600000000)",
			       ignore_rows, NULL, &err),
		0);
	free(sql);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open(&f->st, db, &err), 0);
	assert_int_equal(count(f, "SELECT intent FROM messages WHERE id = 1"),
			 PC_INTENT_DRAFT_ISA);
	assert_int_equal(count(f, "SELECT intent FROM messages WHERE id = 2"),
			 0);
	free(db);
}

/* Schema 20 keys the subject and patch-id indexes: rows stored before
 * get their keys, ingest sets them, and a key is the text folded as
 * lower() folds it. */
static void test_ingest__text_keys_migrated_and_set(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	char *db = xasprintf("%s/v19.db", f->dir);

	pc_store_close(f->st);
	assert_int_equal(pc_store_open_upto(&f->st, db, 19, &err), 0);
	assert_int_equal(
		pc_store_query(f->st,
			       "INSERT INTO raw (id, size, compression, bytes) "
			       "VALUES (1, 1, 'none', x'0a'), "
			       "(2, 1, 'none', x'0a')",
			       ignore_rows, NULL, &err),
		0);
	assert_int_equal(
		pc_store_query(
			f->st,
			"INSERT INTO messages (id, msgid, raw_id, kind, "
			"subject, patch_id) VALUES (1, 'p1@x', 1, 'patch', "
			"'[PATCH] Widget: Spin', 'abc123'), "
			"(2, 'r1@x', 2, 'reply', "
			"'Re: [PATCH] Widget: Spin', NULL)",
			ignore_rows, NULL, &err),
		0);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open(&f->st, db, &err), 0);
	assert_int_equal(count(f, "SELECT subject_key = pc_text_key("
				  "'[patch] widget: SPIN') AND patch_key = "
				  "pc_text_key('abc123') FROM messages "
				  "WHERE id = 1"),
			 1);
	assert_int_equal(count(f, "SELECT subject_key IS NULL FROM messages "
				  "WHERE id = 2"),
			 1);
	assert_int_equal(count(f, "SELECT pc_text_key('a') != "
				  "pc_text_key('b')"),
			 1);
	assert_int_equal(count(f, "SELECT count(*) FROM messages INDEXED BY "
				  "messages_post_subject WHERE subject_key = "
				  "pc_text_key('[PATCH] WIDGET: spin') AND "
				  "(kind = 'patch' OR kind = 'cover')"),
			 1);
	ingest(f, mail("p2@x", "A <a@x>", "[PATCH] gadget: Stop",
		       "01 Jan 2024 10:00", NULL, "x\n"));
	assert_int_equal(count(f, "SELECT subject_key = pc_text_key("
				  "'[patch] GADGET: stop') FROM messages "
				  "WHERE msgid = 'p2@x'"),
			 1);
	free(db);
}

/* Since schema 14, ingest stores the intent of a mail that is not a
 * reply too (no "Re:", no threading headers). */
static void test_ingest__intent_of_other_mail(void **state)
{
	struct fixture *f = *state;

	ingest(f, mail("o2@x", "M <m@x>", "widget plans", "01 Jan 2024 10:00",
		       NULL, "NAK\n"));
	assert_int_equal(count(f, "SELECT intent FROM messages "
				  "WHERE msgid = 'o2@x' AND kind = 'other'"),
			 PC_INTENT_CHANGES);
}

/* patchclock's own mailbox keeps only mail holding commands to it. */
static void test_ingest__commands_only(void **state)
{
	struct fixture *f = *state;
	struct pc_ingest_options io = PC_INGEST_OPTIONS_INIT;
	struct pc_err err = { 0 };
	char *a = mail("c1@x", "M <m@x>", "Re: thing", "01 Jan 2024 10:00",
		       "p@x", "Thanks!\npatchclock: snooze 1w\n");
	char *b = mail("c2@x", "M <m@x>", "Re: thing", "01 Jan 2024 10:00",
		       "p@x", "Thanks, will look next week.\n");

	io.commands_only = 1;
	assert_int_equal(pc_store_begin(f->st, &err), 0);
	assert_int_equal(pc_ingest_message(f->st, a, strlen(a), "t", &io,
					   &f->stats, &err),
			 0);
	assert_int_equal(pc_ingest_message(f->st, b, strlen(b), "t", &io,
					   &f->stats, &err),
			 1);
	assert_int_equal(pc_store_commit(f->st, &err), 0);
	assert_int_equal(f->stats.not_commands, 1);
	assert_int_equal(count(f, "SELECT count(*) FROM messages"), 1);
	assert_int_equal(count(f, "SELECT commands * 10 + to_bot FROM messages "
				  "WHERE msgid = 'c1@x'"),
			 10);
	free(a);
	free(b);
}

/* Counts the EXPLAIN rows of a statement (with its triggers) that open
 * a temporary b-tree. */
static int count_ephemeral(int ncols, const char *const *cols, void *arg)
{
	if (ncols > 1 && cols[1] && !strcmp(cols[1], "OpenEphemeral"))
		(*(int *)arg)++;
	return 0;
}

/* What schema 7 promises, on the database f->st has open. */
static void check_constraints_as_or_chains(struct fixture *f)
{
	static const char *const refused[] = {
		"INSERT INTO messages (msgid, raw_id, kind) "
		"VALUES ('bad@x', 1, 'bogus')",
		"INSERT INTO patch_files (message_id, pos, status, added, "
		"removed, binary) VALUES (1, 0, 'X', 0, 0, 0)",
		"INSERT INTO maint_people (entry, pos, role, addr) "
		"VALUES ('E', 0, 'Z', 'a@x')",
	};
	static const char *const inserts[] = {
		"EXPLAIN INSERT INTO messages (msgid, raw_id, kind) "
		"VALUES ('ok@x', 1, 'reply')",
		"EXPLAIN INSERT INTO patch_files (message_id, pos, status, "
		"added, removed, binary) VALUES (1, 0, 'M', 0, 0, 0)",
		"EXPLAIN INSERT INTO maint_people (entry, pos, role, addr) "
		"VALUES ('E', 0, 'M', 'a@x')",
		/* With its triggers, which mark both series. */
		"EXPLAIN UPDATE messages SET series_id = 1 WHERE id = 1",
		"EXPLAIN UPDATE series SET superseded_by = 2 WHERE id = 1",
	};
	struct pc_err err = { 0 };
	size_t i;

	assert_int_equal(count(f, "SELECT count(*) FROM sqlite_schema "
				  "WHERE sql LIKE '%kind IN%' "
				  "OR sql LIKE '%status IN (''M''%' "
				  "OR sql LIKE '%role IN%'"),
			 0);
	for (i = 0; i < PC_ARRAY_SIZE(inserts); i++) {
		int n = 0;

		assert_int_equal(pc_store_query(f->st, inserts[i],
						count_ephemeral, &n, &err),
				 0);
		assert_int_equal(n, 0);
	}
	/* The values allowed are the same: a wrong one is still refused.
	 * The entry is the parent a maint_people row needs. */
	assert_int_equal(pc_store_query(f->st,
					"INSERT OR IGNORE INTO maint_entries "
					"(name) VALUES ('E')",
					ignore_rows, NULL, &err),
			 0);
	for (i = 0; i < PC_ARRAY_SIZE(refused); i++) {
		assert_int_equal(pc_store_query(f->st, refused[i], ignore_rows,
						NULL, &err),
				 PC_EDB);
		assert_non_null(strstr(err.msg, "CHECK constraint failed"));
	}
	assert_int_equal(pc_store_query(f->st, "PRAGMA integrity_check",
					first_int_text_ok, NULL, &err),
			 0);
}

/*
 * Schema 7 writes the CHECK constraints that listed values with IN as OR
 * chains, and the triggers' "id IN (...)" as one UPDATE per id, so SQLite
 * runs them without building a temporary b-tree each time; on a new
 * database and on one made by schema 6.
 */
static void test_store__checks_without_temporary_tables(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	char *db = xasprintf("%s/v6.db", f->dir);

	check_constraints_as_or_chains(f);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open_upto(&f->st, db, 6, &err), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM sqlite_schema "
				  "WHERE sql LIKE '%kind IN%'"),
			 1);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open(&f->st, db, &err), 0);
	check_constraints_as_or_chains(f);
	free(db);
}

static void test_store__bulk_mode_keeps_readers_working(void **state)
{
	struct fixture *f = *state;
	struct pc_store *reader = NULL, *late = NULL;
	struct pc_err err = { 0 };
	int64_t n = -1;
	char *mode = NULL;
	char *raw = mail("p1@x", A, "[PATCH] widget: one", "01 Jan 2024 10:01",
			 NULL, PATCH_BODY);

	assert_int_equal(pc_store_open(&reader, f->db, &err), 0);
	assert_int_equal(pc_store_bulk(f->st, 1, &err), 0);
	assert_int_equal(pc_store_begin(f->st, &err), 0);
	assert_true(pc_ingest_message(f->st, raw, strlen(raw), "test", NULL,
				      &f->stats, &err) >= 0);
	free(raw);
	/* Mid-batch, a reader sees the last commit at once, and a reader
	 * that opens the database now opens it without waiting. */
	assert_int_equal(pc_store_query(reader, "SELECT count(*) FROM messages",
					first_int, &n, &err),
			 0);
	assert_int_equal(n, 0);
	assert_int_equal(pc_store_open(&late, f->db, &err), 0);
	assert_int_equal(pc_store_query(late, "PRAGMA journal_mode", first_text,
					&mode, &err),
			 0);
	assert_string_equal(mode, "wal");
	/* A second writer gives up after its wait, with PC_EBUSY. */
	assert_int_equal(pc_store_try_begin(late, 50, &err), PC_EBUSY);
	assert_non_null(strstr(err.msg, "locked"));
	assert_int_equal(pc_store_commit(f->st, &err), 0);
	assert_int_equal(pc_store_try_begin(late, 50, &err), 0);
	pc_store_rollback(late);
	assert_int_equal(pc_store_bulk(f->st, 0, &err), 0);
	assert_int_equal(pc_store_query(reader, "SELECT count(*) FROM messages",
					first_int, &n, &err),
			 0);
	assert_int_equal(n, 1);
	free(mode);
	pc_store_close(late);
	pc_store_close(reader);
}

/* Schema 21 drops the path index no query reads; the files stay, the
 * file stays sound, and a patch's files are still read by its id. */
static void test_store__path_index_dropped_files_kept(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	char *db = xasprintf("%s/v20.db", f->dir);
	const char *has_index = "SELECT count(*) FROM sqlite_schema WHERE "
				"name = 'patch_files_path'";

	pc_store_close(f->st);
	assert_int_equal(pc_store_open_upto(&f->st, db, 20, &err), 0);
	patch(f, "p1@x", "A <a@x>", "[PATCH] nvdimm: Fix", "01 Jan 2024 10:00",
	      NULL);
	assert_int_equal(count(f, has_index), 1);
	pc_store_close(f->st);
	assert_int_equal(pc_store_open(&f->st, db, &err), 0);
	assert_int_equal(count(f, has_index), 0);
	assert_int_equal(count(f, "SELECT count(*) FROM pragma_integrity_check "
				  "WHERE integrity_check != 'ok'"),
			 0);
	assert_int_equal(count(f, "SELECT count(*) FROM patch_files f JOIN "
				  "messages m ON m.id = f.message_id WHERE "
				  "m.msgid = 'p1@x' AND f.new_path = "
				  "'drivers/nvdimm/pmem.c'"),
			 1);
	patch(f, "p2@x", "A <a@x>", "[PATCH] nvdimm: Fix more",
	      "01 Jan 2024 11:00", NULL);
	assert_int_equal(count(f, "SELECT count(*) FROM patch_files"), 2);
	free(db);
}

static void test_store__newer_schema_is_refused(void **state)
{
	struct fixture *f = *state;
	struct pc_store *again = NULL;
	struct pc_err err = { 0 };
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
		 pc_store_schema_latest() + 1);
	assert_int_equal(pc_store_query(f->st, sql, ignore_rows, NULL, &err),
			 0);
	pc_store_close(f->st);
	f->st = NULL;
	assert_int_equal(pc_store_open(&again, f->db, &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "upgrade patchclock"));
	assert_int_equal(pc_store_open(&f->st, ":memory:", &err), 0);
}

/* What the profile callback saw, in the order it was called. */
struct costs {
	char *sql[256];
	uint64_t runs[256], ns[256], writes[256];
	size_t n;
};

static void keep_cost(const struct pc_store_stmt_cost *c, void *arg)
{
	struct costs *k = arg;

	assert_true(k->n < 256);
	k->sql[k->n] = xstrdup(c->sql);
	k->runs[k->n] = c->runs;
	k->ns[k->n] = c->ns;
	k->writes[k->n] = c->cache_writes;
	k->n++;
}

/* The index of the statement whose text starts with prefix, or -1. */
static long cost_of(const struct costs *k, const char *prefix)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (!strncmp(k->sql[i], prefix, strlen(prefix)))
			return (long)i;
	return -1;
}

static void test_store__profile_counts_each_statement(void **state)
{
	struct fixture *f = *state;
	struct costs k = { .n = 0 };
	struct pc_err err = { 0 };
	long ins, commit;
	size_t i;

	patch(f, "before@x", A, "[PATCH] before", "01 Jan 2024 10:00", NULL);
	pc_store_profile(f->st, keep_cost, &k);
	patch(f, "p1@x", A, "[PATCH 1/2] one", "02 Jan 2024 10:00", "c@x");
	patch(f, "p2@x", A, "[PATCH 2/2] two", "02 Jan 2024 10:01", "c@x");
	/* A duplicate is looked up, not inserted. */
	patch(f, "p2@x", A, "[PATCH 2/2] two", "02 Jan 2024 10:01", "c@x");
	assert_int_equal(pc_store_query(f->st, "SELECT count(*) FROM series",
					ignore_rows, NULL, &err),
			 0);
	assert_int_equal(k.n, 0); /* reported at close, not before */
	pc_store_close(f->st);
	f->st = NULL;

	ins = cost_of(&k, "INSERT INTO messages");
	assert_true(ins >= 0);
	/* Only what ran after profiling started: two new messages. */
	assert_int_equal(k.runs[ins], 2);
	commit = cost_of(&k, "COMMIT");
	assert_true(commit >= 0);
	assert_int_equal(k.runs[commit], 3);
	assert_true(k.writes[commit] > 0); /* the commits wrote the pages */
	assert_true(cost_of(&k, "SELECT count(*) FROM series") >= 0);
	for (i = 0; i < k.n; i++) {
		assert_true(k.runs[i] > 0);
		if (i)
			assert_true(k.ns[i - 1] >= k.ns[i]);
		free(k.sql[i]);
	}
	/* A store closed without a profile reports nothing. */
	assert_int_equal(pc_store_open(&f->st, f->db, &err), 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_ingest__idempotent_by_message_id),
		T(test_ingest__no_message_id_gets_stable_hash_id),
		T(test_ingest__unparseable_is_kept_raw),
		T(test_ingest__patchwork_hint_kept),
		T(test_series__threaded_cover_and_patches),
		T(test_series__any_order_adopts_patches),
		T(test_series__late_undated_cover_adopts_by_thread),
		T(test_series__late_cover_merging_two_series_counts_down),
		T(test_series__broken_threading_joins_by_sender),
		T(test_series__far_apart_postings_do_not_join),
		T(test_series__same_slot_twice_is_a_new_series),
		T(test_series__new_version_supersedes),
		T(test_series__versions_order_by_number_not_date),
		T(test_series__rfc_precedes_real_versions),
		T(test_series__unrelated_subjects_stay_apart),
		T(test_series__colleague_repost_and_other_project),
		T(test_series__b4_link_to_previous_version),
		T(test_series__naked_cover),
		T(test_series__untagged_reply_patch_is_own_series),
		T(test_trailers__reply_to_patch_and_to_cover),
		T(test_trailers__cover_tag_fans_out_to_every_patch),
		T(test_trailers__reply_before_its_patch),
		T(test_trailers__bot_tags_are_suggestions),
		T(test_trailers__tag_for_someone_else_is_not_applied),
		T(test_store__migrations_and_reopen),
		T(test_store__migrates_from_every_earlier_schema),
		T(test_store__backfills_intents_once),
		T(test_store__backfills_posting_bits),
		T(test_ingest__text_keys_migrated_and_set),
		T(test_ingest__intent_of_other_mail),
		T(test_ingest__commands_only),
		T(test_store__checks_without_temporary_tables),
		T(test_store__bulk_mode_keeps_readers_working),
		T(test_store__path_index_dropped_files_kept),
		T(test_store__newer_schema_is_refused),
		T(test_store__profile_counts_each_statement),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
