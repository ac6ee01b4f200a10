// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Policy phrases (see phrase.h). Text is first normalised: ASCII lower
 * case, blanks and newlines collapsed to one space, typographic dashes
 * and quotes made ASCII. The grammars, informally:
 *
 *   duration  = [modifier] number [("-" | "to" | "or") number]
 *               ["business" | "working" | "calendar"] unit
 *   number    = digits | "a" | "an" | "one" .. "twelve" | "a couple of"
 *   unit      = hour(s) | hr(s) | h | day(s) | weekday(s) | week(s) |
 *               fortnight(s)        ("24h": h and d only right after digits)
 *   deadline  = ("before" | "prior to") rc      exclusive
 *             | ("by" | "no later than") rc     inclusive
 *             | ["end of"] ["the"] "last -rc" | duration "before the merge
 *               window" ["opens"]
 *   rc        = ["-"] "rc" [" "] digits
 *   hours     = [days] time-range [days] [zone] [days]
 *   time      = H[:MM][am|pm|a.m.|p.m.] (a colon or am/pm is required)
 *             | "noon" | "midnight"
 *   days      = day ("-" | "to" | "through") day | "weekdays" | "daily"
 *
 * In prose a value counts only next to its cue words: a cadence in a
 * sentence about pinging, resending or reminding; a minimum interval in
 * one about reposting or time between postings; a deadline whose clause
 * says "sent/submitted/posted" (new features) or "merged/stabilized/
 * applied" (merge); office hours near "office hours" or "time zone".
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "phrase.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define TEST_TEXT_MAX 300
#define SHORT_WORDS_MAX 16
#define PERSON_MAX 160

/* ---- normalisation and word matching ---- */

/* Normalises (s, len) into a new string (caller frees). */
static char *norm(const char *s, size_t len, size_t *len_out)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;
	int space = 1;

	pc_buf_grow(&b, len);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0xe2 && i + 2 < len &&
		    (unsigned char)s[i + 1] == 0x80) {
			unsigned char d = (unsigned char)s[i + 2];

			if (d >= 0x90 && d <= 0x95)
				c = '-';
			else if (d == 0x98 || d == 0x99)
				c = '\'';
			else if (d == 0x9c || d == 0x9d)
				c = '"';
			else
				d = 0;
			if (d) {
				i += 2;
				pc_buf_addch(&b, (char)c);
				space = 0;
				continue;
			}
		}
		if (pc_isspace(c)) {
			if (!space)
				pc_buf_addch(&b, ' ');
			space = 1;
			continue;
		}
		pc_buf_addch(&b, (char)pc_tolower(c));
		space = 0;
	}
	pc_buf_rtrim(&b);
	return pc_buf_detach(&b, len_out);
}

/* Is c (not NUL) one of set? */
static int in_set(int c, const char *set)
{
	return c && strchr(set, c) != NULL;
}

static int alnum_at(const char *n, size_t i)
{
	return pc_isalnum((unsigned char)n[i]) || (unsigned char)n[i] >= 0x80;
}

static int word_start(const char *n, size_t i)
{
	return i == 0 || !alnum_at(n, i - 1);
}

/* Length of w when n + i starts with it and a word ends there; else 0. */
static size_t match_word(const char *n, size_t i, const char *w)
{
	size_t k = strlen(w);

	if (strncmp(n + i, w, k) != 0)
		return 0;
	if (n[i + k] && alnum_at(n, i + k) && alnum_at(w, k - 1))
		return 0;
	return k;
}

/* The first whole-word occurrence of w in n, or NULL. A w ending in '*'
 * matches any word it starts ("ping*" finds "pinging"). */
static const char *find_word(const char *n, const char *w)
{
	size_t k = strlen(w), i;
	int stem = k && w[k - 1] == '*';

	if (stem)
		k--;
	for (i = 0; n[i]; i++) {
		if (strncmp(n + i, w, k) != 0 || !word_start(n, i))
			continue;
		if (stem || !n[i + k] || !alnum_at(n, i + k) ||
		    !alnum_at(w, k - 1))
			return n + i;
	}
	return NULL;
}

static int has_any(const char *n, const char *const *words)
{
	for (; *words; words++)
		if (find_word(n, *words))
			return 1;
	return 0;
}

static size_t skip_spaces(const char *n, size_t i)
{
	while (n[i] == ' ')
		i++;
	return i;
}

/* Drops a final full stop (and blanks) from a normalised string. */
static void drop_stop(char *n, size_t *len)
{
	while (*len &&
	       (n[*len - 1] == '.' || n[*len - 1] == ' ' || n[*len - 1] == '!'))
		n[--*len] = '\0';
}

static size_t word_count(const char *n)
{
	size_t i, w = 0;

	for (i = 0; n[i]; i++)
		if (n[i] != ' ' && (i == 0 || n[i - 1] == ' '))
			w++;
	return w;
}

/* A full stop, '!' or '?' followed by more text. */
static int has_sentence_break(const char *n)
{
	size_t i;

	for (i = 0; n[i]; i++)
		if ((n[i] == '.' || n[i] == '!' || n[i] == '?') &&
		    n[i + 1] == ' ' && n[i + 2])
			return 1;
	return 0;
}

/* ---- durations ---- */

static const struct {
	const char *w;
	unsigned v;
} numwords[] = {
	{ "a couple of", 2 }, { "couple of", 2 }, { "a pair of", 2 },
	{ "one", 1 },	      { "two", 2 },	  { "three", 3 },
	{ "four", 4 },	      { "five", 5 },	  { "six", 6 },
	{ "seven", 7 },	      { "eight", 8 },	  { "nine", 9 },
	{ "ten", 10 },	      { "eleven", 11 },	  { "twelve", 12 },
	{ "fourteen", 14 },   { "a", 1 },	  { "an", 1 },
};

static size_t match_number(const char *n, size_t i, unsigned *v, int *digits)
{
	size_t k;

	*digits = 0;
	if (pc_isdigit((unsigned char)n[i])) {
		unsigned x = 0;

		for (k = 0; pc_isdigit((unsigned char)n[i + k]); k++) {
			if (k == 4)
				return 0;
			x = x * 10 + (unsigned)(n[i + k] - '0');
		}
		/* "2.5 weeks" and "1,000" are not read. */
		if ((n[i + k] == '.' || n[i + k] == ',') &&
		    pc_isdigit((unsigned char)n[i + k + 1]))
			return 0;
		*v = x;
		*digits = 1;
		return k;
	}
	for (k = 0; k < PC_ARRAY_SIZE(numwords); k++) {
		size_t m = match_word(n, i, numwords[k].w);

		if (m) {
			*v = numwords[k].v;
			return m;
		}
	}
	return 0;
}

static const struct {
	const char *w;
	enum pc_prof_unit u;
	unsigned mult;
	int attached_only; /* only right after digits: "24h" */
} units[] = {
	{ "hours", PC_PROF_UNIT_HOURS, 1, 0 },
	{ "hour", PC_PROF_UNIT_HOURS, 1, 0 },
	{ "hrs", PC_PROF_UNIT_HOURS, 1, 0 },
	{ "hr", PC_PROF_UNIT_HOURS, 1, 0 },
	{ "h", PC_PROF_UNIT_HOURS, 1, 1 },
	{ "weekdays", PC_PROF_UNIT_BUSINESS_DAYS, 1, 0 },
	{ "weekday", PC_PROF_UNIT_BUSINESS_DAYS, 1, 0 },
	{ "days", PC_PROF_UNIT_DAYS, 1, 0 },
	{ "day", PC_PROF_UNIT_DAYS, 1, 0 },
	{ "d", PC_PROF_UNIT_DAYS, 1, 1 },
	{ "weeks", PC_PROF_UNIT_WEEKS, 1, 0 },
	{ "week", PC_PROF_UNIT_WEEKS, 1, 0 },
	{ "wks", PC_PROF_UNIT_WEEKS, 1, 0 },
	{ "wk", PC_PROF_UNIT_WEEKS, 1, 0 },
	{ "fortnights", PC_PROF_UNIT_WEEKS, 2, 0 },
	{ "fortnight", PC_PROF_UNIT_WEEKS, 2, 0 },
};

static size_t match_unit(const char *n, size_t i, int attached,
			 enum pc_prof_unit *u, unsigned *mult)
{
	size_t j = i, m, k;
	int business = 0;

