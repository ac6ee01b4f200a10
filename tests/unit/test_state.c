// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/sla/state.c: the verdict on a series at a given
 * now. The policy is the libnvdimm one from the seed RFC (8 business
 * days, 8:00am-5:00pm Pacific, non-author review, off-list review
 * distrusted, new features before -rc4, 24 h between postings); times
 * are worked out by hand in the comments (epoch values from `date -ud`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "sla/state.h"

/* Mon 2021-05-17 10:00 PDT = 17:00 UTC. */
#define POSTED 1621270800LL
/* + 8 business days = Thu 2021-05-27 10:00 PDT (Tue 18 .. Thu 27). */
#define DUE 1622134800LL
#define HOUR 3600LL
#define DAY 86400LL

static const char *const maintainers[] = { "dan.j.williams@intel.com" };
static const char *const reviewers[] = { "vishal.l.verma@intel.com" };

struct fixture {
	struct pc_policy pol;
	struct pc_bizclock *clock;
	struct pc_sla_ctx ctx;
	struct pc_sla_series s;
	struct pc_sla_patch patch;
	struct pc_sla_tag tags[4];
	struct pc_sla_reply replies[4];
	struct pc_sla_verdict v;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_err err = { 0 };

	h.start = 8 * 60;
	h.end = 17 * 60;
	h.zone = "America/Los_Angeles";
	assert_int_equal(pc_bizclock_new(&f->clock, &h, &err), 0);
	f->pol.ping_after.count = 8;
	f->pol.ping_after.unit = PC_PROF_UNIT_BUSINESS_DAYS;
	f->pol.repost_min.count = 24;
	f->pol.repost_min.unit = PC_PROF_UNIT_HOURS;
	f->pol.review = PC_PROF_REVIEW_NON_AUTHOR;
	f->pol.off_list = PC_PROF_OFFLIST_DISTRUSTED;
	f->pol.new_features.kind = PC_PROF_DL_RC;
	f->pol.new_features.rc = 4;
	f->ctx.policy = &f->pol;
	f->ctx.clock = f->clock;

	f->patch.idx = 1;
	f->patch.author_addr = "author@example.com";
	f->patch.tags = f->tags;
	f->s.author_addr = "author@example.com";
	f->s.posted = POSTED;
	f->s.total = 1;
	f->s.received = 1;
	f->s.patches = &f->patch;
	f->s.npatches = 1;
	f->s.replies = f->replies;
	f->s.maintainers = maintainers;
	f->s.nmaintainers = 1;
	f->s.reviewers = reviewers;
	f->s.nreviewers = 1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pc_sla_verdict_release(&f->v);
	pc_bizclock_free(f->clock);
	free(f);
	return 0;
}

static void eval(struct fixture *f, int64_t now)
{
	struct pc_err err = { 0 };

	pc_sla_verdict_release(&f->v);
	assert_int_equal(pc_sla_evaluate(&f->v, &f->s, &f->ctx, now, &err), 0);
}

static void reply(struct fixture *f, int64_t date, const char *from,
		  unsigned bot, unsigned applied, unsigned changes)
{
	struct pc_sla_reply *r = &f->replies[f->s.nreplies++];

	r->date = date;
	r->from_addr = from;
	r->bot = bot;
	r->applied = applied;
	r->changes = changes;
	/* A human's reply is a review comment unless a test says
	 * otherwise; a bot's says nothing. */
	r->comment = !bot;
}

/* A human's reply in the thread: msgid, answering irt. */
static struct pc_sla_reply *reply_in(struct fixture *f, int64_t date,
				     const char *from, const char *msgid,
				     const char *irt)
{
	struct pc_sla_reply *r = &f->replies[f->s.nreplies];

	reply(f, date, from, 0, 0, 0);
	r->msgid = msgid;
	r->in_reply_to = irt;
	return r;
}

static struct pc_sla_tag *tag(struct fixture *f, const char *name,
			      const char *addr, int64_t date, int from_reply)
{
	struct pc_sla_tag *t = &f->tags[f->patch.ntags++];

	memset(t, 0, sizeof(*t));
	t->name = name;
	t->addr = addr;
	t->person = addr;
	t->date = date;
	t->from_reply = (unsigned)from_reply;
	return t;
}

static void test_state__new_until_due_then_overdue(void **state)
{
	struct fixture *f = *state;

	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.state, PC_SLA_NEW);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.due, DUE);
	assert_int_equal(f->v.act_at, DUE); /* inside office hours */
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	assert_true(f->v.flags & PC_SLA_NEEDS_REVIEW);
	assert_int_equal(f->v.next_check, DUE);
	/* One second before due: not yet. */
	eval(f, DUE - 1);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	/* Fri 2021-05-28 10:00 PDT: one business day past due. */
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	assert_true(f->v.overdue_days > 0.99 && f->v.overdue_days < 1.01);
	/* Overdue: judged again in an hour (11:00 PDT, office hours) so
	 * "overdue by" stays current. */
	assert_int_equal(f->v.next_check, DUE + DAY + HOUR);
	/* Fri 16:30 PDT: an hour later is closed; Monday 08:00 PDT. */
	eval(f, DUE + DAY + 6 * HOUR + 30 * 60);
	assert_int_equal(f->v.next_check, DUE + 4 * DAY - 2 * HOUR);
}

