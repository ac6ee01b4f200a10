// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/sla/bizclock: office hours, due dates, next opening,
 * elapsed business time and formatting, in zones east and west of UTC,
 * across US, EU and southern-hemisphere DST changes, weekends and
 * holidays.
 *
 * Every expectation was worked out by hand and is written as a UTC wall
 * time, with the local reasoning beside it. The zone facts used (checked
 * against `zdump -v` of the system tz database, not against this code):
 *   America/Los_Angeles PST -8 / PDT -7: 2021-03-14 02:00 -> 03:00 PDT,
 *     2021-11-07 02:00 PDT -> 01:00 PST; 2024-03-10 and 2024-11-03 the
 *     same way; 2150-03-08; 1960-04-24 (02:00 PDT from 01:00 PST).
 *   America/New_York EST -5 / EDT -4: 2021-03-14, 2021-11-07 likewise.
 *   Europe/Berlin CET +1 / CEST +2: 2021-03-28 02:00 -> 03:00,
 *     2021-10-31 03:00 -> 02:00; 2024-03-31 and 2024-10-27 likewise
 *     (01:00 UTC each time).
 *   Asia/Kolkata IST +5:30, no DST.
 *   Australia/Sydney AEST +10 / AEDT +11: 2021-04-04 03:00 AEDT -> 02:00
 *     AEST, 2021-10-03 02:00 AEST -> 03:00 AEDT.
 *   Pacific/Auckland NZST +12 / NZDT +13: 2021-04-04 03:00 NZDT -> 02:00
 *     NZST, 2021-09-26 02:00 NZST -> 03:00 NZDT.
 * Weekdays: 2021-03-14, 2021-11-07, 2021-03-28, 2021-10-31, 2024-03-10,
 * 2024-11-03, 2024-03-31, 2024-10-27, 2021-04-04, 2021-10-03 and
 * 2021-09-26 are Sundays (as zdump prints); 2021-05-17 is a Monday.
 */
#include "testutil.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sla/bizclock.h"
#include "util/err.h"
#include "util/util.h"

/*
 * "YYYY-MM-DD HH:MM[:SS]" in UTC to seconds since the epoch, by counting
 * whole years and months: deliberately not the library's algorithm, and
 * itself checked against `date -u +%s` in test_bizclock__helper.
 */
static int64_t U(const char *s)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec = 0, n, i;
	int64_t days = 0;

	n = sscanf(s, "%d-%d-%d %d:%d:%d", &y, &mo, &d, &h, &mi, &sec);
	assert_true(n == 5 || n == 6);
	for (i = 1970; i < y; i++)
		days += (i % 4 == 0 && (i % 100 != 0 || i % 400 == 0)) ? 366 :
									 365;
	for (i = 1969; i >= y; i--)
		days -= (i % 4 == 0 && (i % 100 != 0 || i % 400 == 0)) ? 366 :
									 365;
	for (i = 1; i < mo; i++)
		days += mdays[i - 1] + (i == 2 && y % 4 == 0 &&
					(y % 100 != 0 || y % 400 == 0));
	days += d - 1;
	return days * 86400 + h * 3600 + mi * 60 + sec;
}

struct hours_spec {
	const char *name;
	const char *zone;
	unsigned days;
	int start, end; /* minutes */
	const char *hol[4];
};

#define WD PC_BIZ_WEEKDAYS
#define ALL PC_BIZ_EVERY_DAY
#define SPEC(name, zone, days, start, end, ...) \
	{                                       \
		name, zone, days, start, end,   \
		{                               \
			__VA_ARGS__             \
		}                               \
	}
static const struct hours_spec LA =
	SPEC("LA 9-17", "America/Los_Angeles", WD, 540, 1020, NULL);
static const struct hours_spec LA_ALL =
	SPEC("LA all day", "America/Los_Angeles", WD, 0, 1440, NULL);
static const struct hours_spec LA_7 = SPEC(
	"LA every day, all day", "America/Los_Angeles", ALL, 0, 1440, NULL);
static const struct hours_spec LA_MEM = SPEC("LA 9-17, Memorial Day",
					     "America/Los_Angeles", WD, 540,
					     1020, "2021-05-31", NULL);
/* Office hours whose opening (02:30) is skipped on 2021-03-14. */
static const struct hours_spec LA_GAP = SPEC(
	"LA every day 02:30-10:00", "America/Los_Angeles", ALL, 150, 600, NULL);
static const struct hours_spec NY =
	SPEC("NY 9-17", "America/New_York", WD, 540, 1020, NULL);
static const struct hours_spec BER =
	SPEC("Berlin 9-17", "Europe/Berlin", WD, 540, 1020, NULL);
/* Good Friday and Easter Monday 2024 (Easter Sunday was 2024-03-31,
 * also the day of the spring DST change); given out of order and twice. */
static const struct hours_spec BER_EASTER =
	SPEC("Berlin 9-17, Easter 2024", "Europe/Berlin", WD, 540, 1020,
	     "2024-04-01", "2024-03-29", "2024-03-29", NULL);
static const struct hours_spec KOL =
	SPEC("Kolkata 9:30-18", "Asia/Kolkata", WD, 570, 1080, NULL);