	if (!attached) {
		if ((m = match_word(n, j, "business")) ||
		    (m = match_word(n, j, "working"))) {
			business = 1;
			j = skip_spaces(n, j + m);
		} else if ((m = match_word(n, j, "calendar")) ||
			   (m = match_word(n, j, "full"))) {
			j = skip_spaces(n, j + m);
		}
	}
	for (k = 0; k < PC_ARRAY_SIZE(units); k++) {
		if (units[k].attached_only && (!attached || business))
			continue;
		if (!(m = match_word(n, j, units[k].w)))
			continue;
		/* match_word() lets "h" match the start of "hours"... only
		 * whole words count. */
		if (n[j + m] && alnum_at(n, j + m))
			continue;
		*u = units[k].u;
		*mult = units[k].mult;
		if (business && *u == PC_PROF_UNIT_DAYS)
			*u = PC_PROF_UNIT_BUSINESS_DAYS;
		return j + m - i;
	}
	return 0;
}

/* A duration starting at n[i]; its end in *end. */
static int match_duration(const char *n, size_t i, struct pc_prof_duration *d,
			  size_t *end)
{
	unsigned v, v2, mult;
	int digits, digits2;
	size_t k, j, save;
	enum pc_prof_unit u;

	if (!word_start(n, i) || !(k = match_number(n, i, &v, &digits)))
		return 0;
	j = i + k;
	/* A range: "1 - 2 weeks", "one to two weeks": the later bound. */
	save = j;
	j = skip_spaces(n, j);
	if (n[j] == '-' || (k = match_word(n, j, "to")) ||
	    (k = match_word(n, j, "or"))) {
		j = skip_spaces(n, j + (n[j] == '-' ? 1 : k));
		if ((k = match_number(n, j, &v2, &digits2)) && v2 >= v) {
			v = v2;
			digits = digits2;
			save = j + k;
		}
	}
	j = save;
	if (digits && pc_isalpha((unsigned char)n[j]) &&
	    (k = match_unit(n, j, 1, &u, &mult)))
		goto found;
	if (n[j] == ' ' || n[j] == '-')
		j++;
	if (!(k = match_unit(n, j, 0, &u, &mult)))
		return 0;
found:
	v *= mult;
	if (v == 0 || v > 9999)
		return 0;
	d->count = v;
	d->unit = u;
	*end = j + k;
	return 1;
}

static const char *const modifiers[] = {
	"up to ",
	"within ",
	"at least ",
	"a minimum of ",
	"minimum of ",
	"minimum ",
	"min ",
	"after ",
	"wait ",
	"about ",
	"around ",
	"approximately ",
	"roughly ",
	"~",
	"at most ",
	"no more than ",
	"no less than ",
	"not before ",
	"ping after ",
	"resend after ",
	NULL,
};

static size_t skip_modifiers(const char *n, size_t i)
{
	size_t k;
	int again = 1;

	while (again) {
		again = 0;
		for (k = 0; modifiers[k]; k++) {
			size_t m = strlen(modifiers[k]);

			if (!strncmp(n + i, modifiers[k], m)) {
				i += m;
				again = 1;
			}
		}
	}
	return i;
}

int pc_phrase_duration(struct pc_prof_duration *out, const char *s, size_t len,
		       struct pc_err *err)
{
	size_t nl, i, end;
	char *n = norm(s, len, &nl);
	int rc = 0;

	drop_stop(n, &nl);
	i = skip_modifiers(n, 0);
	if (!match_duration(n, i, out, &end) || end != nl)
		rc = pc_err_set(err, PC_EPARSE,
				"'%.80s' is not a duration (say '8 business "
				"days', '1 week' or '24 hours')",
				n);
	free(n);
	return rc;
}

/* ---- deadlines ---- */

static size_t match_rc(const char *n, size_t i, unsigned *rc)
{
	size_t j = i;
	unsigned v = 0;
	int k;

	if (n[j] == '-')
		j++;
	else if (!word_start(n, i))
		return 0;
	if (n[j] != 'r' || n[j + 1] != 'c')
		return 0;
	j += 2;
	/* "rc5", "rc 5"; not "rc-3" (no such tag) */
	if (n[j] == ' ')
		j++;
	for (k = 0; pc_isdigit((unsigned char)n[j]); k++, j++) {
		if (k == 2)
			return 0;
		v = v * 10 + (unsigned)(n[j] - '0');
	}
	if (!k || v == 0 || v > 20 || alnum_at(n, j))
		return 0;
	*rc = v;
	return j - i;
}

/* "last -rc", "last rc" at n[i] (no number after). */
static size_t match_last_rc(const char *n, size_t i)
{
	size_t m, j;

	if (!word_start(n, i))
		return 0;
	if (!(m = match_word(n, i, "last")) && !(m = match_word(n, i, "final")))
		return 0;
	j = skip_spaces(n, i + m);
	if (n[j] == '-')
		j++;
	if (n[j] != 'r' || n[j + 1] != 'c' || alnum_at(n, j + 2))
		return 0;
	return j + 2 - i;
}

/* Does the text before position p end with word w (then blanks)? */
static int ends_with_word(const char *n, size_t p, const char *w)
{
	size_t k = strlen(w);

	while (p && n[p - 1] == ' ')
		p--;
	return p >= k && !strncmp(n + p - k, w, k) && word_start(n, p - k);
}

/*
 * A deadline at n[i]; *start is where its phrase starts (preposition
 * included), *end where it ends.
 */
static int match_deadline(const char *n, size_t i, struct pc_prof_deadline *d,
			  size_t *start, size_t *end, int strict)
{
	unsigned rc;
	size_t k, p;

	memset(d, 0, sizeof(*d));
	if ((k = match_rc(n, i, &rc))) {
		p = i;
		if (ends_with_word(n, p, "the"))
			p -= 4;
		while (p && n[p - 1] == ' ')
			p--;
		if (ends_with_word(n, p, "before") ||
		    ends_with_word(n, p, "prior to")) {
			d->inclusive = 0;
			*start = p - (ends_with_word(n, p, "before") ? 6 : 8);
		} else if (ends_with_word(n, p, "by") ||
			   ends_with_word(n, p, "no later than")) {
			d->inclusive = 1;
			*start = p - (ends_with_word(n, p, "by") ? 2 : 13);
		} else {
			return 0;
		}
		d->kind = PC_PROF_DL_RC;
		d->rc = rc;
		*end = i + k;
		return 1;
	}
	if ((k = match_last_rc(n, i))) {
		p = i;
		if (ends_with_word(n, p, "the"))
			p -= 4;
		while (p && n[p - 1] == ' ')
			p--;
		if (ends_with_word(n, p, "end of"))
			*start = p - 6;
		else if (ends_with_word(n, p, "by") ||
			 ends_with_word(n, p, "until"))
			*start = p - (ends_with_word(n, p, "by") ? 2 : 5);
		else if (strict)
			*start = p;
		else
			return 0;
		d->kind = PC_PROF_DL_LAST_RC;
		*end = i + k;
		return 1;
	}
	if (word_start(n, i) &&
	    (k = match_word(n, i, "before the merge window"))) {
		size_t j, e;

		/* The duration right before: "at least a week before ..." */
		for (j = i > 40 ? i - 40 : 0; j < i; j++) {
			if (match_duration(n, j, &d->lead, &e) &&
			    skip_spaces(n, e) == i)
				break;
		}
		/* No duration: the deadline is the window's opening. */
		if (j == i)
			memset(&d->lead, 0, sizeof(d->lead));
		d->kind = PC_PROF_DL_MERGE_WINDOW;
		p = j;
		while (p && n[p - 1] == ' ')
			p--;
		*start = p;
		e = i + k;
		if ((k = match_word(n, skip_spaces(n, e), "opens")))
			e = skip_spaces(n, e) + k;
		*end = e;
		return 1;
	}
	return 0;
}

int pc_phrase_deadline(struct pc_prof_deadline *out, const char *s, size_t len,
		       struct pc_err *err)
{
	size_t nl, i, start, end;
	char *n = norm(s, len, &nl);
	int rc = PC_EPARSE;

