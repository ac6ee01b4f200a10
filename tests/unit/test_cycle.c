// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/sla/cycle: announcement and tag names, precedence of
 * events, the state and projection of the release cycle, and profile
 * deadlines at their boundaries.
 *
 * The real 6.2 cycle, by its published release dates (Linus' "Linux
 * X.Y[-rcN]" announcements and the tags in linux.git):
 *   v6.1      Sun 2022-12-11      v6.2-rc5  Sat 2023-01-21 (a day early)
 *   v6.2-rc1  Sun 2022-12-25      v6.2-rc6  Sun 2023-01-29
 *   v6.2-rc2  Sun 2023-01-01      v6.2-rc7  Sun 2023-02-05
 *   v6.2-rc3  Sun 2023-01-08      v6.2-rc8  Sun 2023-02-12 (announced in
 *   v6.2-rc4  Sun 2023-01-15                 advance for the holidays)
 *   v6.2      Sun 2023-02-19      v6.3-rc1  Sun 2023-03-05
 * and v6.3 on Sun 2023-04-23. The time of day is not part of these
 * published facts: the tests put every event at 14:00 US Pacific, a
 * typical Sunday-afternoon release time, which is 22:00 UTC under PST
 * (UTC-8, until 2023-03-12 02:00) and 21:00 UTC under PDT (UTC-7) after.
 * For the 4.20 -> 5.0 renumbering: v4.20 Sun 2018-12-23, v5.0-rc1 Sun
 * 2019-01-06.
 *
 * Expected times are UTC wall times worked out by hand from those dates
 * and the documented projection rule (weekly, Sundays, at the wall time
 * of the event projected from, in America/Los_Angeles).
 */
#include "testutil.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sla/cycle.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

/* "YYYY-MM-DD HH:MM[:SS]" UTC to epoch seconds (years >= 1970), counted
 * year by year; 2022-12-11 22:00 UTC is 1670796000 by `date -u +%s`. */
static int64_t U(const char *s)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec = 0, n, i;
	int64_t days = 0;

	n = sscanf(s, "%d-%d-%d %d:%d:%d", &y, &mo, &d, &h, &mi, &sec);
	assert_true((n == 5 || n == 6) && y >= 1970);
	for (i = 1970; i < y; i++)
		days += (i % 4 == 0 && (i % 100 != 0 || i % 400 == 0)) ? 366 :
									 365;
	for (i = 1; i < mo; i++)
		days += mdays[i - 1] + (i == 2 && y % 4 == 0 &&
					(y % 100 != 0 || y % 400 == 0));
	days += d - 1;
	return days * 86400 + h * 3600 + mi * 60 + sec;
}

static struct pc_cycle *cycle_new(void)
{
	struct pc_cycle *cy = NULL;
	struct pc_err err = { 0 };

	if (pc_cycle_new(&cy, NULL, &err) < 0)
		fail_msg("%s", err.msg);
	return cy;
}

static void add(struct pc_cycle *cy, enum pc_cycle_source src, const char *name,
		const char *when)
{
	struct pc_err err = { 0 };

	if (pc_cycle_add_name(cy, src, name, U(when), &err) < 0)
		fail_msg("%s: %s", name, err.msg);
}

/* The real timeline, as tags. */
static const char *const tags_62[][2] = {
	{ "v6.1", "2022-12-11 22:00" },	    { "v6.2-rc1", "2022-12-25 22:00" },
	{ "v6.2-rc2", "2023-01-01 22:00" }, { "v6.2-rc3", "2023-01-08 22:00" },
	{ "v6.2-rc4", "2023-01-15 22:00" }, { "v6.2-rc5", "2023-01-21 22:00" },
	{ "v6.2-rc6", "2023-01-29 22:00" }, { "v6.2-rc7", "2023-02-05 22:00" },
	{ "v6.2-rc8", "2023-02-12 22:00" }, { "v6.2", "2023-02-19 22:00" },
	{ "v6.3-rc1", "2023-03-05 22:00" },
};

static struct pc_cycle *cycle_62(void)
{
	struct pc_cycle *cy = cycle_new();
	size_t i;

	for (i = 0; i < PC_ARRAY_SIZE(tags_62); i++)
		add(cy, PC_CYCLE_SRC_TAG, tags_62[i][0], tags_62[i][1]);
	return cy;
}

static void assert_ms(const struct pc_cycle_milestone *m, int major, int minor,
		      int rc, const char *at, enum pc_cycle_source src)
{
	if (m->v.major != major || m->v.minor != minor || m->v.rc != rc ||
	    m->at != U(at) || m->src != src)
		fail_msg("milestone %d.%d-rc%d at %lld (src %d); expected "
			 "%d.%d-rc%d at %s UTC (%lld, src %d)",
			 m->v.major, m->v.minor, m->v.rc, (long long)m->at,
			 (int)m->src, major, minor, rc, at, (long long)U(at),
			 (int)src);
}

#define P PC_CYCLE_PROJECTED
#define TAG PC_CYCLE_SRC_TAG
#define MAIL PC_CYCLE_SRC_MAIL
#define CONF PC_CYCLE_SRC_CONFIG

static void test_cycle__helper(void **state)
{
	(void)state;
	assert_int_equal(U("2022-12-11 22:00"), 1670796000);
}

