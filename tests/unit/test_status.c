// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/store/status.c: verdicts stored for series ingested
 * from hand-built mail, incremental re-evaluation (new mail deep in a
 * thread, due times, an earlier now), a maintainer's "Applied" reply,
 * `accept`, and release announcements. The policy is fixed: one week in
 * calendar days, UTC, non-author review.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "maint/maintainers.h"
#include "sla/cycle.h"
#include "store/ingest.h"
#include "store/mapping.h"
#include "store/status.h"
#include "store/store.h"
#include "util/xalloc.h"

/* Mon 2024-01-01 10:00 UTC, and a day. */
#define T0 1704103200LL
#define DAY 86400LL

static const char MAINTAINERS[] = "WIDGET\n"
				  "M:\tMay Tainer <may@example.org>\n"
				  "S:\tMaintained\n"
				  "F:\tdrivers/widget/\n";

struct fixture {
	char *dir;
	struct t_store ts;
	struct pc_maint *m;
	struct pc_bizclock *clock;
	struct pc_policy pol;
	struct pc_sla_ctx ctx;
	struct pc_status_stats stats;
};

static int pick(struct pc_status_policy *out, const char *const *entries,
		const int *files, size_t n, void *arg, struct pc_err *err)
{
	(void)files;
	struct fixture *f = arg;

	(void)err;
	out->ctx = &f->ctx;
	out->entry = n ? entries[0] : NULL;
	out->profile = NULL;
	return 0;
}

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_err err = { 0 };

	t_store_open(&f->ts);
	assert_int_equal(pc_maint_load_mem(&f->m, MAINTAINERS,
					   strlen(MAINTAINERS), NULL, 0, NULL,
					   &err),
			 0);
	assert_int_equal(pc_bizclock_new(&f->clock, &h, &err), 0);
	f->pol.ping_after.count = 7;
	f->pol.ping_after.unit = PC_PROF_UNIT_DAYS;
	f->pol.review = PC_PROF_REVIEW_NON_AUTHOR;
	f->ctx.policy = &f->pol;
	f->ctx.clock = f->clock;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	t_store_close(&f->ts);
	pc_maint_free(f->m);
	pc_bizclock_free(f->clock);
	free(f);
	return 0;
}

static void mail(struct fixture *f, const char *id, const char *from,
		 const char *subject, int64_t date, const char *irt,
		 const char *refs, const char *body)
{
	char *hdr = refs ? xasprintf("References: %s\n", refs) : NULL;

	t_ingest_mail(&f->ts, id, from, subject, date, irt, hdr, body);
	free(hdr);
}

static const char PATCH[] =
	"Make it spin.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -1,2 +1,3 @@\n a\n+b\n c\n";
/* Another change to the same file: not a re-post of PATCH. */
static const char PATCH2[] =
	"Make it turn.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -1,2 +1,3 @@\n a\n+t\n c\n";
static const char PATCH3[] =
	"Make it roll.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -1,2 +1,3 @@\n a\n+r\n c\n";
static const char PATCH4[] =
	"Make it hop.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -1,2 +1,3 @@\n a\n+h\n c\n";

/* A change to another file of the entry. */
static const char OTHER_FILE[] =
	"Make it glow.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/g.c b/drivers/widget/g.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/g.c\n"
	"+++ b/drivers/widget/g.c\n@@ -1,2 +1,3 @@\n a\n+g\n c\n";

/* Its next version. */
static const char OTHER_FILE2[] =
	"Make it glow.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/g.c b/drivers/widget/g.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/g.c\n"
	"+++ b/drivers/widget/g.c\n@@ -1,2 +1,3 @@\n a\n+glow\n c\n";

/* Maps and judges at now with so, in one committed transaction. */
static void refresh_with(struct fixture *f, const struct pc_status_options *so,
			 int64_t now)
{
	struct pc_map_stats ms;
	struct pc_err err = { 0 };

	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_map_series(f->ts.st, f->m, NULL, now, &ms, &err),
			 0);
	assert_int_equal(pc_status_refresh(f->ts.st, so, now, &f->stats, &err),
			 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
}

static void refresh(struct fixture *f, int64_t now)
{
	struct pc_status_options so = { .policy = pick,
					.policy_arg = f,
					.policy_id = "test-policy" };

	refresh_with(f, &so, now);
}

static char *verdict(struct fixture *f)
{
	return t_query(&f->ts, "SELECT state, flags, coalesce(turn, '-') "
			       "FROM series_status");
}

static void expect(struct fixture *f, const char *want)
{
	char *got = verdict(f);

	assert_string_equal(got, want);
	free(got);
}

/* Each series' posting and its hold ("" for none), by Message-ID. */
static char *holds(struct fixture *f)
{
	return t_query(&f->ts,
		       "SELECT m.msgid, coalesce(st.hold, '') FROM "
		       "series_status st JOIN series s ON s.id = "
		       "st.series_id JOIN messages m ON m.id = s.anchor_id "
		       "ORDER BY m.msgid");
}

/* expr, over series_status st and series s, for the series whose
 * posting (anchor) is msgid, against want ("NULL" for none). */
static void expect_of(struct fixture *f, const char *msgid, const char *expr,
		      const char *want)
{
	char *got = t_query(&f->ts,
			    "SELECT %s FROM series_status st JOIN series s ON "
			    "s.id = st.series_id JOIN messages m ON m.id = "
			    "s.anchor_id WHERE m.msgid = '%s'",
			    expr, msgid);

	assert_string_equal(got, want);
	free(got);
}