	drop_stop(n, &nl);
	for (i = 0; i < nl; i++) {
		if (!match_deadline(n, i, out, &start, &end, 1))
			continue;
		i = skip_modifiers(n, 0);
		if (end == nl && start <= i)
			rc = 0;
		break;
	}
	if (rc)
		pc_err_set(err, PC_EPARSE,
			   "'%.80s' is not a deadline (say 'before -rc5', "
			   "'by -rc6' or 'end of last -rc')",
			   n);
	free(n);
	return rc;
}

/* ---- office hours ---- */

static const struct {
	const char *w;
	int wday;
} daynames[] = {
	{ "sunday", 0 },   { "sun", 0 },       { "monday", 1 },
	{ "mon", 1 },	   { "tuesday", 2 },   { "tues", 2 },
	{ "tue", 2 },	   { "wednesday", 3 }, { "wed", 3 },
	{ "thursday", 4 }, { "thurs", 4 },     { "thur", 4 },
	{ "thu", 4 },	   { "friday", 5 },    { "fri", 5 },
	{ "saturday", 6 }, { "sat", 6 },
};

static size_t match_dayname(const char *n, size_t i, int *wday)
{
	size_t k, m;

	if (!word_start(n, i))
		return 0;
	for (k = 0; k < PC_ARRAY_SIZE(daynames); k++)
		if ((m = match_word(n, i, daynames[k].w)) &&
		    !alnum_at(n, i + m)) {
			*wday = daynames[k].wday;
			return m + (n[i + m] == '.' ? 1 : 0);
		}
	return 0;
}

static size_t match_days(const char *n, size_t i, unsigned *mask)
{
	size_t j, k, m;
	int a, b;

	if (!word_start(n, i))
		return 0;
	if ((m = match_word(n, i, "weekdays")) ||
	    (m = match_word(n, i, "business days")) ||
	    (m = match_word(n, i, "working days"))) {
		*mask = PC_PROF_WEEKDAYS;
		return m;
	}
	if ((m = match_word(n, i, "daily")) ||
	    (m = match_word(n, i, "every day")) ||
	    (m = match_word(n, i, "7 days a week"))) {
		*mask = 0x7f;
		return m;
	}
	if (!(k = match_dayname(n, i, &a)))
		return 0;
	j = skip_spaces(n, i + k);
	m = 0;
	if (n[j] == '-')
		m = 1;
	else if (!(m = match_word(n, j, "to")) &&
		 !(m = match_word(n, j, "through")) &&
		 !(m = match_word(n, j, "thru")))
		m = 0;
	if (m) {
		size_t e = skip_spaces(n, j + m);

		if ((k = match_dayname(n, e, &b))) {
			unsigned mk = 0;
			int d = a;

			for (;;) {
				mk |= PC_PROF_DAY(d);
				if (d == b)
					break;
				d = (d + 1) % 7;
			}
			*mask = mk;
			return e + k - i;
		}
	}
	*mask = PC_PROF_DAY(a);
	return k;
}

static size_t match_time(const char *n, size_t i, int *min)
{
	size_t j = i, k;
	int h = 0, m = 0, colon = 0, ampm = 0, pm = 0, digits;

	if (!word_start(n, i))
		return 0;
	if ((k = match_word(n, i, "noon"))) {
		*min = 12 * 60;
		return k;
	}
	if ((k = match_word(n, i, "midnight"))) {
		*min = 24 * 60;
		return k;
	}
	for (digits = 0; pc_isdigit((unsigned char)n[j]); j++, digits++) {
		if (digits == 2)
			return 0;
		h = h * 10 + (n[j] - '0');
	}
	if (!digits)
		return 0;
	if ((n[j] == ':' || n[j] == '.') &&
	    pc_isdigit((unsigned char)n[j + 1]) &&
	    pc_isdigit((unsigned char)n[j + 2]) &&
	    !pc_isdigit((unsigned char)n[j + 3])) {
		m = (n[j + 1] - '0') * 10 + (n[j + 2] - '0');
		colon = 1;
		j += 3;
	}
	k = n[j] == ' ' ? j + 1 : j;
	if ((n[k] == 'a' || n[k] == 'p') &&
	    ((n[k + 1] == 'm' && !alnum_at(n, k + 2)) ||
	     (n[k + 1] == '.' && n[k + 2] == 'm' && n[k + 3] == '.'))) {
		ampm = 1;
		pm = n[k] == 'p';
		j = k + (n[k + 1] == 'm' ? 2 : 4);
	}
	if (!colon && !ampm)
		return 0;
	if (alnum_at(n, j))
		return 0;
	if (m > 59)
		return 0;
	if (ampm) {
		if (h < 1 || h > 12)
			return 0;
		h = h % 12 + (pm ? 12 : 0);
	} else if (h > 24 || (h == 24 && m)) {
		return 0;
	}
	*min = h * 60 + m;
	return j - i;
}

static size_t match_time_range(const char *n, size_t i, int *start, int *end)
{
	size_t k, j, m;

	if (!(k = match_time(n, i, start)))
		return 0;
	j = skip_spaces(n, i + k);
	if (n[j] == '-')
		m = 1;
	else if (!(m = match_word(n, j, "to")) &&
		 !(m = match_word(n, j, "until")) &&
		 !(m = match_word(n, j, "till")) &&
		 !(m = match_word(n, j, "through")))
		return 0;
	j = skip_spaces(n, j + m);
	if (!(k = match_time(n, j, end)))
		return 0;
	if (*start == 24 * 60)
		*start = 0;
	if (*end <= *start)
		return 0;
	return j + k - i;
}

static const struct {
	const char *name;
	const char *iana;
} zones[] = {
	{ "pacific", "America/Los_Angeles" },
	{ "us pacific", "America/Los_Angeles" },
	{ "us/pacific", "America/Los_Angeles" },
	{ "pt", "America/Los_Angeles" },
	{ "pst", "America/Los_Angeles" },
	{ "pdt", "America/Los_Angeles" },
	{ "pst/pdt", "America/Los_Angeles" },
	{ "pst8pdt", "America/Los_Angeles" },
	{ "mountain", "America/Denver" },
	{ "us mountain", "America/Denver" },
	{ "us/mountain", "America/Denver" },
	{ "mt", "America/Denver" },
	{ "mst", "America/Denver" },
	{ "mdt", "America/Denver" },
	{ "central", "America/Chicago" },
	{ "us central", "America/Chicago" },
	{ "us/central", "America/Chicago" },
	{ "ct", "America/Chicago" },
	{ "cst", "America/Chicago" },
	{ "cdt", "America/Chicago" },
	{ "eastern", "America/New_York" },
	{ "us eastern", "America/New_York" },
	{ "us/eastern", "America/New_York" },
	{ "et", "America/New_York" },
	{ "est", "America/New_York" },
	{ "edt", "America/New_York" },
	{ "utc", "UTC" },
	{ "gmt", "UTC" },
	{ "z", "UTC" },
	{ "zulu", "UTC" },
	{ "coordinated universal", "UTC" },
	{ "universal", "UTC" },
	{ "central european", "Europe/Berlin" },
	{ "central europe", "Europe/Berlin" },
	{ "cet", "Europe/Berlin" },
	{ "cest", "Europe/Berlin" },
	{ "western european", "Europe/Lisbon" },
	{ "wet", "Europe/Lisbon" },
	{ "west", "Europe/Lisbon" },
	{ "eastern european", "Europe/Helsinki" },
	{ "eet", "Europe/Helsinki" },
	{ "eest", "Europe/Helsinki" },
	{ "british", "Europe/London" },
	{ "uk", "Europe/London" },
	{ "bst", "Europe/London" },
	{ "india", "Asia/Kolkata" },
	{ "indian", "Asia/Kolkata" },
	{ "ist", "Asia/Kolkata" },
	{ "china", "Asia/Shanghai" },
	{ "beijing", "Asia/Shanghai" },
	{ "japan", "Asia/Tokyo" },
	{ "jst", "Asia/Tokyo" },
	{ "korea", "Asia/Seoul" },
	{ "kst", "Asia/Seoul" },
	{ "australian eastern", "Australia/Sydney" },
	{ "aest", "Australia/Sydney" },
	{ "aedt", "Australia/Sydney" },
	{ "new zealand", "Pacific/Auckland" },
	{ "nzst", "Pacific/Auckland" },
	{ "nzdt", "Pacific/Auckland" },
};

static const char *const zone_suffixes[] = {
	" time zone", " timezone", " standard time", " daylight time", " time",
	" zone",      NULL,
};

