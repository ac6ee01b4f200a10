// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/notify/plan.c: which mail the verdicts queue, once,
 * and the safety rules (opt-out, bots, Auto-Submitted, list addresses,
 * the daily limit), each shown to hold back a mail that would otherwise
 * go. Policy: no profile (the handbook's week), UTC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"
#include "maint/maintainers.h"
#include "notify/plan.h"
#include "sla/policyset.h"
#include "store/ingest.h"
#include "store/mapping.h"
#include "store/outbox.h"
#include "store/status.h"
#include "store/testrun.h"
#include "util/xalloc.h"

/* Mon 2024-01-01 10:00 UTC, and a day. */
#define T0 1704103200LL
#define DAY 86400LL

static const char MAINTAINERS[] = "WIDGET\n"
				  "M:\tMay Tainer <may@example.org>\n"
				  "L:\twidget@lists.example.org\n"
				  "S:\tMaintained\n"
				  "F:\tdrivers/widget/\n"
				  "\n"
				  "GADGET\n"
				  "M:\tgadget-team@example.org\n"
				  "M:\tGary Gadget <gary@example.org>\n"
				  "R:\tRene Viewer <rene@example.org>\n"
				  "L:\tgadget@lists.example.org\n"
				  "S:\tMaintained\n"
				  "F:\tdrivers/gadget/\n"
				  "\n"
				  "SPROCKET\n"
				  "M:\tSam Sprocket <sam@example.org>\n"
				  "M:\tOllie Gone <ollie@example.org>\n"
				  "L:\tsprocket@lists.example.org\n"
				  "S:\tMaintained\n"
				  "T:\tgit git://example.org/sprocket.git\n"
				  "F:\tdrivers/sprocket/\n"
				  "\n"
				  "SPROCKET FOO DRIVER\n"
				  "M:\tFred Foo <fred@example.org>\n"
				  "L:\tsprocket@lists.example.org\n"
				  "S:\tMaintained\n"
				  "F:\tdrivers/sprocket/foo.c\n";

struct fixture {
	struct t_store ts;
	struct pc_maint *m;
	struct pc_policyset *ps;
	struct pc_plan_stats stats;
	int boot_reports;
	int cc_maintainers;
};

static int pick(struct pc_status_policy *out, const char *const *entries,
		const int *files, size_t n, void *arg, struct pc_err *err)
{
	struct fixture *f = arg;

	out->ctx = pc_policyset_pick(f->ps, entries, files, n, &out->entry,
				     &out->profile, err);
	return out->ctx ? 0 : PC_EIO;
}

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	struct pc_policyset_opts o = { 0 };
	struct pc_err err = { 0 };
	int64_t first = 0;

	t_store_open(&f->ts);
	assert_int_equal(pc_maint_load_mem(&f->m, MAINTAINERS,
					   strlen(MAINTAINERS), NULL, 0, NULL,
					   &err),
			 0);
	o.maint = f->m;
	o.config_id = "test";
	f->ps = pc_policyset_new(&o);
	/* patchclock has watched this list since the day before: nothing
	 * below is "the past" of a first run (see the test of that). */
	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_outbox_first_run(&first, f->ts.st, T0 - DAY, &err),
			 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
	assert_int_equal(first, T0 - DAY);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	t_store_close(&f->ts);
	pc_policyset_free(f->ps);
	pc_maint_free(f->m);
	free(f);
	return 0;
}

static void mail(struct fixture *f, const char *id, const char *from,
		 const char *subject, int64_t date, const char *irt,
		 const char *extra, const char *body)
{
	t_ingest_mail(&f->ts, id, from, subject, date, irt, extra, body);
}

/* A patch to drivers/widget/w.c; each id adds its own line, so that no
 * two are the same change (which would make the later one a re-post). */
static void patch(struct fixture *f, const char *id, const char *from,
		  const char *subject, int64_t date, const char *extra)
{
	char *body = xasprintf(
		"Make it spin.\n\n---\ndiff --git a/drivers/widget/w.c "
		"b/drivers/widget/w.c\nindex 1111111..2222222 100644\n"
		"--- a/drivers/widget/w.c\n+++ b/drivers/widget/w.c\n"
		"@@ -1,2 +1,3 @@\n a\n+%s\n c\n",
		id);

	mail(f, id, from, subject, date, NULL, extra, body);
	free(body);
}

/* A patch to drivers/gadget/ (the GADGET entry). */
static void gadget_patch(struct fixture *f, const char *id, const char *from,
			 const char *subject, int64_t date)
{
	mail(f, id, from, subject, date, NULL, NULL,
	     "Make it hum.\n\n---\ndiff --git a/drivers/gadget/g.c "
	     "b/drivers/gadget/g.c\nindex 1111111..2222222 100644\n"
	     "--- a/drivers/gadget/g.c\n+++ b/drivers/gadget/g.c\n"
	     "@@ -1,2 +1,3 @@\n a\n+b\n c\n");
}

/* A patch to drivers/sprocket/foo.c: SPROCKET's tree takes it, though
 * SPROCKET FOO DRIVER is the more specific entry. */