static void test_status__reply_deep_in_thread_is_seen(void **state)
{
	struct fixture *f = *state;

	mail(f, "p1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	refresh(f, T0 + DAY);
	expect(f, "new|needs-review|maintainers");
	assert_int_equal(f->stats.judged, 1);
	assert_int_equal(f->stats.full, 1);
	/* Nothing new: nothing judged. */
	refresh(f, T0 + DAY + 60);
	assert_int_equal(f->stats.judged, 0);
	/* A bot, then a human answering the bot: the human's mail is two
	 * levels below the patch, found through References. */
	mail(f, "r1@x", "kernel test robot <lkp@intel.com>",
	     "Re: [PATCH] widget: spin", T0 + DAY + 100, "p1@x", "<p1@x>",
	     "Hi, I love your patch.\n");
	mail(f, "r2@x", "Rita Viewer <rita@example.com>",
	     "Re: [PATCH] widget: spin", T0 + DAY + 200, "r1@x",
	     "<p1@x> <r1@x>", "This looks wrong to me.\n");
	refresh(f, T0 + 2 * DAY);
	assert_int_equal(f->stats.full, 0);
	assert_int_equal(f->stats.judged, 1);
	assert_int_equal(f->stats.touched, 1);
	expect(f, "acknowledged|needs-review|author");
}

/* A new version under a new title (lore nvdimm: v1 "libnvdimm: add
 * foo", v2 "nvdimm: introduce foo support"): no version link joins them,
 * but the same author's v2 touching the same file replaces v1, which
 * then gets no mail. The same file changed again without a new version
 * or the same change is another series. */
static void test_status__retitled_version_replaces(void **state)
{
	struct fixture *f = *state;
	char *s;

	mail(f, "p1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	mail(f, "p2@x", "A U Thor <author@example.com>",
	     "[PATCH] widget: turn the other way", T0 + DAY, NULL, NULL,
	     PATCH2);
	refresh(f, T0 + 10 * DAY);
	s = holds(f);
	assert_string_equal(s, "p1@x|\np2@x|");
	free(s);
	mail(f, "p3@x", "A U Thor <author@example.com>",
	     "[PATCH v2] widget: rotate, with a fix", T0 + 2 * DAY, NULL, NULL,
	     PATCH2);
	refresh(f, T0 + 10 * DAY + 60);
	s = holds(f);
	/* p3 is v2 and carries p2's change: both earlier ones replaced. */
	assert_string_equal(s, "p1@x|superseded\np2@x|superseded\np3@x|");
	free(s);
}

/* Two changes to one file, then only one of them re-posted under a new
 * title (and on a moved line: another patch-id): "integrity: iint:
 * Remove unnecessary (void*) conversions" after "integrity: iint:
 * Optimize integrity_iintcache_init and integrity_inode_free function"
 * (linux-integrity 2022-11-07). The re-post is the next version; a
 * re-post that also adds a line of its own is another change. */
static const char TWO_CHANGES[] =
	"Tidy it.\n\nSigned-off-by: C U Thor <c@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -1,4 +1,4 @@\n a\n-p = (void *)q;\n"
	"+p = q;\n c\n-if (!p) return;\n";
static const char ONE_OF_THEM[] =
	"Drop the cast.\n\nSigned-off-by: C U Thor <c@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..3333333 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -7,3 +7,3 @@\n x\n-p = (void *)q;  \n"
	"+p = q;\n y\n";
static const char ONE_AND_NEW[] =
	"Drop the cast.\n\nSigned-off-by: C U Thor <c@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..3333333 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -7,3 +7,4 @@\n x\n-p = (void *)q;\n"
	"+p = q;\n+r = p;\n y\n";

static void test_status__reduced_repost_replaces(void **state)
{
	struct fixture *f = *state;
	const char *c = "C U Thor <c@example.com>";
	char *s;

	mail(f, "o1@x", c, "[PATCH] widget: tidy w", T0, NULL, NULL,
	     TWO_CHANGES);
	mail(f, "o2@x", c, "[PATCH] widget: keep the pointer's type",
	     T0 + 20 * DAY, NULL, NULL, ONE_AND_NEW);
	refresh(f, T0 + 21 * DAY);
	s = holds(f);
	assert_string_equal(s, "o1@x|\no2@x|");
	free(s);
	mail(f, "o3@x", c, "[PATCH] widget: remove a needless cast",
	     T0 + 22 * DAY, NULL, NULL, ONE_OF_THEM);
	refresh(f, T0 + 23 * DAY);
	s = holds(f);
	/* o3 makes part of each again, and nothing else. */
	assert_string_equal(s, "o1@x|superseded\no2@x|superseded\no3@x|");
	free(s);
}

/* A posting sent twice, minutes apart (linux-hwmon 2022-12-14, "[PATCH
 * v2] hwmon: (oxp-sensors) Add AYANEO AIR and AIR Pro"): the second
 * replaces the first, and what was said below the first is said of
 * both. A posting of other patches is no twin. */
static void test_status__twin_posting_keeps_its_replies(void **state)
{
	struct fixture *f = *state;
	const char *a = "A U Thor <author@example.com>";

	mail(f, "t1@x", a, "[PATCH v2] widget: spin", T0, NULL, NULL, PATCH);
	mail(f, "t2@x", a, "[PATCH v2] widget: spin", T0 + 480, NULL, NULL,
	     PATCH);
	mail(f, "ta@x", "May Tainer <may@example.org>",
	     "Re: [PATCH v2] widget: spin", T0 + DAY, "t1@x", "<t1@x>",
	     "Applied to widget-next, thanks!\n");
	refresh(f, T0 + 2 * DAY);
	expect_of(f, "t1@x", "st.state", "superseded");
	expect_of(f, "t2@x", "st.state", "accepted");
	/* Another change under the same title: not the same posting. */
	mail(f, "u1@x", a, "[PATCH v3] widget: turn", T0 + 3 * DAY, NULL, NULL,
	     PATCH2);
	mail(f, "u2@x", a, "[PATCH v3] widget: turn", T0 + 3 * DAY + 480, NULL,
	     NULL, PATCH3);
	mail(f, "ub@x", "May Tainer <may@example.org>",
	     "Re: [PATCH v3] widget: turn", T0 + 4 * DAY, "u1@x", "<u1@x>",
	     "Applied to widget-next, thanks!\n");
	refresh(f, T0 + 5 * DAY);
	expect_of(f, "u2@x", "st.state", "new");
}

/* The same version again under a new cover letter, each patch by its
 * title, reworked, with a patch added ("[PATCH v2 0/3] erofs: iomap
 * support for uncompressed cases" after "[PATCH v2 0/2] erofs: dio/dax
 * support for non-tailpacking cases", lore nvdimm 2021-07-30): it
 * replaces the earlier posting; a patch whose title it does not carry
 * stays a series of its own. */
static void test_status__same_version_retitled_replaces(void **state)
{
	struct fixture *f = *state;
	const char *b = "B U Thor <b@example.com>";
	char *s;

	mail(f, "q1@x", b, "[PATCH] widget: spin", T0, NULL, NULL, PATCH);
	mail(f, "q2@x", b, "[PATCH] widget: turn the other way", T0 + DAY, NULL,
	     NULL, PATCH2);
	mail(f, "qc@x", b, "[PATCH 0/2] widget: spin and hop", T0 + 2 * DAY,
	     NULL, NULL, "Two.\n");
	mail(f, "q3@x", b, "[PATCH 1/2] widget: spin", T0 + 2 * DAY + 1, "qc@x",
	     "<qc@x>", PATCH3);
	mail(f, "q4@x", b, "[PATCH 2/2] widget: hop", T0 + 2 * DAY + 2, "qc@x",
	     "<qc@x>", PATCH4);
	refresh(f, T0 + 10 * DAY);
	s = holds(f);
	assert_string_equal(s, "q1@x|superseded\nq2@x|\nqc@x|");
	free(s);
}

/* A reply whose mailer kept no In-Reply-To or References (lore nvdimm
 * has 197 messages without threading headers) joins the series whose
 * subject it answers exactly: the series is answered, not overdue. */
static void test_status__unthreaded_reply_by_subject(void **state)
{
	struct fixture *f = *state;

	mail(f, "p1@x", "A U Thor <author@example.com>",
	     "[PATCH v2 1/1] widget: spin", T0, NULL, NULL, PATCH);
	refresh(f, T0 + DAY);
	expect(f, "new|needs-review|maintainers");
	mail(f, "r1@x", "Rita Viewer <rita@example.com>",
	     "RE: [patch V2 1/1] Widget: Spin", T0 + 2 * DAY, NULL, NULL,
	     "Why does it spin?\n");
	refresh(f, T0 + 10 * DAY);
	assert_int_equal(f->stats.touched, 1);
	expect(f, "acknowledged|needs-review|author");
}

static void test_status__due_time_rejudges_without_mail(void **state)
{
	struct fixture *f = *state;

	mail(f, "p1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	refresh(f, T0 + DAY);
	assert_int_equal(t_query_int(&f->ts, "SELECT next_check FROM "
					     "series_status"),
			 T0 + 7 * DAY);
	/* Just before due: not scheduled yet. */
	refresh(f, T0 + 7 * DAY - 1);
	assert_int_equal(f->stats.judged, 0);
	refresh(f, T0 + 8 * DAY);
	assert_int_equal(f->stats.judged, 1);
	assert_int_equal(f->stats.scheduled, 1);
	expect(f, "new|overdue needs-review|maintainers");
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM v_overdue"),
			 1);
	/* An earlier now judges everything again, as of then. */
	refresh(f, T0 + 2 * DAY);
	assert_int_equal(f->stats.full, 1);
	expect(f, "new|needs-review|maintainers");
	/* Not posted yet at that now: no verdict at all. */
	refresh(f, T0 - DAY);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM "
					     "series_status"),
			 0);
}

