/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Business time in a maintainer's zone: office hours on working days,
 * holidays, "next opening", "due = posted + cadence" and the office time
 * elapsed between two instants.
 *
 * Every instant is an int64_t count of seconds since the epoch (UTC);
 * "now" is always a parameter. Zone arithmetic uses the system tz database
 * (/usr/share/zoneinfo, or $TZDIR) through GLib, per clock object: DST is
 * whatever the database says, never a fixed offset, and nothing touches
 * the process's TZ. A clock is immutable once made, so one clock may be
 * used from several threads at once.
 *
 * Local wall times that a zone skips or repeats (DST changes) map to
 * instants by one rule everywhere in this module: a time inside a
 * spring-forward gap is the instant the clock jumps (02:30 on the day
 * America/Los_Angeles goes from 02:00 PST to 03:00 PDT is 03:00 PDT); a
 * time that happens twice is its first occurrence (01:30 on the day it
 * falls back from PDT to PST is 01:30 PDT).
 *
 * Times are clamped to [PC_BIZ_TIME_MIN, PC_BIZ_TIME_MAX] (1900 to 9999)
 * before use, so hostile dates from mail headers cannot overflow.
 */
#ifndef PC_SLA_BIZCLOCK_H
#define PC_SLA_BIZCLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Working days as a mask, bit = day of the week (0 Sunday ... 6
 * Saturday), the same bits as struct pc_prof_hours.days. */
#define PC_BIZ_SUN (1u << 0)
#define PC_BIZ_MON (1u << 1)
#define PC_BIZ_TUE (1u << 2)
#define PC_BIZ_WED (1u << 3)
#define PC_BIZ_THU (1u << 4)
#define PC_BIZ_FRI (1u << 5)
#define PC_BIZ_SAT (1u << 6)
#define PC_BIZ_WEEKDAYS 0x3eu /* Monday to Friday */
#define PC_BIZ_EVERY_DAY 0x7fu

#define PC_BIZ_DAY_MINUTES 1440 /* an end of 1440 is the next midnight */
#define PC_BIZ_ZONE_MAX 64 /* longest zone name, NUL included */
#define PC_BIZ_AMOUNT_MAX 100000 /* largest cadence amount */
#define PC_BIZ_FORMAT_MAX 64 /* a buffer this big always fits */

/* 1900-01-01T00:00:00Z and 9999-12-31T23:59:59Z. */
#define PC_BIZ_TIME_MIN (-2208988800LL)
#define PC_BIZ_TIME_MAX 253402300799LL

/* A local calendar date (proleptic Gregorian). */
struct pc_biz_date {
	int year; /* 1900..9999 where the clock takes one */
	int month; /* 1..12 */
	int day; /* 1..31 */
};

/*
 * Office hours, owned by the caller and only read by pc_bizclock_new().
 * Hours are local wall times on each business day: [start, end) in
 * minutes after local midnight, start < end (no windows across midnight).
 * start 0 and end PC_BIZ_DAY_MINUTES mean "all day", the value for "no
 * office hours stated".
 */
struct pc_biz_hours {
	unsigned days; /* PC_BIZ_* mask, not 0 */
	int start, end; /* 0 <= start < end <= PC_BIZ_DAY_MINUTES */
	/* borrowed: an IANA zone name from the tz database
	 * ("America/Los_Angeles", "UTC"; NULL is "UTC"); offsets ("+05:30")
	 * and POSIX TZ rules are not zone names */
	const char *zone;
	/* borrowed: n_holidays local dates "YYYY-MM-DD"; a holiday is not a
	 * business day even when it is a working day of the week */
	const char *const *holidays;
	size_t n_holidays;
};
#define PC_BIZ_HOURS_INIT                                              \
	{                                                              \
		PC_BIZ_WEEKDAYS, 0, PC_BIZ_DAY_MINUTES, "UTC", NULL, 0 \
	}

/* The units of a cadence; see pc_bizclock_due(). */
enum pc_biz_unit {
	PC_BIZ_BUSINESS_DAYS = 1,
	PC_BIZ_DAYS, /* local calendar days */
	PC_BIZ_WEEKS, /* 7 local calendar days */
	PC_BIZ_HOURS, /* elapsed hours */
};

/* An instant as the zone's wall clock shows it. */
struct pc_biz_local {
	struct pc_biz_date date;
	int hour, min, sec;
	int wday; /* 0 Sunday ... 6 Saturday */
	int offset; /* seconds east of UTC (PDT: -25200) */
	int dst; /* 1 when the zone observes daylight saving time then */
};

struct pc_bizclock;

/*
 * Compiles office hours into a clock (caller frees with
 * pc_bizclock_free()); the zone is loaded once, here. Returns 0,
 * PC_EUSAGE for a zone the tz database does not know ("unknown time zone
 * 'Mars/Olympus_Mons'"), an empty day mask or bad hours, or PC_EPARSE for
 * a holiday that is not a valid "YYYY-MM-DD" date (the message names it).
 */
int pc_bizclock_new(struct pc_bizclock **out, const struct pc_biz_hours *hours,
		    struct pc_err *err);
void pc_bizclock_free(struct pc_bizclock *c);

/* The zone's name, borrowed until the clock is freed. */
const char *pc_bizclock_zone(const struct pc_bizclock *c);

/* Fills out with the local wall time of t in the clock's zone. */
void pc_bizclock_local(struct pc_biz_local *out, const struct pc_bizclock *c,
		       int64_t t);

