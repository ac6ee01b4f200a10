// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/store/command.c and the judging's reading of what
 * was obeyed (lib/store/status.c, lib/sla/state.c): who may give which
 * command, what each does to the verdict (snooze, deferred, rejected,
 * resend-ok, applied, changes-requested, not-mine, opt-out/opt-in), and
 * the record kept of each. DKIM is tested with real signatures in
 * tests/integration/commands.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "maint/maintainers.h"
#include "sla/cycle.h"
#include "store/command.h"
#include "store/mapping.h"
#include "store/status.h"
#include "store/store.h"
#include "util/xalloc.h"

/* Mon 2024-01-01 10:00 UTC, and a day. */
#define T0 1704103200LL
#define DAY 86400LL

/* Two entries cover the driver: WIDGET (more specific) governs, GADGET
 * is next when WIDGET's maintainer says not-mine. */
static const char MAINTAINERS[] = "GADGET\n"
				  "M:\tGus Gadget <gus@example.org>\n"
				  "S:\tMaintained\n"
				  "F:\tdrivers/\n"
				  "\n"
				  "WIDGET\n"
				  "M:\tMay Tainer <may@example.org>\n"
				  "R:\tRita Viewer <rita@example.org>\n"
				  "S:\tMaintained\n"
				  "F:\tdrivers/widget/\n";

static const char PATCH[] =
	"Make it spin.\n\nSigned-off-by: A U Thor <author@example.com>\n"
	"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
	"index 1111111..2222222 100644\n--- a/drivers/widget/w.c\n"
	"+++ b/drivers/widget/w.c\n@@ -1,2 +1,3 @@\n a\n+b\n c\n";

struct fixture {
	struct t_store ts;
	struct pc_maint *m;
	struct pc_bizclock *clock;
	struct pc_policy pol;
	struct pc_sla_ctx ctx;
	struct pc_status_stats stats;
	struct pc_command_stats cs;
	int reply;
};