static void test_status__maintainer_applied_and_accept(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	int64_t sid;

	mail(f, "p1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	mail(f, "p2@x", "A U Thor <author@example.com>", "[PATCH] widget: turn",
	     T0 + 3600, NULL, NULL, PATCH2);
	/* The maintainer (M: of WIDGET, mapped) applies the first; a
	 * bystander "applies" the second. */
	mail(f, "a1@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: spin", T0 + DAY, "p1@x", "<p1@x>",
	     "Applied to widget-next, thanks!\n");
	mail(f, "a2@x", "Bea Stander <bea@example.net>",
	     "Re: [PATCH] widget: turn", T0 + DAY, "p2@x", "<p2@x>",
	     "Applied, thanks!\n");
	refresh(f, T0 + 2 * DAY);
	{
		char *s = t_query(&f->ts,
				  "SELECT m.msgid, st.state, st.entry FROM "
				  "series_status st JOIN series s ON s.id = "
				  "st.series_id JOIN messages m ON m.id = "
				  "s.anchor_id ORDER BY m.msgid");

		assert_string_equal(s, "p1@x|accepted|WIDGET\n"
				       "p2@x|acknowledged|WIDGET");
		free(s);
	}
	sid = t_query_int(&f->ts, "SELECT series_id FROM messages "
				  "WHERE msgid = 'p2@x'");
	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_status_accept(f->ts.st, sid, T0 + DAY + 1,
					  "may@example.org", NULL, &err),
			 0);
	assert_int_equal(pc_status_accept(f->ts.st, 999, T0, NULL, NULL, &err),
			 PC_ENOTFOUND);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
	refresh(f, T0 + 2 * DAY);
	assert_int_equal(f->stats.judged, 1);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM "
					     "series_status WHERE state = "
					     "'accepted'"),
			 2);
}