/* Only v6.1 known: the whole 6.2 cycle is projected. */
static void test_cycle__projection_from_release(void **state)
{
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_schedule s;
	struct pc_cycle_state st;
	static const char *const rcs[] = {
		/* rc1 two weeks after the release, then weekly, all Sundays
		 * 14:00 PST = 22:00 UTC. */
		"2022-12-25 22:00", "2023-01-01 22:00", "2023-01-08 22:00",
		"2023-01-15 22:00", "2023-01-22 22:00", "2023-01-29 22:00",
		"2023-02-05 22:00",
	};
	size_t i;

	(void)state;
	add(cy, TAG, "v6.1", "2022-12-11 22:00");
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2022-12-12 00:00"), NULL), 0);
	assert_int_equal(s.major, 6);
	assert_int_equal(s.minor, 2);
	assert_int_equal(s.name_projected, 1);
	assert_ms(&s.open, 6, 1, 0, "2022-12-11 22:00", TAG);
	assert_int_equal(s.n_rc, 7);
	for (i = 0; i < 7; i++)
		assert_ms(&s.rc[i], 6, 2, (int)i + 1, rcs[i], P);
	/* The release a week after -rc7. */
	assert_ms(&s.release, 6, 2, 0, "2023-02-12 22:00", P);

	/* Right after v6.1: released 6.1 = the 6.2 merge window. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2022-12-12 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	assert_ms(&st.released, 6, 1, 0, "2022-12-11 22:00", TAG);
	assert_ms(&st.since, 6, 1, 0, "2022-12-11 22:00", TAG);
	assert_ms(&st.until, 6, 2, 1, "2022-12-25 22:00", P);
	assert_ms(&st.release, 6, 2, 0, "2023-02-12 22:00", P);
	/* The release instant itself is already the merge window. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2022-12-11 22:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	/* One second before projected -rc4, and at it. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-01-15 21:59:59"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_RC);
	assert_ms(&st.since, 6, 2, 3, "2023-01-08 22:00", P);
	assert_ms(&st.until, 6, 2, 4, "2023-01-15 22:00", P);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-01-15 22:00"), NULL), 0);
	assert_ms(&st.since, 6, 2, 4, "2023-01-15 22:00", P);

	/* Past the projected v6.2: the projected 6.3 merge window, rc1 two
	 * weeks later (Sun 02-26 14:00 PST). */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-02-13 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	assert_int_equal(st.name_projected, 1);
	assert_ms(&st.released, 6, 2, 0, "2023-02-12 22:00", P);
	assert_ms(&st.until, 6, 3, 1, "2023-02-26 22:00", P);
	/* Projected 6.3: rc1 02-26, rc2 03-05 (14:00 PST = 22:00 UTC), rc3
	 * 03-12 at 14:00 PDT, DST having begun that morning: 21:00 UTC. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-03-13 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_RC);
	assert_ms(&st.since, 6, 3, 3, "2023-03-12 21:00", P);
	assert_ms(&st.until, 6, 3, 4, "2023-03-19 21:00", P);
	pc_cycle_free(cy);
}

/* The real cycle: known events, rc8, a Saturday -rc. */
static void test_cycle__state_real_62(void **state)
{
	struct pc_cycle *cy = cycle_62();
	struct pc_cycle_state st;
	struct pc_cycle_schedule s;

	(void)state;
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2022-12-25 21:59:59"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	assert_int_equal(st.name_projected, 0);
	assert_ms(&st.until, 6, 2, 1, "2022-12-25 22:00", TAG);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2022-12-25 22:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_RC);
	assert_ms(&st.since, 6, 2, 1, "2022-12-25 22:00", TAG);

	/* -rc4 boundary: one second before, and exactly at it. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-01-15 21:59:59"), NULL), 0);
	assert_ms(&st.since, 6, 2, 3, "2023-01-08 22:00", TAG);
	assert_ms(&st.until, 6, 2, 4, "2023-01-15 22:00", TAG);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-01-15 22:00"), NULL), 0);
	assert_ms(&st.since, 6, 2, 4, "2023-01-15 22:00", TAG);

	/* Sunday 2023-01-22: -rc5 came out on Saturday. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-01-22 12:00"), NULL), 0);
	assert_ms(&st.since, 6, 2, 5, "2023-01-21 22:00", TAG);

	/* The rc8 week ends with the known release. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-02-13 00:00"), NULL), 0);
	assert_ms(&st.since, 6, 2, 8, "2023-02-12 22:00", TAG);
	assert_ms(&st.until, 6, 2, 0, "2023-02-19 22:00", TAG);
	assert_ms(&st.release, 6, 2, 0, "2023-02-19 22:00", TAG);
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-02-13 00:00"), NULL), 0);
	assert_int_equal(s.n_rc, 8);

	/* Released 6.2, in the 6.3 merge window (named by v6.3-rc1). */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-02-20 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	assert_int_equal(st.name_projected, 0);
	assert_ms(&st.released, 6, 2, 0, "2023-02-19 22:00", TAG);
	assert_ms(&st.until, 6, 3, 1, "2023-03-05 22:00", TAG);

	/* 6.3-rc1 known; rc2 projected to Sun 03-12 14:00 PDT = 21:00 UTC;
	 * rc7 04-16 and the release 04-23, 14:00 PDT: the real v6.3 date. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-03-06 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_RC);
	assert_ms(&st.since, 6, 3, 1, "2023-03-05 22:00", TAG);
	assert_ms(&st.until, 6, 3, 2, "2023-03-12 21:00", P);
	assert_ms(&st.release, 6, 3, 0, "2023-04-23 21:00", P);
	pc_cycle_free(cy);
}

/* Known events override the projection, rc8 included. */
static void test_cycle__projection_partial(void **state)
{
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_schedule s;
	struct pc_cycle_state st;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++) /* v6.1 .. v6.2-rc5 */
		add(cy, TAG, tags_62[i][0], tags_62[i][1]);
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-01-22 00:00"), NULL), 0);
	assert_int_equal(s.name_projected, 0);
	assert_int_equal(s.n_rc, 7);
	assert_ms(&s.rc[4], 6, 2, 5, "2023-01-21 22:00", TAG);
	/* From Saturday's -rc5, seven days on is Saturday 01-28; the
	 * nearest Sunday is 01-29. */
	assert_ms(&s.rc[5], 6, 2, 6, "2023-01-29 22:00", P);
	assert_ms(&s.rc[6], 6, 2, 7, "2023-02-05 22:00", P);
	assert_ms(&s.release, 6, 2, 0, "2023-02-12 22:00", P);

	/* -rc8 is tagged: the release moves to a week after it. */
	add(cy, TAG, "v6.2-rc8", "2023-02-12 22:00");
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-01-22 00:00"), NULL), 0);
	assert_int_equal(s.n_rc, 8);
	assert_ms(&s.rc[7], 6, 2, 8, "2023-02-12 22:00", TAG);
	assert_ms(&s.release, 6, 2, 0, "2023-02-19 22:00", P);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-02-13 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_RC);
	assert_ms(&st.since, 6, 2, 8, "2023-02-12 22:00", TAG);
	pc_cycle_free(cy);
}