static const char *const iana_areas[] = {
	"Africa/",   "America/",   "Antarctica/", "Arctic/", "Asia/",
	"Atlantic/", "Australia/", "Europe/",	  "Indian/", "Pacific/",
	"Etc/",	     "US/",	   NULL,
};

/* An IANA name as written ("America/Los_Angeles"); its length or 0. */
static int iana_name(char *out, size_t out_len, const char *s, size_t len)
{
	size_t k, i;

	for (k = 0; iana_areas[k]; k++)
		if (pc_mem_istarts(s, len, iana_areas[k]))
			break;
	if (!iana_areas[k] || len >= out_len || len <= strlen(iana_areas[k]))
		return 0;
	for (i = 0; i < len; i++)
		if (!pc_isalnum((unsigned char)s[i]) && !in_set(s[i], "/_+-"))
			return 0;
	/* Case as the tz database spells it: keep what was written unless
	 * it is all lower case, then capitalise each part. */
	memcpy(out, s, len);
	out[len] = '\0';
	for (i = 0; i < len; i++)
		if (s[i] >= 'A' && s[i] <= 'Z')
			return 1;
	for (i = 0; i < len; i++)
		if (i == 0 || out[i - 1] == '/' || out[i - 1] == '_' ||
		    out[i - 1] == '-')
			out[i] = (char)(out[i] >= 'a' && out[i] <= 'z' ?
						out[i] - 32 :
						out[i]);
	if (!strncmp(out, "Us/", 3))
		out[1] = 'S';
	return 1;
}

/* "utc+2", "gmt-5": Etc/GMT with the sign the tz database uses. */
static int offset_zone(char *out, size_t out_len, const char *n)
{
	const char *p;
	int h = 0, k;
	char sign;

	if (!strncmp(n, "utc", 3))
		p = n + 3;
	else if (!strncmp(n, "gmt", 3))
		p = n + 3;
	else
		return 0;
	if (*p == ' ')
		p++;
	if (*p != '+' && *p != '-')
		return 0;
	sign = *p++;
	for (k = 0; pc_isdigit((unsigned char)p[k]); k++) {
		if (k == 2)
			return 0;
		h = h * 10 + (p[k] - '0');
	}
	if (!k || p[k] || h > 14)
		return 0;
	if (h == 0)
		snprintf(out, out_len, "UTC");
	else
		snprintf(out, out_len, "Etc/GMT%c%d", sign == '+' ? '-' : '+',
			 h);
	return 1;
}

static int zone_lookup(char *out, size_t out_len, char *n, size_t nl)
{
	size_t k, m;
	int again = 1;

	while (nl && (n[nl - 1] == ')' || n[nl - 1] == '.' || n[nl - 1] == ','))
		n[--nl] = '\0';
	while (again) {
		again = 0;
		for (k = 0; zone_suffixes[k]; k++) {
			m = strlen(zone_suffixes[k]);
			if (nl > m && !strcmp(n + nl - m, zone_suffixes[k])) {
				nl -= m;
				n[nl] = '\0';
				again = 1;
			}
		}
	}
	if (offset_zone(out, out_len, n))
		return 1;
	for (k = 0; k < PC_ARRAY_SIZE(zones); k++)
		if (!strcmp(n, zones[k].name)) {
			snprintf(out, out_len, "%s", zones[k].iana);
			return 1;
		}
	return 0;
}

int pc_phrase_zone(char *out, size_t out_len, const char *s, size_t len)
{
	size_t nl, i;
	char *n, *paren;
	int ok = 0;

	while (len && pc_isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && (pc_isspace((unsigned char)s[len - 1]) ||
		       s[len - 1] == '.' || s[len - 1] == ','))
		len--;
	if (iana_name(out, out_len, s, len))
		return 0;
	n = norm(s, len, &nl);
	i = 0;
	if (!strncmp(n, "in ", 3))
		i = 3;
	if (!strncmp(n + i, "the ", 4))
		i += 4;
	if (n[i] == '(')
		i++;
	memmove(n, n + i, nl - i + 1);
	nl -= i;
	/* "Pacific Time (PT)": the words before the parenthesis, then the
	 * ones inside. */
	if ((paren = strchr(n, '('))) {
		char *inner = xstrdup(paren + 1);
		size_t pl = (size_t)(paren - n);

		while (pl && n[pl - 1] == ' ')
			pl--;
		n[pl] = '\0';
		ok = zone_lookup(out, out_len, n, pl) ||
		     zone_lookup(out, out_len, inner, strlen(inner));
		free(inner);
	} else {
		ok = zone_lookup(out, out_len, n, nl);
	}
	free(n);
	return ok ? 0 : PC_ENOTFOUND;
}

/* The longest run of 1..5 words at n[i] (original text o at the same
 * offsets is not needed: IANA names are tried on the original by the
 * caller) that names a zone; its length or 0. */
static size_t match_zone_words(const char *n, size_t i, char *out,
			       size_t out_len)
{
	size_t ends[6], nw = 0, j = i, w;

	while (nw < 5 && n[j] && n[j] != ',' && n[j] != ';') {
		while (n[j] && n[j] != ' ' && n[j] != ',' && n[j] != ';')
			j++;
		ends[nw++] = j;
		if (n[j] != ' ')
			break;
		j++;
	}
	for (w = nw; w > 0; w--)
		if (!pc_phrase_zone(out, out_len, n + i, ends[w - 1] - i))
			return ends[w - 1] - i;
	return 0;
}

/* Office hours anywhere in normalised prose n. */
static int find_hours(struct pc_prof_hours *h, const char *n, size_t nl)
{
	size_t i, j, k, re = 0;
	unsigned mask;

	memset(h, 0, sizeof(*h));
	h->start = h->end = -1;
	for (i = 0; i < nl; i++)
		if ((k = match_time_range(n, i, &h->start, &h->end))) {
			re = i + k;
			break;
		}
	if (i == nl)
		return 0;
	for (i = 0; i < nl; i++)
		if ((k = match_days(n, i, &mask))) {
			h->days = mask;
			break;
		}
	j = skip_spaces(n, re);
	if (n[j] == ',')
		j = skip_spaces(n, j + 1);
	match_zone_words(n, j, h->zone, sizeof(h->zone));
	return 1;
}

int pc_phrase_hours(struct pc_prof_hours *out, const char *s, size_t len,
		    struct pc_err *err)
{
	size_t nl, i, j, k, re = 0;
	char *n = norm(s, len, &nl);
	int start, end, rc = PC_EPARSE;
	unsigned mask;

	memset(out, 0, sizeof(*out));
	out->start = out->end = -1;
	drop_stop(n, &nl);
	/* [days] range [days] [zone] [days], nothing else. */
	i = 0;
	if ((k = match_days(n, i, &mask))) {
		out->days = mask;
		i = skip_spaces(n, i + k);
		if (n[i] == ',')
			i = skip_spaces(n, i + 1);
	}
	if (!(k = match_time_range(n, i, &start, &end)))
		goto out;
	out->start = start;
	out->end = end;
	re = skip_spaces(n, i + k);
	if (n[re] == ',')
		re = skip_spaces(n, re + 1);
	if (!out->days && (k = match_days(n, re, &mask))) {
		out->days = mask;
		re = skip_spaces(n, re + k);
		if (n[re] == ',')
			re = skip_spaces(n, re + 1);
	}
	if (re < nl) {
		/* The zone is the rest, or the rest less trailing days. */
		size_t zl = nl - re;

		for (j = re; j < nl; j++)
			if (word_start(n, j) && !out->days &&
			    (k = match_days(n, j, &mask)) &&
			    skip_spaces(n, j + k) == nl) {
				zl = j - re;
				out->days = mask;
				break;
			}
		while (zl && (n[re + zl - 1] == ' ' || n[re + zl - 1] == ','))
			zl--;
		/* IANA names keep their case: find them in the original. */
		{
			const char *o = memchr(s, '/', len);
			int ok = 0;

			if (o) {
				const char *a = o, *b = o;

				while (a > s &&
				       !pc_isspace((unsigned char)a[-1]))
					a--;
				while (b < s + len &&
				       !pc_isspace((unsigned char)*b) &&
				       *b != ',')
					b++;
				while (b > a && b[-1] == '.')
					b--;
				ok = iana_name(out->zone, sizeof(out->zone), a,
					       (size_t)(b - a)) &&
				     (size_t)(b - a) == zl;
			}
			if (!ok && pc_phrase_zone(out->zone, sizeof(out->zone),
						  n + re, zl) < 0)
				goto out;
		}
	}
	rc = 0;
out:
	if (rc)
		pc_err_set(err, PC_EPARSE,
			   "'%.80s' is not office hours (say 'Mon-Fri 8:00am "
			   "to 5:00pm Pacific Time Zone' or '09:00-17:00 "
			   "Europe/Berlin')",
			   n);
	free(n);
	return rc;
}