/* A maintainer's "Applied" from another address under the full name
 * MAINTAINERS gives (linux-hwmon 2022-10-17: "Alex Deucher"
 * <alexdeucher@gmail.com> applying radeon's patch, M: at amd.com)
 * withholds mail but accepts nothing: anyone can write a name. */
static void test_status__maintainer_by_name_withholds(void **state)
{
	struct fixture *f = *state;
	char *s;

	mail(f, "p3@x", "A U Thor <author@example.com>", "[PATCH] widget: roll",
	     T0, NULL, NULL, PATCH3);
	mail(f, "a3@x", "May Tainer <may.tainer@home.example>",
	     "Re: [PATCH] widget: roll", T0 + DAY, "p3@x", "<p3@x>",
	     "Applied, thanks!\n");
	/* One word of a name says nothing. */
	mail(f, "p4@x", "A U Thor <author@example.com>", "[PATCH] widget: hop",
	     T0 + 60, NULL, NULL, PATCH4);
	mail(f, "a4@x", "May <may@home.example>", "Re: [PATCH] widget: hop",
	     T0 + DAY, "p4@x", "<p4@x>", "Applied, thanks!\n");
	refresh(f, T0 + 9 * DAY);
	s = t_query(&f->ts, "SELECT m.msgid, st.state, coalesce(st.hold, '') "
			    "FROM series_status st JOIN series s ON s.id = "
			    "st.series_id JOIN messages m ON m.id = "
			    "s.anchor_id ORDER BY m.msgid");
	assert_string_equal(s, "p3@x|acknowledged|already-applied\n"
			       "p4@x|acknowledged|");
	free(s);
}

/* An ndctl patch (another project's, though its path matches an entry)
 * has no governing entry: it counts in no entry's queue (issue 37). */
static void test_status__other_project_has_no_entry(void **state)
{
	struct fixture *f = *state;
	char *s;

	mail(f, "nd@x", "A U Thor <author@example.com>",
	     "[ndctl PATCH] widget: spin", T0, NULL, NULL, PATCH);
	refresh(f, T0 + 9 * DAY);
	s = t_query(&f->ts, "SELECT coalesce(entry, '-') || '|' || hold || "
			    "'|' || overdue || '|' || coalesce(turn, '-') "
			    "FROM series_status");
	assert_string_equal(s, "-|not-kernel|0|-");
	free(s);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM v_overdue"),
			 0);
}

/* Two subsystems, one series: patch 1 is WIDGET's, patch 2 MM's. */
static const char MAINTAINERS_MM[] = "WIDGET\n"
				     "M:\tMay Tainer <may@example.org>\n"
				     "S:\tMaintained\n"
				     "F:\tdrivers/widget/\n"
				     "\n"
				     "MEMORY MANAGEMENT\n"
				     "M:\tAndrew Morton <akpm@example.org>\n"
				     "S:\tMaintained\n"
				     "F:\tmm/\n";
static const char PATCH_MM[] =
	"Let it grow.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/mm/grow.c b/mm/grow.c\n"
	"index 1111111..2222222 100644\n--- a/mm/grow.c\n"
	"+++ b/mm/grow.c\n@@ -1,2 +1,3 @@\n a\n+g\n c\n";
static const char PATCH_BIG[] =
	"Make it spin.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -1,2 +1,5 @@\n a\n+b\n+b\n+b\n c\n";

/* WIDGET's patch and MM's in one series (c@x: w1@x, w2@x), MAINTAINERS
 * with both entries. */
static void widget_and_mm(struct fixture *f)
{
	struct pc_err err = { 0 };

	pc_maint_free(f->m);
	assert_int_equal(pc_maint_load_mem(&f->m, MAINTAINERS_MM,
					   strlen(MAINTAINERS_MM), NULL, 0,
					   NULL, &err),
			 0);
	mail(f, "c@x", "A U Thor <author@example.com>",
	     "[PATCH 0/2] widget: spin and grow", T0, NULL, NULL,
	     "Two changes.\n");
	mail(f, "w1@x", "A U Thor <author@example.com>",
	     "[PATCH 1/2] widget: spin", T0 + 1, "c@x", "<c@x>", PATCH_BIG);
	mail(f, "w2@x", "A U Thor <author@example.com>", "[PATCH 2/2] mm: grow",
	     T0 + 2, "c@x", "<c@x>", PATCH_MM);
}

/* The governing entry's maintainer applies their part; the rest maps
 * only to another entry: it waits on that entry's maintainers ("[PATCH
 * v4 0/4] Use devm helpers for regulator get and enable", linux-hwmon
 * 2022-10: hwmon took its two, the drm two waited 23 days). */