static const struct hours_spec SYD =
	SPEC("Sydney 9-17", "Australia/Sydney", WD, 540, 1020, NULL);
/* Good Friday and Easter Monday 2021 (Easter Sunday 2021-04-04, the day
 * Sydney's DST ended). */
static const struct hours_spec SYD_EASTER =
	SPEC("Sydney 9-17, Easter 2021", "Australia/Sydney", WD, 540, 1020,
	     "2021-04-02", "2021-04-05", NULL);
static const struct hours_spec AKL =
	SPEC("Auckland 9-17", "Pacific/Auckland", WD, 540, 1020, NULL);
static const struct hours_spec UTC_ALL =
	SPEC("UTC default", "UTC", WD, 0, 1440, NULL);

static struct pc_bizclock *clock_of(const struct hours_spec *h)
{
	struct pc_biz_hours bh = PC_BIZ_HOURS_INIT;
	struct pc_bizclock *c = NULL;
	struct pc_err err = { 0 };
	size_t n = 0;

	while (n < PC_ARRAY_SIZE(h->hol) && h->hol[n])
		n++;
	bh.zone = h->zone;
	bh.days = h->days;
	bh.start = h->start;
	bh.end = h->end;
	bh.holidays = h->hol;
	bh.n_holidays = n;
	if (pc_bizclock_new(&c, &bh, &err) < 0)
		fail_msg("%s: %s", h->name, err.msg);
	return c;
}

static void test_bizclock__helper(void **state)
{
	(void)state;
	/* Values from `date -u -d ... +%s`. */
	assert_int_equal(U("1970-01-01 00:00"), 0);
	assert_int_equal(U("2021-05-17 00:00"), 1621209600);
	assert_int_equal(U("2000-03-01 00:00"), 951868800);
	assert_int_equal(U("2021-03-14 10:00"), 1615716000);
	assert_int_equal(U("1969-12-31 23:59:59"), -1);
}

#define BD PC_BIZ_BUSINESS_DAYS
#define CD PC_BIZ_DAYS
#define WK PC_BIZ_WEEKS
#define HR PC_BIZ_HOURS

struct due_case {
	const struct hours_spec *h;
	const char *posted; /* UTC */
	unsigned amount;
	enum pc_biz_unit unit;
	const char *due; /* UTC */
};