/*
 * A release known before the projected last -rc (configured here as if
 * 6.2 had come a week after -rc6, on 02-05): the projected -rc7 at the
 * same time will not happen.
 */
static void test_cycle__release_before_last_rc(void **state)
{
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_schedule s;
	struct pc_cycle_state st;

	(void)state;
	add(cy, TAG, "v6.1", "2022-12-11 22:00");
	add(cy, CONF, "6.2", "2023-02-05 22:00");
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-01-30 00:00"), NULL), 0);
	assert_int_equal(s.n_rc, 6);
	assert_ms(&s.rc[5], 6, 2, 6, "2023-01-29 22:00", P);
	assert_ms(&s.release, 6, 2, 0, "2023-02-05 22:00", CONF);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-01-30 00:00"), NULL), 0);
	assert_ms(&st.since, 6, 2, 6, "2023-01-29 22:00", P);
	assert_ms(&st.until, 6, 2, 0, "2023-02-05 22:00", CONF);
	pc_cycle_free(cy);
}

/* Only an announcement of -rc3: earlier events projected backwards. */
static void test_cycle__projection_backwards(void **state)
{
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_schedule s;
	struct pc_cycle_state st;
	struct pc_cycle_version v;
	struct pc_err err = { 0 };
	static const char subj[] = "Linux 6.2-rc3";

	(void)state;
	assert_int_equal(
		pc_cycle_parse_announcement(&v, subj, strlen(subj), &err), 1);
	/* The mail went out at 14:30 PST. */
	assert_int_equal(
		pc_cycle_add(cy, MAIL, &v, U("2023-01-08 22:30"), &err), 1);
	assert_int_equal(pc_cycle_state_at(&st, cy, U("2023-01-08 22:29"),
					   &err),
			 PC_ENOTFOUND);
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-01-10 00:00"), NULL), 0);
	assert_ms(&s.rc[2], 6, 2, 3, "2023-01-08 22:30", MAIL);
	assert_ms(&s.rc[1], 6, 2, 2, "2023-01-01 22:30", P);
	assert_ms(&s.rc[0], 6, 2, 1, "2022-12-25 22:30", P);
	/* Nothing names the release before: v.major 0, two weeks earlier. */
	assert_ms(&s.open, 0, 0, 0, "2022-12-11 22:30", P);
	assert_ms(&s.rc[3], 6, 2, 4, "2023-01-15 22:30", P);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2023-01-10 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_RC);
	assert_ms(&st.since, 6, 2, 3, "2023-01-08 22:30", MAIL);
	assert_ms(&st.until, 6, 2, 4, "2023-01-15 22:30", P);
	pc_cycle_free(cy);
}