/* ---- enumerations ---- */

static int review_of(const char *n, int strict)
{
	static const char *const none[] = {
		"not required",	 "no", "none", "optional", "not needed",
		"not mandatory", NULL,
	};
	size_t k;

	if (find_word(n, "trusted reviewer*"))
		return PC_PROF_REVIEW_TRUSTED;
	if (find_word(n, "r:") || find_word(n, "listed reviewer*") ||
	    find_word(n, "designated reviewer*") ||
	    find_word(n, "reviewers listed"))
		return PC_PROF_REVIEW_REVIEWERS;
	if (find_word(n, "non-author") || find_word(n, "non author"))
		return strstr(n, "not required") ? PC_PROF_REVIEW_NONE :
						   PC_PROF_REVIEW_NON_AUTHOR;
	if (!strict)
		return 0;
	for (k = 0; none[k]; k++)
		if (match_word(n, 0, none[k]))
			return PC_PROF_REVIEW_NONE;
	if (match_word(n, 0, "required") || match_word(n, 0, "yes") ||
	    match_word(n, 0, "mandatory"))
		return PC_PROF_REVIEW_NON_AUTHOR;
	if (!strcmp(n, "reviewers"))
		return PC_PROF_REVIEW_REVIEWERS;
	if (!strcmp(n, "trusted"))
		return PC_PROF_REVIEW_TRUSTED;
	return 0;
}

static int reminder_of(const char *n, int strict)
{
	/* netdev: "Asking the maintainer for status updates on your patch
	 * is a good way to ensure your patch is ignored". */
	if (find_word(n, "don't ping") || find_word(n, "do not ping") ||
	    find_word(n, "no pings") ||
	    ((find_word(n, "status update*") || find_word(n, "ping*")) &&
	     (find_word(n, "ignored") || find_word(n, "bottom of"))) ||
	    (strict && (!strcmp(n, "none") || !strcmp(n, "never") ||
			!strcmp(n, "no pings"))))
		return PC_PROF_REMIND_NONE;
	if (find_word(n, "private*") || find_word(n, "off-list") ||
	    find_word(n, "off list"))
		return PC_PROF_REMIND_PRIVATE;
	if (find_word(n, "on the list") || find_word(n, "to the list") ||
	    find_word(n, "on-list") || find_word(n, "on the mailing list") ||
	    find_word(n, "to the mailing list") ||
	    (strict && (!strcmp(n, "list") || !strcmp(n, "public"))))
		return PC_PROF_REMIND_LIST;
	return 0;
}

static int submit_of(const char *n, int strict)
{
	static const char *const neg[] = {
		"not accepted",	    "not accept*",
		"don't accept*",    "do not accept*",
		"no pull request*", "not welcome",
		"patches only",	    "only patches",
		"not take*",	    NULL,
	};
	int pull = find_word(n, "pull request*") ||
		   find_word(n, "pull-request*") || find_word(n, "git pull*");

	if (!strict && !pull)
		return 0;
	if (has_any(n, neg))
		return PC_PROF_SUBMIT_PATCHES;
	if (strict && (!strcmp(n, "patches") || !strcmp(n, "mailed patches")))
		return PC_PROF_SUBMIT_PATCHES;
	if (!pull)
		return 0;
	/* Pull requests between maintainers say nothing about what a
	 * contributor may send. */
	if (find_word(n, "from maintainers") ||
	    find_word(n, "sub-maintainer*") || find_word(n, "submaintainer*") ||
	    find_word(n, "from maintainer"))
		return 0;
	if (strict || find_word(n, "accept*") || find_word(n, "welcome") ||
	    find_word(n, "fine"))
		return PC_PROF_SUBMIT_PULLS;
	return 0;
}

static int style_of(const char *n, int strict)
{
	static const char *const neg[] = {
		"not welcome", "not accepted",	"are not",	   "don't",
		"do not",      "no standalone", "not be accepted", "unwelcome",
		"not take*",   "decline*",	"reject*",	   NULL,
	};
	static const char *const with[] = {
		"with other*",	    "together with",
		"along with",	    "only with",
		"part of a larger", "with-changes",
		"with changes",	    NULL,
	};

	if (!strict &&
	    !((find_word(n, "style*") || find_word(n, "checkpatch*")) &&
	      (find_word(n, "clean*") || find_word(n, "fix*"))))
		return 0;
	if (has_any(n, with))
		return PC_PROF_STYLE_WITH_CHANGES;
	if (has_any(n, neg))
		return PC_PROF_STYLE_UNWELCOME;
	if (find_word(n, "welcome") || find_word(n, "accepted") ||
	    find_word(n, "accept*") || find_word(n, "fine"))
		return PC_PROF_STYLE_WELCOME;
	return 0;
}

static int offlist_of(const char *n, int strict)
{
	static const char *const distrust[] = {
		"not trusted",	"distrust*",   "not accepted",	 "not count*",
		"ignored",	"not welcome", "not be trusted", "don't count",
		"do not count", NULL,
	};
	static const char *const req[] = {
		"seek internal review",
		"internal review before",
		"prior review",
		"before requesting upstream review",
		"required",
		"must",
		NULL,
	};

	if (!strict && !find_word(n, "off-list") && !find_word(n, "off list") &&
	    !find_word(n, "offlist") && !find_word(n, "internal review"))
		return 0;
	if (has_any(n, distrust))
		return PC_PROF_OFFLIST_DISTRUSTED;
	if (has_any(n, req))
		return PC_PROF_OFFLIST_REQUIRED;
	if (find_word(n, "accepted") || find_word(n, "trusted") ||
	    find_word(n, "welcome") || find_word(n, "fine") ||
	    find_word(n, "count"))
		return PC_PROF_OFFLIST_ACCEPTED;
	return 0;
}

/* Whether tags given by mail must be attested: "dkim", "tags must be
 * DKIM-signed" / "none", "not required". In prose, only a sentence about
 * DKIM or attestation. */
static int attestation_of(const char *n, int strict)
{
	if (!strict && !find_word(n, "dkim") && !find_word(n, "attest*"))
		return 0;
	if (strict &&
	    (find_word(n, "none") || find_word(n, "no") || find_word(n, "not")))
		return PC_PROF_ATTEST_NONE;
	if (find_word(n, "dkim") || find_word(n, "attest*") ||
	    find_word(n, "verified") || find_word(n, "signed"))
		return PC_PROF_ATTEST_DKIM;
	return 0;
}

/* ---- people ---- */

/* RISC-V: "We'll only accept patches for new modules or extensions if
 * the specifications for those modules or extensions are listed as
 * being "Frozen" or "Ratified"". */
static int extensions_of(const char *n, int strict)
{
	if (strict && (!strcmp(n, "any") || !strcmp(n, "drafts too") ||
		       !strcmp(n, "drafts accepted")))
		return PC_PROF_EXT_ANY;
	if (strict &&
	    (!strcmp(n, "ratified") || !strcmp(n, "frozen") ||
	     !strcmp(n, "frozen or ratified") || !strcmp(n, "ratified only") ||
	     !strcmp(n, "frozen or ratified only")))
		return PC_PROF_EXT_RATIFIED;
	/* Later kernels: "... listed as being unlikely to be incompatibly
	 * changed in the future. For specifications from the RISC-V
	 * foundation this means "Frozen" or "Ratified"". */
	if (find_word(n, "extension*") &&
	    (find_word(n, "frozen") || find_word(n, "ratified") ||
	     (find_word(n, "specification*") && find_word(n, "incompatibl*"))) &&
	    find_word(n, "only") &&
	    (find_word(n, "accept*") || find_word(n, "consider*")))
		return PC_PROF_EXT_RATIFIED;
	return 0;
}