static const struct due_case due_cases[] = {
	/* US spring forward. Fri 2021-03-12 16:00 PST (00:00 UTC Sat) + 1:
	 * Monday 16:00 local, now PDT, so 23:00 UTC. */
	{ &LA, "2021-03-13 00:00", 1, BD, "2021-03-15 23:00" },
	/* US fall back. Fri 2021-11-05 16:00 PDT (23:00 UTC) + 1: Monday
	 * 16:00 PST = 00:00 UTC Tuesday. */
	{ &LA, "2021-11-05 23:00", 1, BD, "2021-11-09 00:00" },
	/* Weekend posting: Sat 2021-03-13 10:00 PST starts at Monday's
	 * opening 09:00 PDT; + 1 is Tuesday 09:00 PDT = 16:00 UTC. */
	{ &LA, "2021-03-13 18:00", 1, BD, "2021-03-16 16:00" },
	/* Zero business days: the clock's start, the next opening
	 * (Monday 09:00 PDT)... */
	{ &LA, "2021-03-13 18:00", 0, BD, "2021-03-15 16:00" },
	/* ...or the posting itself in office hours (Mon 13:00 PDT). */
	{ &LA, "2021-03-15 20:00", 0, BD, "2021-03-15 20:00" },
	/* Exactly at closing (Fri 17:00 PDT = 00:00 UTC Sat) is outside:
	 * starts Mon 2021-11-08 09:00 PST, + 1 = Tue 09:00 PST = 17:00 UTC. */
	{ &LA, "2021-11-06 00:00", 1, BD, "2021-11-09 17:00" },
	/* 2024: Fri 03-08 09:00 PST (17:00 UTC) + 5 = Fri 03-15 09:00 PDT. */
	{ &LA, "2024-03-08 17:00", 5, BD, "2024-03-15 16:00" },
	/* Thu 2024-10-31 12:00 PDT (19:00 UTC) + 2: Friday, then Monday
	 * 11-04 12:00, now PST = 20:00 UTC. */
	{ &LA, "2024-10-31 19:00", 2, BD, "2024-11-04 20:00" },
	/* Memorial Day 2021-05-31 is a holiday: Fri 05-28 16:00 PDT + 1 =
	 * Tue 06-01 16:00 PDT = 23:00 UTC. */
	{ &LA_MEM, "2021-05-28 23:00", 1, BD, "2021-06-01 23:00" },
	/* A calendar day across spring forward keeps 10:00: Sat 10:00 PST
	 * (18:00 UTC) + 1 day = Sun 10:00 PDT = 17:00 UTC, 23 hours later. */
	{ &LA, "2021-03-13 18:00", 1, CD, "2021-03-14 17:00" },
	/* 24 hours are elapsed hours: 18:00 UTC the next day (11:00 PDT). */
	{ &LA, "2021-03-13 18:00", 24, HR, "2021-03-14 18:00" },
	/* Sat 02:30 PST + 1 day: 02:30 is skipped on Sunday; the clock
	 * jumps at 02:00 PST to 03:00 PDT = 10:00 UTC. */
	{ &LA, "2021-03-13 10:30", 1, CD, "2021-03-14 10:00" },
	/* Sat 2021-11-06 01:30 PDT (08:30 UTC) + 1 day: Sunday 01:30 comes
	 * twice; the first, PDT, is 08:30 UTC. */
	{ &LA, "2021-11-06 08:30", 1, CD, "2021-11-07 08:30" },
	/* Sun 01:30 PST (the second one, 09:30 UTC) + 1 day = Mon 01:30
	 * PST = 09:30 UTC, 25 hours later. */
	{ &LA, "2021-11-07 09:30", 1, CD, "2021-11-08 09:30" },
	/* Mon 2024-03-04 09:30 PST (17:30 UTC) + 1 week = Mon 03-11 09:30
	 * PDT = 16:30 UTC. */
	{ &LA, "2024-03-04 17:30", 1, WK, "2024-03-11 16:30" },
	/* 48 hours across fall back stay 48 hours. */
	{ &LA, "2024-11-02 12:00", 48, HR, "2024-11-04 12:00" },
	/* Evening posting: Fri 2021-03-12 20:00 EST (01:00 UTC Sat) starts
	 * Mon 03-15 09:00 EDT; + 2 = Wed 03-17 09:00 EDT = 13:00 UTC. */
	{ &NY, "2021-03-13 01:00", 2, BD, "2021-03-17 13:00" },
	/* Fri 2021-11-05 16:30 EDT (20:30 UTC) + 1 = Mon 16:30 EST. */
	{ &NY, "2021-11-05 20:30", 1, BD, "2021-11-08 21:30" },
	/* EU spring forward: Fri 2021-03-26 15:00 CET (14:00 UTC) + 1 =
	 * Mon 03-29 15:00 CEST = 13:00 UTC. */
	{ &BER, "2021-03-26 14:00", 1, BD, "2021-03-29 13:00" },
	/* EU fall back: Fri 2021-10-29 15:00 CEST (13:00 UTC) + 1 = Mon
	 * 11-01 15:00 CET = 14:00 UTC. */
	{ &BER, "2021-10-29 13:00", 1, BD, "2021-11-01 14:00" },
	/* Easter 2024: Thu 03-28 10:00 CET (09:00 UTC) + 1: Friday and
	 * Monday are holidays, so Tue 04-02 10:00 CEST = 08:00 UTC. */
	{ &BER_EASTER, "2024-03-28 09:00", 1, BD, "2024-04-02 08:00" },
	/* Sat 2024-10-26 12:00 CEST starts Mon 10-28 09:00 CET; + 1 = Tue
	 * 10-29 09:00 CET = 08:00 UTC. */
	{ &BER, "2024-10-26 10:00", 1, BD, "2024-10-29 08:00" },
	/* Sun 2024-10-27 01:30 CEST (23:30 UTC Sat) + 1 day = Mon 01:30
	 * CET = 00:30 UTC, 25 hours later. */
	{ &BER, "2024-10-26 23:30", 1, CD, "2024-10-28 00:30" },
	/* Kolkata, +5:30: Fri 2021-05-14 17:59 IST (12:29 UTC) + 1 = Mon
	 * 17:59 IST. */
	{ &KOL, "2021-05-14 12:29", 1, BD, "2021-05-17 12:29" },
	/* Fri 18:00 IST is closing time: starts Mon 09:30 IST, + 1 = Tue
	 * 09:30 IST = 04:00 UTC. */
	{ &KOL, "2021-05-14 12:30", 1, BD, "2021-05-18 04:00" },
	/* 19:00 UTC Friday is already Saturday 00:30 in Kolkata: a weekend
	 * posting, due Tuesday at opening too. */
	{ &KOL, "2021-05-14 19:00", 1, BD, "2021-05-18 04:00" },
	/* Sydney, DST ends 04-04: Fri 04-02 16:00 AEDT (05:00 UTC) + 1 =
	 * Mon 04-05 16:00 AEST = 06:00 UTC. */
	{ &SYD, "2021-04-02 05:00", 1, BD, "2021-04-05 06:00" },
	/* With Good Friday and Easter Monday off: Thu 04-01 16:00 AEDT + 1
	 * = Tue 04-06 16:00 AEST = 06:00 UTC. */
	{ &SYD_EASTER, "2021-04-01 05:00", 1, BD, "2021-04-06 06:00" },
	/* Sydney, DST starts 10-03: Fri 10-01 16:00 AEST (06:00 UTC) + 1 =
	 * Mon 10-04 16:00 AEDT = 05:00 UTC. */
	{ &SYD, "2021-10-01 06:00", 1, BD, "2021-10-04 05:00" },
	/* Auckland, DST starts 09-26: Fri 09-24 10:00 NZST (Thu 22:00 UTC)
	 * + 1 = Mon 09-27 10:00 NZDT = Sun 21:00 UTC. */
	{ &AKL, "2021-09-23 22:00", 1, BD, "2021-09-26 21:00" },
	/* Mon 09-27 08:00 NZDT (Sun 19:00 UTC), before opening: starts Mon
	 * 09:00, + 1 = Tue 09:00 NZDT = Mon 20:00 UTC. */
	{ &AKL, "2021-09-26 19:00", 1, BD, "2021-09-27 20:00" },
	/* Auckland, DST ends 04-04: Fri 04-02 11:00 NZDT (Thu 22:00 UTC) +
	 * 1 = Mon 04-05 11:00 NZST = Sun 23:00 UTC. */
	{ &AKL, "2021-04-01 22:00", 1, BD, "2021-04-04 23:00" },
	/* Midnight edges, all-day hours in UTC: the last second of Friday
	 * is in office time, + 1 = Monday's last second. */
	{ &UTC_ALL, "2021-05-14 23:59:59", 1, BD, "2021-05-17 23:59:59" },
	/* Saturday's first second starts Monday 00:00; + 1 = Tuesday. */
	{ &UTC_ALL, "2021-05-15 00:00", 1, BD, "2021-05-18 00:00" },
	{ &UTC_ALL, "2021-05-17 00:00", 5, BD, "2021-05-24 00:00" },
	/* All day in LA: Fri 23:59 PDT (06:59 UTC Sat) + 1 = Mon 23:59 PDT;
	 * Sat 00:00 PDT starts Monday 00:00, + 1 = Tue 00:00 PDT. */
	{ &LA_ALL, "2021-05-15 06:59", 1, BD, "2021-05-18 06:59" },
	{ &LA_ALL, "2021-05-15 07:00", 1, BD, "2021-05-18 07:00" },
	/* Sun 2021-03-14 01:00 PST (09:00 UTC): the 02:30 opening is
	 * skipped, so office hours open when the clock jumps to 03:00 PDT
	 * (10:00 UTC); a clock started at an opening is due at the next
	 * day's opening, Mon 02:30 PDT = 09:30 UTC. */
	{ &LA_GAP, "2021-03-14 09:00", 1, BD, "2021-03-15 09:30" },
	/* Beyond the cached span (2150; DST starts 2150-03-08): Sat 10:00
	 * PST + 1 day = Sun 10:00 PDT. */
	{ &LA, "2150-03-07 18:00", 1, CD, "2150-03-08 17:00" },
	/* Before it (1960; DST started 1960-04-24): Fri 04-22 16:00 PST +
	 * 1 = Mon 04-25 16:00 PDT. */
	{ &LA, "1960-04-23 00:00", 1, BD, "1960-04-25 23:00" },
};