/* Config > tag > mail; the earliest wins within one source. */
static void test_cycle__precedence(void **state)
{
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_schedule s;
	struct pc_cycle_version rc4 = { 6, 2, 4 };
	struct pc_err err = { 0 };
	int64_t when = U("2023-01-16 00:00");

	(void)state;
	add(cy, TAG, "v6.1", "2022-12-11 22:00");
#define RC4_IS(at, src)                                                        \
	do {                                                                   \
		assert_int_equal(pc_cycle_schedule_at(&s, cy, when, NULL), 0); \
		assert_ms(&s.rc[3], 6, 2, 4, at, src);                         \
	} while (0)
	/* A mail alone. */
	assert_int_equal(
		pc_cycle_add(cy, MAIL, &rc4, U("2023-01-15 22:30"), &err), 1);
	RC4_IS("2023-01-15 22:30", MAIL);
	/* The tag wins over the mail... */
	assert_int_equal(
		pc_cycle_add(cy, TAG, &rc4, U("2023-01-15 22:00"), &err), 1);
	RC4_IS("2023-01-15 22:00", TAG);
	/* ...even over an earlier mail. */
	assert_int_equal(
		pc_cycle_add(cy, MAIL, &rc4, U("2023-01-15 21:00"), &err), 0);
	RC4_IS("2023-01-15 22:00", TAG);
	/* A later tag of the same name changes nothing, an earlier one
	 * wins. */
	assert_int_equal(
		pc_cycle_add(cy, TAG, &rc4, U("2023-01-15 23:00"), &err), 0);
	assert_int_equal(
		pc_cycle_add(cy, TAG, &rc4, U("2023-01-15 21:30"), &err), 1);
	RC4_IS("2023-01-15 21:30", TAG);
	/* Configuration wins over tags, later or not. */
	assert_int_equal(
		pc_cycle_add(cy, CONF, &rc4, U("2023-01-16 03:00"), &err), 1);
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-01-16 04:00"), NULL), 0);
	assert_ms(&s.rc[3], 6, 2, 4, "2023-01-16 03:00", CONF);
	assert_int_equal(
		pc_cycle_add(cy, TAG, &rc4, U("2023-01-15 20:00"), &err), 0);
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-01-16 04:00"), NULL), 0);
	assert_ms(&s.rc[3], 6, 2, 4, "2023-01-16 03:00", CONF);
#undef RC4_IS
	pc_cycle_free(cy);
}

/* X.19 -> X+1.0: the next name comes from events when there are any. */
static void test_cycle__renumbering(void **state)
{
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_state st;

	(void)state;
	/* v4.20 on Sun 2018-12-23, 14:00 PST. */
	add(cy, TAG, "v4.20", "2018-12-23 22:00");
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2018-12-30 00:00"), NULL), 0);
	assert_int_equal(st.name_projected, 1);
	assert_int_equal(st.release.v.major, 4);
	assert_int_equal(st.release.v.minor, 21);
	/* v5.0-rc1 on Sun 2019-01-06. */
	add(cy, TAG, "v5.0-rc1", "2019-01-06 22:00");
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2018-12-30 00:00"), NULL), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	assert_int_equal(st.name_projected, 0);
	assert_ms(&st.released, 4, 20, 0, "2018-12-23 22:00", TAG);
	assert_ms(&st.until, 5, 0, 1, "2019-01-06 22:00", TAG);
	pc_cycle_free(cy);
}

static void test_cycle__options(void **state)
{
	struct pc_cycle_opts o = PC_CYCLE_OPTS_INIT;
	struct pc_cycle *cy = NULL;
	struct pc_cycle_schedule s;
	struct pc_err err = { 0 };

	(void)state;
	/* Projected in UTC, the 14:00 PST time of day is 22:00 UTC on
	 * either side of the US DST change: 6.3-rc2 on 03-12 22:00. */
	o.zone = "UTC";
	assert_int_equal(pc_cycle_new(&cy, &o, &err), 0);
	add(cy, TAG, "v6.2", "2023-02-19 22:00");
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2023-03-01 00:00"), NULL), 0);
	assert_ms(&s.rc[0], 6, 3, 1, "2023-03-05 22:00", P);
	assert_ms(&s.rc[1], 6, 3, 2, "2023-03-12 22:00", P);
	pc_cycle_free(cy);

	/* A release on Sunday 17:30 PST is Monday 01:30 UTC: in the
	 * release zone, -rc1 stays on Sunday 17:30 PST (Mon 01:30 UTC)... */
	cy = cycle_new();
	add(cy, TAG, "v6.1", "2022-12-12 01:30");
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2022-12-13 00:00"), NULL), 0);
	assert_ms(&s.rc[0], 6, 2, 1, "2022-12-26 01:30", P);
	pc_cycle_free(cy);
	/* ...while in UTC the nearest Sunday is a day before. */
	assert_int_equal(pc_cycle_new(&cy, &o, &err), 0);
	add(cy, TAG, "v6.1", "2022-12-12 01:30");
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2022-12-13 00:00"), NULL), 0);
	assert_ms(&s.rc[0], 6, 2, 1, "2022-12-25 01:30", P);
	pc_cycle_free(cy);

	/* last_rc 8 and a three-week merge window: rc1 on 01-01, rc8 seven
	 * weeks later on 02-19, the release on 02-26. */
	o = (struct pc_cycle_opts)PC_CYCLE_OPTS_INIT;
	o.last_rc = 8;
	o.merge_window_weeks = 3;
	assert_int_equal(pc_cycle_new(&cy, &o, &err), 0);
	add(cy, TAG, "v6.1", "2022-12-11 22:00");
	assert_int_equal(
		pc_cycle_schedule_at(&s, cy, U("2022-12-12 00:00"), NULL), 0);
	assert_int_equal(s.n_rc, 8);
	assert_ms(&s.rc[0], 6, 2, 1, "2023-01-01 22:00", P);
	assert_ms(&s.rc[7], 6, 2, 8, "2023-02-19 22:00", P);
	assert_ms(&s.release, 6, 2, 0, "2023-02-26 22:00", P);
	pc_cycle_free(cy);

	o = (struct pc_cycle_opts)PC_CYCLE_OPTS_INIT;
	o.last_rc = 0;
	assert_int_equal(pc_cycle_new(&cy, &o, &err), PC_EUSAGE);
	o.last_rc = PC_CYCLE_MAX_RC + 1;
	assert_int_equal(pc_cycle_new(&cy, &o, &err), PC_EUSAGE);
	o.last_rc = 7;
	o.merge_window_weeks = 0;
	assert_int_equal(pc_cycle_new(&cy, &o, &err), PC_EUSAGE);
	o.merge_window_weeks = 2;
	o.zone = "Nowhere/Zone";
	assert_int_equal(pc_cycle_new(&cy, &o, &err), PC_EUSAGE);
	assert_non_null(strstr(err.msg, "'Nowhere/Zone'"));
}