static void test_status__rest_waits_on_its_own_entry(void **state)
{
	struct fixture *f = *state;
	char *s;

	widget_and_mm(f);
	mail(f, "a1@x", "May Tainer <may@example.org>",
	     "Re: [PATCH 1/2] widget: spin", T0 + DAY, "w1@x", "<c@x> <w1@x>",
	     "Applied, thanks.\n");
	refresh(f, T0 + 9 * DAY);
	s = t_query(&f->ts, "SELECT st.entry, st.state, st.flags, st.turn, "
			    "coalesce(st.hold, '-') FROM series_status st");
	assert_string_equal(s, "MEMORY MANAGEMENT|acknowledged|overdue "
			       "needs-review partly-accepted|maintainers|-");
	free(s);
	s = t_query(&f->ts, "SELECT idx, accepted_at IS NOT NULL FROM "
			    "patch_status ORDER BY idx");
	assert_string_equal(s, "1|1\n2|0");
	free(s);
	/* A third patch of WIDGET's own, left by its maintainer with the
	 * mm one: what is left is still theirs to decide, held. */
	mail(f, "w3@x", "A U Thor <author@example.com>",
	     "[PATCH 3/2] widget: roll", T0 + 3, "c@x", "<c@x>", PATCH3);
	refresh(f, T0 + 9 * DAY + 60);
	s = t_query(&f->ts, "SELECT st.entry, coalesce(st.hold, '-') "
			    "FROM series_status st");
	assert_string_equal(s, "WIDGET|already-applied");
	free(s);
}

/* Acceptance per patch, from the stored thread: the replied-to patch,
 * the range a maintainer names, and the patches another subsystem's
 * maintainer's entries cover. */
static void test_status__acceptance_per_patch(void **state)
{
	struct fixture *f = *state;
	char *s;

	widget_and_mm(f);
	/* The mm maintainer answers the cover: only their patch. */
	mail(f, "a1@x", "Andrew Morton <akpm@example.org>",
	     "Re: [PATCH 0/2] widget: spin and grow", T0 + DAY, "c@x", "<c@x>",
	     "Applied, thanks.\n");
	refresh(f, T0 + 2 * DAY);
	s = t_query(&f->ts, "SELECT st.entry, st.state, st.flags, st.hold "
			    "FROM series_status st");
	assert_string_equal(s, "WIDGET|acknowledged|needs-review "
			       "partly-accepted|"
			       "already-applied");
	free(s);
	s = t_query(&f->ts, "SELECT idx, accepted_at IS NOT NULL FROM "
			    "patch_status ORDER BY idx");
	assert_string_equal(s, "1|0\n2|1");
	free(s);
	s = t_query(&f->ts, "SELECT m.idx, pe.entry FROM patch_entries pe "
			    "JOIN messages m ON m.id = pe.message_id "
			    "ORDER BY m.idx");
	assert_string_equal(s, "1|WIDGET\n2|MEMORY MANAGEMENT");
	free(s);
	/* The series' maintainer, in reply to patch 2, names patch 1. */
	mail(f, "a2@x", "May Tainer <may@example.org>",
	     "Re: [PATCH 2/2] mm: grow", T0 + 3 * DAY, "w2@x", "<c@x> <w2@x>",
	     "I applied patch 1 to widget-next.\n");
	refresh(f, T0 + 4 * DAY);
	s = t_query(&f->ts, "SELECT state, flags FROM series_status");
	assert_string_equal(s, "accepted|needs-review");
	free(s);
	assert_int_equal(t_query_int(&f->ts, "SELECT accepted_at FROM "
					     "patch_status WHERE idx = 1"),
			 T0 + 3 * DAY);
}

/* A fix of WIDGET's "widget: spin" in mm/ (Fixes: names it). */
static const char PATCH_MM_FIX[] =
	"The spin leaked.\n\nFixes: 0123456789ab (\"widget: spin\")\n"
	"Signed-off-by: O Ther <other@example.com>\n"
	"---\ndiff --git a/mm/grow.c b/mm/grow.c\n"
	"index 1111111..2222222 100644\n--- a/mm/grow.c\n"
	"+++ b/mm/grow.c\n@@ -1,2 +1,3 @@\n a\n+f\n c\n";

/* And a fix of that fix. */
static const char PATCH_MM_FIX_FIX[] =
	"It did not build.\n\n"
	"Fixes: 89abcdef0123 (\"mm: plug the spin leak\")\n"
	"Signed-off-by: O Ther <other@example.com>\n"
	"---\ndiff --git a/mm/grow.c b/mm/grow.c\n"
	"index 1111111..2222222 100644\n--- a/mm/grow.c\n"
	"+++ b/mm/grow.c\n@@ -1,2 +1,3 @@\n a\n+z\n c\n";

/* A later patch's Fixes: tag names a patch posted on the list: that
 * patch was committed, so its series is applied (silently: Dan
 * Williams's fsdax series, lore nvdimm 2021-12), and the fix goes to
 * the tree that took it while that is recent (Matthew Wilcox's iomap
 * fix of it waited on Dan, not on the iomap maintainers). */