static void test_bizclock__due(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(due_cases); i++) {
		const struct due_case *dc = &due_cases[i];
		struct pc_bizclock *c = clock_of(dc->h);
		struct pc_err err = { 0 };
		int64_t due = 0;
		char got[PC_BIZ_FORMAT_MAX];

		assert_int_equal(pc_bizclock_due(&due, c, U(dc->posted),
						 dc->amount, dc->unit, &err),
				 0);
		pc_bizclock_format(got, sizeof(got), c, due, NULL);
		if (due != U(dc->due))
			fail_msg(
				"case %zu (%s, posted %s + %u): due %lld (%s), "
				"expected %s UTC",
				i, dc->h->name, dc->posted, dc->amount,
				(long long)due, got, dc->due);
		/* Business days: due is in office hours, and exactly
		 * `amount` business days after the clock's start (no DST
		 * change falls inside these office hours). */
		if (dc->unit == BD) {
			int64_t s = pc_bizclock_next_open(c, U(dc->posted));
			double bd = pc_bizclock_business_days(c, s, due);

			assert_true(pc_bizclock_is_open(c, due));
			if (bd < dc->amount - 1e-9 || bd > dc->amount + 1e-9)
				fail_msg("case %zu: %f business days", i, bd);
		}
		pc_bizclock_free(c);
	}
}

struct open_case {
	const struct hours_spec *h;
	const char *t, *next; /* UTC */
};

static const struct open_case open_cases[] = {
	/* Fri 2021-11-05 17:00 PDT is closing: Mon 09:00 PST. */
	{ &LA, "2021-11-06 00:00", "2021-11-08 17:00" },
	/* One second earlier it is open. */
	{ &LA, "2021-11-05 23:59:59", "2021-11-05 23:59:59" },
	/* Mon 08:59:59 PST: one second to go. */
	{ &LA, "2021-11-08 16:59:59", "2021-11-08 17:00" },
	/* Sun 2021-03-14 01:59:59 PST, the last second before the jump:
	 * Mon 09:00 PDT. */
	{ &LA, "2021-03-14 09:59:59", "2021-03-15 16:00" },
	/* Fri 2021-05-28 17:30 PDT before Memorial Day: Tue 09:00 PDT. */
	{ &LA_MEM, "2021-05-29 00:30", "2021-06-01 16:00" },
	/* Sat 00:00 IST (Fri 18:30 UTC): Mon 09:30 IST = 04:00 UTC. */
	{ &KOL, "2021-05-14 18:30", "2021-05-17 04:00" },
	/* Mon 08:00 NZDT (Sun 19:00 UTC): 09:00 NZDT = 20:00 UTC. */
	{ &AKL, "2021-09-26 19:00", "2021-09-26 20:00" },
	/* Thu 2021-04-01 18:00 AEDT before Easter: Tue 04-06 09:00 AEST
	 * = Mon 23:00 UTC. */
	{ &SYD_EASTER, "2021-04-01 07:00", "2021-04-05 23:00" },
	/* The skipped 02:30 opening opens at the jump, 03:00 PDT. */
	{ &LA_GAP, "2021-03-14 09:00", "2021-03-14 10:00" },
	{ &UTC_ALL, "2021-05-15 12:00", "2021-05-17 00:00" },
	/* Berlin Sun 2021-03-28 12:00 CEST: Mon 09:00 CEST = 07:00 UTC. */
	{ &BER, "2021-03-28 10:00", "2021-03-29 07:00" },
};