struct dl_case {
	const char *what;
	struct pc_cycle_deadline dl;
	const char *posted;
	int in_time;
	int cycle_minor; /* 6.x */
	const char *deadline;
	int deadline_projected;
	int lands_minor;
	const char *opens;
	int opens_projected;
	const char *next_deadline;
};

#define BEFORE(n)                           \
	{                                   \
		PC_CYCLE_DL_BEFORE_RC, n, 0 \
	}
#define BY(n)                           \
	{                               \
		PC_CYCLE_DL_BY_RC, n, 0 \
	}
#define LAST                              \
	{                                 \
		PC_CYCLE_DL_LAST_RC, 0, 0 \
	}
#define MW(lead)                                  \
	{                                         \
		PC_CYCLE_DL_MERGE_WINDOW, 0, lead \
	}

/*
 * Against the real 6.2 timeline (6.3 known up to -rc1). 6.3 projected:
 * rc2 03-12, rc3 03-19, rc4 03-26, ..., rc7 04-16, v6.3 04-23, each at
 * 14:00 PDT = 21:00 UTC.
 */
static const struct dl_case dl_cases[] = {
	/* libnvdimm: features "sent before -rc4". */
	{ "before -rc4, a second early", BEFORE(4), "2023-01-15 21:59:59", 1, 2,
	  "2023-01-15 22:00", 0, 3, "2023-02-19 22:00", 0, "2023-01-15 22:00" },
	{ "before -rc4, at -rc4", BEFORE(4), "2023-01-15 22:00", 0, 2,
	  "2023-01-15 22:00", 0, 4, "2023-04-23 21:00", 1, "2023-03-26 21:00" },
	/* "by -rc6" holds through the -rc6 week: until -rc7. */
	{ "by -rc6, at -rc6", BY(6), "2023-01-29 22:00", 1, 2,
	  "2023-02-05 22:00", 0, 3, "2023-02-19 22:00", 0, "2023-02-05 22:00" },
	{ "by -rc6, a second before -rc7", BY(6), "2023-02-05 21:59:59", 1, 2,
	  "2023-02-05 22:00", 0, 3, "2023-02-19 22:00", 0, "2023-02-05 22:00" },
	{ "by -rc6, at -rc7", BY(6), "2023-02-05 22:00", 0, 2,
	  "2023-02-05 22:00", 0, 4, "2023-04-23 21:00", 1, "2023-04-16 21:00" },
	/* 6.2 ends at -rc8: "by -rc8" and "before -rc9" are the release. */
	{ "by -rc8", BY(8), "2023-02-19 21:59:59", 1, 2, "2023-02-19 22:00", 0,
	  3, "2023-02-19 22:00", 0, "2023-02-19 22:00" },
	{ "before -rc9", BEFORE(9), "2023-02-19 21:00", 1, 2,
	  "2023-02-19 22:00", 0, 3, "2023-02-19 22:00", 0, "2023-02-19 22:00" },
	/* "End of last -rc": until the release... */
	{ "last -rc, a second early", LAST, "2023-02-19 21:59:59", 1, 2,
	  "2023-02-19 22:00", 0, 3, "2023-02-19 22:00", 0, "2023-02-19 22:00" },
	/* ...at which the next cycle begins: for the 6.4 merge window. */
	{ "last -rc, at the release", LAST, "2023-02-19 22:00", 1, 3,
	  "2023-04-23 21:00", 1, 4, "2023-04-23 21:00", 1, "2023-04-23 21:00" },
	/* Posted in the 6.3 merge window: 6.3's -rc4 (projected) counts. */
	{ "before -rc4, in the merge window", BEFORE(4), "2023-02-20 00:00", 1,
	  3, "2023-03-26 21:00", 1, 4, "2023-04-23 21:00", 1,
	  "2023-03-26 21:00" },
	/* A week before the merge window opens: 02-12 22:00. */
	{ "merge window - 1 week, at the edge", MW(7 * 86400),
	  "2023-02-12 22:00", 0, 2, "2023-02-12 22:00", 0, 4,
	  "2023-04-23 21:00", 1, "2023-04-16 21:00" },
	{ "merge window - 1 week, in time", MW(7 * 86400), "2023-02-12 21:59",
	  1, 2, "2023-02-12 22:00", 0, 3, "2023-02-19 22:00", 0,
	  "2023-02-12 22:00" },
};

