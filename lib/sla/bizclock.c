// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Business time in a zone (see bizclock.h). Calendar arithmetic is done
 * here on day numbers (days since 1970-01-01, proleptic Gregorian); the
 * zone's offsets come from GLib's GTimeZone, which reads the tz database.
 *
 * GLib finds the interval (offset, abbreviation) of an instant by a linear
 * walk over every transition of the zone, a few hundred for
 * America/Los_Angeles. A clock therefore copies the transitions between
 * 1970 and 2100 into a sorted table once, when it is made (by bisection
 * over g_time_zone_find_interval(), which is monotonic in UTC), and
 * answers from the table with a binary search; times outside that range
 * ask GLib directly. Both paths follow the same rule for skipped and
 * repeated wall times.
 */
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "bizclock.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/civil.h"
#include "util/banned.h"

#define DAY 86400
/* The cached span of transitions: 1970-01-01 to 2100-01-01 UTC. */
#define CACHE_LO 0LL
#define CACHE_HI 4102444800LL
/* No zone's offset is larger than this (26 hours). */
#define MAX_OFFSET 93600LL

struct tr {
	int64_t at; /* the first UTC second of the interval */
	int32_t off; /* seconds east of UTC */
	int32_t idx; /* GLib's interval index */
};

struct pc_bizclock {
	GTimeZone *tz; /* owned */
	char zone[PC_BIZ_ZONE_MAX];
	unsigned days;
	int start, end; /* seconds after local midnight */
	int64_t *holidays; /* owned: sorted, distinct day numbers */
	size_t n_holidays;
	/* owned: the interval in effect at CACHE_LO (tr[0].at is CACHE_LO),
	 * then every interval that begins before CACHE_HI, in order */
	struct tr *tr;
	size_t n_tr;
};

static const char *const wday_names[] = { "Sun", "Mon", "Tue", "Wed",
					  "Thu", "Fri", "Sat" };

/* Calendar arithmetic. */

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int month_days(int64_t y, int m)
{
	static const int n[] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return m == 2 && is_leap(y) ? 29 : n[m - 1];
}

static void civil_from_days(struct pc_biz_date *out, int64_t z)
{
	int64_t y;

	pc_civil_from_days(z, &y, &out->month, &out->day);
	out->year = (int)y;
}

/* 1970-01-01 was a Thursday. */
static int wday_of(int64_t day)
{
	return (int)(day - floor_div(day + 4, 7) * 7 + 4);
}

int pc_biz_date_valid(const struct pc_biz_date *d)
{
	return d->year >= 1900 && d->year <= 9999 && d->month >= 1 &&
	       d->month <= 12 && d->day >= 1 &&
	       d->day <= month_days(d->year, d->month);
}

int64_t pc_biz_date_to_days(const struct pc_biz_date *d)
{
	assert(d->month >= 1 && d->month <= 12);
	return pc_days_from_civil(d->year, d->month, d->day);
}

void pc_biz_date_from_days(struct pc_biz_date *out, int64_t days)
{
	civil_from_days(out, days);
}

int pc_biz_date_wday(const struct pc_biz_date *d)
{
	return wday_of(pc_biz_date_to_days(d));
}