static void test_state__bots_and_the_future_do_not_stop_the_clock(void **state)
{
	struct fixture *f = *state;

	/* The kernel test robot answers; someone answers after now. */
	reply(f, POSTED + DAY, "lkp@intel.com", 1, 0, 0);
	reply(f, DUE + 2 * DAY, "rita@example.com", 0, 0, 0);
	eval(f, DUE + DAY);
	assert_int_equal(f->v.state, PC_SLA_NEW);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* The reply from the future is when the verdict changes next. */
	eval(f, DUE + 2 * DAY - HOUR);
	assert_int_equal(f->v.next_check, DUE + 2 * DAY);
	/* At a later now the human reply exists: acknowledged, the
	 * author's turn, not overdue. */
	eval(f, DUE + 3 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACKNOWLEDGED);
	assert_int_equal(f->v.first_response, DUE + 2 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
}

static void test_state__author_answer_returns_the_turn(void **state)
{
	struct fixture *f = *state;

	/* Whose turn follows the wait: the author's after a review that
	 * asked nothing, however the author answered it ("Thanks"); the
	 * maintainers' once the author answers a question. */
	reply(f, POSTED + DAY, "rita@example.com", 0, 0, 0);
	reply(f, POSTED + 2 * DAY, "AUTHOR@example.com", 0, 0, 0);
	eval(f, POSTED + 3 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACKNOWLEDGED);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->replies[0].question = 1;
	eval(f, POSTED + 3 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
}

/* A tag or a "looks good" from someone who does not apply the patch
 * leaves the series waiting on whoever does (linux-pwm 2022: Uwe's
 * Reviewed-by, then weeks of waiting on Thierry); an applier's own
 * approval is their move, counted again from it; a question or a
 * request from anyone gives the ball to the author. */
static void test_state__approval_keeps_the_wait(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + DAY, "rita@example.com", 0, 0, 0);
	f->replies[0].comment = 0;
	f->replies[0].tagged = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_int_equal(f->v.wait_from, POSTED);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	f->replies[0].tagged = 0;
	f->replies[0].approve = 1;
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* From an applier, the clock starts again at the approval. */
	f->replies[0].applier = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.wait_from, POSTED + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	/* A question with the tag: the author's turn. */
	f->replies[0].applier = 0;
	f->replies[0].question = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	/* So is a nit with the tag. */
	f->replies[0].question = 0;
	f->replies[0].approve = 0;
	f->replies[0].comment = 1;
	f->replies[0].request = 1;
	f->replies[0].tagged = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	/* Prose that explains and asks nothing, with the tag, is the
	 * tag's reason (linux-pwm 2022-11-24, Sam Shih on "pwm: mediatek:
	 * Add support for MT7986": "we should update CK_26M_SEL where it
	 * exists ... it is fine to mark it true. Reviewed-by: ..."): the
	 * series still waits on whoever applies it. */
	f->replies[0].request = 0;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	/* Without the tag, the same prose is a remark to answer. */
	f->replies[0].tagged = 0;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
}

/* An applier who asks the other maintainers whether they may take it
 * through their tree (lore nvdimm 2021-08-26, Dan Williams on
 * "dax_supported() related cleanups v2": "Darrick, any concerns with me
 * taking this through the dax tree?") asks nothing of the author: the
 * series waits on the appliers again from that question, then from
 * the answer; with a question of their own to the author, it is the
 * author's turn. */
static void test_state__applier_routing_question_keeps_the_wait(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + DAY, "rita@example.com", 0, 0, 0);
	f->replies[0].comment = 0;
	f->replies[0].ping = 1;
	f->replies[0].applier = 1;
	eval(f, DUE + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.wait_from, POSTED + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* Darrick's Acked-by answers it: the wait counts from it; a later
	 * tag, with the question answered, is no move of the appliers'. */
	reply(f, POSTED + DAY + HOUR, "darrick@example.com", 0, 0, 0);
	f->replies[1].comment = 0;
	f->replies[1].tagged = 1;
	reply(f, POSTED + 2 * DAY, "mike@example.com", 0, 0, 0);
	f->replies[2].comment = 0;
	f->replies[2].tagged = 1;
	eval(f, DUE + 2 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.wait_from, POSTED + DAY + HOUR);
	f->replies[0].question = 1;
	eval(f, DUE + 2 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

/* A side conversation: Joaquín Aramendía's plan for after the merge,
 * asking the author nothing, and Guenter Roeck's "No, please don't do
 * that." below it (linux-hwmon 2022-12-15) are between the two of them:
 * the series still waits on its maintainers from its posting. Had the
 * remark asked the author, or the answer asked for changes, the turn
 * is the author's. */
static void test_state__side_conversation_keeps_the_wait(void **state)
{
	struct fixture *f = *state;
	struct pc_sla_reply *j, *g;

	j = reply_in(f, POSTED + 6 * HOUR, "joaquin@example.com", "j@x",
		     "posting@x");
	j->comment = 0;
	g = reply_in(f, POSTED + 8 * HOUR, "guenter@example.com", "g@x", "j@x");
	g->request = 1;
	g->applier = 1;
	eval(f, DUE + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.wait_from, POSTED);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	g->changes = 1;
	eval(f, DUE + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	g->changes = 0;
	j->comment = 1;
	j->request = 1;
	eval(f, DUE + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

/* A reviewer who agrees with the author's answer to his remark gives
 * the ball back (linux-pwm 2022-11-02, "PWM and keyboard backlight
 * driver for ARM Macs" v2 2/4: Biju Das on enabling the clock in probe,
 * Sasha's answer, Biju: "OK for me, as I do not know about your
 * system."): the series waits on its maintainers from that answer. */
static void test_state__reviewer_agrees_with_the_answer(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + 3600, "biju@example.com", 0, 0, 0);
	reply(f, POSTED + 2 * 3600, "author@example.com", 0, 0, 0);
	reply(f, POSTED + 3 * 3600, "biju@example.com", 0, 0, 0);
	f->replies[2].comment = 0;
	f->replies[2].approve = 1;
	eval(f, DUE + 3 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_int_equal(f->v.wait_from, POSTED + 2 * 3600);
	/* Someone else's "looks good" does not: the remark stands. */
	f->replies[2].from_addr = "rita@example.com";
	eval(f, DUE + 3 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	/* Nor does agreement after the author promised a new version. */
	f->replies[2].from_addr = "biju@example.com";
	f->replies[1].respin = 1;
	eval(f, DUE + 3 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

/* The kernel test robot's build failure is the author's to fix (lore
 * nvdimm 2021-06-28, "fsdax: introduce fs query", v5 6/9); its other
 * words are no answer. */
static void test_state__bot_build_failure(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + HOUR, "lkp@intel.com", 1, 0, 0);
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	f->replies[0].comment = 1;
	eval(f, DUE + DAY);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	assert_int_equal(f->v.state, PC_SLA_NEW); /* no response, though */
	/* About a patch its author had already disowned (lore linux-pwm
	 * 2022-11-01: "This patch is wrong ... The rest in the series is
	 * okay.", then the robot's warning on that patch): news to
	 * nobody; the rest still waits on the maintainers. */
	f->s.nreplies = 0;
	reply(f, POSTED + HOUR / 2, "author@example.com", 0, 0, 0);
	f->replies[0].answers = 2;
	reply(f, POSTED + HOUR, "lkp@intel.com", 1, 0, 0);
	f->replies[1].comment = 1;
	f->replies[1].answers = 2;
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	/* On another patch than the one the author spoke of, it counts. */
	f->replies[1].answers = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

/* The author writes from another address under the same name (lore
 * linux-pwm 2022: geert+renesas@glider.be posts, geert@linux-m68k.org
 * answers): still the author, who gives no one the ball by answering. */
static void test_state__author_by_name(void **state)
{
	struct fixture *f = *state;

	f->s.author_name = "A U Thor";
	reply(f, POSTED + DAY, "thor@home.example", 0, 0, 0);
	f->replies[0].from_name = "A U Thor";
	f->replies[0].comment = 0;
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	/* ... and so in a directory's order, from the work address
	 * ("Vaittinen, Matti" for Matti Vaittinen: linux-hwmon 2022-10-24) */
	f->replies[0].from_name = "Thor, A U";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	f->replies[0].from_name = "Thor, U A";
	f->replies[0].comment = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->replies[0].from_name = "Thor, A U, Jr";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->replies[0].comment = 0;
	/* One word is no name: anyone may be "Thor". */
	f->s.author_name = "Thor";
	f->replies[0].from_name = "Thor";
	f->replies[0].comment = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

/* The author's own ping is recorded; "please ignore" holds the series
 * as withdrawn; a stable queue's copy and a bug report with a diff are
 * no submissions. */
static void test_state__author_ping_and_withdrawal(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + 8 * DAY, "author@example.com", 0, 0, 0);
	f->replies[0].ping = 1;
	eval(f, POSTED + 9 * DAY);
	assert_int_equal(f->v.pinged_at, POSTED + 8 * DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	eval(f, POSTED + 7 * DAY);
	assert_int_equal(f->v.pinged_at, 0); /* not yet written */
	f->replies[0].ping = 0;
	f->replies[0].withdraw = 1;
	eval(f, POSTED + 9 * DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_WITHDRAWN);
	assert_string_equal(pc_sla_hold_name(f->v.hold), "withdrawn");
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->s.nreplies = 0;
	f->s.topic = "6.1";
	eval(f, POSTED + 9 * DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.topic = "net-next";
	eval(f, POSTED + 9 * DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	f->s.topic = NULL;
	f->s.bug_report = 1;
	eval(f, POSTED + 9 * DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
}

static void test_state__review_rule(void **state)
{
	struct fixture *f = *state;

	/* The author's own tag and a bot's suggestion do not count. */
	tag(f, "Reviewed-by", "author@example.com", POSTED, 0);
	tag(f, "Reviewed-by", "lkp@intel.com", POSTED + HOUR, 1)->suggested = 1;
	eval(f, POSTED + DAY);
	assert_int_equal(f->v.reviewed, 0);
	assert_true(f->v.flags & PC_SLA_NEEDS_REVIEW);
	/* A non-author Acked-by on the list does. */
	tag(f, "Acked-by", "rita@example.com", POSTED + DAY, 1);
	eval(f, POSTED + 2 * DAY);
	assert_int_equal(f->v.state, PC_SLA_REVIEWED);
	assert_int_equal(f->v.reviewed, 1);
	assert_string_equal(f->v.patches[0].reviewed_by, "rita@example.com");
	assert_false(f->v.flags & PC_SLA_NEEDS_REVIEW);
	/* Before it was given, it did not exist. */
	eval(f, POSTED + HOUR * 2);
	assert_int_equal(f->v.reviewed, 0);
}

static void test_state__off_list_review_is_distrusted(void **state)
{
	struct fixture *f = *state;
	static const char *const earlier[] = { "olga@example.org" };

	/* A Reviewed-by written into the posting by a colleague who never
	 * reviewed on the list: off-list, own domain, not counted. */
	tag(f, "Reviewed-by", "colleague@example.com", POSTED, 0);
	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.reviewed, 0);
	assert_true(f->v.patches[0].off_list);
	assert_true(f->v.patches[0].own_domain);
	assert_true(f->v.flags & PC_SLA_OFF_LIST);
	/* A tag carried over from a review of v1 on the list counts. */
	f->s.earlier_taggers = earlier;
	f->s.nearlier_taggers = 1;
	tag(f, "Reviewed-by", "olga@example.org", POSTED, 0);
	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.reviewed, 1);
	/* A profile that accepts off-list review counts the colleague. */
	f->s.nearlier_taggers = 0;
	f->patch.ntags = 1;
	f->pol.off_list = PC_PROF_OFFLIST_ACCEPTED;
	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.reviewed, 1);
	assert_false(f->v.flags & PC_SLA_OFF_LIST);
}

/* review_attestation = dkim: a tag by mail counts when its mail passed
 * DKIM; one carried in the posting when its giver attested one by mail,
 * here or for an earlier version; a hold-over from an unverified mail
 * does not. */
static void test_state__attested_tags_only(void **state)
{
	struct fixture *f = *state;
	static const char *const earlier[] = { "olga@example.org" };

	f->pol.attestation = PC_PROF_ATTEST_DKIM;
	tag(f, "Reviewed-by", "rita@example.com", POSTED + HOUR, 1);
	eval(f, POSTED + DAY);
	assert_int_equal(f->v.reviewed, 0);
	assert_true(f->v.flags & PC_SLA_NEEDS_REVIEW);
	/* The same tag, its mail verified. */
	f->patch.ntags = 0;
	tag(f, "Reviewed-by", "rita@example.com", POSTED + HOUR, 1)->attested =
		1;
	eval(f, POSTED + DAY);
	assert_int_equal(f->v.reviewed, 1);
	assert_string_equal(f->v.patches[0].reviewed_by, "rita@example.com");
	/* In the posting: Olga reviewed v1 on the list, but her mail was
	 * not verified; it counts once she attested one. */
	f->patch.ntags = 0;
	tag(f, "Reviewed-by", "olga@example.org", POSTED, 0);
	f->s.earlier_taggers = earlier;
	f->s.nearlier_taggers = 1;
	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.reviewed, 0);
	f->s.attested_taggers = earlier;
	f->s.nattested_taggers = 1;
	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.reviewed, 1);
	/* Without the rule, an unverified tag counts as before. */
	f->s.nattested_taggers = 0;
	f->pol.attestation = PC_PROF_ATTEST_NONE;
	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.reviewed, 1);
}

static void test_state__trusted_reviewers_only(void **state)
{
	struct fixture *f = *state;
	struct pc_prof_person trusted = { "Vishal Verma",
					  "vishal.l.verma@intel.com" };

	f->pol.review = PC_PROF_REVIEW_TRUSTED;
	f->pol.trusted = &trusted;
	f->pol.n_trusted = 1;
	reply(f, POSTED + DAY, "rita@example.com", 0, 0, 0);
	tag(f, "Reviewed-by", "rita@example.com", POSTED + DAY, 1);
	eval(f, DUE + DAY);
	/* Rita is neither a maintainer nor trusted: her review is no
	 * response for the profile's statistics, but the last word is
	 * hers, so nobody is to be reminded (the next step is the
	 * author's, or the maintainers' in their own time). */
	assert_int_equal(f->v.state, PC_SLA_NEW);
	assert_int_equal(f->v.first_response, 0);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	assert_int_equal(f->v.reviewed, 0);
	tag(f, "Reviewed-by", "Vishal.L.Verma@intel.com", DUE + DAY, 1);
	eval(f, DUE + 2 * DAY);
	assert_int_equal(f->v.state, PC_SLA_REVIEWED);
}

static void test_state__maintainer_applied_is_accepted(void **state)
{
	struct fixture *f = *state;

	/* "Applied" from someone who is not a maintainer is a comment. */
	reply(f, POSTED + DAY, "rita@example.com", 0, 1, 0);
	eval(f, POSTED + 2 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACKNOWLEDGED);
	reply(f, POSTED + 3 * DAY, "dan.j.williams@intel.com", 0, 1, 0);
	eval(f, POSTED + 4 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
	assert_int_equal(f->v.turn, PC_SLA_TURN_NONE);
	/* `patchclock accept` before that wins too. */
	f->s.nreplies = 0;
	f->s.accepted_at = POSTED + HOUR;
	eval(f, POSTED + 2 * HOUR);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
}

static void test_state__changes_requested(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + DAY, "dan.j.williams@intel.com", 0, 0, 1);
	eval(f, POSTED + 2 * DAY);
	assert_int_equal(f->v.state, PC_SLA_CHANGES_REQUESTED);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

static void test_state__too_soon(void **state)
{
	struct fixture *f = *state;

	/* v2 ten hours after v1 with a 24 h minimum. */
	f->s.prev_posted = POSTED - 10 * HOUR;
	eval(f, POSTED + HOUR);
	assert_true(f->v.flags & PC_SLA_TOO_SOON);
	assert_int_equal(f->v.repost_allowed, POSTED + 14 * HOUR);
	f->s.prev_posted = POSTED - 25 * HOUR;
	eval(f, POSTED + HOUR);
	assert_false(f->v.flags & PC_SLA_TOO_SOON);
}

static void test_state__late_for_the_cycle(void **state)
{
	struct fixture *f = *state;
	struct pc_cycle *cy = NULL;
	struct pc_err err = { 0 };

	assert_int_equal(pc_cycle_new(&cy, NULL, &err), 0);
	/* v6.1 Sun 2022-12-11, v6.2-rc4 Sun 2023-01-15 (22:00 UTC). */
	assert_true(pc_cycle_add_name(cy, PC_CYCLE_SRC_CONFIG, "v6.1",
				      1670796000, &err) >= 0);
	assert_true(pc_cycle_add_name(cy, PC_CYCLE_SRC_CONFIG, "v6.2-rc4",
				      1673820000, &err) >= 0);
	f->ctx.cycle = cy;
	/* A feature on Fri 2023-01-20, after -rc4: late. */
	f->s.posted = 1674216000;
	eval(f, f->s.posted + HOUR);
	assert_true(f->v.has_cycle);
	assert_true(f->v.flags & PC_SLA_LATE);
	assert_int_equal(f->v.cycle.lands.minor, 4); /* the 6.4 window */
	/* A fix is never late; nor is anything on Tue 2023-01-10. */
	f->s.is_fix = 1;
	eval(f, f->s.posted + HOUR);
	assert_false(f->v.flags & PC_SLA_LATE);
	f->s.is_fix = 0;
	f->s.posted = 1673352000;
	eval(f, f->s.posted + HOUR);
	assert_false(f->v.flags & PC_SLA_LATE);
	assert_int_equal(f->v.cycle.lands.minor, 3);
	/* The same answers through the cycle memo, in any order. */
	{
		struct pc_sla_cycle_cache cache;
		static const int64_t at[] = { 1674216000, 1673352000,
					      1674216000, 1673352000 };
		static const int late[] = { 1, 0, 1, 0 };
		size_t i;

		memset(&cache, 0, sizeof(cache));
		f->ctx.cache = &cache;
		for (i = 0; i < 4; i++) {
			f->s.posted = at[i];
			eval(f, at[i] + HOUR);
			assert_int_equal(!!(f->v.flags & PC_SLA_LATE), late[i]);
			assert_int_equal(f->v.cycle.lands.minor,
					 late[i] ? 4 : 3);
		}
		f->ctx.cache = NULL;
	}
	/* A posting dated 2240 (a broken Date:) is past every release the
	 * cycle can project: no cycle verdict on it, and no error that
	 * would stop the pass judging everyone else. */
	f->s.posted = 8650000000;
	eval(f, f->s.posted + HOUR);
	assert_false(f->v.has_cycle);
	assert_false(f->v.flags & PC_SLA_LATE);
	assert_false(f->v.cycle_unknown);
	/* A posting of 2019, before every release this calendar knows (one
	 * that starts at v6.1): no cycle verdict, said as cycle_unknown,
	 * and the cadence clock runs all the same (it was "no release or
	 * -rc known" for the whole pass, and no mail for anyone). */
	f->s.posted = 1575000000; /* Fri 2019-11-29 04:00 UTC */
	eval(f, f->s.posted + 20 * DAY);
	assert_false(f->v.has_cycle);
	assert_true(f->v.cycle_unknown);
	assert_true(f->v.due > f->s.posted);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	f->ctx.cycle = NULL;
	pc_cycle_free(cy);
}

static void test_state__superseded_and_incomplete(void **state)
{
	struct fixture *f = *state;
	char flags[128];

	f->s.total = 3;
	f->s.received = 2;
	f->s.superseded_at = POSTED + 2 * DAY;
	eval(f, POSTED + DAY);
	assert_int_equal(f->v.state, PC_SLA_NEW);
	assert_true(f->v.flags & PC_SLA_INCOMPLETE);
	assert_int_equal(f->v.next_check, POSTED + 2 * DAY);
	eval(f, POSTED + 3 * DAY);
	assert_int_equal(f->v.state, PC_SLA_SUPERSEDED);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	pc_sla_flags_format(flags, sizeof(flags), f->v.flags);
	assert_string_equal(flags, "needs-review incomplete");
	assert_string_equal(pc_sla_state_name(f->v.state), "superseded");
	/* Part of a series: a cross-post unless its cover letter and a
	 * third of it at least reached the list (linux-pwm, 2022-11-24:
	 * "[PATCH v2 0/5] Add RZ/V2{M, MA} PWM driver support", the cover
	 * and the 2 PWM patches; linux-integrity, 2022-10-25: the cover
	 * and 5 of 30 patches of the VFS posix-acl series). */
	f->s.superseded_at = 0;
	f->s.total = 5;
	f->s.received = 2;
	eval(f, POSTED + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.has_cover = 1;
	eval(f, POSTED + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_true(f->v.flags & PC_SLA_INCOMPLETE);
	f->s.total = 30;
	f->s.received = 5;
	eval(f, POSTED + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
}

/* The wait on the maintainers: any reply by someone else ends it. The
 * author's answer starts a new one ("[PATCH v2 00/14] mm, sparse-vmemmap:
 * Introduce compound pagemaps", lore nvdimm 2021-06: a question, the
 * author's answer, then three weeks of silence), unless a new version
 * is the next step ("[PATCH v2 0/2] Dax poison recovery": "Got it!"),
 * someone asked for changes, or the author is a maintainer. */
/* lore nvdimm 2021-08-17, PKS V7: Ira answers Rick's remark (no question)
 * at 03:12 and Rick's question at 03:21; the wait starts at the answer
 * to the question, whatever came last before it. */
static void test_state__answer_to_the_question_restarts(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + DAY, "rick@example.com", 0, 0, 0);
	f->replies[0].msgid = "remark@x";
	reply(f, POSTED + DAY + HOUR, "rick@example.com", 0, 0, 0);
	f->replies[1].msgid = "question@x";
	f->replies[1].question = 1;
	reply(f, POSTED + 2 * DAY, "author@example.com", 0, 0, 0);
	f->replies[2].in_reply_to = "remark@x";
	eval(f, POSTED + 2 * DAY + 60);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	reply(f, POSTED + 2 * DAY + 600, "author@example.com", 0, 0, 0);
	f->replies[3].in_reply_to = "question@x";
	eval(f, POSTED + 2 * DAY + 660);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_int_equal(f->v.wait_from, POSTED + 2 * DAY + 600);
	/* Without threading, the last word before the answer decides. */
	f->replies[2].in_reply_to = NULL;
	eval(f, POSTED + 2 * DAY + 660);
	assert_int_equal(f->v.wait_from, POSTED + 2 * DAY);
}

static void test_state__author_answer_and_the_wait(void **state)
{
	struct fixture *f = *state;
	int64_t answer = POSTED + 2 * DAY; /* Wed 05-19 10:00 PDT */

	eval(f, POSTED + HOUR);
	assert_int_equal(f->v.wait_from, POSTED);
	reply(f, POSTED + DAY, "vishal.l.verma@intel.com", 0, 0, 0);
	eval(f, POSTED + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	assert_int_equal(f->v.wait_from, 0);
	reply(f, answer, "author@example.com", 0, 0, 0);
	/* Answering a review that asked nothing ("Thanx"): no wait. */
	eval(f, answer + HOUR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	f->replies[0].question = 1;
	eval(f, answer + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_int_equal(f->v.wait_from, answer);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	/* 8 business days from Wed 05-19 10:00 PDT: Mon 05-31 (no
	 * holidays in this profile). */
	assert_int_equal(f->v.due, answer + 12 * DAY);
	eval(f, answer + 12 * DAY + HOUR);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* "Got it!": the author's next step. */
	f->replies[1].respin = 1;
	eval(f, answer + 12 * DAY + HOUR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	f->replies[1].respin = 0;
	/* Changes were asked for. */
	f->replies[0].changes = 1;
	eval(f, answer + 12 * DAY + HOUR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	f->replies[0].changes = 0;
	/* The author maintains another mapped entry only (LIBNVDIMM's M:
	 * posting to x86's PKS code): still waiting on x86. */
	f->s.author_addr = "dan.j.williams@intel.com";
	f->patch.author_addr = "dan.j.williams@intel.com";
	f->replies[1].from_addr = "dan.j.williams@intel.com";
	eval(f, answer + 12 * DAY + HOUR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* The author maintains the governing entry: they apply it
	 * themselves, nobody to wait on (a maintainer's own patch). */
	f->s.author_governs = 1;
	eval(f, answer + 12 * DAY + HOUR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_OWN);
	assert_string_equal(pc_sla_hold_name(f->v.hold), "own");
}

/* What a series is, before anything else: each hold, and its order. */
static void test_state__holds(void **state)
{
	struct fixture *f = *state;

	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_null(pc_sla_hold_name(f->v.hold));
	/* [ndctl PATCH v2 1/3] (lore nvdimm 2021): another project. */
	f->s.topic = "ndctl";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_KERNEL);
	assert_string_equal(pc_sla_hold_name(f->v.hold), "not-kernel");
	f->s.topic = "net-next";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	/* "[PATCH] ndctl/dimm: Fix to dump namespace indexs and labels"
	 * (lore nvdimm 2021-06-02): no tag, but ndctl's files. */
	f->s.not_in_tree = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_KERNEL);
	f->s.not_in_tree = 0;
	/* The kernel test robot's "[RFC PATCH] ... can be static" carries
	 * X-Patchwork-Hint: ignore, as AUTOSEL selections do. */
	f->s.ignored = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.ignored = 0;
	f->s.is_rfc = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.is_rfc = 0;
	/* "[RFT PATCH] x86/pat: Fix set_mce_nospec() for pmem". */
	f->s.topic = "RFT";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.topic = NULL;
	/* "[PATCH v1 05/12] mm/memory_hotplug: ..." alone on the list. */
	f->s.total = 12;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.total = 1;
	/* "[PATCH] test: user space code to test badblocks APIs", sent
	 * in reply to the author's "[PATCH v4 0/6] badblocks ...". */
	f->s.inside_other = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.inside_other = 0;
	/* The profile asks for no pings (netdev). */
	f->pol.reminder = PC_PROF_REMIND_NONE;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_PROFILE);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	f->pol.reminder = PC_PROF_REMIND_UNSET;
	/* RISC-V takes frozen or ratified extensions only: a series that
	 * says its specification is a draft is not one it will apply.
	 * Elsewhere, or without the rule, the draft is owed its answer. */
	f->s.draft_isa = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	f->pol.extensions = PC_PROF_EXT_RATIFIED;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_PROFILE);
	assert_non_null(strstr(f->v.hold_why, "draft"));
	f->s.draft_isa = 0;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	f->pol.extensions = PC_PROF_EXT_UNSET;
	/* A newer version. */
	f->s.superseded_at = DUE;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_SUPERSEDED);
	f->s.superseded_at = 0;
}

/* Applied, by any word the list carries: a bot's ("This series was
 * applied to netdev/net-next.git"), which counts as no response
 * otherwise, and a pull request whose shortlog lists a patch. */
static void test_state__applied_by_bot_or_pull_request(void **state)
{
	struct fixture *f = *state;

	reply(f, POSTED + DAY, "patchwork-bot+netdevbpf@kernel.org", 1, 0, 0);
	eval(f, DUE + DAY);
	/* A bot's word that is not "applied" is no response. */
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	f->replies[0].applied = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_APPLIED);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	f->s.nreplies = 0;
	f->s.pulled_at = DUE + 2 * DAY;
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* The verdict changes by itself when the pull request "arrives". */
	assert_true(f->v.next_check <= DUE + 2 * DAY);
	eval(f, DUE + 2 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_APPLIED);
}

/* A series of n patches p[0..n-1] (1..n, no msgids), in place of the
 * fixture's one, and no review rule. */
static void n_patches(struct fixture *f, struct pc_sla_patch *p, int n)
{
	int i;

	memset(p, 0, (size_t)n * sizeof(*p));
	for (i = 0; i < n; i++) {
		p[i].idx = i + 1;
		p[i].author_addr = "author@example.com";
	}
	f->s.patches = p;
	f->s.npatches = (size_t)n;
	f->s.total = f->s.received = n;
	f->pol.review = PC_PROF_REVIEW_NONE;
}

/* The author withdraws one patch of three below it ("This patch is
 * wrong ... The rest in the series is okay.", linux-pwm 2022-11-01):
 * the rest waits on its maintainers; withdrawn below each of them, the
 * series is withdrawn. */
static void test_state__withdrawn_patch_leaves_the_rest(void **state)
{
	struct fixture *f = *state;
	struct pc_sla_patch p[3];
	int n;

	n_patches(f, p, 3);
	reply(f, POSTED + HOUR, "author@example.com", 0, 0, 0);
	f->replies[0].withdraw = 1;
	f->replies[0].answers = 2;
	eval(f, DUE + HOUR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	for (n = 1; n <= 3; n += 2) {
		reply(f, POSTED + 2 * HOUR + n, "author@example.com", 0, 0, 0);
		f->replies[f->s.nreplies - 1].withdraw = 1;
		f->replies[f->s.nreplies - 1].answers = n;
	}
	eval(f, DUE + HOUR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_WITHDRAWN);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

/* A part of a tree-wide series whose cover letter asks each subsystem
 * to apply its own (lib/patch/split.h): the TPM patches, 5 of "[PATCH
 * 000/606] i2c: Complete conversion to i2c_probe_new" (linux-integrity
 * 2022-11-18) wait on the TPM maintainer, though the chrome-platform
 * bot and the power-supply maintainer said "applied" on the cover
 * letter of their own patches; a lone patch of it (its PWM patch, 537
 * of 606, on linux-pwm) is still no submission. */
static void test_state__split_by_tree(void **state)
{
	struct fixture *f = *state;
	struct pc_sla_patch p[5];

	n_patches(f, p, 5);
	f->s.total = 606;
	f->s.has_cover = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.split_by_tree = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* Apply notes on the cover from a bot and another subsystem's
	 * maintainer (answers 0: the cover) concern their own patches. */
	reply(f, POSTED + HOUR, "patchwork-bot+chrome-platform@kernel.org", 1,
	      1, 0);
	reply(f, POSTED + 2 * HOUR, "sre@kernel.org", 0, 1, 0);
	f->replies[1].maintainer = 1;
	f->replies[1].comment = 0;
	f->replies[1].covers = (const unsigned char *)"\0\0\0\0\0";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_true(f->v.state < PC_SLA_ACCEPTED);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	/* Without the split, the bot's note was the series'. */
	f->s.split_by_tree = 0;
	f->s.total = f->s.received = 5;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_APPLIED);
	/* A lone patch of a split series: a cross-post. */
	f->s.nreplies = 0;
	f->s.split_by_tree = 1;
	f->s.npatches = 1;
	f->s.total = 606;
	f->s.received = 1;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_SUBMISSION);
	f->s.patches = &f->patch;
}

/* One subsystem applied its part and the rest is another's
 * (pc_status_facts_rest()): the rest still waits, on the other's
 * maintainers. "[PATCH v4 0/4] Use devm helpers for regulator get and
 * enable" (linux-hwmon 2022-10): hwmon took 3/4 and 4/4 the same day,
 * the two drm patches waited 23 days. */
static void test_state__rest_of_other(void **state)
{
	struct fixture *f = *state;
	struct pc_sla_patch p[4];
	static const unsigned char hwmon_half[4] = { 0, 0, 1, 1 };

	n_patches(f, p, 4);
	reply(f, POSTED + HOUR, "linux@roeck-us.net", 0, 1, 0);
	f->replies[0].maintainer = 1;
	f->replies[0].comment = 0;
	f->replies[0].covers = hwmon_half;
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_PARTLY_ACCEPTED);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_APPLIED);
	f->s.rest_of_other = 1;
	eval(f, DUE + DAY);
	assert_true(f->v.flags & PC_SLA_PARTLY_ACCEPTED);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_true(f->v.state < PC_SLA_ACCEPTED);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	f->s.patches = &f->patch;
}

/* Feedback below one patch is owed until the author answers it there
 * or posts a new version of that patch: an answer below another patch
 * does not give the ball back. "[PATCH 1/2] pwm: mediatek: Add support
 * for MT7986" (linux-pwm, 2022-10): Krzysztof asked for changes to the
 * binding, 2/2; the author answered Sam Shih's questions on the driver,
 * 1/2 (10-26), and only on 10-31 posted a v2 of 2/2 below Krzysztof's
 * review, from when 1/2 waited on the maintainers. */
static void test_state__feedback_owed_per_patch(void **state)
{
	struct fixture *f = *state;
	struct pc_sla_patch p[2];
	struct pc_sla_reply *r;

	n_patches(f, p, 2);
	p[0].msgid = "p1@x";
	p[1].msgid = "p2@x";
	r = reply_in(f, POSTED + HOUR, "krzk@example.org", "k1@x", "p2@x");
	r->answers = 2;
	r->question = 1;
	r = reply_in(f, POSTED + DAY, "sam@example.com", "s1@x", "p1@x");
	r->answers = 1;
	r->question = 1;
	/* The author answers Sam, below 1/2 (a reply to his reply). */
	r = reply_in(f, POSTED + 2 * DAY, "author@example.com", "a1@x", "s1@x");
	r->comment = 0;
	eval(f, POSTED + 30 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	/* A v2 of 2/2 below Krzysztof's review: 1/2 waits from it. */
	r = reply_in(f, POSTED + 3 * DAY, "author@example.com", "v2@x", "k1@x");
	r->comment = 0;
	r->repost = 1;
	eval(f, POSTED + 30 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.wait_from, POSTED + 3 * DAY);
	assert_string_equal(f->v.wait_msgid, "v2@x");
	/* An answer to the cover letter answers everything. */
	f->s.nreplies = 3;
	f->replies[2].in_reply_to = NULL;
	eval(f, POSTED + 30 * DAY);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.wait_from, POSTED + 2 * DAY);
	f->s.patches = &f->patch;
}

static void test_state__acceptance_per_patch(void **state)
{
	static const unsigned char mm_covers[3] = { 0, 1, 0 };
	struct fixture *f = *state;
	struct pc_sla_patch p[3];
	struct pc_sla_reply *r;

	n_patches(f, p, 3);
	/* "Applied" in reply to patch 2 accepts patch 2: someone acted,
	 * so no mail, but the series is not accepted. */
	reply(f, POSTED + DAY, "dan.j.williams@intel.com", 0, 1, 0);
	f->replies[0].answers = 2;
	eval(f, POSTED + 2 * DAY);
	assert_int_not_equal(f->v.state, PC_SLA_ACCEPTED);
	assert_true(f->v.flags & PC_SLA_PARTLY_ACCEPTED);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_APPLIED);
	assert_int_equal(f->v.patches[0].accepted_at, 0);
	assert_int_equal(f->v.patches[1].accepted_at, POSTED + DAY);
	assert_int_equal(f->v.patches[2].accepted_at, 0);
	/* "Applied the series" in reply to patch 2: all of it. */
	f->replies[0].whole = 1;
	eval(f, POSTED + 2 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
	assert_false(f->v.flags & PC_SLA_PARTLY_ACCEPTED);
	/* "Top 2 patches applied" to the cover: 1 and 2. */
	f->replies[0].whole = 0;
	f->replies[0].answers = 0;
	f->replies[0].first = 1;
	f->replies[0].last = 2;
	eval(f, POSTED + 2 * DAY);
	assert_true(f->v.flags & PC_SLA_PARTLY_ACCEPTED);
	assert_int_not_equal(f->v.patches[0].accepted_at, 0);
	assert_int_not_equal(f->v.patches[1].accepted_at, 0);
	assert_int_equal(f->v.patches[2].accepted_at, 0);
	/* A later "Applied" to the cover takes the rest; the series is
	 * accepted when its last patch is. */
	reply(f, POSTED + 3 * DAY, "dan.j.williams@intel.com", 0, 1, 0);
	eval(f, POSTED + 4 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
	assert_int_equal(f->v.patches[0].accepted_at, POSTED + DAY);
	assert_int_equal(f->v.patches[2].accepted_at, POSTED + 3 * DAY);

	/* Another subsystem's maintainer answering the cover takes the
	 * patches their entries cover, and nothing else. */
	f->s.nreplies = 0;
	memset(f->replies, 0, sizeof(f->replies));
	reply(f, POSTED + DAY, "akpm@linux-foundation.org", 0, 1, 0);
	r = &f->replies[0];
	r->maintainer = 1;
	r->covers = mm_covers;
	eval(f, POSTED + 2 * DAY);
	assert_true(f->v.flags & PC_SLA_PARTLY_ACCEPTED);
	assert_int_equal(f->v.patches[0].accepted_at, 0);
	assert_int_equal(f->v.patches[1].accepted_at, POSTED + DAY);
	/* Covering none of it (the store then gives no coverage), or the
	 * series' own maintainer: what the reply names. */
	r->covers = NULL;
	eval(f, POSTED + 2 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
	/* A bot's "This patch was applied" to patch 3: patch 3. */
	f->s.nreplies = 0;
	memset(f->replies, 0, sizeof(f->replies));
	reply(f, POSTED + DAY, "patchwork-bot+netdevbpf@kernel.org", 1, 1, 0);
	f->replies[0].answers = 3;
	eval(f, POSTED + 2 * DAY);
	assert_true(f->v.flags & PC_SLA_PARTLY_ACCEPTED);
	assert_int_equal(f->v.patches[2].accepted_at, POSTED + DAY);
	/* `patchclock accept` accepts every patch. */
	f->s.accepted_at = POSTED + 2 * DAY;
	eval(f, POSTED + 3 * DAY);
	assert_int_equal(f->v.state, PC_SLA_ACCEPTED);
	assert_int_equal(f->v.patches[2].accepted_at, POSTED + DAY);
	assert_int_equal(f->v.patches[0].accepted_at, POSTED + 2 * DAY);
	pc_sla_verdict_release(&f->v);
}

static void test_state__foreign_topics(void **state)
{
	static const char *const mine[] = { "xyz-utils" };
	struct fixture *f = *state;
	struct pc_sla_project pr = { "xyz", mine, 1, "xyz.lists.example.org" };

	assert_true(pc_sla_foreign_topic("ndctl", NULL, 0));
	assert_true(pc_sla_foreign_topic("ndctl REPOST", NULL, 0));
	assert_true(pc_sla_foreign_topic("RESEND iproute2-next", NULL, 0));
	assert_false(pc_sla_foreign_topic("net-next", NULL, 0));
	assert_false(pc_sla_foreign_topic("ndctlx", NULL, 0));
	assert_false(pc_sla_foreign_topic(NULL, NULL, 0));
	assert_true(pc_sla_foreign_topic("XYZ-utils", mine, 1));
	assert_false(pc_sla_foreign_topic("ndctl", mine, 1));
	/* A configured project, on its own list only. */
	f->ctx.projects = &pr;
	f->ctx.nprojects = 1;
	f->s.topic = "xyz-utils";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_true(f->v.flags & PC_SLA_OVERDUE);
	f->s.list_id = "xyz.lists.example.org";
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_KERNEL);
	/* Another project's series is in no kernel queue (issue 37: five
	 * ndctl series overdue in DOCUMENTATION's): never overdue, nobody's
	 * turn. */
	assert_false(f->v.flags & PC_SLA_OVERDUE);
	assert_int_equal(f->v.turn, PC_SLA_TURN_NONE);
	assert_int_equal(f->v.wait_from, 0);
	pr.list_id = NULL;
	f->s.list_id = NULL;
	eval(f, DUE + DAY);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NOT_KERNEL);
}

/*
 * The author asks back (linux-pwm, 2022-10-22: "What do you think? ...
 * If this comment still exists in the next version, I'll fix it."): the
 * reviewer owes the answer, even with a new version promised; the
 * answer gives the turn back. After a request for a new version, a
 * question is how to write it: still the author's turn.
 */
static void test_state__author_asks_back(void **state)
{
	struct fixture *f = *state;
	int64_t ask = POSTED + 2 * DAY;

	reply(f, POSTED + DAY, "vishal.l.verma@intel.com", 0, 0, 0);
	f->replies[0].msgid = "review@x";
	reply(f, ask, "author@example.com", 0, 0, 0);
	f->replies[1].msgid = "ask@x";
	f->replies[1].in_reply_to = "review@x";
	f->replies[1].respin = 1;
	eval(f, ask + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->replies[1].question = 1;
	eval(f, ask + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	assert_int_equal(f->v.wait_from, ask);
	/* "No, keep it as it is.": no request, but the answer. */
	reply(f, ask + DAY, "vishal.l.verma@intel.com", 0, 0, 0);
	f->replies[2].comment = 0;
	f->replies[2].in_reply_to = "ask@x";
	eval(f, ask + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_ANSWERED);
	/* The same words about another message answer nothing. */
	f->replies[2].in_reply_to = "review@x";
	eval(f, ask + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	/* The author's ping ("What about this patch, any concerns?")
	 * answered "No concerns on this one.": nothing for the author to
	 * do, the series waits on whoever applies it (linux-integrity
	 * 2022-12-04, TPM IRQ fixes v11 13/14). */
	f->replies[1].respin = 0;
	f->replies[1].ping = 1;
	f->replies[2].in_reply_to = "ask@x";
	f->replies[2].approve = 1;
	eval(f, ask + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	/* An answer with more to say is still the answer. */
	f->replies[2].comment = 1;
	eval(f, ask + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	/* "I'd let Thierry decide what he want here." below the author's
	 * "Will you send a cleaned up version of this?" (linux-pwm
	 * 2022-11-28): the question passed on to the applier by name
	 * (PC_INTENT_PING) answers nothing; the series waits on him. */
	f->replies[1].ping = 0;
	f->replies[1].question = 1;
	f->replies[2].approve = 0;
	f->replies[2].comment = 0;
	f->replies[2].ping = 1;
	eval(f, ask + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.wait_from, ask);
	f->replies[2].ping = 0;
	eval(f, ask + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->replies[1].ping = 1;
	f->replies[2].approve = 1;
	f->replies[2].comment = 1;
	f->replies[1].respin = 1;
	f->replies[1].ping = 0;
	f->replies[2].approve = 0;
	f->replies[2].comment = 0;
	/* "Oops, will fix in v2" before anyone answered: the author's. */
	f->s.nreplies = 2;
	f->replies[0].from_addr = "author@example.com";
	f->replies[0].comment = 0;
	f->replies[0].respin = 1;
	eval(f, POSTED + DAY + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->replies[0].from_addr = "vishal.l.verma@intel.com";
	f->replies[0].comment = 1;
	f->replies[0].respin = 0;
	/* "Please send a v2": the author's question is how to. */
	f->s.nreplies = 2;
	f->replies[0].respin = 1;
	eval(f, ask + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	f->replies[0].respin = 0;
	f->replies[0].changes = 1;
	eval(f, ask + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

/* The author asks who takes it; a reviewer passes the question on ("I
 * would expect either the NVDIMM or PPC maintainers to take this. Dan,
 * Michael ?"); a maintainer of another entry would take it given the
 * others' acks ("I can take it but would need Acks from nvdimm folks"):
 * the series waits on its maintainers from that word (lore nvdimm
 * 2021-06-23, "[PATCH v3 0/4] Add perf interface to expose nvdimm",
 * which then waited 40 days on Dan Williams). */
static void test_state__needs_ack_from_the_others(void **state)
{
	struct fixture *f = *state;
	int64_t ask = POSTED + DAY, plan = ask + 3 * HOUR;
	struct pc_sla_reply *r;

	r = reply_in(f, POSTED + HOUR, "peterz@example.com", "ack@x", NULL);
	r->tagged = 1;
	r = reply_in(f, ask, "author@example.com", "ask@x", "ack@x");
	r->comment = 0;
	r->question = 1;
	r = reply_in(f, ask + HOUR, "peterz@example.com", "route@x", "ask@x");
	r->comment = 0;
	r->ping = 1;
	eval(f, ask + 2 * HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.hold, PC_SLA_HOLD_NONE);
	r = reply_in(f, plan, "mpe@example.com", "plan@x", "route@x");
	r->comment = 0;
	r->maintainer = 1;
	r->needs_ack = 1;
	eval(f, plan + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_MAINTAINERS);
	assert_int_equal(f->v.wait_from, plan);
	assert_string_equal(f->v.wait_msgid, "plan@x");
	/* The same words from someone who maintains nothing: no move of
	 * the maintainers'. */
	r->maintainer = 0;
	eval(f, plan + HOUR);
	assert_int_equal(f->v.wait_from, POSTED);
	/* The appliers' own "once Rob acks it I'll queue it": their word,
	 * and what it waits on is Rob's ack, not them. */
	r->maintainer = 1;
	r->applier = 1;
	eval(f, plan + HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
	r->applier = 0;
	/* A plain answer to the author's question is the author's. */
	f->s.nreplies = 3;
	f->replies[2].ping = 0;
	eval(f, ask + 2 * HOUR);
	assert_int_equal(f->v.turn, PC_SLA_TURN_AUTHOR);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_state__answer_to_the_question_restarts),
		T(test_state__author_answer_and_the_wait),
		T(test_state__author_asks_back),
		T(test_state__needs_ack_from_the_others),
		T(test_state__holds),
		T(test_state__applied_by_bot_or_pull_request),
		T(test_state__withdrawn_patch_leaves_the_rest),
		T(test_state__split_by_tree),
		T(test_state__rest_of_other),
		T(test_state__feedback_owed_per_patch),
		T(test_state__acceptance_per_patch),
		T(test_state__foreign_topics),
		T(test_state__new_until_due_then_overdue),
		T(test_state__bots_and_the_future_do_not_stop_the_clock),
		T(test_state__author_answer_returns_the_turn),
		T(test_state__review_rule),
		T(test_state__off_list_review_is_distrusted),
		T(test_state__attested_tags_only),
		T(test_state__trusted_reviewers_only),
		T(test_state__maintainer_applied_is_accepted),
		T(test_state__changes_requested),
		T(test_state__too_soon),
		T(test_state__late_for_the_cycle),
		T(test_state__approval_keeps_the_wait),
		T(test_state__applier_routing_question_keeps_the_wait),
		T(test_state__side_conversation_keeps_the_wait),
		T(test_state__reviewer_agrees_with_the_answer),
		T(test_state__author_ping_and_withdrawal),
		T(test_state__author_by_name),
		T(test_state__bot_build_failure),
		T(test_state__superseded_and_incomplete),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