static void test_cycle__deadlines(void **state)
{
	struct pc_cycle *cy = cycle_62();
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(dl_cases); i++) {
		const struct dl_case *c = &dl_cases[i];
		struct pc_cycle_verdict v;
		struct pc_err err = { 0 };

		print_message("%s\n", c->what);
		assert_int_equal(pc_cycle_evaluate(&v, cy, &c->dl, U(c->posted),
						   &err),
				 0);
		assert_int_equal(v.in_time, c->in_time);
		assert_int_equal(v.cycle.major, 6);
		assert_int_equal(v.cycle.minor, c->cycle_minor);
		assert_int_equal(v.deadline, U(c->deadline));
		assert_int_equal(v.deadline_projected, c->deadline_projected);
		assert_int_equal(v.lands.major, 6);
		assert_int_equal(v.lands.minor, c->lands_minor);
		assert_int_equal(v.window_opens, U(c->opens));
		assert_int_equal(v.opens_projected, c->opens_projected);
		assert_int_equal(v.next_deadline, U(c->next_deadline));
	}
	pc_cycle_free(cy);
}

static void test_cycle__deadline_errors(void **state)
{
	struct pc_cycle *cy = cycle_62();
	struct pc_cycle_verdict v;
	struct pc_err err = { 0 };
	struct pc_cycle_deadline bad[] = {
		BEFORE(0),
		BY(PC_CYCLE_MAX_RC + 1),
		MW(-1),
		{ (enum pc_cycle_dl_kind)99, 1, 0 },
	};
	struct pc_cycle_deadline ok = BEFORE(4);
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++)
		assert_int_equal(pc_cycle_evaluate(&v, cy, &bad[i],
						   U("2023-01-01 00:00"), &err),
				 PC_EUSAGE);
	/* Before every known event. */
	assert_int_equal(pc_cycle_evaluate(&v, cy, &ok, U("2022-01-01 00:00"),
					   &err),
			 PC_ENOTFOUND);
	/* Seventeen years of projection are allowed, not thirty. */
	assert_int_equal(
		pc_cycle_evaluate(&v, cy, &ok, U("2035-01-01 00:00"), &err), 0);
	assert_int_equal(pc_cycle_evaluate(&v, cy, &ok, U("2053-01-01 00:00"),
					   &err),
			 PC_ELIMIT);
	pc_cycle_free(cy);
}

struct ann_case {
	const char *subject;
	int is; /* 1: an announcement */
	int major, minor, rc;
};

static const struct ann_case ann_cases[] = {
	{ "Linux 6.2-rc3", 1, 6, 2, 3 },
	{ "Linux 6.1", 1, 6, 1, 0 },
	{ "[ANNOUNCE] Linux 6.2-rc3", 1, 6, 2, 3 },
	{ "[ANNOUNCE]Linux 4.20", 1, 4, 20, 0 },
	{ "  Linux 6.2-rc3 \t", 1, 6, 2, 3 },
	{ "Linux  6.10-rc1", 1, 6, 10, 1 },
	{ "Linux 3.0", 1, 3, 0, 0 },
	{ "Linux 5.0-rc8\r\n", 1, 5, 0, 8 },
	{ "Linux 6.2-rc20", 1, 6, 2, 20 },
	{ "Re: Linux 6.2-rc3", 0, 0, 0, 0 },
	{ "RE: Linux 6.2-rc3", 0, 0, 0, 0 },
	{ "Fwd: Linux 6.1", 0, 0, 0, 0 },
	{ "Linux 6.2-rc3 regression", 0, 0, 0, 0 },
	{ "Linux 6.2-rc3: build failure on arm64", 0, 0, 0, 0 },
	{ "[ANNOUNCE] Linux 6.2-rc3 (was: something)", 0, 0, 0, 0 },
	{ "Linux 6.1.5", 0, 0, 0, 0 }, /* a stable release */
	{ "Linux 2.6.39", 1, 2, 39, 0 }, /* the 2.6 era: major 2, minor N */
	{ "Linux 2.6.39-rc7", 1, 2, 39, 7 },
	{ "Linux 2.6.11", 0, 0, 0, 0 }, /* before git */
	{ "Linux 2.6.32.27", 0, 0, 0, 0 }, /* a stable release */
	{ "Linux 2.6", 0, 0, 0, 0 },
	{ "Linux 2.4.37", 0, 0, 0, 0 },
	{ "Linux v6.2", 0, 0, 0, 0 },
	{ "linux 6.2-rc3", 0, 0, 0, 0 },
	{ "LINUX 6.2-rc3", 0, 0, 0, 0 },
	{ "Linux 6.2-RC3", 0, 0, 0, 0 },
	{ "Linux 6.2-rc0", 0, 0, 0, 0 },
	{ "Linux 6.2-rc21", 0, 0, 0, 0 },
	{ "Linux 6.2-rc", 0, 0, 0, 0 },
	{ "Linux 6.2-rc03", 0, 0, 0, 0 },
	{ "Linux 6.2-", 0, 0, 0, 0 },
	{ "Linux 6.2rc3", 0, 0, 0, 0 },
	{ "Linux 6.2 -rc3", 0, 0, 0, 0 },
	{ "Linux 6.2-rc3-final", 0, 0, 0, 0 },
	{ "Linux 6", 0, 0, 0, 0 },
	{ "Linux 6.", 0, 0, 0, 0 },
	{ "Linux .2", 0, 0, 0, 0 },
	{ "Linux 06.2", 0, 0, 0, 0 },
	{ "Linux 6.02", 0, 0, 0, 0 },
	{ "Linux 100.1", 0, 0, 0, 0 },
	{ "Linux 6.100", 0, 0, 0, 0 },
	{ "Linux 99999999999999999999.1", 0, 0, 0, 0 },
	{ "Linux6.2", 0, 0, 0, 0 },
	{ "Linux", 0, 0, 0, 0 },
	{ "Linux ", 0, 0, 0, 0 },
	{ "", 0, 0, 0, 0 },
	{ "[PATCH] Linux 6.2-rc3", 0, 0, 0, 0 },
	{ "[ANNOUNCE]", 0, 0, 0, 0 },
	{ "The Linux 6.2-rc3", 0, 0, 0, 0 },
};