static int valid_addr(const char *p, size_t n)
{
	const char *at = memchr(p, '@', n);
	size_t i;

	if (!at || at == p || at == p + n - 1)
		return 0;
	for (i = 0; i < n; i++)
		if (pc_isspace((unsigned char)p[i]) || in_set(p[i], "<>(),;\""))
			return 0;
	return memchr(at, '.', (size_t)(p + n - at)) != NULL;
}

static int valid_name(const char *p, size_t n)
{
	size_t i, words = 0;
	int inword = 0;

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == ' ') {
			inword = 0;
			continue;
		}
		if (!inword) {
			if (!pc_isalpha(c) && c < 0x80 && c != '"')
				return 0;
			words++;
			inword = 1;
		}
		if (!pc_isalpha(c) && c < 0x80 && !in_set(c, ".-'\""))
			return 0;
	}
	return words >= 1 && words <= 6;
}

static int person_of(struct pc_prof_person *out, const char *p, size_t n)
{
	const char *lt, *gt;

	while (n && (pc_isspace((unsigned char)*p) || *p == '-' || *p == '*')) {
		p++;
		n--;
	}
	while (n && (pc_isspace((unsigned char)p[n - 1]) || p[n - 1] == '.' ||
		     p[n - 1] == ','))
		n--;
	if (!n || n > PERSON_MAX)
		return 0;
	out->name = out->addr = NULL;
	lt = memchr(p, '<', n);
	if (lt) {
		gt = memchr(lt, '>', (size_t)(p + n - lt));
		size_t nl = (size_t)(lt - p);

		if (!gt || gt != p + n - 1 ||
		    !valid_addr(lt + 1, (size_t)(gt - lt - 1)))
			return 0;
		while (nl && p[nl - 1] == ' ')
			nl--;
		if (nl && !valid_name(p, nl))
			return 0;
		if (nl)
			out->name = xmemdupz(p, nl);
		out->addr = xmemdupz(lt + 1, (size_t)(gt - lt - 1));
		return 1;
	}
	if (valid_addr(p, n)) {
		out->addr = xmemdupz(p, n);
		return 1;
	}
	if (!valid_name(p, n))
		return 0;
	out->name = xmemdupz(p, n);
	return 1;
}

static void free_people(struct pc_prof_person *pp, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(pp[i].name);
		free(pp[i].addr);
	}
	free(pp);
}

static int people_of(struct pc_phrase_value *v, const char *s, size_t len,
		     struct pc_err *err)
{
	size_t i = 0, alloc = 0;

	while (i < len) {
		size_t j = i, e;
		struct pc_prof_person pp;

		/* One person per line, or comma/semicolon separated. */
		while (j < len && s[j] != '\n' && s[j] != ',' && s[j] != ';')
			j++;
		e = j;
		if (e > i) {
			const char *p = s + i;
			size_t n = e - i;

			while (n && pc_isspace((unsigned char)*p)) {
				p++;
				n--;
			}
			if (pc_mem_istarts(p, n, "and ")) {
				p += 4;
				n -= 4;
			}
			if (n) {
				if (!person_of(&pp, p, n))
					return pc_err_set(
						err, PC_EPARSE,
						"'%.*s' is not a person (say "
						"'Name <address>', one a line "
						"or comma-separated)",
						(int)(n > 80 ? 80 : n), p);
				if (v->n_people == PC_PROFILE_MAX_PEOPLE) {
					free(pp.name);
					free(pp.addr);
					return pc_err_set(
						err, PC_ELIMIT,
						"more than %d people",
						PC_PROFILE_MAX_PEOPLE);
				}
				PC_ALLOC_GROW(v->people, v->n_people + 1,
					      alloc);
				v->people[v->n_people++] = pp;
			}
		}
		i = j + 1;
	}
	if (!v->n_people)
		return pc_err_set(err, PC_EPARSE, "no people named");
	return 0;
}

/* ---- test suite ---- */

static void find_url(const char *s, size_t len, char **url)
{
	static const char *const schemes[] = { "https://", "http://", "git://",
					       NULL };
	size_t i, k, e;

	*url = NULL;
	for (i = 0; i < len; i++)
		for (k = 0; schemes[k]; k++) {
			if (!pc_mem_istarts(s + i, len - i, schemes[k]))
				continue;
			for (e = i;
			     e < len && !pc_isspace((unsigned char)s[e]) &&
			     s[e] != '>' && s[e] != '<' && s[e] != '"';
			     e++)
				;
			while (e > i && in_set(s[e - 1], ".,;:)'"))
				e--;
			if (e > i + strlen(schemes[k])) {
				*url = xmemdupz(s + i, e - i);
				return;
			}
		}
}

/* A copy of (s, len) with newlines as spaces, trimmed. */
static char *flat(const char *s, size_t len)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;

	while (len && pc_isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	for (i = 0; i < len; i++)
		pc_buf_addch(&b, s[i] == '\n' || s[i] == '\t' ? ' ' : s[i]);
	pc_buf_rtrim(&b);
	return pc_buf_detach(&b, NULL);
}

/* ---- values ---- */

void pc_phrase_value_release(struct pc_phrase_value *v)
{
	free_people(v->people, v->n_people);
	free(v->text);
	free(v->url);
	memset(v, 0, sizeof(*v));
}

static void free_people(struct pc_prof_person *p, size_t n);

/* Storing a value into its member, by kind: the cases come from the
 * field table (policy.h). */
#define STORE_DURATION(m) pol->m = v->dur
#define STORE_ENUM(m) pol->m = v->e
#define STORE_HOURS(m) pol->m = v->hours
#define STORE_DEADLINE(m) pol->m = v->dl
#define STORE_PEOPLE(m)                              \
	do {                                         \
		free_people(pol->m, pol->n_trusted); \
		pol->m = v->people;                  \
		pol->n_trusted = v->n_people;        \
		v->people = NULL;                    \
		v->n_people = 0;                     \
	} while (0)
#define STORE_TEST(m)                    \
	do {                             \
		free(pol->m);            \
		free(pol->test_url);     \
		pol->m = v->text;        \
		pol->test_url = v->url;  \
		v->text = v->url = NULL; \
	} while (0)
#define STORE(f, key, label, kind, member) \
	case f:                            \
		STORE_##kind(member);      \
		break;

void pc_phrase_value_store(struct pc_policy *pol, enum pc_prof_field f,
			   struct pc_phrase_value *v)
{
	switch (f) {
		PC_PROF_FIELDS(STORE)
	case PC_PROF_NFIELDS:
		assert(0);
	}
	pc_phrase_value_release(v);
}

/* Copying a member into a value, by kind. */
#define COPY_DURATION(m) out->dur = pol->m
#define COPY_ENUM(m) out->e = (int)pol->m
#define COPY_HOURS(m) out->hours = pol->m
#define COPY_DEADLINE(m) out->dl = pol->m
#define COPY_PEOPLE(m) copy_people(out, pol->m, pol->n_trusted)
#define COPY_TEST(m)                                                      \
	do {                                                              \
		out->text = pol->m ? xstrdup(pol->m) : NULL;              \
		out->url = pol->test_url ? xstrdup(pol->test_url) : NULL; \
	} while (0)
#define COPY(f, key, label, kind, member) \
	case f:                           \
		COPY_##kind(member);      \
		break;

static void copy_people(struct pc_phrase_value *out,
			const struct pc_prof_person *p, size_t n)
{
	size_t i;

	if (n)
		out->people = xcalloc(n, sizeof(*out->people));
	for (i = 0; i < n; i++) {
		out->people[i].name = p[i].name ? xstrdup(p[i].name) : NULL;
		out->people[i].addr = p[i].addr ? xstrdup(p[i].addr) : NULL;
	}
	out->n_people = n;
}

void pc_phrase_value_from_policy(struct pc_phrase_value *out,
				 const struct pc_policy *pol,
				 enum pc_prof_field f)
{
	memset(out, 0, sizeof(*out));
	switch (f) {
		PC_PROF_FIELDS(COPY)
	case PC_PROF_NFIELDS:
		assert(0);
	}
}

/* Hours of a calendar duration; business days stay apart (-1). */
static long dur_hours(const struct pc_prof_duration *d)
{
	switch (d->unit) {
	case PC_PROF_UNIT_HOURS:
		return (long)d->count;
	case PC_PROF_UNIT_DAYS:
		return 24L * d->count;
	case PC_PROF_UNIT_WEEKS:
		return 24L * 7 * d->count;
	default:
		return -1;
	}
}