static void sprocket_patch(struct fixture *f, const char *id, const char *from,
			   const char *subject, int64_t date)
{
	char *body = xasprintf(
		"Make it turn.\n\nSigned-off-by: %s\n---\n"
		"diff --git a/drivers/sprocket/foo.c b/drivers/sprocket/foo.c\n"
		"index 1111111..2222222 100644\n"
		"--- a/drivers/sprocket/foo.c\n+++ b/drivers/sprocket/foo.c\n"
		"@@ -1,2 +1,3 @@\n a\n+%s\n c\n",
		from, id);

	mail(f, id, from, subject, date, NULL, NULL, body);
	free(body);
}

/* Judges at now and plans, in one transaction, as the CLI does. */
static void plan(struct fixture *f, int64_t now, unsigned limit)
{
	struct pc_status_options so = { .policy = pick,
					.policy_arg = f,
					.policy_id = "test" };
	struct pc_plan_options po = PC_PLAN_OPTIONS_INIT;
	struct pc_status_stats ss;
	struct pc_map_stats ms;
	struct pc_err err = { 0 };

	po.from_addr = "patchclock@example.net";
	po.domain = "example.net";
	if (limit)
		po.daily_limit = limit;
	po.boot_reports = f->boot_reports;
	po.cc_maintainers = f->cc_maintainers;
	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_map_series(f->ts.st, f->m, NULL, now, &ms, &err),
			 0);
	assert_int_equal(pc_status_refresh(f->ts.st, &so, now, &ss, &err), 0);
	assert_int_equal(
		pc_plan_actions(f->ts.st, f->ps, &po, now, &f->stats, &err), 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
}

static char *resends(struct fixture *f)
{
	return t_query(&f->ts, "SELECT key, status, coalesce(reason, '') "
			       "FROM outbox WHERE action = 'resend' "
			       "ORDER BY id");
}

static void expect(struct fixture *f, const char *want)
{
	char *got = resends(f);

	assert_string_equal(got, want);
	free(got);
}

static void test_plan__overdue_gets_one_reply_and_a_digest(void **state)
{
	struct fixture *f = *state;
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 3 * DAY, 0);
	assert_int_equal(f->stats.queued, 0); /* not due yet */
	plan(f, T0 + 8 * DAY, 0);
	expect(f, "series:1:v1:resend:n1|pending|");
	/* The reminder goes to the author, naming the maintainer; the
	 * digest goes to the maintainer. */
	s = t_query(&f->ts, "SELECT action, recipients FROM outbox "
			    "ORDER BY id");
	assert_string_equal(s, "resend|author@example.com\n"
			       "digest|may@example.org");
	free(s);
	/* Each row's subject is the Subject its mail goes out with. */
	s = t_query(&f->ts, "SELECT subject FROM outbox ORDER BY id");
	assert_string_equal(s, "Re: [PATCH] widget: spin\n"
			       "[patchclock] 1 overdue");
	free(s);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'resend'");
	assert_non_null(strstr(s, "This mail goes to you alone"));
	assert_non_null(strstr(s, "  May Tainer <may@example.org>\n"));
	assert_null(strstr(s, "\nCc:"));
	free(s);
	/* Each says why: the rule and the message that decided it, one
	 * line per series of a digest. */
	s = t_query(&f->ts, "SELECT why FROM outbox ORDER BY id");
	assert_string_equal(
		s, "waiting on the maintainers since <p1@x> (2024-01-01 "
		   "10:00 UTC), due 2024-01-08 10:00 UTC\n"
		   "series 1 v1: waiting on the maintainers since <p1@x> "
		   "(2024-01-01 10:00 UTC), due 2024-01-08 10:00 UTC");
	free(s);
	/* Again, the same day: nothing new. */
	plan(f, T0 + 8 * DAY + 3600, 0);
	assert_int_equal(f->stats.queued, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox"), 2);
	/* The message is threaded to the patch and marked. */
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'resend'");
	assert_non_null(strstr(s, "In-Reply-To: <p1@x>"));
	assert_non_null(strstr(s, "Auto-Submitted: auto-generated"));
	assert_non_null(strstr(s, "X-Patchclock-Action: resend"));
	free(s);
}

/* The digest waits for the next opening (office hours here: all day on
 * weekdays, UTC, so 00:00), is gathered again until then under the
 * same key and Message-ID, goes out with what is true at the opening,
 * and is withdrawn when nothing is left to say. */
static void test_plan__digest_at_the_next_opening(void **state)
{
	struct fixture *f = *state;
#define DIGESTS                                                           \
	"SELECT key || ' ' || send_after || ' ' || created_at || ' ' || " \
	"status FROM outbox WHERE action = 'digest' ORDER BY id"
	char *s, *mid, want[256];
	int64_t tue = T0 + 8 * DAY - 10 * 3600; /* Tue 01-09 00:00 */

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	/* Overdue on Mon 01-08 at 10:00; planned at 12:00: for Tuesday. */
	plan(f, T0 + 7 * DAY + 2 * 3600, 0);
	s = t_query(&f->ts, DIGESTS);
	snprintf(want, sizeof(want),
		 "digest:may@example.org:2024-01-09 %lld %lld pending",
		 (long long)tue, (long long)(T0 + 7 * DAY + 2 * 3600));
	assert_string_equal(s, want);
	free(s);
	mid = t_query(&f->ts, "SELECT message_id FROM outbox WHERE action = "
			      "'digest'");
	/* At the opening: gathered again (same key, same Message-ID). */
	plan(f, tue, 0);
	assert_int_equal(f->stats.refreshed, 1);
	assert_int_equal(f->stats.queued, 0);
	s = t_query(&f->ts, DIGESTS);
	snprintf(want, sizeof(want),
		 "digest:may@example.org:2024-01-09 %lld %lld pending",
		 (long long)tue, (long long)tue);
	assert_string_equal(s, want);
	free(s);
	s = t_query(&f->ts, "SELECT message_id FROM outbox WHERE action = "
			    "'digest'");
	assert_string_equal(s, mid);
	free(s);
	free(mid);
	/* From then on it is frozen: the sender may be reading it. */
	plan(f, tue + 600, 0);
	assert_int_equal(f->stats.refreshed, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT created_at FROM outbox "
					     "WHERE action = 'digest'"),
			 tue);
}