static int two_digits(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

int pc_biz_date_parse(struct pc_biz_date *out, const char *s,
		      struct pc_err *err)
{
	static const char shape[] = "dddd-dd-dd";
	size_t i;

	if (!s)
		return pc_err_set(err, PC_EUSAGE, "no date given");
	for (i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? !pc_isdigit(s[i]) : s[i] != shape[i])
			goto bad;
	if (s[i] != '\0')
		goto bad;
	out->year = two_digits(s) * 100 + two_digits(s + 2);
	out->month = two_digits(s + 5);
	out->day = two_digits(s + 8);
	if (pc_biz_date_valid(out))
		return 0;
bad:
	return pc_err_set(err, PC_EPARSE,
			  "invalid date '%s' (expected YYYY-MM-DD, "
			  "years 1900 to 9999)",
			  s);
}

/* The zone. */

static int64_t clamp(int64_t t)
{
	return t < PC_BIZ_TIME_MIN ? PC_BIZ_TIME_MIN :
	       t > PC_BIZ_TIME_MAX ? PC_BIZ_TIME_MAX :
				     t;
}

static int find_utc(GTimeZone *tz, int64_t t)
{
	return g_time_zone_find_interval(tz, G_TIME_TYPE_UNIVERSAL, t);
}

static void push_tr(struct pc_bizclock *c, size_t *alloc, int64_t at, int idx)
{
	PC_ALLOC_GROW(c->tr, c->n_tr + 1, *alloc);
	c->tr[c->n_tr].at = at;
	c->tr[c->n_tr].off = g_time_zone_get_offset(c->tz, idx);
	c->tr[c->n_tr].idx = idx;
	c->n_tr++;
}

/*
 * Records, in order, the transitions in (lo, hi], where the interval at
 * lo is ilo and at hi is ihi: bisection, since the interval index only
 * grows with time. Recursion depth is at most log2(hi - lo).
 */
static void scan_tr(struct pc_bizclock *c, size_t *alloc, int64_t lo, int ilo,
		    int64_t hi, int ihi)
{
	while (ilo != ihi) {
		int64_t mid;
		int imid;

		if (hi - lo == 1) {
			push_tr(c, alloc, hi, ihi);
			return;
		}
		mid = lo + (hi - lo) / 2;
		imid = find_utc(c->tz, mid);
		scan_tr(c, alloc, lo, ilo, mid, imid);
		lo = mid;
		ilo = imid;
	}
}

static void build_cache(struct pc_bizclock *c)
{
	size_t alloc = 0;
	int i0 = find_utc(c->tz, CACHE_LO);

	push_tr(c, &alloc, CACHE_LO, i0);
	scan_tr(c, &alloc, CACHE_LO, i0, CACHE_HI - 1,
		find_utc(c->tz, CACHE_HI - 1));
}

/* The cached interval holding t, CACHE_LO <= t < CACHE_HI. */
static size_t tr_index(const struct pc_bizclock *c, int64_t t)
{
	size_t lo = 0, hi = c->n_tr;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->tr[mid].at <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The offset and GLib interval of the instant t (clamped). */
static int32_t offset_at(const struct pc_bizclock *c, int64_t t, int *idx)
{
	int i;

	if (t >= CACHE_LO && t < CACHE_HI) {
		const struct tr *r = &c->tr[tr_index(c, t)];

		if (idx)
			*idx = r->idx;
		return r->off;
	}
	i = find_utc(c->tz, t);
	if (idx)
		*idx = i;
	return g_time_zone_get_offset(c->tz, i);
}

/* Local day number and seconds into it of the instant t (clamped). */
static int64_t local_split(const struct pc_bizclock *c, int64_t t, int *sod,
			   int *idx)
{
	int64_t lt, day;

	t = clamp(t);
	lt = t + offset_at(c, t, idx);
	day = floor_div(lt, DAY);
	if (sod)
		*sod = (int)(lt - day * DAY);
	return day;
}

/* GLib's answer for a local time: the earlier of the two readings. */
static int64_t glib_to_utc(const struct pc_bizclock *c, int64_t lt)
{
	gint64 a = lt, b = lt;
	int ia = g_time_zone_adjust_time(c->tz, G_TIME_TYPE_STANDARD, &a);
	int ib = g_time_zone_adjust_time(c->tz, G_TIME_TYPE_DAYLIGHT, &b);
	int64_t ua = a - g_time_zone_get_offset(c->tz, ia);
	int64_t ub = b - g_time_zone_get_offset(c->tz, ib);

	return ua < ub ? ua : ub;
}

/*
 * The instant whose wall time is lt (local seconds since 1970-01-01):
 * the first reading when lt happens twice, the instant the clock jumps
 * when lt is skipped.
 */
static int64_t local_to_utc(const struct pc_bizclock *c, int64_t lt)
{
	size_t lo, hi, j;

	if (lt - MAX_OFFSET < CACHE_LO + DAY ||
	    lt + MAX_OFFSET >= CACHE_HI - DAY)
		return glib_to_utc(c, lt);
	lo = tr_index(c, lt - MAX_OFFSET);
	hi = tr_index(c, lt + MAX_OFFSET);
	/* Intervals in UTC order: the first that holds lt is the earliest. */
	for (j = lo; j <= hi; j++) {
		int64_t u = lt - c->tr[j].off;

		if (u >= c->tr[j].at &&
		    (j + 1 == c->n_tr || u < c->tr[j + 1].at))
			return u;
	}
	/* A gap: the first interval whose wall clock starts after lt. */
	for (j = lo + 1; j <= hi; j++)
		if (c->tr[j].at + c->tr[j].off > lt)
			return c->tr[j].at;
	return glib_to_utc(c, lt); /* not reached for a sane zone */
}

static int64_t day_to_utc(const struct pc_bizclock *c, int64_t day, int sod)
{
	return local_to_utc(c, day * DAY + sod);
}

/* The clock. */

static int zone_name_ok(const char *z)
{
	size_t i, n = strlen(z);

	if (n == 0 || n >= PC_BIZ_ZONE_MAX || !pc_isalpha(z[0]) ||
	    z[n - 1] == '/')
		return 0;
	for (i = 0; i < n; i++) {
		int ch = (unsigned char)z[i];

		if (!pc_isalnum(ch) && ch != '/' && ch != '_' && ch != '-' &&
		    ch != '+')
			return 0;
		if (ch == '/' && z[i + 1] == '/')
			return 0;
	}
	return 1;
}

/*
 * 1 when the tz database holds a compiled zone of that name: GLib would
 * otherwise take a POSIX TZ rule ("ABC5") or an offset ("+05:30") for a
 * zone, and complain on stderr about a file that is not one
 * ("leapseconds"). The directory is GLib's: $TZDIR or
 * /usr/share/zoneinfo.
 */
static int zone_file_ok(const char *z)
{
	const char *dir = getenv("TZDIR");
	char path[4096], magic[4];
	int fd, n, ok;

	if (!dir || !*dir)
		dir = "/usr/share/zoneinfo";
	n = snprintf(path, sizeof(path), "%s/%s", dir, z);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	ok = read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
	     memcmp(magic, "TZif", 4) == 0;
	close(fd);
	return ok;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int pc_bizclock_new(struct pc_bizclock **out, const struct pc_biz_hours *h,
		    struct pc_err *err)
{
	struct pc_bizclock *c = NULL;
	const char *zone;
	size_t i, n;
	int rc = 0;

	assert(out && h);
	zone = h->zone ? h->zone : "UTC";
	if ((h->days & PC_BIZ_EVERY_DAY) == 0 || (h->days & ~PC_BIZ_EVERY_DAY))
		return pc_err_set(err, PC_EUSAGE,
				  "invalid working days 0x%x: give at least "
				  "one day of the week",
				  h->days);
	if (h->start < 0 || h->end > PC_BIZ_DAY_MINUTES || h->start >= h->end)
		return pc_err_set(err, PC_EUSAGE,
				  "invalid office hours %d-%d (minutes after "
				  "midnight): start must come before end, "
				  "within 0-1440",
				  h->start, h->end);
	if (!zone_name_ok(zone) ||
	    (strcmp(zone, "UTC") != 0 && !zone_file_ok(zone)))
		return pc_err_set(err, PC_EUSAGE,
				  "unknown time zone '%s': give an IANA name "
				  "such as 'Europe/Berlin'",
				  zone);
	c = xcalloc(1, sizeof(*c));
	c->tz = strcmp(zone, "UTC") == 0 ? g_time_zone_new_utc() :
					   g_time_zone_new_identifier(zone);
	if (!c->tz) {
		rc = pc_err_set(err, PC_EUSAGE, "unknown time zone '%s'", zone);
		goto out;
	}
	memcpy(c->zone, zone, strlen(zone) + 1);
	c->days = h->days;
	c->start = h->start * 60;
	c->end = h->end * 60;
	if (h->n_holidays)
		c->holidays = xreallocarray(NULL, h->n_holidays,
					    sizeof(*c->holidays));
	for (i = 0; i < h->n_holidays; i++) {
		struct pc_biz_date d;

		if ((rc = pc_biz_date_parse(&d, h->holidays[i], err)) < 0) {
			pc_err_prefix(err, "holiday %zu", i + 1);
			goto out;
		}
		c->holidays[i] = pc_biz_date_to_days(&d);
	}
	if (h->n_holidays)
		qsort(c->holidays, h->n_holidays, sizeof(*c->holidays),
		      cmp_i64);
	for (i = n = 0; i < h->n_holidays; i++)
		if (n == 0 || c->holidays[n - 1] != c->holidays[i])
			c->holidays[n++] = c->holidays[i];
	c->n_holidays = n;
	build_cache(c);
	*out = c;
	c = NULL;
out:
	pc_bizclock_free(c);
	return rc;
}

void pc_bizclock_free(struct pc_bizclock *c)
{
	if (!c)
		return;
	if (c->tz)
		g_time_zone_unref(c->tz);
	free(c->holidays);
	free(c->tr);
	free(c);
}

const char *pc_bizclock_zone(const struct pc_bizclock *c)
{
	return c->zone;
}

void pc_bizclock_local(struct pc_biz_local *out, const struct pc_bizclock *c,
		       int64_t t)
{
	int sod, idx;
	int64_t day = local_split(c, t, &sod, &idx);

	civil_from_days(&out->date, day);
	out->hour = sod / 3600;
	out->min = sod / 60 % 60;
	out->sec = sod % 60;
	out->wday = wday_of(day);
	out->offset = g_time_zone_get_offset(c->tz, idx);
	out->dst = g_time_zone_is_dst(c->tz, idx) ? 1 : 0;
}

int64_t pc_bizclock_to_utc(const struct pc_bizclock *c,
			   const struct pc_biz_date *d, int sec_of_day)
{
	assert(pc_biz_date_valid(d));
	assert(sec_of_day >= 0 && sec_of_day <= DAY);
	return day_to_utc(c, pc_biz_date_to_days(d), sec_of_day);
}

static int is_holiday(const struct pc_bizclock *c, int64_t day)
{
	size_t lo = 0, hi = c->n_holidays;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->holidays[mid] < day)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n_holidays && c->holidays[lo] == day;
}

static int bday(const struct pc_bizclock *c, int64_t day)
{
	return (c->days & (1u << wday_of(day))) && !is_holiday(c, day);
}

int pc_bizclock_is_business_day(const struct pc_bizclock *c,
				const struct pc_biz_date *d)
{
	assert(pc_biz_date_valid(d));
	return bday(c, pc_biz_date_to_days(d));
}

/* The office window [*open, *close) of a business day. */
static void window(const struct pc_bizclock *c, int64_t day, int64_t *o,
		   int64_t *cl)
{
	*o = day_to_utc(c, day, c->start);
	*cl = day_to_utc(c, day, c->end);
}

int pc_bizclock_is_open(const struct pc_bizclock *c, int64_t t)
{
	int64_t day, o, cl;

	t = clamp(t);
	day = local_split(c, t, NULL, NULL);
	if (!bday(c, day))
		return 0;
	window(c, day, &o, &cl);
	return o <= t && t < cl;
}

/*
 * The first instant at or after t in office hours, and (when day_out is
 * not NULL) its local day. Ends: the day mask is not empty and holidays
 * are finitely many.
 */
static int64_t next_open(const struct pc_bizclock *c, int64_t t,
			 int64_t *day_out)
{
	int64_t day, o = 0, cl;

	t = clamp(t);
	for (day = local_split(c, t, NULL, NULL);; day++) {
		if (!bday(c, day))
			continue;
		window(c, day, &o, &cl);
		if (t < cl && o < cl)
			break;
	}
	if (day_out)
		*day_out = day;
	return t > o ? t : o;
}

int64_t pc_bizclock_next_open(const struct pc_bizclock *c, int64_t t)
{
	return next_open(c, t, NULL);
}

int64_t pc_bizclock_next_opening(const struct pc_bizclock *c, int64_t t)
{
	int64_t day, o, cl;

	t = clamp(t);
	for (day = local_split(c, t, NULL, NULL);; day++) {
		if (!bday(c, day))
			continue;
		window(c, day, &o, &cl);
		if (o >= t && o < cl)
			return o;
	}
}

int pc_bizclock_due(int64_t *due_out, const struct pc_bizclock *c,
		    int64_t posted, unsigned amount, enum pc_biz_unit unit,
		    struct pc_err *err)
{
	int64_t due, day, s, o;
	unsigned left;
	int sod;

	if (amount > PC_BIZ_AMOUNT_MAX)
		return pc_err_set(err, PC_EUSAGE,
				  "cadence of %u is too long (at most %d)",
				  amount, PC_BIZ_AMOUNT_MAX);
	posted = clamp(posted);
	switch (unit) {
	case PC_BIZ_BUSINESS_DAYS:
		s = next_open(c, posted, &day);
		local_split(c, s, &sod, NULL);
		o = day_to_utc(c, day, c->start);
		for (left = amount; left > 0;)
			if (bday(c, ++day))
				left--;
		/* A clock started at an opening is due at an opening, even
		 * when that opening's wall time was skipped on day one. */
		due = s == o ? day_to_utc(c, day, c->start) :
			       day_to_utc(c, day, sod);
		break;
	case PC_BIZ_DAYS:
	case PC_BIZ_WEEKS:
		day = local_split(c, posted, &sod, NULL);
		day += (int64_t)amount * (unit == PC_BIZ_WEEKS ? 7 : 1);
		due = day_to_utc(c, day, sod);
		break;
	case PC_BIZ_HOURS:
		due = posted + (int64_t)amount * 3600;
		break;
	default:
		return pc_err_set(err, PC_EUSAGE, "unknown cadence unit %d",
				  (int)unit);
	}
	if (due > PC_BIZ_TIME_MAX)
		return pc_err_set(err, PC_ELIMIT,
				  "due date after the year 9999");
	*due_out = due;
	return 0;
}

/* Office seconds and business days in [from, to), from <= to. */
static void span(const struct pc_bizclock *c, int64_t from, int64_t to,
		 int64_t *secs, double *days)
{
	int64_t d, last, o, cl, lo, hi;

	*secs = 0;
	*days = 0;
	from = clamp(from);
	to = clamp(to);
	last = local_split(c, to, NULL, NULL);
	for (d = local_split(c, from, NULL, NULL); d <= last; d++) {
		if (!bday(c, d))
			continue;
		window(c, d, &o, &cl);
		lo = from > o ? from : o;
		hi = to < cl ? to : cl;
		if (hi <= lo)
			continue;
		*secs += hi - lo;
		*days += (double)(hi - lo) / (double)(cl - o);
	}
}

int64_t pc_bizclock_office_seconds(const struct pc_bizclock *c, int64_t from,
				   int64_t to)
{
	int64_t secs;
	double days;

	if (to < from) {
		span(c, to, from, &secs, &days);
		return -secs;
	}
	span(c, from, to, &secs, &days);
	return secs;
}

/* Business days among the local days [d0, d1): whole weeks by
 * arithmetic, holidays by binary search in the sorted list. */
static int64_t count_bdays(const struct pc_bizclock *c, int64_t d0, int64_t d1)
{
	int64_t n, weeks, count, d;
	size_t lo = 0, hi = c->n_holidays, i;

	if (d1 <= d0)
		return 0;
	n = d1 - d0;
	weeks = n / 7;
	count = weeks * __builtin_popcount(c->days & 0x7fu);
	for (d = d0 + weeks * 7; d < d1; d++)
		if (c->days & (1u << wday_of(d)))
			count++;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->holidays[mid] < d0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < c->n_holidays && c->holidays[i] < d1; i++)
		if (c->days & (1u << wday_of(c->holidays[i])))
			count--;
	return count;
}

/*
 * span()'s day count, without walking the days in between: every local
 * day strictly between the first and the last lies wholly inside
 * [from, to), so each of its business days counts exactly 1.
 */
static double span_days(const struct pc_bizclock *c, int64_t from, int64_t to)
{
	int64_t first, last, secs;
	double days, edge;

	from = clamp(from);
	to = clamp(to);
	first = local_split(c, from, NULL, NULL);
	last = local_split(c, to, NULL, NULL);
	if (last - first < 3) {
		span(c, from, to, &secs, &days);
		return days;
	}
	/* The first day's part, up to the start of the second day. */
	span(c, from, day_to_utc(c, first + 1, 0), &secs, &edge);
	days = edge;
	/* The last day's part, from its local midnight. */
	span(c, day_to_utc(c, last, 0), to, &secs, &edge);
	days += edge;
	return days + (double)count_bdays(c, first + 1, last);
}

double pc_bizclock_business_days(const struct pc_bizclock *c, int64_t from,
				 int64_t to)
{
	if (to < from)
		return -span_days(c, to, from);
	return span_days(c, from, to);
}

int pc_bizclock_format(char *buf, size_t len, const struct pc_bizclock *c,
		       int64_t t, struct pc_err *err)
{
	struct pc_biz_local l;
	int idx, n;

	pc_bizclock_local(&l, c, t);
	local_split(c, t, NULL, &idx);
	n = snprintf(buf, len, "%s %04d-%02d-%02d %02d:%02d %s",
		     wday_names[l.wday], l.date.year, l.date.month, l.date.day,
		     l.hour, l.min, g_time_zone_get_abbreviation(c->tz, idx));
	if (n < 0 || (size_t)n >= len)
		return pc_err_set(err, PC_ELIMIT,
				  "buffer of %zu bytes too small for a time",
				  len);
	return 0;
}