/* Runs fn over cases: each t must give next. */
static void run_open_cases(const struct open_case *cases, size_t n,
			   int64_t (*fn)(const struct pc_bizclock *, int64_t))
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct open_case *oc = &cases[i];
		struct pc_bizclock *c = clock_of(oc->h);
		int64_t got = fn(c, U(oc->t));

		if (got != U(oc->next))
			fail_msg("case %zu (%s, %s): %lld, expected %s", i,
				 oc->h->name, oc->t, (long long)got, oc->next);
		pc_bizclock_free(c);
	}
}

static void test_bizclock__next_open(void **state)
{
	(void)state;
	run_open_cases(open_cases, PC_ARRAY_SIZE(open_cases),
		       pc_bizclock_next_open);
}

/* Openings: the start of office hours, never the middle of them. */
static const struct open_case opening_cases[] = {
	/* Berlin Mon 2021-03-29 09:00 CEST, the opening itself. */
	{ &BER, "2021-03-29 07:00", "2021-03-29 07:00" },
	/* One second later the day has begun: Tuesday's opening. */
	{ &BER, "2021-03-29 07:00:01", "2021-03-30 07:00" },
	{ &BER, "2021-03-29 10:00", "2021-03-30 07:00" },
	/* Sunday: Monday's opening. */
	{ &BER, "2021-03-28 10:00", "2021-03-29 07:00" },
	/* Fri 16:59:59 PDT, open: Mon 09:00 PST. */
	{ &LA, "2021-11-05 23:59:59", "2021-11-08 17:00" },
	/* Before Memorial Day: Tue 09:00 PDT. */
	{ &LA_MEM, "2021-05-28 17:00", "2021-06-01 16:00" },
	{ &UTC_ALL, "2021-05-14 00:00", "2021-05-14 00:00" },
	{ &UTC_ALL, "2021-05-14 12:00", "2021-05-17 00:00" },
};

static void test_bizclock__next_opening(void **state)
{
	(void)state;
	run_open_cases(opening_cases, PC_ARRAY_SIZE(opening_cases),
		       pc_bizclock_next_opening);
}

struct is_open_case {
	const struct hours_spec *h;
	const char *t;
	int open;
};

static const struct is_open_case is_open_cases[] = {
	{ &LA, "2021-03-15 16:00", 1 }, /* Mon 09:00 PDT, opening */
	{ &LA, "2021-03-15 15:59:59", 0 }, /* 08:59:59 */
	{ &LA, "2021-03-15 23:59:59", 1 }, /* 16:59:59 */
	{ &LA, "2021-03-16 00:00", 0 }, /* 17:00, closing */
	{ &NY, "2021-03-15 16:30", 1 }, /* 12:30 EDT */
	{ &KOL, "2021-03-15 16:30", 0 }, /* 22:00 IST */
	{ &LA_MEM, "2021-05-31 18:00", 0 }, /* 11:00 PDT, Memorial Day */
	{ &LA, "2021-05-31 18:00", 1 }, /* the same without the holiday */
	{ &AKL, "2021-09-26 21:00", 1 }, /* Mon 10:00 NZDT, Sunday in UTC */
	{ &BER, "2021-03-28 10:00", 0 }, /* Sun 12:00 CEST */
	{ &SYD_EASTER, "2021-04-05 01:00", 0 }, /* Easter Mon 11:00 AEST */
	{ &SYD, "2021-04-05 01:00", 1 },
	{ &UTC_ALL, "2021-05-14 23:59:59", 1 }, /* Fri, last second */
	{ &UTC_ALL, "2021-05-15 00:00", 0 }, /* Sat, first second */
};

static void test_bizclock__is_open(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(is_open_cases); i++) {
		const struct is_open_case *ic = &is_open_cases[i];
		struct pc_bizclock *c = clock_of(ic->h);

		if (pc_bizclock_is_open(c, U(ic->t)) != ic->open)
			fail_msg("case %zu (%s, %s): expected %d", i,
				 ic->h->name, ic->t, ic->open);
		pc_bizclock_free(c);
	}
}