/* A pending digest whose news went away is withdrawn, not sent. */
static void test_plan__digest_withdrawn_with_nothing_to_say(void **state)
{
	struct fixture *f = *state;
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 7 * DAY + 2 * 3600, 0);
	/* The maintainer answers on Monday afternoon. */
	mail(f, "r1@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: "
	     "spin",
	     T0 + 7 * DAY + 5 * 3600, "p1@x", NULL,
	     "Looks fine, queued for testing.\n");
	plan(f, T0 + 7 * DAY + 6 * 3600, 0);
	assert_int_equal(f->stats.withdrawn, 1);
	s = t_query(&f->ts, "SELECT status || ': ' || reason FROM outbox "
			    "WHERE action = 'digest'");
	assert_string_equal(s, "suppressed: nothing left to report when it "
			       "was due");
	free(s);
}

/* Applied, then booted: the state follows, and each verdict is news in
 * one digest only (the first composed after it). A series that does
 * not apply is reported as a failed test. */
static void test_plan__test_verdicts(void **state)
{
	struct fixture *f = *state;
	struct pc_apply_row ar = { 0 };
	struct pc_boot_row br = { 0 };
	struct pc_err err = { 0 };
	int64_t apply_id = 0, mon = T0 + 7 * DAY; /* Mon 01-08 10:00 */
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	mail(f, "r1@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: spin", T0 + DAY, "p1@x", NULL,
	     "Applied, thanks.\n");
	ar.series_id = 1;
	ar.version = 1;
	ar.tree = "/t";
	ar.applied = 1;
	ar.branch = "patchclock/1-v1";
	ar.commits = "aaaa";
	ar.at = T0 + 2 * DAY;
	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_testrun_add_apply(f->ts.st, &ar, &apply_id, &err),
			 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
	plan(f, T0 + 3 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT state = 'applied' FROM "
					     "series_status"),
			 1);
	/* A failed boot: flagged, and in the next digest. */
	br.series_id = 1;
	br.apply_id = apply_id;
	br.passed = 0;
	br.reason = "check fsdax failed: no /dev/pmem0";
	br.at = T0 + 3 * DAY;
	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_testrun_add_boot(f->ts.st, &br, NULL, &err), 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
	plan(f, mon, 0);
	s = t_query(&f->ts, "SELECT flags FROM series_status");
	assert_non_null(strstr(s, "boot-test-failed"));
	free(s);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'digest'");
	assert_non_null(strstr(s, "boot test failed: check fsdax failed: "
				  "no /dev/pmem0"));
	free(s);
	/* Once that digest went out, the same verdict is no news. */
	assert_int_equal(t_query_int(&f->ts, "UPDATE outbox SET status = "
					     "'sent' RETURNING 1"),
			 1);
	plan(f, mon + DAY, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'digest'"),
			 1);
	/* A passing boot: tested, and news again. */
	br.passed = 1;
	br.reason = NULL;
	br.at = mon + DAY + 60;
	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_testrun_add_boot(f->ts.st, &br, NULL, &err), 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
	plan(f, mon + DAY + 120, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT state = 'tested' FROM "
					     "series_status"),
			 1);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'digest' AND status = 'pending'");
	assert_non_null(strstr(s, "boot test passed"));
	free(s);
}

/* A digest lists a wait once; a new wait of the same version is news
 * again: the maintainer acked (their own tag is not the apply, so it
 * waits on them again from it), then left it past the cadence. The TPM
 * part of a tree-wide i2c conversion (linux-integrity 2022-11-28): the
 * maintainer who had heard of it at its first wait was told nothing of
 * its second. */
static void test_plan__new_wait_is_news(void **state)
{
	struct fixture *f = *state;
#define LISTED_DIGESTS                                         \
	"SELECT count(*) FROM outbox WHERE action = 'digest' " \
	"AND why LIKE 'series 1 v1:%%'"

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 8 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, LISTED_DIGESTS), 1);
	/* The reminder and the digest go out. */
	assert_int_equal(t_query_int(&f->ts, "UPDATE outbox SET status = "
					     "'sent' WHERE status = 'pending' "
					     "RETURNING 1"),
			 1);
	/* The same wait, days later: no news, no digest. */
	plan(f, T0 + 10 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, LISTED_DIGESTS), 1);
	/* The maintainer acks it: a new wait from the ack, not yet due. */
	mail(f, "r1@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: spin", T0 + 10 * DAY + 3600, "p1@x", NULL,
	     "Acked-by: May Tainer <may@example.org>\n");
	plan(f, T0 + 14 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, LISTED_DIGESTS), 1);
	/* Past the cadence from the ack: news again, in one digest. */
	plan(f, T0 + 18 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, LISTED_DIGESTS), 2);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'digest' AND "
					     "why LIKE '%%since <r1@x>%%'"),
			 1);
	assert_int_equal(t_query_int(&f->ts, "UPDATE outbox SET status = "
					     "'sent' WHERE status = 'pending' "
					     "RETURNING 1"),
			 1);
	plan(f, T0 + 19 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, LISTED_DIGESTS), 2);