static void test_status__fixes_tag_names_a_commit(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };
	char *s;

	pc_maint_free(f->m);
	assert_int_equal(pc_maint_load_mem(&f->m, MAINTAINERS_MM,
					   strlen(MAINTAINERS_MM), NULL, 0,
					   NULL, &err),
			 0);
	mail(f, "w1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	refresh(f, T0 + 2 * DAY);
	expect(f, "new|needs-review|maintainers");
	/* Its fix arrives: judged again at once, no due time needed. */
	mail(f, "fx@x", "O Ther <other@example.com>",
	     "[PATCH] mm: plug the spin leak", T0 + 3 * DAY, NULL, NULL,
	     PATCH_MM_FIX);
	refresh(f, T0 + 3 * DAY + 60);
	s = t_query(&f->ts, "SELECT m.name, st.state, st.hold, st.hold_why, "
			    "st.entry FROM series_status st JOIN series se "
			    "ON se.id = st.series_id JOIN messages m "
			    "ON m.id = se.anchor_id ORDER BY m.date");
	assert_string_equal(s, "widget: spin|accepted|already-applied|a later "
			       "patch's Fixes: tag names it: it was committed|"
			       "WIDGET\n"
			       "mm: plug the spin leak|new|NULL|NULL|WIDGET");
	free(s);
	/* A fix of that fix goes where the fix went (Dan Williams's build
	 * fix of his fix of Christoph's block series, 2021-06-09). */
	mail(f, "fz@x", "O Ther <other@example.com>",
	     "[PATCH] mm: plug it at build time", T0 + 4 * DAY, NULL, NULL,
	     PATCH_MM_FIX_FIX);
	refresh(f, T0 + 4 * DAY + 60);
	expect_of(f, "fz@x", "st.entry", "WIDGET");
	/* Eleven weeks on, the commit has been in a release for a while: a
	 * fix of it is its own files' entry's. */
	mail(f, "fy@x", "O Ther <other@example.com>",
	     "[PATCH] mm: plug another spin leak", T0 + 77 * DAY, NULL, NULL,
	     PATCH_MM_FIX);
	refresh(f, T0 + 77 * DAY + 60);
	expect_of(f, "fy@x", "st.entry", "MEMORY MANAGEMENT");
}

static void test_status__announcements_feed_the_cycle(void **state)
{
	struct fixture *f = *state;
	struct pc_cycle *cy = NULL;
	struct pc_cycle_state cs;
	struct pc_err err = { 0 };
	int added = -1;

	/* 5.13-rc4 was tagged Sun 2021-05-30; a reply and a stranger's
	 * mail with the same subject are not announcements. */
	mail(f, "l1@x", "Linus Torvalds <torvalds@linux-foundation.org>",
	     "Linux 5.13-rc4", 1622409000, NULL, NULL, "Hi all.\n");
	mail(f, "l2@x", "Linus Torvalds <torvalds@linux-foundation.org>",
	     "Re: Linux 5.13-rc4", 1622419000, "l1@x", "<l1@x>", "Oops.\n");
	mail(f, "l3@x", "Someone <s@example.com>", "Linux 5.13-rc5", 1622419000,
	     NULL, NULL, "Fake.\n");
	assert_int_equal(pc_cycle_new(&cy, NULL, &err), 0);
	assert_int_equal(pc_status_announcements(f->ts.st, cy, &added, &err),
			 0);
	assert_int_equal(added, 1);
	assert_int_equal(pc_cycle_state_at(&cs, cy, 1622409000 + DAY, &err), 0);
	assert_int_equal(cs.since.v.rc, 4);
	assert_int_equal(cs.since.v.minor, 13);
	pc_cycle_free(cy);
}

/*
 * The same diff posted again inside a larger series by the same person
 * from another address (linux-pwm, 2022-11-18: Uwe's "pwm: pca9685:
 * Convert to .probe_new()" re-posted as 537/606 of his i2c series, from
 * uwe@kleine-koenig.org): the lone patch is superseded from then on; by
 * someone else, it is not.
 */
static void test_status__reposted_elsewhere_supersedes(void **state)
{
	struct fixture *f = *state;

	mail(f, "p1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	mail(f, "c2@x", "A U Thor <a.u.thor@home.example>",
	     "[PATCH 0/2] widget: a larger job", T0 + 3 * DAY, NULL, NULL,
	     "Two things.\n");
	mail(f, "q1@x", "A U Thor <a.u.thor@home.example>",
	     "[PATCH 1/2] widget: turn", T0 + 3 * DAY + 60, "c2@x", "<c2@x>",
	     PATCH2);
	mail(f, "q2@x", "A U Thor <a.u.thor@home.example>",
	     "[PATCH 2/2] widget: spin it", T0 + 3 * DAY + 120, "c2@x",
	     "<c2@x>", PATCH);
	/* Bea's patch, which A U Thor's series also carries: hers stays. */
	mail(f, "b1@x", "Bea Stander <bea@example.net>", "[PATCH] widget: turn",
	     T0 + 60, NULL, NULL, PATCH2);
	refresh(f, T0 + 2 * DAY);
	expect_of(f, "p1@x", "st.state", "new");
	refresh(f, T0 + 4 * DAY);
	expect_of(f, "p1@x", "st.state", "superseded");
	expect_of(f, "b1@x", "st.state", "new");
}

/* A new version of one patch posted below the review that asked for it
 * answers that review ("[PATCH v2] dt-bindings: pwm: mediatek: Add
 * compatible for MT7986" below Krzysztof Kozlowski's review of 2/2,
 * linux-pwm 2022-10-31): the series waits on its maintainers from it.
 * Below a review that asks nothing, or from someone else, it answers
 * nothing. */