static int dur_equal(const struct pc_prof_duration *a,
		     const struct pc_prof_duration *b)
{
	if (a->unit == PC_PROF_UNIT_BUSINESS_DAYS ||
	    b->unit == PC_PROF_UNIT_BUSINESS_DAYS)
		return a->unit == b->unit && a->count == b->count;
	return dur_hours(a) == dur_hours(b);
}

static int str_equal(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int pc_phrase_value_equal(enum pc_prof_field f, const struct pc_phrase_value *a,
			  const struct pc_phrase_value *b)
{
	size_t i;

	switch (pc_profile_field_kind(f)) {
	case PC_PROF_KIND_DURATION:
		return dur_equal(&a->dur, &b->dur);
	case PC_PROF_KIND_DEADLINE:
		if (a->dl.kind != b->dl.kind)
			return 0;
		if (a->dl.kind == PC_PROF_DL_RC)
			return a->dl.rc == b->dl.rc &&
			       a->dl.inclusive == b->dl.inclusive;
		if (a->dl.kind == PC_PROF_DL_MERGE_WINDOW)
			return dur_equal(&a->dl.lead, &b->dl.lead);
		return 1;
	case PC_PROF_KIND_HOURS:
		return a->hours.days == b->hours.days &&
		       a->hours.start == b->hours.start &&
		       a->hours.end == b->hours.end &&
		       !strcmp(a->hours.zone, b->hours.zone);
	case PC_PROF_KIND_PEOPLE:
		if (a->n_people != b->n_people)
			return 0;
		for (i = 0; i < a->n_people; i++)
			if (!str_equal(a->people[i].name, b->people[i].name) ||
			    !str_equal(a->people[i].addr, b->people[i].addr))
				return 0;
		return 1;
	case PC_PROF_KIND_TEST:
		/* Prose and a short answer say it in different words: the
		 * same URL is agreement. */
		return str_equal(a->url, b->url);
	case PC_PROF_KIND_ENUM:
		break;
	}
	return a->e == b->e;
}

int pc_phrase_short(struct pc_phrase_value *out, enum pc_prof_field f,
		    const char *s, size_t len, struct pc_err *err)
{
	size_t nl;
	char *n;
	int rc = 0, e = 0;
	const char *expect = NULL;

	memset(out, 0, sizeof(*out));
	switch (pc_profile_field_kind(f)) {
	case PC_PROF_KIND_DURATION:
		return pc_phrase_duration(&out->dur, s, len, err);
	case PC_PROF_KIND_DEADLINE:
		return pc_phrase_deadline(&out->dl, s, len, err);
	case PC_PROF_KIND_HOURS:
		return pc_phrase_hours(&out->hours, s, len, err);
	case PC_PROF_KIND_PEOPLE:
		if ((rc = people_of(out, s, len, err)) < 0)
			pc_phrase_value_release(out);
		return rc;
	case PC_PROF_KIND_TEST: {
		size_t lines = 1, i;

		for (i = 0; i < len; i++)
			lines += s[i] == '\n';
		out->text = flat(s, len);
		find_url(out->text, strlen(out->text), &out->url);
		n = norm(s, len, &nl);
		drop_stop(n, &nl);
		/* What to run and where: a URL or a path, in one sentence. */
		if (!*out->text || strlen(out->text) > TEST_TEXT_MAX ||
		    lines > 3 || has_sentence_break(n) ||
		    (!out->url && !strchr(out->text, '/'))) {
			pc_phrase_value_release(out);
			rc = pc_err_set(err, PC_EPARSE,
					"'%.80s' is not a test suite (one "
					"sentence of at most %d characters "
					"naming a URL or a path)",
					n, TEST_TEXT_MAX);
		}
		free(n);
		return rc;
	}
	case PC_PROF_KIND_ENUM:
		break;
	}
	n = norm(s, len, &nl);
	drop_stop(n, &nl);
	/* A short answer is one short sentence; explanations are prose. */
	if (word_count(n) > SHORT_WORDS_MAX || has_sentence_break(n)) {
		rc = pc_err_set(err, PC_EPARSE,
				"'%.80s' is not a short answer (one sentence "
				"of at most %d words)",
				n, SHORT_WORDS_MAX);
		free(n);
		return rc;
	}
	switch (f) {
	case PC_PROF_REMINDER:
		e = reminder_of(n, 1);
		expect = "'private', 'list' or 'none'";
		break;
	case PC_PROF_REVIEW:
		e = review_of(n, 1);
		expect = "'required', 'not required', 'from R: reviewers' or "
			 "'from trusted reviewers'";
		break;
	case PC_PROF_SUBMIT:
		e = submit_of(n, 1);
		expect = "'patches only' or 'pull requests accepted'";
		break;
	case PC_PROF_STYLE:
		e = style_of(n, 1);
		if (!e && !strcmp(n, "welcome"))
			e = PC_PROF_STYLE_WELCOME;
		expect =
			"'welcome', 'only with other changes' or 'not welcome'";
		break;
	case PC_PROF_OFF_LIST:
		e = offlist_of(n, 1);
		if (!e && !strcmp(n, "distrusted"))
			e = PC_PROF_OFFLIST_DISTRUSTED;
		expect = "'accepted', 'not trusted' or 'seek internal review "
			 "first'";
		break;
	case PC_PROF_ATTESTATION:
		e = attestation_of(n, 1);
		expect = "'dkim' (tags by mail count only when DKIM-verified) "
			 "or 'none'";
		break;
	case PC_PROF_EXTENSIONS:
		e = extensions_of(n, 1);
		expect = "'ratified' (frozen or ratified specifications only) "
			 "or 'any'";
		break;
	default:
		assert(0);
	}
	if (!e)
		rc = pc_err_set(err, PC_EPARSE, "cannot read '%.80s' (say %s)",
				n, expect);
	out->e = e;
	free(n);
	return rc;
}

/* ---- prose ---- */

int pc_phrase_is_example(const char *s, size_t len)
{
	static const char *const cues[] = {
		"for example",
		"e.g",
		"for instance",
		"such as",
		"this section",
		"this is where",
		"it is reasonable to",
		"a general guideline is to",
		NULL,
	};
	size_t nl, i, open = 0, answers = 0;
	int in_quote = 0, spaced = 0;
	char *n = norm(s, len, &nl);
	int ex = has_any(n, cues);

	/* Answers to choose from: 'State "Patches only", or "Pull requests
	 * accepted".' Two quoted phrases of more than one word; quoted
	 * terms are no answers ('listed as being "Frozen" or "Ratified"'). */
	for (i = 0; i < nl; i++) {
		if (n[i] == '"') {
			if (in_quote && spaced && i > open + 1)
				answers++;
			in_quote = !in_quote;
			open = i;
			spaced = 0;
		} else if (in_quote && n[i] == ' ') {
			spaced = 1;
		}
	}
	free(n);
	return ex || answers >= 2;
}

static const char *const ping_cues[] = {
	"ping*",   "resend*",	 "re-send*",  "resubmit*", "re-submit*",
	"remind*", "heard back", "hear back", NULL,
};
static const char *const ping_cues_relaxed[] = {
	"feedback", "response", "respond*", "reply", "replies", "heard", NULL,
};
static const char *const repost_cues[] = {
	"repost*",
	"re-post*",
	"between postings",
	"between posts",
	"between versions",
	"between revisions",
	"between submissions",
	NULL,
};
static const char *const hours_cues[] = {
	"office hours", "working hours", "business hours",
	"time zone",	"timezone",	 "available",
	"online",	"monitor*",	 NULL,
};
static const char *const test_cues[] = {
	"test*", "compliance", "selftest*", "kunit", NULL,
};
static const char *const build_cues[] = {
	"build*",	"built",    "boot*", "allmodconfig",
	"allyesconfig", "warnings", NULL,
};
static const char *const test_rule_cues[] = {
	"must", "should", "need*", "required", "expected", "ensure", NULL,
};
static const char *const test_action_cues[] = {
	"tested", "build",  "built", "booted", "survive",
	"pass",	  "passed", "run",   NULL,
};
static const char *const review_duty_cues[] = {
	"review", "reviews", "reviewing", "reviewer*", NULL,
};

/* "At the beginning of the merge window, the net-next tree will be closed
 * - no new changes/features": new features until the window opens. */
static int closed_for_merge_window(struct pc_prof_deadline *d, const char *n)
{
	if (!find_word(n, "merge window") || !find_word(n, "closed") ||
	    !find_word(n, "new"))
		return 0;
	memset(d, 0, sizeof(*d));
	d->kind = PC_PROF_DL_MERGE_WINDOW;
	return 1;
}

/*
 * The people a text names as doing reviews ("a group of senior developers
 * that are responsible for doing the code reviews ... - HDMI CEC: Hans
 * Verkuil <hverkuil@xs4all.nl>"): every "Name <address>" in it, each once,
 * when it speaks of review.
 */
static int people_reviewing(struct pc_phrase_value *v, const char *s,
			    size_t len, const char *n)
{
	size_t i, alloc = 0;

	if (!has_any(n, review_duty_cues) ||
	    !(find_word(n, "responsible") || find_word(n, "trusted")))
		return 0;
	for (i = 0; i < len; i++) {
		const char *gt, *p;
		struct pc_prof_person pp;
		size_t k, dup = 0;

		if (s[i] != '<')
			continue;
		gt = memchr(s + i, '>', len - i);
		if (!gt)
			break;
		/* The name: back to the start of the line or a colon. */
		for (p = s + i;
		     p > s && p[-1] != '\n' && p[-1] != ':' && p[-1] != ',';
		     p--)
			;
		if (!person_of(&pp, p, (size_t)(gt + 1 - p))) {
			i = (size_t)(gt - s);
			continue;
		}
		for (k = 0; k < v->n_people; k++)
			dup |= pp.addr && v->people[k].addr &&
			       !strcasecmp(pp.addr, v->people[k].addr);
		if (dup || v->n_people == PC_PROFILE_MAX_PEOPLE) {
			free(pp.name);
			free(pp.addr);
		} else {
			PC_ALLOC_GROW(v->people, v->n_people + 1, alloc);
			v->people[v->n_people++] = pp;
		}
		i = (size_t)(gt - s);
	}
	return v->n_people > 0;
}

static const char *const submit_words[] = {
	"sent", "send",	  "submit",  "submitted", "submission", "submissions",
	"post", "posted", "posting", "appear",	  "resubmit",	NULL,
};
static const char *const merge_words[] = {
	"merge", "merged",   "merging", "stabilized", "stabilised", "applied",
	"apply", "accepted", "queued",	"landed",     "pulled",	    NULL,
};

/* The last position < p in n where a word of list starts, or -1; "merge
 * window" is not a merge word. */
static long last_word_before(const char *n, size_t p, const char *const *list)
{
	long best = -1;
	size_t i, k;

	for (i = 0; i < p; i++) {
		if (!word_start(n, i))
			continue;
		for (k = 0; list[k]; k++) {
			size_t m = match_word(n, i, list[k]);

			if (!m || i + m > p)
				continue;
			if (!strcmp(list[k], "merge") &&
			    match_word(n, i, "merge window"))
				continue;
			best = (long)i;
		}
	}
	return best;
}

static int deadline_in_prose(struct pc_prof_deadline *out, const char *n,
			     size_t nl, enum pc_prof_field f, int in_field)
{
	size_t i, start, end;
	struct pc_prof_deadline d;

	for (i = 0; i < nl; i++) {
		long s, m;

		if (!match_deadline(n, i, &d, &start, &end, 0))
			continue;
		s = last_word_before(n, start, submit_words);
		m = last_word_before(n, start, merge_words);
		if ((s > m && f == PC_PROF_NEW_FEATURES) ||
		    (m > s && f == PC_PROF_MERGE_FEATURES) ||
		    (s == m && in_field)) {
			*out = d;
			return 1;
		}
		i = end - 1;
	}
	return 0;
}

int pc_phrase_prose(struct pc_phrase_value *out, enum pc_prof_field f,
		    const char *s, size_t len, int in_field)
{
	size_t nl, i, end;
	char *n = norm(s, len, &nl);
	int found = 0;

	memset(out, 0, sizeof(*out));
	switch (f) {
	case PC_PROF_PING_AFTER:
		if (has_any(n, repost_cues) ||
		    !(has_any(n, ping_cues) ||
		      (in_field && has_any(n, ping_cues_relaxed))))
			break;
		for (i = 0; i < nl && !found; i++)
			found = match_duration(n, i, &out->dur, &end);
		break;
	case PC_PROF_REPOST_MIN:
		if (!has_any(n, repost_cues))
			break;
		for (i = 0; i < nl && !found; i++)
			found = match_duration(n, i, &out->dur, &end);
		break;
	case PC_PROF_NEW_FEATURES:
	case PC_PROF_MERGE_FEATURES:
		found = deadline_in_prose(&out->dl, n, nl, f, in_field);
		if (!found && f == PC_PROF_NEW_FEATURES)
			found = closed_for_merge_window(&out->dl, n);
		break;
	case PC_PROF_OFFICE_HOURS:
		if (!has_any(n, hours_cues) && !in_field)
			break;
		found = find_hours(&out->hours, n, nl);
		break;
	case PC_PROF_REMINDER:
		if (!find_word(n, "remind*") && !find_word(n, "ping*") &&
		    !find_word(n, "status update*"))
			break;
		found = (out->e = reminder_of(n, 0)) != 0;
		break;
	case PC_PROF_REVIEW:
		if (!find_word(n, "review*") && !find_word(n, "ack*"))
			break;
		if (!find_word(n, "require*") && !find_word(n, "must") &&
		    !find_word(n, "need*") && !find_word(n, "mandatory"))
			break;
		found = (out->e = review_of(n, 0)) != 0;
		break;
	case PC_PROF_SUBMIT:
		found = (out->e = submit_of(n, 0)) != 0;
		break;
	case PC_PROF_STYLE:
		found = (out->e = style_of(n, 0)) != 0;
		break;
	case PC_PROF_OFF_LIST:
		found = (out->e = offlist_of(n, 0)) != 0;
		break;
	case PC_PROF_ATTESTATION:
		found = (out->e = attestation_of(n, 0)) != 0;
		break;
	case PC_PROF_EXTENSIONS:
		found = (out->e = extensions_of(n, 0)) != 0;
		break;
	case PC_PROF_TEST_SUITE:
		if (!has_any(n, test_cues) &&
		    !(in_field && has_any(n, build_cues)))
			break;
		find_url(s, len, &out->url);
		/* Without a link, a rule in a section about testing: "must
		 * survive an allmodconfig build", "should be built, booted
		 * and tested". */
		if (out->url || (in_field && has_any(n, test_rule_cues) &&
				 has_any(n, test_action_cues))) {
			out->text = flat(s, len);
			found = 1;
		}
		break;
	case PC_PROF_TRUSTED:
		found = people_reviewing(out, s, len, n);
		break;
	case PC_PROF_NFIELDS:
		break;
	}
	free(n);
	if (!found)
		pc_phrase_value_release(out);
	return found;
}

/* Abbreviations after which a full stop does not end a sentence. */
static int abbrev_before(const char *t, size_t i)
{
	static const char *const abbr[] = { "e.g",    "i.e", "etc", "vs",
					    "approx", "cf",  "Dr",  "Mr",
					    "Ms",     "Mrs", NULL };
	size_t k;

	for (k = 0; abbr[k]; k++) {
		size_t m = strlen(abbr[k]);

		if (i >= m && !strncmp(t + i - m, abbr[k], m) &&
		    (i == m || !pc_isalnum((unsigned char)t[i - m - 1])))
			return strcmp(abbr[k], "etc") != 0;
	}
	return 0;
}

void pc_phrase_sentences(const char *text, size_t len, pc_phrase_sentence_fn fn,
			 void *arg)
{
	size_t start = 0, i;

	for (i = 0; i < len; i++) {
		if ((text[i] != '.' && text[i] != '!' && text[i] != '?') ||
		    (i + 1 < len && !pc_isspace((unsigned char)text[i + 1])))
			continue;
		if (text[i] == '.' && abbrev_before(text, i))
			continue;
		while (start < i && pc_isspace((unsigned char)text[start]))
			start++;
		if (i + 1 > start && fn(arg, start, i + 1 - start))
			return;
		start = i + 1;
	}
	while (start < len && pc_isspace((unsigned char)text[start]))
		start++;
	if (start < len)
		fn(arg, start, len - start);
}