#undef LISTED_DIGESTS
}

/* With boot reports on, each verdict gets one reply in the thread. */
static void test_plan__boot_report(void **state)
{
	struct fixture *f = *state;
	struct pc_apply_row ar = { 0 };
	struct pc_boot_row br = { 0 };
	struct pc_err err = { 0 };
	char *s;

	f->boot_reports = 1;
	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	ar.series_id = 1;
	ar.version = 1;
	ar.tree = "/t";
	ar.applied = 1;
	ar.at = T0 + DAY;
	br.series_id = 1;
	br.passed = 0;
	br.reason = "check fsdax failed: no /dev/pmem0";
	br.summary = "pass  bus            ndbus0\n"
		     "fail  fsdax          no \"pmem0\"\n";
	br.at = T0 + DAY + 60;
	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_testrun_add_apply(f->ts.st, &ar, NULL, &err), 0);
	assert_int_equal(pc_testrun_add_boot(f->ts.st, &br, NULL, &err), 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
	plan(f, T0 + DAY + 120, 0);
	s = t_query(&f->ts, "SELECT key || ' ' || recipients || ' ' || "
			    "send_after FROM outbox WHERE action = "
			    "'boot-report'");
	assert_string_equal(s, "series:1:v1:boot-report:t1704189660 "
			       "author@example.com may@example.org "
			       "1704189720");
	free(s);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'boot-report'");
	assert_non_null(strstr(s, "In-Reply-To: <p1@x>"));
	assert_non_null(strstr(s, "X-Patchclock-Action: boot-report"));
	assert_non_null(strstr(s, "The boot test failed: check fsdax failed: "
				  "no /dev/pmem0"));
	assert_non_null(strstr(s, "  pass bus ndbus0\n"));
	assert_non_null(strstr(s, "  fail fsdax no \"pmem0\"\n"));
	free(s);
	/* The same verdict: no second report. */
	plan(f, T0 + DAY + 180, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'boot-report'"),
			 1);
}

/* Each rule on its own: the same overdue series, held back. */
static void test_plan__opt_out_reply_holds_back(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	mail(f, "o1@x", "A U Thor <author@example.com>", "Re: [PATCH] other",
	     T0 + DAY, "elsewhere@x", NULL, "Thanks.\n\npatchclock: opt-out\n");
	plan(f, T0 + 8 * DAY, 0);
	assert_int_equal(f->stats.opt_outs, 1);
	expect(f, "series:1:v1:resend:n1|suppressed|the author opted out");
}

static void test_plan__bot_author_holds_back(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", "kernel test robot <lkp@intel.com>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 8 * DAY, 0);
	expect(f, "series:1:v1:resend:n1|suppressed|the author is a bot");
}

static void test_plan__auto_submitted_posting_holds_back(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, "Auto-Submitted: auto-generated\n");
	plan(f, T0 + 8 * DAY, 0);
	expect(f, "series:1:v1:resend:n1|suppressed|the author is a bot");
}

static void test_plan__list_address_author_holds_back(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", "Widget list <widget@lists.example.org>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 8 * DAY, 0);
	expect(f,
	       "series:1:v1:resend:n1|suppressed|the author is a mailing list");
}

static void test_plan__precedence_only_without_a_list(void **state)
{
	struct fixture *f = *state;

	/* Bulk mail straight to us is held back; the same header added by
	 * a list (List-Id) says nothing about the sender. */
	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, "Precedence: bulk\n");
	patch(f, "p2@x", "B U Thor <other@example.com>", "[PATCH] widget: turn",
	      T0 + 60,
	      "Precedence: list\nList-Id: <widget.lists.example.org>\n");
	plan(f, T0 + 8 * DAY, 0);
	expect(f, "series:1:v1:resend:n1|suppressed|the posting has "
		  "Precedence: bulk, junk or list\n"
		  "series:2:v1:resend:n1|pending|");
}

static void test_plan__daily_limit_per_recipient(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", "A U Thor <author@example.com>", "[PATCH] widget: a",
	      T0, NULL);
	patch(f, "p2@x", "A U Thor <author@example.com>", "[PATCH] widget: b",
	      T0 + 60, NULL);
	patch(f, "p3@x", "A U Thor <author@example.com>", "[PATCH] widget: c",
	      T0 + 120, NULL);
	plan(f, T0 + 8 * DAY, 2);
	expect(f, "series:1:v1:resend:n1|pending|\n"
		  "series:2:v1:resend:n1|pending|\n"
		  "series:3:v1:resend:n1|suppressed|the author's daily limit "
		  "is reached");
}

/* One reminder per series version: later waiting shows in the digest
 * only, and the same list of series is not sent again. */