static void test_bizclock__business_day(void **state)
{
	struct pc_bizclock *c = clock_of(&BER_EASTER);
	struct pc_bizclock *plain = clock_of(&BER);
	struct pc_biz_date gf = { 2024, 3, 29 }, tue = { 2024, 4, 2 },
			   sat = { 2024, 3, 30 }, mon = { 2024, 4, 1 };

	(void)state;
	assert_int_equal(pc_bizclock_is_business_day(c, &gf), 0);
	assert_int_equal(pc_bizclock_is_business_day(c, &mon), 0);
	assert_int_equal(pc_bizclock_is_business_day(c, &sat), 0);
	assert_int_equal(pc_bizclock_is_business_day(c, &tue), 1);
	assert_int_equal(pc_bizclock_is_business_day(plain, &gf), 1);
	assert_int_equal(pc_bizclock_is_business_day(plain, &mon), 1);
	assert_int_equal(pc_bizclock_is_business_day(plain, &sat), 0);
	/* Weekday arithmetic: 2024-03-29 was a Friday, 2021-05-17 a
	 * Monday, 1970-01-01 a Thursday. */
	assert_int_equal(pc_biz_date_wday(&gf), 5);
	assert_int_equal(pc_biz_date_wday(&(struct pc_biz_date){ 2021, 5, 17 }),
			 1);
	assert_int_equal(pc_biz_date_wday(&(struct pc_biz_date){ 1970, 1, 1 }),
			 4);
	pc_bizclock_free(c);
	pc_bizclock_free(plain);
}

struct span_case {
	const struct hours_spec *h;
	const char *from, *to;
	int64_t secs;
	double days;
};

static const struct span_case span_cases[] = {
	/* Fri 16:00 PST to Mon 16:00 PDT: 1 h Friday + 7 h Monday = 8 h,
	 * one office day. */
	{ &LA, "2021-03-13 00:00", "2021-03-15 23:00", 8 * 3600, 1.0 },
	/* Fri 17:00 PST to Tue 12:00 PDT: 8 h Monday + 3 h Tuesday. */
	{ &LA, "2021-03-13 01:00", "2021-03-16 19:00", 11 * 3600, 1.375 },
	/* Reversed: negative. */
	{ &LA, "2021-03-16 19:00", "2021-03-13 01:00", -11 * 3600, -1.375 },
	/* A weekend holds no office time. */
	{ &LA, "2021-03-13 18:00", "2021-03-14 20:00", 0, 0.0 },
	/* Thu 10:00 CET to Tue 10:00 CEST over Easter: 7 h + 1 h. */
	{ &BER_EASTER, "2024-03-28 09:00", "2024-04-02 08:00", 8 * 3600, 1.0 },
	/* Every day, all day, Sat 00:00 PST to Mon 00:00 PDT: 24 h + 23 h
	 * elapsed, two whole days. */
	{ &LA_7, "2021-03-13 08:00", "2021-03-15 07:00", 47 * 3600, 2.0 },
	/* Sun 00:00 PST to 12:00 PDT: 11 of that day's 23 hours. */
	{ &LA_7, "2021-03-14 08:00", "2021-03-14 19:00", 11 * 3600,
	  11.0 / 23.0 },
	/* Kolkata Fri 17:59 to Mon 17:59 IST: 1 min + 8 h 29 min = one
	 * 8.5-hour office day. */
	{ &KOL, "2021-05-14 12:29", "2021-05-17 12:29", 30600, 1.0 },
	/* Half of a Monday in UTC, all day. */
	{ &UTC_ALL, "2021-05-17 00:00", "2021-05-17 12:00", 43200, 0.5 },
};

static void test_bizclock__elapsed(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(span_cases); i++) {
		const struct span_case *sc = &span_cases[i];
		struct pc_bizclock *c = clock_of(sc->h);
		int64_t secs =
			pc_bizclock_office_seconds(c, U(sc->from), U(sc->to));
		double days =
			pc_bizclock_business_days(c, U(sc->from), U(sc->to));

		if (secs != sc->secs || days < sc->days - 1e-9 ||
		    days > sc->days + 1e-9)
			fail_msg("case %zu (%s): %lld s, %f days; expected "
				 "%lld, %f",
				 i, sc->h->name, (long long)secs, days,
				 (long long)sc->secs, sc->days);
		pc_bizclock_free(c);
	}
}

/* "Overdue by" is never negative once due has passed. */
static void test_bizclock__overdue_monotonic(void **state)
{
	struct pc_bizclock *c = clock_of(&LA_7);
	int64_t due = U("2021-11-07 08:30"), t; /* 01:30 PDT, first one */

	(void)state;
	for (t = due; t < due + 3 * 3600; t += 600)
		assert_true(pc_bizclock_business_days(c, due, t) >= 0);
	/* 01:30 PST, an hour after 01:30 PDT: 1/25 of that 25-hour day. */
	assert_true(pc_bizclock_business_days(c, due, U("2021-11-07 09:30")) >
		    1.0 / 25 - 1e-9);
	assert_true(pc_bizclock_business_days(c, due, U("2021-11-07 09:30")) <
		    1.0 / 25 + 1e-9);
	pc_bizclock_free(c);
}

struct fmt_case {
	const char *zone;
	const char *t;
	const char *out;
};