static void test_cycle__announcement(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(ann_cases); i++) {
		const struct ann_case *c = &ann_cases[i];
		struct pc_cycle_version v = { -1, -1, -1 };
		size_t len = strlen(c->subject);
		/* An exact-size copy, so ASan sees any over-read. */
		char *copy = xmalloc(len ? len : 1);

		memcpy(copy, c->subject, len);
		print_message("'%s'\n", c->subject);
		assert_int_equal(pc_cycle_parse_announcement(&v, copy, len,
							     NULL),
				 c->is);
		if (c->is) {
			assert_int_equal(v.major, c->major);
			assert_int_equal(v.minor, c->minor);
			assert_int_equal(v.rc, c->rc);
		} else {
			assert_int_equal(v.major, -1); /* untouched */
		}
		free(copy);
	}
	/* An embedded NUL is not the end of the subject. */
	assert_int_equal(
		pc_cycle_parse_announcement(&(struct pc_cycle_version){ 0 },
					    "Linux 6.1\0junk", 14, NULL),
		0);
	assert_int_equal(pc_cycle_parse_announcement(NULL, NULL, 0, NULL),
			 PC_EUSAGE);
}

static void test_cycle__names(void **state)
{
	static const struct ann_case names[] = {
		{ "v6.2-rc3", 1, 6, 2, 3 },
		{ "v6.1", 1, 6, 1, 0 },
		{ "6.2-rc3", 1, 6, 2, 3 },
		{ "v3.0", 1, 3, 0, 0 },
		{ "v4.20", 1, 4, 20, 0 },
		{ "v6.1.5", 0, 0, 0, 0 },
		{ "v2.6.39", 1, 2, 39, 0 },
		{ "v2.6.12", 1, 2, 12, 0 },
		{ "v2.6.13-rc1", 1, 2, 13, 1 },
		{ "v2.6.11", 0, 0, 0, 0 },
		{ "v2.6.012", 0, 0, 0, 0 },
		{ "v2.6", 0, 0, 0, 0 },
		{ "v2.6.", 0, 0, 0, 0 },
		{ "v2.7.1", 0, 0, 0, 0 },
		{ "v2.4.37", 0, 0, 0, 0 },
		{ "v2.6.32.27", 0, 0, 0, 0 },
		{ "v6.2-rc3-dontuse", 0, 0, 0, 0 },
		{ "next-20230120", 0, 0, 0, 0 },
		{ "v6.2-tree", 0, 0, 0, 0 },
		{ "vv6.1", 0, 0, 0, 0 },
		{ "V6.1", 0, 0, 0, 0 },
		{ "v6.1-rc", 0, 0, 0, 0 },
		{ "", 0, 0, 0, 0 },
		{ "v", 0, 0, 0, 0 },
		{ "v 6.1", 0, 0, 0, 0 },
	};
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_state st;
	struct pc_err err = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(names); i++) {
		struct pc_cycle_version v = { -1, -1, -1 };

		print_message("'%s'\n", names[i].subject);
		assert_int_equal(pc_cycle_parse_name(&v, names[i].subject,
						     NULL),
				 names[i].is);
		if (names[i].is) {
			assert_int_equal(v.major, names[i].major);
			assert_int_equal(v.minor, names[i].minor);
			assert_int_equal(v.rc, names[i].rc);
		}
	}
	assert_int_equal(pc_cycle_parse_name(NULL, NULL, &err), PC_EUSAGE);
	/* A stable tag is skipped, leaving the timeline empty. */
	assert_int_equal(pc_cycle_add_name(cy, TAG, "v6.1.5",
					   U("2023-01-12 12:00"), &err),
			 0);
	assert_int_equal(pc_cycle_state_at(&st, cy, U("2023-02-01 00:00"),
					   &err),
			 PC_ENOTFOUND);
	assert_int_equal(pc_cycle_add_name(cy, TAG, "v6.1",
					   U("2022-12-11 22:00"), &err),
			 1);
	assert_int_equal(pc_cycle_add_name(cy, TAG, "v6.1",
					   U("2022-12-11 22:00"), &err),
			 0);
	pc_cycle_free(cy);
}

/* The 2.6 era's names are written as the kernel wrote them, and 2.6.39
 * leads to 3.0: the merge window after v2.6.39 is 3.0's. */