static void test_plan__one_reminder_per_version(void **state)
{
	struct fixture *f = *state;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 8 * DAY, 0);
	plan(f, T0 + 15 * DAY, 0);
	plan(f, T0 + 22 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'resend'"),
			 1);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'digest'"),
			 1);
	/* A second series that waits: a new digest lists both. */
	patch(f, "p2@x", "B U Thor <other@example.com>", "[PATCH] widget: turn",
	      T0 + 21 * DAY, NULL);
	plan(f, T0 + 29 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'digest'"),
			 2);
	assert_int_equal(t_query_int(&f->ts,
				     "SELECT count(*) FROM outbox WHERE "
				     "action = 'digest' AND instr(message, "
				     "'widget: spin') AND instr(message, "
				     "'widget: turn')"),
			 1);
}

/* People only: never a list (L:), never a group alias (an M: line with
 * no name, like x86@kernel.org), in a reminder or as a digest's
 * addressee; with cc_maintainers the people who apply it and the
 * entry's active R: people are Cc'd on the reminder. */
static void test_plan__people_only(void **state)
{
	struct fixture *f = *state;
	char *s;

	f->cc_maintainers = 1;
	mail(f, "rene1@x", "Rene Viewer <rene@example.org>", "gadget notes",
	     T0 - 10 * DAY, NULL, NULL, "Hello.\n");
	gadget_patch(f, "g1@x", "A U Thor <author@example.com>",
		     "[PATCH] gadget: hum", T0);
	plan(f, T0 + 8 * DAY, 0);
	s = t_query(&f->ts, "SELECT action, recipients FROM outbox "
			    "ORDER BY id");
	assert_string_equal(s, "resend|author@example.com gary@example.org "
			       "rene@example.org\n"
			       "digest|gary@example.org");
	free(s);
}

/* Mail about waiting work goes to those who apply it (linux-hwmon 2022:
 * a driver's own entry names its author, HARDWARE MONITORING names a
 * maintainer silent for years; the one who applies everything is the
 * other one): the entry whose tree takes the patch governs, not the
 * driver's narrower one; of its M: people, those seen on the list (then
 * those seen applying); the driver's own maintainer reviews, but is not
 * whom the author writes to about the wait; nobody hears of their own
 * series in a digest. */
static void test_plan__appliers(void **state)
{
	struct fixture *f = *state;
	char *s;

	f->cc_maintainers = 1;
	/* Sam and Fred write to the list; Ollie never does. */
	mail(f, "sam1@x", "Sam Sprocket <sam@example.org>", "sprocket plans",
	     T0 - 20 * DAY, NULL, NULL, "Hello.\n");
	mail(f, "fred1@x", "Fred Foo <fred@example.org>", "foo datasheet",
	     T0 - 10 * DAY, NULL, NULL, "Hello.\n");
	sprocket_patch(f, "s1@x", "A U Thor <author@example.com>",
		       "[PATCH] sprocket: foo: fix", T0);
	plan(f, T0 + 8 * DAY, 0);
	s = t_query(&f->ts, "SELECT entry FROM series_status");
	assert_string_equal(s, "SPROCKET");
	free(s);
	s = t_query(&f->ts, "SELECT action, recipients FROM outbox "
			    "ORDER BY id");
	assert_string_equal(s, "resend|author@example.com sam@example.org\n"
			       "digest|sam@example.org");
	free(s);
	/* Ollie applies another one: from then on, Ollie is who applies. */
	sprocket_patch(f, "s2@x", "B U Thor <other@example.com>",
		       "[PATCH] sprocket: foo: turn", T0 + 9 * DAY);
	mail(f, "ollie1@x", "Ollie Gone <ollie@example.org>",
	     "Re: [PATCH] sprocket: foo: turn", T0 + 10 * DAY, "s2@x", NULL,
	     "Applied to sprocket-next, thanks.\n");
	/* Another author's patch waits: only Ollie hears of it (Sam, active
	 * but not applying, is left out); Sam's own, a maintainer's, waits on
	 * nobody. */
	sprocket_patch(f, "s3@x", "Sam Sprocket <sam@example.org>",
		       "[PATCH] sprocket: foo: hum", T0 + 11 * DAY);
	sprocket_patch(f, "s4@x", "C U Thor <third@example.com>",
		       "[PATCH] sprocket: foo: buzz", T0 + 11 * DAY);
	plan(f, T0 + 19 * DAY, 0);
	s = t_query(&f->ts, "SELECT recipients FROM outbox WHERE action = "
			    "'digest' ORDER BY id");
	assert_string_equal(s, "sam@example.org\nollie@example.org");
	free(s);
	assert_int_equal(
		t_query_int(&f->ts,
			    "SELECT count(*) FROM outbox WHERE action "
			    "= 'digest' AND recipients = "
			    "'ollie@example.org' AND NOT instr(message, "
			    "'sprocket: foo: hum') AND instr(message, "
			    "'sprocket: foo: buzz')"),
		1);
	s = t_query(&f->ts, "SELECT hold FROM series_status s JOIN series x "
			    "ON x.id = s.series_id WHERE x.name LIKE '%%hum'");
	assert_string_equal(s, "own");
	free(s);
}

/* A wait that began at the author's answer names that answer as what
 * decided the reminder. */