static void test_status__new_version_below_the_review(void **state)
{
	struct fixture *f = *state;
	char *from;

	mail(f, "p1@x", "A U Thor <author@example.com>",
	     "[PATCH 1/2] widget: spin", T0, NULL, NULL, PATCH);
	mail(f, "p2@x", "A U Thor <author@example.com>",
	     "[PATCH 2/2] widget: glow", T0 + 60, "p1@x", "<p1@x>", OTHER_FILE);
	mail(f, "r1@x", "Rita Viewer <rita@example.com>",
	     "Re: [PATCH 2/2] widget: glow", T0 + DAY, "p2@x", "<p1@x> <p2@x>",
	     "> +g\n\nPlease rename the flag to say what it counts.\n");
	mail(f, "a1@x", "Rita Viewer <rita@example.com>",
	     "Re: [PATCH 1/2] widget: spin", T0 + DAY + 60, "p1@x", "<p1@x>",
	     "Looks good to me.\n");
	/* Below the approval: it answers nothing. */
	mail(f, "x1@x", "A U Thor <author@example.com>",
	     "[PATCH v2] widget: roll", T0 + 2 * DAY, "a1@x", "<p1@x> <a1@x>",
	     PATCH3);
	refresh(f, T0 + 2 * DAY + 60);
	expect_of(f, "p1@x", "st.turn", "author");
	mail(f, "v2@x", "A U Thor <author@example.com>",
	     "[PATCH v2] widget: glow", T0 + 3 * DAY, "r1@x",
	     "<p1@x> <p2@x> <r1@x>", OTHER_FILE2);
	refresh(f, T0 + 4 * DAY);
	expect_of(f, "p1@x", "st.turn", "maintainers");
	from = xasprintf("%lld", (long long)(T0 + 3 * DAY));
	expect_of(f, "p1@x", "st.wait_from", from);
	expect_of(f, "p1@x", "st.wait_msgid", "v2@x");
	free(from);
}

/* The same patch sent again by its author under the same version,
 * whatever the subject says ("[REPORT PATCH v2]", lore nvdimm
 * 2021-10-18): the author's ping of what has waited since the first
 * send, not a new posting with a clock of its own. Another version, or
 * another sender, is no re-send. */
static void test_status__same_patch_sent_again_is_a_ping(void **state)
{
	struct fixture *f = *state;
	char *s;

	mail(f, "v2@x", "A U Thor <author@example.com>",
	     "[PATCH v2] widget: spin", T0, NULL, NULL, PATCH);
	mail(f, "v2again@x", "A U Thor <author@example.com>",
	     "[REPORT PATCH v2] widget: spin", T0 + 10 * DAY, NULL, NULL,
	     PATCH);
	refresh(f, T0 + 11 * DAY);
	expect_of(
		f, "v2again@x",
		"st.state || ' ' || (st.wait_from = s.first_posted - 10 * 86400) || ' ' || (st.pinged_at = s.first_posted)",
		"new 1 1");
	expect_of(f, "v2@x", "st.state", "superseded");
	/* A v3 of the same patch is a new version, with a clock of its
	 * own; and so is the same mail sent twice within minutes. */
	mail(f, "v3@x", "A U Thor <author@example.com>",
	     "[PATCH v3] widget: spin", T0 + 12 * DAY, NULL, NULL, PATCH);
	mail(f, "v3again@x", "A U Thor <author@example.com>",
	     "[PATCH v3] widget: spin", T0 + 12 * DAY + 600, NULL, NULL, PATCH);
	refresh(f, T0 + 13 * DAY);
	s = t_query(&f->ts,
		    "SELECT (st.wait_from = s.first_posted) || ' ' || "
		    "coalesce(st.pinged_at, 0) FROM series_status st JOIN "
		    "series s ON s.id = st.series_id JOIN messages m ON m.id = "
		    "s.anchor_id WHERE m.msgid IN ('v3@x', 'v3again@x') AND "
		    "st.state != 'superseded'");
	assert_string_equal(s, "1 0");
	free(s);
}

/* "[RESEND PATCH v8]" carrying the same patches is the author's ping of
 * v8, which waits from its first posting; carrying other patches
 * (rebased, split: lore nvdimm 2021-12-02, nine patches for eight) it
 * is a new posting that waits from its own date. */
/* v8 of "widget: title" with patch `first` at t, then its RESEND with
 * patch `again` ten days later, judged a day after; the RESEND's wait
 * starts "first" (from v8's first posting) or "own" (its own date), and
 * it is, or is not, a ping. */
static void resend_v8(struct fixture *f, const char *id, const char *title,
		      int64_t t, const char *first, const char *again,
		      const char *want)
{
	char *v8 = xasprintf("%s@x", id), *r = xasprintf("%sr@x", id);
	char *subj = xasprintf("[PATCH v8] widget: %s", title);
	char *rsubj = xasprintf("[RESEND PATCH v8] widget: %s", title);

	mail(f, v8, "A U Thor <author@example.com>", subj, t, NULL, NULL,
	     first);
	mail(f, r, "A U Thor <author@example.com>", rsubj, t + 10 * DAY, NULL,
	     NULL, again);
	refresh(f, t + 11 * DAY);
	expect_of(f, r,
		  "CASE st.wait_from WHEN s.first_posted - 10 * 86400 THEN "
		  "'first' WHEN s.first_posted THEN 'own' END || ' ' || "
		  "(coalesce(st.pinged_at, 0) = s.first_posted)",
		  want);
	free(v8);
	free(r);
	free(subj);
	free(rsubj);
}

static void test_status__resend_with_other_patches_is_a_posting(void **state)
{
	struct fixture *f = *state;

	resend_v8(f, "v8", "spin", T0, PATCH, PATCH, "first 1");
	resend_v8(f, "w8", "turn", T0 + 20 * DAY, PATCH2, PATCH3, "own 0");
}

/* The author's ping written in an earlier version's thread after the
 * new version was posted pings the new version (linux-hwmon 2022-11-07:
 * "Just posted the final v6 with your suggestions. Let me know if
 * anything needs to be changed", in v4's thread). Before the new
 * version, or from someone else, it is not. */