static const struct fmt_case fmt_cases[] = {
	{ "America/Los_Angeles", "2021-05-17 15:00",
	  "Mon 2021-05-17 08:00 PDT" },
	/* Both 01:30s of the fall-back night. */
	{ "America/Los_Angeles", "2021-11-07 08:30",
	  "Sun 2021-11-07 01:30 PDT" },
	{ "America/Los_Angeles", "2021-11-07 09:30",
	  "Sun 2021-11-07 01:30 PST" },
	{ "Asia/Kolkata", "2021-05-14 19:00", "Sat 2021-05-15 00:30 IST" },
	/* Sydney's fall back happens at 16:00 UTC. */
	{ "Australia/Sydney", "2021-04-03 15:59", "Sun 2021-04-04 02:59 AEDT" },
	{ "Australia/Sydney", "2021-04-03 16:00", "Sun 2021-04-04 02:00 AEST" },
	{ "Pacific/Auckland", "2021-09-23 22:00", "Fri 2021-09-24 10:00 NZST" },
	{ "Europe/Berlin", "2024-10-27 00:30", "Sun 2024-10-27 02:30 CEST" },
	{ "Europe/Berlin", "2024-10-27 01:30", "Sun 2024-10-27 02:30 CET" },
	{ "America/New_York", "2021-03-14 07:00", "Sun 2021-03-14 03:00 EDT" },
	{ "UTC", "2021-05-17 15:00", "Mon 2021-05-17 15:00 UTC" },
	/* Outside the cached span: GLib answers (2150-07-01 was a
	 * Wednesday, 1960-01-15 a Friday, per `date -u`). */
	{ "America/Los_Angeles", "2150-07-01 19:00",
	  "Wed 2150-07-01 12:00 PDT" },
	{ "America/Los_Angeles", "1960-01-15 20:00",
	  "Fri 1960-01-15 12:00 PST" },
};

static void test_bizclock__format(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(fmt_cases); i++) {
		struct hours_spec h = UTC_ALL;
		struct pc_bizclock *c;
		char buf[PC_BIZ_FORMAT_MAX];

		h.zone = fmt_cases[i].zone;
		c = clock_of(&h);
		assert_int_equal(pc_bizclock_format(buf, sizeof(buf), c,
						    U(fmt_cases[i].t), NULL),
				 0);
		assert_string_equal(buf, fmt_cases[i].out);
		pc_bizclock_free(c);
	}
}

static void test_bizclock__format_small(void **state)
{
	struct pc_bizclock *c = clock_of(&LA);
	struct pc_err err = { 0 };
	char buf[10];

	(void)state;
	assert_int_equal(pc_bizclock_format(buf, sizeof(buf), c,
					    U("2021-05-17 15:00"), &err),
			 PC_ELIMIT);
	assert_string_equal(buf, "Mon 2021-");
	assert_int_equal(err.code, PC_ELIMIT);
	pc_bizclock_free(c);
}

static void test_bizclock__local(void **state)
{
	struct pc_bizclock *c = clock_of(&LA);
	struct pc_biz_local l;
	struct pc_biz_date d = { 2021, 11, 7 }, spring = { 2021, 3, 14 };

	(void)state;
	/* 09:30 UTC on 2021-11-07 is the second 01:30, in PST. */
	pc_bizclock_local(&l, c, U("2021-11-07 09:30"));
	assert_int_equal(l.date.year, 2021);
	assert_int_equal(l.date.month, 11);
	assert_int_equal(l.date.day, 7);
	assert_int_equal(l.hour, 1);
	assert_int_equal(l.min, 30);
	assert_int_equal(l.sec, 0);
	assert_int_equal(l.wday, 0);
	assert_int_equal(l.offset, -8 * 3600);
	assert_int_equal(l.dst, 0);
	/* Wall time to instant: the repeated 01:30 is the first (PDT)... */
	assert_int_equal(pc_bizclock_to_utc(c, &d, 5400),
			 U("2021-11-07 08:30"));
	/* ...the skipped 02:30 is the jump (03:00 PDT)... */
	assert_int_equal(pc_bizclock_to_utc(c, &spring, 9000),
			 U("2021-03-14 10:00"));
	/* ...and 24:00 is the next midnight, 00:00 PDT. */
	assert_int_equal(pc_bizclock_to_utc(c, &spring, 86400),
			 U("2021-03-15 07:00"));
	pc_bizclock_free(c);
}

static void test_bizclock__bad_zone(void **state)
{
	static const char *const bad[] = {
		"Mars/Olympus_Mons",
		"",
		"+05:30",
		"ABC5", /* a POSIX TZ rule, a fixed offset */
		"CET-1CEST,M3.5.0,M10.5.0/3",
		"../../../etc/passwd",
		"/usr/share/zoneinfo/UTC",
		"America", /* a directory */
		"leapseconds", /* a text file in the database */
		"zone.tab",
		"America/Los_Angeles ",
		"Europe//Berlin",
		"america/los_angeles",
	};
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++) {
		struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
		struct pc_bizclock *c = NULL;
		struct pc_err err = { 0 };
		char want[128];

		h.zone = bad[i];
		assert_int_equal(pc_bizclock_new(&c, &h, &err), PC_EUSAGE);
		assert_null(c);
		assert_int_equal(err.code, PC_EUSAGE);
		snprintf(want, sizeof(want), "unknown time zone '%s'", bad[i]);
		if (strncmp(err.msg, want, strlen(want)) != 0)
			fail_msg("'%s': message '%s'", bad[i], err.msg);
	}
}