static void test_plan__why_names_the_message(void **state)
{
	struct fixture *f = *state;
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	mail(f, "q@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: spin", T0 + DAY, "p1@x", NULL,
	     "Why does the widget need to spin at all?\n");
	mail(f, "a@x", "A U Thor <author@example.com>",
	     "Re: [PATCH] widget: spin", T0 + 2 * DAY, "q@x", NULL,
	     "It needs to spin up before the first read, or the read "
	     "returns zeros.\n");
	plan(f, T0 + 10 * DAY, 0);
	s = t_query(&f->ts, "SELECT status, why FROM outbox "
			    "WHERE action = 'resend'");
	assert_string_equal(s, "pending|waiting on the maintainers since "
			       "<a@x> (2024-01-03 10:00 UTC), due "
			       "2024-01-10 10:00 UTC");
	free(s);
}

/* The author's own ping is the reminder: no "resend now" after it, and
 * for two days no digest item either (a reminder went out two hours
 * after an author's "any comments?"). */
static void test_plan__author_ping(void **state)
{
	struct fixture *f = *state;
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	mail(f, "ping@x", "A U Thor <author@example.com>",
	     "Re: [PATCH] widget: spin", T0 + 7 * DAY, "p1@x", NULL,
	     "Gentle ping, any comments on this?\n");
	plan(f, T0 + 7 * DAY + 2 * 3600, 0);
	s = t_query(&f->ts, "SELECT action, status, reason FROM outbox "
			    "ORDER BY id");
	assert_string_equal(s, "resend|suppressed|the author pinged the "
			       "thread on 2024-01-08 (<ping@x>): that was the "
			       "reminder");
	free(s);
	plan(f, T0 + 10 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'digest'"),
			 1);
}

/* Whose reply the wait began at, in the reminder: the author's own
 * answer, from the work address under the directory's name order, is
 * "yours" (linux-hwmon 2022-10-24, "Vaittinen, Matti"). */
static void test_plan__wait_began_at_the_author(void **state)
{
	struct fixture *f = *state;
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	mail(f, "q1@x", "Rita Viewer <rita@example.org>",
	     "Re: [PATCH] widget: spin", T0 + DAY, "p1@x", NULL,
	     "Why does it spin twice?\n");
	mail(f, "a1@x", "Thor, A U <a.thor@work.example>",
	     "Re: [PATCH] widget: spin", T0 + 2 * DAY, "q1@x", "<p1@x> <q1@x>",
	     "> Why does it spin twice?\n\nThe first turn only loads it.\n");
	plan(f, T0 + 10 * DAY, 0);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'resend'");
	assert_non_null(strstr(s, "the last message in its thread is yours"));
	assert_null(strstr(s, "has waited on its maintainers since"));
	free(s);
}

/* A profile that prefers a private reminder gets one: to the author
 * alone, saying so and whom to write to (nvdimm's "A private mail
 * reminder is preferred"). */
static void test_plan__private_reminder(void **state)
{
	struct fixture *f = *state;
	struct pc_policyset_opts o = { 0 };
	struct pc_overrides *ov = pc_overrides_new();
	struct pc_err err = { 0 };
	char *dir = t_mkdtemp(), *ini = xasprintf("%s/o.ini", dir), *s;
	FILE *fp = fopen(ini, "w");

	assert_non_null(fp);
	fputs("[WIDGET]\nreminder = private\n", fp);
	fclose(fp);
	assert_int_equal(pc_overrides_read(ov, ini, &err), 0);
	pc_policyset_free(f->ps);
	o.maint = f->m;
	o.overrides = ov;
	o.config_id = "test-private";
	f->ps = pc_policyset_new(&o);
	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 8 * DAY, 0);
	s = t_query(&f->ts, "SELECT recipients FROM outbox WHERE action = "
			    "'resend'");
	assert_string_equal(s, "author@example.com");
	free(s);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'resend'");
	assert_null(strstr(s, "\nCc:"));
	assert_non_null(strstr(s, "prefers a private reminder"));
	assert_non_null(strstr(s, "May Tainer <may@example.org>"));
	free(s);
	pc_policyset_free(f->ps);
	f->ps = NULL;
	pc_overrides_free(ov);
	t_rmtree(dir);
	free(dir);
	free(ini);
}

/* A reminder queued for a later opening is withdrawn when the thread
 * answers before it goes. Office hours all day on weekdays: a series
 * posted on Saturday is due the next Saturday, acted on on Monday. */
static void test_plan__reminder_withdrawn_when_answered(void **state)
{
	struct fixture *f = *state;
	int64_t sat = T0 + 5 * DAY; /* Sat 01-06 10:00 */
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", sat, NULL);
	plan(f, sat + 7 * DAY + 3600, 0);
	s = t_query(&f->ts, "SELECT status, send_after FROM outbox WHERE "
			    "action = 'resend'");
	assert_string_equal(s, "pending|1705276800"); /* Mon 01-15 00:00 */
	free(s);
	mail(f, "r1@x", "May Tainer <may@example.org>",
	     "Re: [PATCH] widget: spin", sat + 8 * DAY, "p1@x", NULL,
	     "Looking at it now.\n");
	plan(f, sat + 8 * DAY + 3600, 0);
	s = t_query(&f->ts, "SELECT status || ': ' || reason FROM outbox "
			    "WHERE action = 'resend'");
	assert_string_equal(s, "suppressed: no longer justified when it was "
			       "due");
	free(s);
}