static int pick(struct pc_status_policy *out, const char *const *entries,
		const int *files, size_t n, void *arg, struct pc_err *err)
{
	struct fixture *f = arg;

	(void)files;
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
	t_ingest_mail(&f->ts, "p1@x", "A U Thor <author@example.com>",
		      "[PATCH] widget: spin", T0, NULL, NULL, PATCH);
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

/* Reads the commands and judges at now. */
static void judge(struct fixture *f, int64_t now)
{
	struct pc_status_options so = { .policy = pick,
					.policy_arg = f,
					.policy_id = "test-policy" };
	struct pc_map_stats ms;
	struct pc_err err = { 0 };

	assert_int_equal(pc_store_begin(f->ts.st, &err), 0);
	assert_int_equal(pc_map_series(f->ts.st, f->m, NULL, now, &ms, &err),
			 0);
	assert_int_equal(pc_commands_process(f->ts.st, NULL, now, &f->cs, &err),
			 0);
	assert_int_equal(pc_status_refresh(f->ts.st, &so, now, &f->stats, &err),
			 0);
	assert_int_equal(pc_store_commit(f->ts.st, &err), 0);
}

/* A reply to the patch from `from` at `at` saying body. */
static void say(struct fixture *f, const char *from, int64_t at,
		const char *body)
{
	char id[32];

	snprintf(id, sizeof(id), "r%d@x", ++f->reply);
	t_ingest_mail(&f->ts, id, from, "Re: [PATCH] widget: spin", at, "p1@x",
		      NULL, body);
}

static void expect(struct fixture *f, const char *sql, const char *want)
{
	char *got = t_query(&f->ts, "%s", sql);

	if (strcmp(got ? got : "(null)", want))
		fail_msg("%s: got '%s', want '%s'", sql, got ? got : "(null)",
			 want);
	free(got);
}

#define HOLD "SELECT coalesce(hold, '-') FROM series_status"
#define LAST_CMD                                                         \
	"SELECT verb || ' ' || outcome || ': ' || reason FROM commands " \
	"ORDER BY id DESC LIMIT 1"

static void test_commands__snooze_holds_until_it_ends(void **state)
{
	struct fixture *f = *state;

	judge(f, T0 + 3600);
	expect(f, HOLD, "-");
	say(f, "May Tainer <may@example.org>", T0 + DAY,
	    "> Make it spin.\n\npatchclock: snooze 2w\n\n-- \nMay\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD, "snooze obeyed: M: of WIDGET, not DKIM-signed");
	expect(f, HOLD, "steered");
	expect(f, "SELECT hold_why FROM series_status",
	       "may@example.org said \"patchclock: snooze 2w\"");
	/* The hold ends by itself: judged again when it does. */
	expect(f,
	       "SELECT next_check <= "
	       "1704103200 + 15 * 86400 "
	       "FROM series_status",
	       "1");
	judge(f, T0 + 15 * DAY + 60);
	expect(f, HOLD, "-");
	expect(f, "SELECT count(*) FROM messages WHERE commands = 2", "1");
}

static void test_commands__reviewer_rejects_then_resend_ok(void **state)
{
	struct fixture *f = *state;

	say(f, "Rita Viewer <rita@example.org>", T0 + DAY,
	    "patchclock: rejected\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD, "rejected obeyed: R: of WIDGET, not DKIM-signed");
	expect(f, HOLD, "steered");
	judge(f, T0 + 90 * DAY);
	expect(f, HOLD, "steered");
	say(f, "May Tainer <may@example.org>", T0 + 2 * DAY,
	    "patchclock: resend-ok\n");
	judge(f, T0 + 2 * DAY + 60);
	expect(f, HOLD, "-");
}

static void test_commands__deferred_until_date(void **state)
{
	struct fixture *f = *state;

	say(f, "may@example.org", T0 + DAY,
	    "patchclock: deferred until 2024-02-01\n");
	judge(f, T0 + 20 * DAY);
	expect(f, HOLD, "steered");
	judge(f, T0 + 31 * DAY + 60);
	expect(f, HOLD, "-");
}

/* Without a cycle the release cannot be placed: held, never mailed. */
static void test_commands__deferred_until_release(void **state)
{
	struct fixture *f = *state;

	say(f, "may@example.org", T0 + DAY,
	    "patchclock: deferred until v6.9-rc1\n");
	judge(f, T0 + 60 * DAY);
	expect(f, HOLD, "steered");
	expect(f, "SELECT release FROM commands", "v6.9-rc1");
}

/* With the cycle known, the deferral ends when -rc1 is out: v6.8 came
 * out 2024-03-10 and v6.9-rc1 2024-03-24. */
static void test_commands__deferred_until_release_ends(void **state)
{
	struct fixture *f = *state;
	struct pc_cycle *cy = NULL;
	struct pc_err err = { 0 };

	assert_int_equal(pc_cycle_new(&cy, NULL, &err), 0);
	assert_int_equal(pc_cycle_add_name(cy, PC_CYCLE_SRC_TAG, "v6.7",
					   1704063600, &err),
			 1);
	assert_int_equal(pc_cycle_add_name(cy, PC_CYCLE_SRC_TAG, "v6.8",
					   1710111600, &err),
			 1);
	assert_int_equal(pc_cycle_add_name(cy, PC_CYCLE_SRC_TAG, "v6.9-rc1",
					   1711321200, &err),
			 1);
	f->ctx.cycle = cy;
	say(f, "may@example.org", T0 + DAY,
	    "patchclock: deferred until v6.9-rc1\n");
	judge(f, 1711321200 - DAY);
	expect(f, HOLD, "steered");
	judge(f, 1711321200 + 60);
	expect(f, HOLD, "-");
	f->ctx.cycle = NULL;
	pc_cycle_free(cy);
}

static void test_commands__others_are_refused(void **state)
{
	struct fixture *f = *state;

	/* Someone who is nobody in WIDGET; the maintainer of the next
	 * entry; the author; an unknown verb; a bad argument. */
	say(f, "Eve <eve@example.net>", T0 + DAY, "patchclock: rejected\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD,
	       "rejected refused: eve@example.net is not an M: or R: of "
	       "WIDGET");
	say(f, "gus@example.org", T0 + DAY, "patchclock: applied\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD,
	       "applied refused: gus@example.org is not an M: or R: of "
	       "WIDGET");
	say(f, "author@example.com", T0 + DAY, "patchclock: resend-ok\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD,
	       "resend-ok refused: author@example.com is not an M: or R: "
	       "of WIDGET");
	say(f, "may@example.org", T0 + DAY, "patchclock: merge it\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD, "unknown invalid: unknown command");
	say(f, "may@example.org", T0 + DAY, "patchclock: snooze forever\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD,
	       "snooze invalid: snooze takes one duration: 12h, 3d, 2w");
	expect(f, HOLD, "-");
	expect(f,
	       "SELECT count(*) || ' ' || sum(outcome = 'obeyed') "
	       "FROM commands",
	       "5 0");
	expect(f, "SELECT count(*) FROM series_accept", "0");
}

/* Issue 36, item 2: a "From: Maintainer" written above a mail from
 * someone else (whose signature, if any, covers the last From): a mail
 * with two From fields carries no authority; its command is refused
 * with the reason, its review tag is not counted. */
static void test_commands__duplicated_from_is_no_authority(void **state)
{
	struct fixture *f = *state;

	t_ingest_mail(&f->ts, "dup@x", "May Tainer <may@example.org>",
		      "Re: [PATCH] widget: spin", T0 + DAY, "p1@x",
		      "From: Gus <gus@example.org>\n",
		      "patchclock: rejected\n\n"
		      "Reviewed-by: May Tainer <may@example.org>\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD,
	       "rejected refused: the mail has more than one from header "
	       "field (RFC 5322 allows one): it carries no authority");
	expect(f, "SELECT count(*) FROM commands WHERE outcome = 'obeyed'",
	       "0");
	expect(f,
	       "SELECT t.mismatch FROM trailers t JOIN messages m ON m.id = "
	       "t.message_id WHERE m.msgid = 'dup@x'",
	       "1");
	/* Nor does its "Applied" accept anything, in prose. */
	t_ingest_mail(&f->ts, "dup2@x", "May Tainer <may@example.org>",
		      "Re: [PATCH] widget: spin", T0 + DAY, "p1@x",
		      "From: Gus <gus@example.org>\n",
		      "Applied to widget-next, thanks!\n");
	judge(f, T0 + DAY + 120);
	expect(f, "SELECT intent & 1 FROM messages WHERE msgid = 'dup2@x'",
	       "0");
	expect(f, "SELECT state FROM series_status", "acknowledged");
}

static void test_commands__applied_and_changes_requested(void **state)
{
	struct fixture *f = *state;

	say(f, "may@example.org", T0 + DAY, "patchclock: changes-requested\n");
	judge(f, T0 + DAY + 60);
	expect(f, "SELECT state || ' ' || turn FROM series_status",
	       "changes-requested author");
	say(f, "rita@example.org", T0 + 2 * DAY,
	    "patchclock: applied 1 widget-next\n");
	judge(f, T0 + 2 * DAY + 60);
	expect(f, "SELECT state || ' ' || hold FROM series_status",
	       "accepted already-applied");
	expect(f, "SELECT tree FROM commands WHERE verb = 'applied'",
	       "widget-next");
}

static void test_commands__not_mine_moves_the_series(void **state)
{
	struct fixture *f = *state;

	judge(f, T0 + 3600);
	expect(f, "SELECT entry FROM series_status", "WIDGET");
	say(f, "may@example.org", T0 + DAY, "patchclock: not-mine\n");
	judge(f, T0 + DAY + 60);
	expect(f, "SELECT entry FROM series_not_mine", "WIDGET");
	expect(f, "SELECT entry FROM series_status", "GADGET");
	/* May is no longer who may steer it; Gus is. */
	say(f, "may@example.org", T0 + DAY, "patchclock: rejected\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD,
	       "rejected refused: may@example.org is not an M: or R: of "
	       "GADGET");
	say(f, "gus@example.org", T0 + DAY, "patchclock: snooze 1w\n");
	judge(f, T0 + DAY + 60);
	expect(f, HOLD, "steered");
}

static void test_commands__opt_out_and_in(void **state)
{
	struct fixture *f = *state;

	say(f, "A U Thor <Author@Example.com>", T0 + DAY,
	    "patchclock: opt-out\n");
	judge(f, T0 + DAY + 60);
	expect(f, "SELECT addr FROM opt_out", "author@example.com");
	expect(f, "SELECT series_id IS NULL FROM commands", "1");
	say(f, "author@example.com", T0 + 2 * DAY, "patchclock: opt-in\n");
	judge(f, T0 + 2 * DAY + 60);
	expect(f, "SELECT count(*) FROM opt_out", "0");
	/* Read once: judging again obeys nothing twice. */
	judge(f, T0 + 3 * DAY);
	expect(f, "SELECT count(*) FROM commands", "2");
	assert_int_equal(f->cs.mails, 0);
}

/* A command that answers no series, and one sent to patchclock's own
 * mail (the outbox's Message-ID), which is how an off-list reply to a
 * reminder finds its series. */
static void test_commands__series_by_thread_or_outbox(void **state)
{
	struct fixture *f = *state;
	struct pc_err err = { 0 };

	t_ingest_mail(&f->ts, "lost@x", "may@example.org", "hello", T0 + DAY,
		      NULL, NULL, "patchclock: rejected\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD,
	       "rejected refused: it answers no series' thread and no mail "
	       "of patchclock's");
	assert_int_equal(
		pc_store_query(f->ts.st,
			       "INSERT INTO outbox (key, action, series_id, "
			       "recipients, message_id, subject, created_at, "
			       "send_after, status, message) VALUES ('k', "
			       "'resend', 1, 'author@example.com', "
			       "'<bot1@patchclock>', 's', 0, 0, 'sent', 'm')",
			       NULL, NULL, &err),
		0);
	t_ingest_mail(&f->ts, "off@x", "may@example.org",
		      "Re: [patchclock] widget: spin", T0 + DAY,
		      "bot1@patchclock", NULL, "patchclock: snooze 3d\n");
	judge(f, T0 + DAY + 60);
	expect(f, LAST_CMD, "snooze obeyed: M: of WIDGET, not DKIM-signed");
	expect(f, HOLD, "steered");
}

/* A tag carried into v2 counts under review_attestation = dkim when its
 * giver's tag on v1 came in mail that passed DKIM (stored by
 * pc_attest_tags(); set here), and not otherwise. */
static void test_commands__attested_tag_carried_to_v2(void **state)
{
	struct fixture *f = *state;
	static const char v2[] =
		"Make it spin.\n\nReviewed-by: Rita Viewer <rita@example.org>\n"
		"Signed-off-by: A U Thor <author@example.com>\n"
		"---\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\n"
		"index 1111111..3333333 100644\n--- a/drivers/widget/w.c\n"
		"+++ b/drivers/widget/w.c\n@@ -1,2 +1,3 @@\n a\n+c\n c\n";
	struct pc_err err = { 0 };

	f->pol.attestation = PC_PROF_ATTEST_DKIM;
	say(f, "Rita Viewer <rita@example.org>", T0 + DAY,
	    "Nice.\n\nReviewed-by: Rita Viewer <rita@example.org>\n");
	t_ingest_mail(&f->ts, "p2@x", "A U Thor <author@example.com>",
		      "[PATCH v2] widget: spin", T0 + 3 * DAY, NULL, NULL, v2);
	judge(f, T0 + 3 * DAY + 60);
	expect(f, "SELECT reviewed FROM series_status WHERE series_id = 2",
	       "0");
	assert_int_equal(pc_store_query(f->ts.st,
					"UPDATE messages SET dkim = 'pass' "
					"WHERE msgid = 'r1@x'",
					NULL, NULL, &err),
			 0);
	assert_int_equal(pc_store_query(f->ts.st,
					"UPDATE series SET status_dirty = 1",
					NULL, NULL, &err),
			 0);
	judge(f, T0 + 3 * DAY + 120);
	expect(f, "SELECT reviewed FROM series_status WHERE series_id = 2",
	       "1");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_commands__snooze_holds_until_it_ends),
		T(test_commands__reviewer_rejects_then_resend_ok),
		T(test_commands__deferred_until_date),
		T(test_commands__deferred_until_release),
		T(test_commands__deferred_until_release_ends),
		T(test_commands__others_are_refused),
		T(test_commands__duplicated_from_is_no_authority),
		T(test_commands__applied_and_changes_requested),
		T(test_commands__not_mine_moves_the_series),
		T(test_commands__opt_out_and_in),
		T(test_commands__series_by_thread_or_outbox),
		T(test_commands__attested_tag_carried_to_v2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