static void test_bizclock__bad_hours(void **state)
{
	struct {
		unsigned days;
		int start, end;
		const char *hol;
		int code;
	} bad[] = {
		{ 0, 540, 1020, NULL, PC_EUSAGE },
		{ 0x80, 540, 1020, NULL, PC_EUSAGE },
		{ WD, 540, 540, NULL, PC_EUSAGE },
		{ WD, 1020, 540, NULL, PC_EUSAGE },
		{ WD, -1, 540, NULL, PC_EUSAGE },
		{ WD, 0, 1441, NULL, PC_EUSAGE },
		{ WD, 540, 1020, "2021-02-29", PC_EPARSE },
		{ WD, 540, 1020, "2021-5-31", PC_EPARSE },
		{ WD, 540, 1020, "2021-05-31x", PC_EPARSE },
		{ WD, 540, 1020, "1899-12-31", PC_EPARSE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < PC_ARRAY_SIZE(bad); i++) {
		struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
		struct pc_bizclock *c = NULL;
		struct pc_err err = { 0 };

		h.days = bad[i].days;
		h.start = bad[i].start;
		h.end = bad[i].end;
		h.holidays = &bad[i].hol;
		h.n_holidays = bad[i].hol ? 1 : 0;
		assert_int_equal(pc_bizclock_new(&c, &h, &err), bad[i].code);
		assert_null(c);
		if (bad[i].hol && !strstr(err.msg, bad[i].hol))
			fail_msg("'%s' not named in '%s'", bad[i].hol, err.msg);
	}
}

static void test_bizclock__defaults(void **state)
{
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_bizclock *c = NULL;
	struct pc_biz_date d;
	struct pc_err err = { 0 };

	(void)state;
	h.zone = NULL; /* UTC */
	assert_int_equal(pc_bizclock_new(&c, &h, &err), 0);
	assert_string_equal(pc_bizclock_zone(c), "UTC");
	/* Monday to Friday, all day. */
	assert_int_equal(pc_bizclock_is_open(c, U("2021-05-17 00:00")), 1);
	assert_int_equal(pc_bizclock_is_open(c, U("2021-05-16 23:59:59")), 0);
	assert_int_equal(pc_biz_date_parse(&d, "2024-02-29", &err), 0);
	assert_int_equal(d.year, 2024);
	assert_int_equal(d.month, 2);
	assert_int_equal(d.day, 29);
	pc_bizclock_free(c);
	pc_bizclock_free(NULL);
}

static void test_bizclock__limits(void **state)
{
	struct pc_bizclock *c = clock_of(&UTC_ALL);
	struct pc_err err = { 0 };
	int64_t due = 0;

	(void)state;
	assert_int_equal(pc_bizclock_due(&due, c, 0, PC_BIZ_AMOUNT_MAX + 1, BD,
					 &err),
			 PC_EUSAGE);
	assert_int_equal(pc_bizclock_due(&due, c, 0, 1, (enum pc_biz_unit)99,
					 &err),
			 PC_EUSAGE);
	/* 9999-12-31 is a Friday (`date -u`): + 1 business day is past
	 * the end of time. */
	assert_int_equal(pc_bizclock_due(&due, c, U("9999-12-31 12:00"), 1, BD,
					 &err),
			 PC_ELIMIT);
	/* Hostile instants are clamped, not overflowed. */
	assert_int_equal(pc_bizclock_next_open(c, INT64_MAX), PC_BIZ_TIME_MAX);
	assert_int_equal(pc_bizclock_is_open(c, INT64_MIN), 1); /* 1900-01-01
								   was a Monday */
	assert_int_equal(pc_bizclock_office_seconds(c, INT64_MIN, INT64_MIN),
			 0);
	/* Long cadences run: 100000 calendar days from 2000-01-01 is
	 * 2273-10-16 (by `date -u -d "2000-01-01 + 100000 days"`). */
	assert_int_equal(pc_bizclock_due(&due, c, U("2000-01-01 00:00"),
					 PC_BIZ_AMOUNT_MAX, CD, &err),
			 0);
	assert_int_equal(due, U("2273-10-16 00:00"));
	pc_bizclock_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bizclock__helper),
		cmocka_unit_test(test_bizclock__due),
		cmocka_unit_test(test_bizclock__next_open),
		cmocka_unit_test(test_bizclock__next_opening),
		cmocka_unit_test(test_bizclock__is_open),
		cmocka_unit_test(test_bizclock__business_day),
		cmocka_unit_test(test_bizclock__elapsed),
		cmocka_unit_test(test_bizclock__overdue_monotonic),
		cmocka_unit_test(test_bizclock__format),
		cmocka_unit_test(test_bizclock__format_small),
		cmocka_unit_test(test_bizclock__local),
		cmocka_unit_test(test_bizclock__bad_zone),
		cmocka_unit_test(test_bizclock__bad_hours),
		cmocka_unit_test(test_bizclock__defaults),
		cmocka_unit_test(test_bizclock__limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