/* The reminder tells what happened in the thread: a reviewer's tag is
 * an answer, if not the one awaited ("no response yet" would be false,
 * and a resend "unchanged" would drop the tag). Planned on a Saturday
 * for Monday's opening, it is dated Monday. */
static void test_plan__reminder_names_who_answered(void **state)
{
	struct fixture *f = *state;
	int64_t sat = T0 + 5 * DAY; /* Sat 01-06 10:00 */
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", sat, NULL);
	mail(f, "r1@x", "Rita Viewer <rita@example.org>",
	     "Re: [PATCH] widget: spin", sat + DAY, "p1@x", NULL,
	     "Looks right.\n\nReviewed-by: Rita Viewer <rita@example.org>\n");
	mail(f, "a1@x", "A U Thor <author@example.com>",
	     "Re: [PATCH] widget: spin", sat + DAY + 3600, "r1@x",
	     "<p1@x> <r1@x>", "Thanks!\n");
	plan(f, sat + 7 * DAY + 3600, 0);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'resend'");
	assert_null(strstr(s, "no response yet"));
	assert_non_null(strstr(s, "since then Rita Viewer reviewed it, but"));
	assert_non_null(strstr(s, "with the tags\ngiven on the list added"));
	assert_non_null(strstr(s, "Date: Mon, 15 Jan 2024 00:00:00 +0000\n"));
	free(s);
}

/* A series whose other patches are other entries' (a dts patch for the
 * SoC's tree in a PWM driver series, linux-pwm 2022-12-05): the
 * reminder says which, and whose files they are, beside who applies
 * the rest (the third code-blind reading found "Who applies" naming the
 * PWM maintainers alone). */
static void test_plan__reminder_names_the_other_parts(void **state)
{
	struct fixture *f = *state;
	char *s;
	int i;

	mail(f, "c@x", "A U Thor <author@example.com>",
	     "[PATCH 0/3] widget: spin faster", T0, NULL, NULL,
	     "Three patches.\n");
	mail(f, "p1@x", "A U Thor <author@example.com>",
	     "[PATCH 1/3] widget: spin faster", T0 + 1, "c@x", NULL,
	     "Spin.\n\n---\ndiff --git a/drivers/widget/w.c "
	     "b/drivers/widget/w.c\nindex 1111111..2222222 100644\n"
	     "--- a/drivers/widget/w.c\n+++ b/drivers/widget/w.c\n"
	     "@@ -1,2 +1,5 @@\n a\n+x\n+y\n+z\n c\n");
	for (i = 2; i <= 3; i++) {
		char *id = xasprintf("p%d@x", i);
		char *subj = xasprintf("[PATCH %d/3] gadget: hum %d", i, i);
		char *body = xasprintf(
			"Hum.\n\n---\ndiff --git a/drivers/gadget/g%d.c "
			"b/drivers/gadget/g%d.c\nindex 1111111..2222222 "
			"100644\n--- a/drivers/gadget/g%d.c\n+++ "
			"b/drivers/gadget/g%d.c\n@@ -1,2 +1,3 @@\n a\n+b\n"
			" c\n",
			i, i, i, i);

		mail(f, id, "A U Thor <author@example.com>", subj, T0 + i,
		     "c@x", NULL, body);
		free(id);
		free(subj);
		free(body);
	}
	plan(f, T0 + 8 * DAY, 0);
	s = t_query(&f->ts, "SELECT message FROM outbox WHERE action = "
			    "'resend'");
	assert_non_null(strstr(s, "Who applies its patches for WIDGET:"));
	assert_non_null(strstr(s, "Its other patches are in other entries' "
				  "files in MAINTAINERS"));
	assert_non_null(strstr(
		s, "  patches 2-3 (first: drivers/gadget/g2.c): GADGET\n"));
	/* named, not written to: the author writes to those who apply the
	 * rest */
	assert_null(strstr(s, "gary@example.org"));
	free(s);
}

/* An author who has just written in the thread (answering "whose tree
 * can this land in?", linux-integrity 2022-10-30, 14 hours before the
 * reminder would have gone) needs no reminder; the maintainers' digest
 * still lists the series. */
static void test_plan__no_reminder_just_after_the_author_wrote(void **state)
{
	struct fixture *f = *state;
	char *s;

	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	mail(f, "q1@x", "Kay Cook <kay@example.org>",
	     "Re: [PATCH] widget: spin", T0 + 5 * DAY, "p1@x", NULL,
	     "Whose tree can this land in?\n");
	mail(f, "a1@x", "A U Thor <author@example.com>",
	     "Re: [PATCH] widget: spin", T0 + 6 * DAY + 12 * 3600, "q1@x",
	     "<p1@x> <q1@x>", "> Whose tree can this land in?\n\nWidget's.\n");
	plan(f, T0 + 8 * DAY, 0);
	s = t_query(&f->ts, "SELECT status, reason FROM outbox WHERE action = "
			    "'resend'");
	assert_string_equal(s, "suppressed|the author wrote in its thread on "
			       "2024-01-07, less than two days before it "
			       "would go");
	free(s);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE action = 'digest'"),
			 1);
}

/* A patch and, a day later, a build report naming it as the head of
 * the maintainer's branch, from `from`. */