/*
 * The instant at which the zone's wall clock shows date d (a valid date,
 * asserted) and sec_of_day seconds after midnight (0..86400; 86400 is the
 * next midnight). Skipped and repeated times follow the rule above.
 */
int64_t pc_bizclock_to_utc(const struct pc_bizclock *c,
			   const struct pc_biz_date *d, int sec_of_day);

/* 1 when d (a valid date, asserted) is a working day and no holiday. */
int pc_bizclock_is_business_day(const struct pc_bizclock *c,
				const struct pc_biz_date *d);

/*
 * 1 when t is inside office hours: its local date is a business day and
 * open <= t < close, where open and close are the instants of that day's
 * start and end wall times.
 */
int pc_bizclock_is_open(const struct pc_bizclock *c, int64_t t);

/* The first instant at or after t inside office hours (t when open). */
int64_t pc_bizclock_next_open(const struct pc_bizclock *c, int64_t t);

/* The first opening at or after t: the start of a business day's office
 * hours (t itself only when t is that instant; mid-day, tomorrow's). */
int64_t pc_bizclock_next_opening(const struct pc_bizclock *c, int64_t t);

/*
 * When a series posted at `posted` is due after `amount` units
 * (0..PC_BIZ_AMOUNT_MAX):
 *
 * PC_BIZ_BUSINESS_DAYS: the clock starts at s = next_open(posted): the
 *   posting itself when made in office hours, else the next opening (a
 *   posting made in the evening, on a weekend or on a holiday starts
 *   counting at the next business day's opening). Due is the same local
 *   wall time as s on the amount-th business day after s's local date:
 *   Friday 16:00 + 1 = Monday 16:00; Saturday 10:00 + 1 = Tuesday at
 *   opening; amount 0 is s itself. Office hours keep their wall times
 *   across DST, so due always lies inside office hours.
 * PC_BIZ_DAYS: the same local wall time `amount` calendar days after
 *   posted's local date (09:00 stays 09:00 across a DST change, so a
 *   "day" may last 23 or 25 hours), counted from the posting itself.
 * PC_BIZ_WEEKS: PC_BIZ_DAYS times 7.
 * PC_BIZ_HOURS: posted + amount * 3600 (elapsed time, whatever the
 *   wall clock does).
 *
 * Calendar units ignore office hours; to act at the maintainers' next
 * opening, take pc_bizclock_next_open() of the result. Returns 0,
 * PC_EUSAGE for an amount above PC_BIZ_AMOUNT_MAX or an unknown unit, or
 * PC_ELIMIT when due would lie after PC_BIZ_TIME_MAX.
 */
int pc_bizclock_due(int64_t *due_out, const struct pc_bizclock *c,
		    int64_t posted, unsigned amount, enum pc_biz_unit unit,
		    struct pc_err *err);

/*
 * Seconds of office time in [from, to): the sum, over business days, of
 * the overlap with [open, close). Negative when to < from. Linear in the
 * number of days spanned.
 */
int64_t pc_bizclock_office_seconds(const struct pc_bizclock *c, int64_t from,
				   int64_t to);

/*
 * Business days elapsed from `from` to `to` (negative when to < from):
 * every whole business day counts 1, and the part of a business day's
 * office hours that lies in the span counts its share of that day's
 * office time (elapsed seconds over the day's elapsed office length).
 * Monotonic in `to`, so for due = pc_bizclock_due(posted, n business
 * days), "overdue by" pc_bizclock_business_days(due, now) is >= 0 exactly
 * when now >= due, and pc_bizclock_business_days(posted, due) is n,
 * except when a DST change falls inside office hours on a business day
 * in between (never with Monday-Friday hours in zones that change on
 * Sundays, as the US, EU, Australia and New Zealand do), where it is off
 * by the changed hour's share of that day.
 */
double pc_bizclock_business_days(const struct pc_bizclock *c, int64_t from,
				 int64_t to);

/*
 * Writes t in the clock's zone as "Mon 2021-05-17 08:00 PDT" (English
 * day names whatever the locale; the zone's abbreviation from the tz
 * database, a number such as "-03" for zones that have none)
 * into buf of len bytes, always NUL-terminated when len > 0. Returns 0, or
 * PC_ELIMIT when it did not fit (PC_BIZ_FORMAT_MAX always fits).
 */
int pc_bizclock_format(char *buf, size_t len, const struct pc_bizclock *c,
		       int64_t t, struct pc_err *err);

/*
 * Parses a date "YYYY-MM-DD" (exactly: four digits, two, two; a real
 * calendar date, years 1900..9999). Returns 0 or PC_EPARSE naming it.
 */
int pc_biz_date_parse(struct pc_biz_date *out, const char *s,
		      struct pc_err *err);
/* 1 when d is a real calendar date of years 1900..9999. */
int pc_biz_date_valid(const struct pc_biz_date *d);
/* Days from 1970-01-01 to d (negative before it). d's month is 1..12
 * (asserted); a day past the month's end carries over. */
int64_t pc_biz_date_to_days(const struct pc_biz_date *d);
/* The date `days` days after 1970-01-01. */
void pc_biz_date_from_days(struct pc_biz_date *out, int64_t days);
/* The day of the week of d: 0 Sunday ... 6 Saturday. */
int pc_biz_date_wday(const struct pc_biz_date *d);

#endif