static void test_cycle__two_six_era(void **state)
{
	static const struct {
		struct pc_cycle_version v;
		const char *name;
	} fmt[] = {
		{ { 2, 39, 0 }, "2.6.39" }, { { 2, 12, 3 }, "2.6.12-rc3" },
		{ { 3, 0, 0 }, "3.0" },	    { { 6, 2, 3 }, "6.2-rc3" },
		{ { 6, 10, 0 }, "6.10" },
	};
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_state st;
	struct pc_err err = { 0 };
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(fmt); i++) {
		pc_cycle_version_format(buf, sizeof(buf), &fmt[i].v);
		assert_string_equal(buf, fmt[i].name);
	}
	/* v2.6.39 Wed 2011-05-18, v3.0-rc1 Sun 2011-05-29 (14:00 PDT). */
	assert_int_equal(pc_cycle_add_name(cy, CONF, "v2.6.39",
					   U("2011-05-18 21:00"), &err),
			 1);
	assert_int_equal(pc_cycle_add_name(cy, CONF, "v3.0-rc1",
					   U("2011-05-29 21:00"), &err),
			 1);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2011-05-20 12:00"), &err), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	assert_int_equal(st.released.v.major, 2);
	assert_int_equal(st.released.v.minor, 39);
	assert_int_equal(st.release.v.major, 3);
	assert_int_equal(st.release.v.minor, 0);
	assert_int_equal(st.until.at, U("2011-05-29 21:00"));
	pc_cycle_free(cy);
}

/* The shipped calendar (data/kernel-releases): every line is a release
 * or -rc, in time order, from v2.6.12 on, so that an archive of any age
 * has a cycle; spot checks of real cycles. */
static void test_cycle__shipped_calendar(void **state)
{
	struct pc_buf text = PC_BUF_INIT;
	struct pc_cycle *cy = cycle_new();
	struct pc_cycle_state st;
	struct pc_err err = { 0 };
	char *line, *next;
	int64_t last = 0;
	unsigned n = 0;

	(void)state;
	t_read_file(&text, t_data("../../data/kernel-releases"));
	for (line = text.buf; *line; line = next) {
		char name[64], date[32], when[48];
		struct pc_cycle_version v;
		int64_t t;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (line[0] == '#')
			continue;
		assert_int_equal(sscanf(line, "%63s %31s", name, date), 2);
		print_message("%s\n", line);
		assert_int_equal(pc_cycle_parse_name(&v, name, NULL), 1);
		snprintf(when, sizeof(when), "%s 22:00", date);
		t = U(when);
		assert_true(t >= last); /* in time order */
		last = t;
		assert_int_equal(pc_cycle_add_name(cy, CONF, name, t, &err), 1);
		n++;
	}
	assert_true(n > 900);
	/* The first: v2.6.12; 2005-06-16 is before every release. */
	assert_int_equal(pc_cycle_state_at(&st, cy, U("2005-06-16 00:00"),
					   &err),
			 PC_ENOTFOUND);
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2005-07-01 00:00"), &err), 0);
	assert_int_equal(st.phase, PC_CYCLE_MERGE_WINDOW);
	assert_int_equal(st.release.v.major, 2);
	assert_int_equal(st.release.v.minor, 13);
	/* 2019-12-20: the 5.5-rc3 week (5.5-rc2 Sun 12-15). */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2019-12-20 00:00"), &err), 0);
	assert_int_equal(st.phase, PC_CYCLE_RC);
	assert_int_equal(st.since.v.major, 5);
	assert_int_equal(st.since.v.minor, 5);
	assert_int_equal(st.since.v.rc, 2);
	/* 2022-11-30: 6.1-rc7 (Sun 11-27), the cycle that had an -rc8. */
	assert_int_equal(
		pc_cycle_state_at(&st, cy, U("2022-11-30 00:00"), &err), 0);
	assert_int_equal(st.since.v.rc, 7);
	assert_int_equal(st.until.v.rc, 8);
	pc_buf_release(&text);
	pc_cycle_free(cy);
}

static void test_cycle__add_errors(void **state)
{
	struct pc_cycle *cy = cycle_new();
	struct pc_err err = { 0 };
	struct pc_cycle_version bad[] = {
		{ 6, 2, PC_CYCLE_MAX_RC + 1 },
		{ 0, 1, 0 },
		{ 6, -1, 0 },
		{ 100, 0, 0 },
	}, ok = { 6, 2, 1 };
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++)
		assert_int_equal(pc_cycle_add(cy, TAG, &bad[i], 0, &err),
				 PC_EUSAGE);
	assert_int_equal(pc_cycle_add(cy, TAG, &ok, -1, &err), PC_EUSAGE);
	assert_int_equal(pc_cycle_add(cy, TAG, &ok, PC_CYCLE_TIME_MAX, &err),
			 PC_EUSAGE);
	assert_int_equal(pc_cycle_add(cy, P, &ok, 0, &err), PC_EUSAGE);
	pc_cycle_free(cy);
	pc_cycle_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycle__helper),
		cmocka_unit_test(test_cycle__projection_from_release),
		cmocka_unit_test(test_cycle__state_real_62),
		cmocka_unit_test(test_cycle__projection_partial),
		cmocka_unit_test(test_cycle__release_before_last_rc),
		cmocka_unit_test(test_cycle__projection_backwards),
		cmocka_unit_test(test_cycle__precedence),
		cmocka_unit_test(test_cycle__renumbering),
		cmocka_unit_test(test_cycle__options),
		cmocka_unit_test(test_cycle__deadlines),
		cmocka_unit_test(test_cycle__deadline_errors),
		cmocka_unit_test(test_cycle__announcement),
		cmocka_unit_test(test_cycle__names),
		cmocka_unit_test(test_cycle__two_six_era),
		cmocka_unit_test(test_cycle__shipped_calendar),
		cmocka_unit_test(test_cycle__add_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