static void branch_head_report(struct fixture *f, const char *from)
{
	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	mail(f, "h1@x", from, "[may:widget-next] BUILD SUCCESS 27fea302952d",
	     T0 + DAY, NULL, NULL,
	     "tree/branch: https://git.example.org/may.git widget-next\n"
	     "branch HEAD: 27fea302952d8c90cafbdbee96bafeca03544401  widget: "
	     "spin\n");
	plan(f, T0 + 8 * DAY, 0);
}

/* A build robot's report of the maintainer's branch whose head is the
 * patch says it was applied, silently (linux-hwmon 2022-11-15: the
 * nct6775 board ids in hwmon-next a day after posting, reminded six
 * days later): no reminder, no digest item. Only from the robot's own
 * address: the same report under its name from another says nothing. */
static void test_plan__build_report_names_the_branch_head(void **state)
{
	struct fixture *f = *state;

	/* A robot's name on another address is anyone's to write. */
	branch_head_report(f, "kernel test robot <robot@example.org>");
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox "
					     "WHERE status = 'pending'"),
			 2);
	/* Again from a new database, the report from the robot. */
	assert_int_equal(teardown(state), 0);
	assert_int_equal(setup(state), 0);
	f = *state;
	branch_head_report(f, "kernel test robot <lkp@intel.com>");
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox"), 0);
}

/* One change, posted twice. */
static const char ROLL[] =
	"Make it roll.\n\n---\ndiff --git a/drivers/widget/w.c "
	"b/drivers/widget/w.c\nindex 1111111..2222222 100644\n"
	"--- a/drivers/widget/w.c\n+++ b/drivers/widget/w.c\n"
	"@@ -1,2 +1,3 @@\n a\n+roll\n c\n";

/* Nothing about the past on a first run over an archive, nothing about
 * series older than max_age. */
static void test_plan__first_run_and_age(void **state)
{
	struct fixture *f = *state;

	/* This database never planned: the first run is now. */
	free(t_query(&f->ts, "DELETE FROM plan_state"));
	patch(f, "p1@x", "A U Thor <author@example.com>",
	      "[PATCH] widget: spin", T0, NULL);
	plan(f, T0 + 9 * DAY, 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT count(*) FROM outbox"), 0);
	assert_int_equal(t_query_int(&f->ts, "SELECT first_run FROM "
					     "plan_state"),
			 T0 + 9 * DAY);
	/* A series posted since then is news. */
	patch(f, "p2@x", "B U Thor <other@example.com>", "[PATCH] widget: turn",
	      T0 + 9 * DAY, NULL);
	plan(f, T0 + 17 * DAY, 0);
	expect(f, "series:2:v1:resend:n1|pending|");
	/* A daemon that was down for months says nothing about a series
	 * older than max_age, though it fell due while it watched. */
	patch(f, "p3@x", "C U Thor <third@example.com>",
	      "[PATCH] widget: wobble", T0 + 10 * DAY, NULL);
	plan(f, T0 + 101 * DAY, 0);
	expect(f, "series:2:v1:resend:n1|pending|");
	assert_int_equal(t_query_int(&f->ts, "SELECT hold IS NULL AND overdue "
					     "FROM series_status WHERE "
					     "series_id = 3"),
			 1);
	/* The same patch re-sent is the author's ping: the series is as
	 * old as its version (posted 91 days ago, re-sent 41 days ago). */
	mail(f, "r1@x", "D U Thor <fourth@example.com>",
	     "[PATCH v2] widget: roll", T0 + 10 * DAY, NULL, NULL, ROLL);
	mail(f, "r2@x", "D U Thor <fourth@example.com>",
	     "[PATCH v2] widget: roll", T0 + 60 * DAY, NULL, NULL, ROLL);
	plan(f, T0 + 101 * DAY, 0);
	expect(f, "series:2:v1:resend:n1|pending|");
	assert_int_equal(t_query_int(&f->ts, "SELECT st.posted FROM "
					     "series_status st JOIN series s "
					     "ON s.id = st.series_id JOIN "
					     "messages m ON m.id = s.anchor_id "
					     "WHERE m.msgid = 'r2@x'"),
			 T0 + 10 * DAY);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_plan__overdue_gets_one_reply_and_a_digest),
		T(test_plan__digest_at_the_next_opening),
		T(test_plan__digest_withdrawn_with_nothing_to_say),
		T(test_plan__test_verdicts),
		T(test_plan__new_wait_is_news),
		T(test_plan__boot_report),
		T(test_plan__opt_out_reply_holds_back),
		T(test_plan__bot_author_holds_back),
		T(test_plan__auto_submitted_posting_holds_back),
		T(test_plan__list_address_author_holds_back),
		T(test_plan__precedence_only_without_a_list),
		T(test_plan__daily_limit_per_recipient),
		T(test_plan__one_reminder_per_version),
		T(test_plan__people_only),
		T(test_plan__appliers),
		T(test_plan__author_ping),
		T(test_plan__wait_began_at_the_author),
		T(test_plan__why_names_the_message),
		T(test_plan__private_reminder),
		T(test_plan__reminder_withdrawn_when_answered),
		T(test_plan__reminder_names_who_answered),
		T(test_plan__reminder_names_the_other_parts),
		T(test_plan__no_reminder_just_after_the_author_wrote),
		T(test_plan__build_report_names_the_branch_head),
		T(test_plan__first_run_and_age),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