static void test_status__ping_in_an_earlier_thread(void **state)
{
	struct fixture *f = *state;

	mail(f, "v1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	mail(f, "r1@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: spin", T0 + DAY, "v1@x", "<v1@x>",
	     "> a\n\nPlease split this.\n");
	mail(f, "v2@x", "A U Thor <author@example.com>",
	     "[PATCH v2] widget: spin", T0 + 2 * DAY, NULL, NULL, PATCH3);
	mail(f, "bystander@x", "Bea Stander <bea@example.net>",
	     "Re: [PATCH] widget: spin", T0 + 3 * DAY, "r1@x", "<v1@x> <r1@x>",
	     "Gentle ping?\n");
	refresh(f, T0 + 4 * DAY);
	expect_of(f, "v2@x", "coalesce(st.pinged_at, 0)", "0");
	mail(f, "ping@x", "A U Thor <author@example.com>",
	     "Re: [PATCH] widget: spin", T0 + 5 * DAY, "r1@x", "<v1@x> <r1@x>",
	     "Thanks. Just posted v2 with your suggestions. Let me know if "
	     "anything needs to be changed.\n");
	refresh(f, T0 + 6 * DAY);
	expect_of(f, "v2@x",
		  "(st.pinged_at - s.first_posted) || ' ' || st.ping_msgid",
		  "259200 ping@x");
}

/* Lists into a string: "msgid state" per row, as pc_status_list()
 * gives them. */
static int collect_row(const struct pc_status_row *r, void *arg)
{
	char **out = arg;
	char *more = xasprintf("%s%s %s\n", *out, r->anchor_msgid, r->state);

	free(*out);
	*out = more;
	return 0;
}

static char *listing(struct fixture *f, int64_t now, int lazy)
{
	struct pc_status_options so = { .policy = pick,
					.policy_arg = f,
					.policy_id = "test-policy",
					.lazy = lazy };
	struct pc_status_filter flt = { .all = 1 };
	struct pc_err err = { 0 };
	char *out = xstrdup("");

	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_status_refresh(f->ts.st, &so, now, &f->stats, &err),
			 0);
	assert_int_equal(
		pc_status_list(f->ts.st, &flt, collect_row, &out, &err), 0);
	pc_store_rollback(f->ts.st);
	return out;
}

/* The mail pass judges what it may mail about (posted since min_posted)
 * and max_old of the rest; the others keep a mark that the next pass
 * finds; a lazy listing judges each series as it reaches it and shows
 * what a pass that judged everything first shows (issue 39: a million
 * messages' first digest, and status's first screen). */
static void test_status__deferred_and_lazy_judging(void **state)
{
	struct fixture *f = *state;
	struct pc_status_options so = { .policy = pick,
					.policy_arg = f,
					.policy_id = "test-policy",
					.min_posted = T0 + 30 * DAY };
	char *lazy, *eager;

	mail(f, "p1@x", "A U Thor <author@example.com>", "[PATCH] widget: spin",
	     T0, NULL, NULL, PATCH);
	mail(f, "p2@x", "Bea Stander <bea@example.net>", "[PATCH] widget: turn",
	     T0 + DAY, NULL, NULL, PATCH2);
	mail(f, "r2@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: turn", T0 + 2 * DAY, "p2@x", "<p2@x>",
	     "Applied, thanks!\n");
	mail(f, "p3@x", "Cy Clist <cy@example.net>", "[PATCH] widget: roll",
	     T0 + 40 * DAY, NULL, NULL, PATCH3);

	/* Both old series go to a later pass; the new one is judged. */
	refresh_with(f, &so, T0 + 41 * DAY);
	assert_int_equal(f->stats.judged, 1);
	assert_int_equal(f->stats.deferred, 2);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM series "
					     "WHERE status_dirty = 1"),
			 2);
	/* One of the old ones fits in max_old, the oldest. */
	so.max_old = 1;
	refresh_with(f, &so, T0 + 41 * DAY);
	assert_int_equal(f->stats.judged, 1);
	assert_int_equal(f->stats.deferred, 1);

	/* A lazy listing judges the last one when it reaches it, and
	 * shows what judging everything first shows. */
	lazy = listing(f, T0 + 41 * DAY, 1);
	assert_int_equal(f->stats.judged, 1);
	eager = listing(f, T0 + 41 * DAY, 0);
	assert_string_equal(lazy, "p1@x new\np2@x accepted\np3@x new\n");
	assert_string_equal(lazy, eager);
	free(lazy);
	free(eager);
	/* Rolled back: the mark stays for the next pass, which judges it. */
	refresh(f, T0 + 41 * DAY);
	assert_int_equal(f->stats.judged, 1);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM "
					     "series_status"),
			 3);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_status__reply_deep_in_thread_is_seen),
		T(test_status__due_time_rejudges_without_mail),
		T(test_status__retitled_version_replaces),
		T(test_status__same_version_retitled_replaces),
		T(test_status__reduced_repost_replaces),
		T(test_status__twin_posting_keeps_its_replies),
		T(test_status__unthreaded_reply_by_subject),
		T(test_status__maintainer_applied_and_accept),
		T(test_status__maintainer_by_name_withholds),
		T(test_status__other_project_has_no_entry),
		T(test_status__reposted_elsewhere_supersedes),
		T(test_status__new_version_below_the_review),
		T(test_status__same_patch_sent_again_is_a_ping),
		T(test_status__resend_with_other_patches_is_a_posting),
		T(test_status__ping_in_an_earlier_thread),
		T(test_status__acceptance_per_patch),
		T(test_status__rest_waits_on_its_own_entry),
		T(test_status__announcements_feed_the_cycle),
		T(test_status__fixes_tag_names_a_commit),
		T(test_status__deferred_and_lazy_judging),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
