// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel release cycle (see cycle.h). The timeline keeps, per
 * version, one slot for the release and one per -rc, each holding the
 * winning event's time and source. Queries find the cycle in progress at
 * a time from the newest version with an event at or before it, fill in
 * the cycle's missing events by projection, and step forward through
 * projected releases when the time lies beyond them. Projections use a
 * bizclock in the release zone for its wall-time arithmetic.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bizclock.h"
#include "cycle.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct slot {
	int64_t at;
	enum pc_cycle_source src; /* PC_CYCLE_PROJECTED: empty */
};

struct ver {
	int major, minor;
	int64_t first; /* the earliest event of this version */
	struct slot s[PC_CYCLE_MAX_RC + 1]; /* [0] the release, [n] -rcn */
};

struct pc_cycle {
	struct pc_bizclock *clock; /* owned: the release zone */
	unsigned last_rc, mw_weeks;
	struct ver *v; /* owned: sorted by (major, minor) */
	size_t n, alloc;
};

int pc_cycle_new(struct pc_cycle **out, const struct pc_cycle_opts *opts,
		 struct pc_err *err)
{
	static const struct pc_cycle_opts defaults = PC_CYCLE_OPTS_INIT;
	struct pc_biz_hours h = PC_BIZ_HOURS_INIT;
	struct pc_cycle *cy;
	int rc;

	if (!opts)
		opts = &defaults;
	if (opts->last_rc < 1 || opts->last_rc > PC_CYCLE_MAX_RC)
		return pc_err_set(err, PC_EUSAGE,
				  "invalid last -rc %u (1 to %d)",
				  opts->last_rc, PC_CYCLE_MAX_RC);
	if (opts->merge_window_weeks < 1 || opts->merge_window_weeks > 8)
		return pc_err_set(err, PC_EUSAGE,
				  "invalid merge window of %u weeks (1 to 8)",
				  opts->merge_window_weeks);
	cy = xcalloc(1, sizeof(*cy));
	h.days = PC_BIZ_EVERY_DAY;
	h.zone = opts->zone;
	if ((rc = pc_bizclock_new(&cy->clock, &h, err)) < 0) {
		pc_err_prefix(err, "release cycle");
		free(cy);
		return rc;
	}
	cy->last_rc = opts->last_rc;
	cy->mw_weeks = opts->merge_window_weeks;
	*out = cy;
	return 0;
}

void pc_cycle_free(struct pc_cycle *cy)
{
	if (!cy)
		return;
	pc_bizclock_free(cy->clock);
	free(cy->v);
	free(cy);
}

/* Names. */

/*
 * Reads a decimal number in [lo, hi] without leading zeros from
 * [*p, end); advances *p. Returns -1 when there is none.
 */
static int read_num(const char **p, const char *end, int lo, int hi)
{
	const char *s = *p;
	int v = 0;

	if (s == end || !pc_isdigit(*s))
		return -1;
	if (*s == '0' && s + 1 < end && pc_isdigit(s[1]))
		return -1;
	for (; s < end && pc_isdigit(*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > hi)
			return -1;
	}
	if (v < lo)
		return -1;
	*p = s;
	return v;
}

/*
 * "X.Y" or "X.Y-rcN" at *p, or "2.6.N[-rcM]" of the 2.6 era (v2.6.12,
 * the first git tag, to v2.6.39), kept as major 2, minor N; advances *p
 * past it. Returns 1 or 0.
 */
static int read_version(struct pc_cycle_version *out, const char **p,
			const char *end)
{
	const char *s = *p;
	int major, minor, rc = 0;

	if ((major = read_num(&s, end, 1, PC_CYCLE_MAX_MAJOR)) < 0 ||
	    s == end || *s++ != '.' ||
	    (minor = read_num(&s, end, 0, PC_CYCLE_MAX_MINOR)) < 0)
		return 0;
	if (major == 2) {
		/* Only 2.6.N names a mainline release of the git era. */
		if (minor != 6 || s == end || *s++ != '.' ||
		    (minor = read_num(&s, end, PC_CYCLE_2_6_FIRST,
				      PC_CYCLE_MAX_MINOR)) < 0)
			return 0;
	}
	if (end - s >= 3 && memcmp(s, "-rc", 3) == 0) {
		s += 3;
		if ((rc = read_num(&s, end, 1, PC_CYCLE_MAX_RC)) < 0)
			return 0;
	}
	out->major = major;
	out->minor = minor;
	out->rc = rc;
	*p = s;
	return 1;
}

int pc_cycle_parse_name(struct pc_cycle_version *out, const char *name,
			struct pc_err *err)
{
	const char *p, *end;
	struct pc_cycle_version v;

	if (!name)
		return pc_err_set(err, PC_EUSAGE, "no release name given");
	end = name + strlen(name);
	p = name + (name[0] == 'v');
	if (!read_version(&v, &p, end) || p != end)
		return 0;
	*out = v;
	return 1;
}

static int is_blank(int c)
{
	return pc_isspace(c);
}

int pc_cycle_version_format(char *buf, size_t len,
			    const struct pc_cycle_version *v)
{
	int n;

	if (v->major == 2)
		n = v->rc ? snprintf(buf, len, "2.6.%d-rc%d", v->minor, v->rc) :
			    snprintf(buf, len, "2.6.%d", v->minor);
	else
		n = v->rc ? snprintf(buf, len, "%d.%d-rc%d", v->major, v->minor,
				     v->rc) :
			    snprintf(buf, len, "%d.%d", v->major, v->minor);
	return n;
}

int pc_cycle_parse_announcement(struct pc_cycle_version *out,
				const char *subject, size_t len,
				struct pc_err *err)
{
	const char *p = subject, *end = subject ? subject + len : subject;
	struct pc_cycle_version v;

	if (!subject)
		return pc_err_set(err, PC_EUSAGE, "no subject given");
	while (p < end && is_blank(*p))
		p++;
	if (end - p >= 10 && memcmp(p, "[ANNOUNCE]", 10) == 0) {
		p += 10;
		while (p < end && is_blank(*p))
			p++;
	}
	if (end - p < 6 || memcmp(p, "Linux", 5) != 0 || !is_blank(p[5]))
		return 0;
	p += 5;
	while (p < end && is_blank(*p))
		p++;
	if (!read_version(&v, &p, end))
		return 0;
	while (p < end && is_blank(*p))
		p++;
	if (p != end)
		return 0;
	*out = v;
	return 1;
}

/* The timeline. */

static int key_cmp(int major, int minor, const struct ver *v)
{
	if (major != v->major)
		return major < v->major ? -1 : 1;
	return minor < v->minor ? -1 : minor > v->minor;
}

/* The index of (major, minor), or where it would be inserted. */
static size_t ver_pos(const struct pc_cycle *cy, int major, int minor)
{
	size_t lo = 0, hi = cy->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(major, minor, &cy->v[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct ver *ver_find(const struct pc_cycle *cy, int major,
				  int minor)
{
	size_t i = ver_pos(cy, major, minor);

	return i < cy->n && key_cmp(major, minor, &cy->v[i]) == 0 ? &cy->v[i] :
								    NULL;
}

int pc_cycle_add(struct pc_cycle *cy, enum pc_cycle_source src,
		 const struct pc_cycle_version *v, int64_t when,
		 struct pc_err *err)
{
	struct ver *e;
	struct slot *s;
	size_t i, k;

	if (src < PC_CYCLE_SRC_MAIL || src > PC_CYCLE_SRC_CONFIG)
		return pc_err_set(err, PC_EUSAGE, "invalid event source %d",
				  (int)src);
	if (v->major < 1 || v->major > PC_CYCLE_MAX_MAJOR || v->minor < 0 ||
	    v->minor > PC_CYCLE_MAX_MINOR || v->rc < 0 ||
	    v->rc > PC_CYCLE_MAX_RC)
		return pc_err_set(err, PC_EUSAGE, "invalid release %d.%d-rc%d",
				  v->major, v->minor, v->rc);
	if (when < PC_CYCLE_TIME_MIN || when >= PC_CYCLE_TIME_MAX)
		return pc_err_set(err, PC_EUSAGE,
				  "release %d.%d time %lld out of range",
				  v->major, v->minor, (long long)when);
	i = ver_pos(cy, v->major, v->minor);
	if (i == cy->n || key_cmp(v->major, v->minor, &cy->v[i]) != 0) {
		PC_ALLOC_GROW(cy->v, cy->n + 1, cy->alloc);
		memmove(&cy->v[i + 1], &cy->v[i], (cy->n - i) * sizeof(*cy->v));
		memset(&cy->v[i], 0, sizeof(*cy->v));
		cy->v[i].major = v->major;
		cy->v[i].minor = v->minor;
		cy->n++;
	}
	e = &cy->v[i];
	s = &e->s[v->rc];
	if (s->src > src || (s->src == src && s->at <= when))
		return 0;
	s->src = src;
	s->at = when;
	e->first = INT64_MAX;
	for (k = 0; k <= PC_CYCLE_MAX_RC; k++)
		if (e->s[k].src && e->s[k].at < e->first)
			e->first = e->s[k].at;
	return 1;
}

int pc_cycle_add_name(struct pc_cycle *cy, enum pc_cycle_source src,
		      const char *name, int64_t when, struct pc_err *err)
{
	struct pc_cycle_version v;
	int rc = pc_cycle_parse_name(&v, name, err);

	if (rc <= 0)
		return rc;
	if ((rc = pc_cycle_add(cy, src, &v, when, err)) < 0)
		pc_err_prefix(err, "'%s'", name);
	return rc;
}

/* Projection. */

/*
 * An event to project from: the Sunday nearest to its local date, and
 * its local time of day, in the release zone. The Sunday nearest to the
 * date k weeks later is that Sunday plus k weeks (a date and the date k
 * weeks later share a weekday), so projecting step by step and
 * projecting k weeks at once agree.
 */
struct anchor {
	int64_t sunday; /* day number */
	int sod; /* seconds after local midnight */
};

static void anchor_at(struct anchor *a, const struct pc_cycle *cy, int64_t at)
{
	struct pc_biz_local l;
	int w;

	pc_bizclock_local(&l, cy->clock, at);
	a->sunday = pc_biz_date_to_days(&l.date);
	w = l.wday;
	a->sunday += w <= 3 ? -w : 7 - w;
	a->sod = l.hour * 3600 + l.min * 60 + l.sec;
}

/* The instant `weeks` weeks after (or before) the anchor's Sunday. */
static int64_t weeks_after(const struct pc_cycle *cy, const struct anchor *a,
			   int weeks)
{
	struct pc_biz_date d;

	pc_biz_date_from_days(&d, a->sunday + 7 * (int64_t)weeks);
	return pc_bizclock_to_utc(cy->clock, &d, a->sod);
}

/*
 * The release after major.minor: X.Y+1 or X+1.0 when an event names it,
 * else X.Y+1 (X+1.0 past the largest minor). Returns the version's
 * events, or NULL when the name is assumed.
 */
static const struct ver *successor(const struct pc_cycle *cy, int major,
				   int minor, int *major_out, int *minor_out)
{
	const struct ver *v;

	if (minor < PC_CYCLE_MAX_MINOR &&
	    (v = ver_find(cy, major, minor + 1)) != NULL)
		goto found;
	if ((v = ver_find(cy, major + 1, 0)) != NULL)
		goto found;
	*major_out = minor < PC_CYCLE_MAX_MINOR ? major : major + 1;
	*minor_out = minor < PC_CYCLE_MAX_MINOR ? minor + 1 : 0;
	return NULL;
found:
	*major_out = v->major;
	*minor_out = v->minor;
	return v;
}

/* The release before v when an event names it: X.Y-1, or X-1.last. */
static const struct ver *predecessor(const struct pc_cycle *cy,
				     const struct ver *v)
{
	size_t i = (size_t)(v - cy->v);

	if (v->minor > 0)
		return ver_find(cy, v->major, v->minor - 1);
	return i > 0 && cy->v[i - 1].major == v->major - 1 ? &cy->v[i - 1] :
							     NULL;
}

static void set_ms(struct pc_cycle_milestone *m, int major, int minor, int rc,
		   int64_t at, enum pc_cycle_source src)
{
	m->v.major = major;
	m->v.minor = minor;
	m->v.rc = rc;
	m->at = at;
	m->src = src;
}

/*
 * Fills the schedule of major.minor, whose events are v (NULL: none),
 * opened by *open (NULL: not known; projected back from -rc1, named
 * open_name when not NULL).
 */
static void build(struct pc_cycle_schedule *out, const struct pc_cycle *cy,
		  int major, int minor, const struct ver *v,
		  const struct pc_cycle_milestone *open,
		  const struct ver *open_name)
{
	struct pc_cycle_milestone *rc = out->rc;
	struct anchor a;
	int have = open != NULL, first_set = 0, weeks = 0;
	unsigned k = cy->last_rc, i;

	memset(out, 0, sizeof(*out));
	out->major = major;
	out->minor = minor;
	out->name_projected = v == NULL;
	if (v)
		for (i = PC_CYCLE_MAX_RC; i > k; i--)
			if (v->s[i].src) {
				k = i;
				break;
			}
	if (open)
		anchor_at(&a, cy, open->at);
	/* Forward: known events, or a week after the one before (-rc1:
	 * the merge window after the opening release). */
	for (i = 1; i <= k; i++) {
		if (v && v->s[i].src) {
			set_ms(&rc[i - 1], major, minor, (int)i, v->s[i].at,
			       v->s[i].src);
			anchor_at(&a, cy, v->s[i].at);
			weeks = 0;
			if (!have)
				first_set = (int)i;
			have = 1;
		} else if (have) {
			weeks += i == 1 ? (int)cy->mw_weeks : 1;
			set_ms(&rc[i - 1], major, minor, (int)i,
			       weeks_after(cy, &a, weeks), PC_CYCLE_PROJECTED);
		}
	}
	/* Without an opening, v has an event: an -rc, or else the release. */
	assert(have || (v && v->s[0].src));
	if (v && v->s[0].src)
		set_ms(&out->release, major, minor, 0, v->s[0].at, v->s[0].src);
	else
		set_ms(&out->release, major, minor, 0,
		       weeks_after(cy, &a, weeks + 1), PC_CYCLE_PROJECTED);
	if (open) {
		out->open = *open;
	} else {
		/* Backward from the first known -rc, or the release. */
		anchor_at(&a, cy,
			  first_set ? rc[first_set - 1].at : out->release.at);
		weeks = 0;
		for (i = first_set ? (unsigned)first_set - 1 : k; i >= 1; i--)
			set_ms(&rc[i - 1], major, minor, (int)i,
			       weeks_after(cy, &a, --weeks),
			       PC_CYCLE_PROJECTED);
		set_ms(&out->open, 0, 0, 0,
		       weeks_after(cy, &a, weeks - (int)cy->mw_weeks),
		       PC_CYCLE_PROJECTED);
		if (open_name) {
			out->open.v.major = open_name->major;
			out->open.v.minor = open_name->minor;
		}
	}
	/* A projected -rc at or after a known release will not happen. */
	if (out->release.src)
		while (k > 0 && !rc[k - 1].src &&
		       rc[k - 1].at >= out->release.at)
			k--;
	out->n_rc = k;
}

int pc_cycle_schedule_at(struct pc_cycle_schedule *out,
			 const struct pc_cycle *cy, int64_t when,
			 struct pc_err *err)
{
	const struct ver *v = NULL, *pred;
	struct pc_cycle_milestone open;
	int major, minor, steps;
	size_t i;

	for (i = cy->n; i-- > 0;)
		if (cy->v[i].first <= when) {
			v = &cy->v[i];
			break;
		}
	if (!v)
		return pc_err_set(err, PC_ENOTFOUND,
				  "no release or -rc known at or before %lld",
				  (long long)when);
	if (v->s[0].src && v->s[0].at <= when) {
		/* Released: the next cycle. */
		set_ms(&open, v->major, v->minor, 0, v->s[0].at, v->s[0].src);
		v = successor(cy, v->major, v->minor, &major, &minor);
		build(out, cy, major, minor, v, &open, NULL);
	} else {
		pred = predecessor(cy, v);
		if (pred && pred->s[0].src) {
			set_ms(&open, pred->major, pred->minor, 0,
			       pred->s[0].at, pred->s[0].src);
			build(out, cy, v->major, v->minor, v, &open, NULL);
		} else {
			build(out, cy, v->major, v->minor, v, NULL, pred);
		}
	}
	for (steps = 0; out->release.at <= when; steps++) {
		if (steps >= PC_CYCLE_MAX_PROJECTED)
			return pc_err_set(err, PC_ELIMIT,
					  "time %lld is more than %d "
					  "projected releases after the last "
					  "known one",
					  (long long)when,
					  PC_CYCLE_MAX_PROJECTED);
		open = out->release;
		v = successor(cy, out->major, out->minor, &major, &minor);
		/* A cycle without events is the opening release plus the
		 * merge window and last_rc weeks: step over it cheaply. */
		while (!v && steps < PC_CYCLE_MAX_PROJECTED) {
			struct anchor a;
			int64_t at;

			anchor_at(&a, cy, open.at);
			at = weeks_after(cy, &a,
					 (int)(cy->mw_weeks + cy->last_rc));
			if (at > when)
				break;
			set_ms(&open, major, minor, 0, at, PC_CYCLE_PROJECTED);
			v = successor(cy, major, minor, &major, &minor);
			steps++;
		}
		build(out, cy, major, minor, v, &open, NULL);
	}
	return 0;
}

int pc_cycle_state_at(struct pc_cycle_state *out, const struct pc_cycle *cy,
		      int64_t now, struct pc_err *err)
{
	struct pc_cycle_schedule s;
	size_t i;
	int rc;

	if ((rc = pc_cycle_schedule_at(&s, cy, now, err)) < 0)
		return rc;
	memset(out, 0, sizeof(*out));
	out->released = s.open;
	out->release = s.release;
	out->name_projected = s.name_projected;
	if (s.n_rc == 0 || now < s.rc[0].at) {
		out->phase = PC_CYCLE_MERGE_WINDOW;
		out->since = s.open;
		out->until = s.n_rc ? s.rc[0] : s.release;
		return 0;
	}
	for (i = 1; i < s.n_rc && s.rc[i].at <= now; i++)
		;
	out->phase = PC_CYCLE_RC;
	out->since = s.rc[i - 1];
	out->until = i < s.n_rc ? s.rc[i] : s.release;
	return 0;
}

/* Deadlines. */

static const struct pc_cycle_milestone *
deadline_in(const struct pc_cycle_schedule *s,
	    const struct pc_cycle_deadline *dl)
{
	switch (dl->kind) {
	case PC_CYCLE_DL_BEFORE_RC:
		return dl->rc <= s->n_rc ? &s->rc[dl->rc - 1] : &s->release;
	case PC_CYCLE_DL_BY_RC:
		return dl->rc + 1 <= s->n_rc ? &s->rc[dl->rc] : &s->release;
	default:
		return &s->release;
	}
}

static int64_t deadline_at(const struct pc_cycle_schedule *s,
			   const struct pc_cycle_deadline *dl)
{
	int64_t at = deadline_in(s, dl)->at;

	return dl->kind == PC_CYCLE_DL_MERGE_WINDOW ? at - dl->lead : at;
}

static void set_version(struct pc_cycle_version *v, int major, int minor)
{
	v->major = major;
	v->minor = minor;
	v->rc = 0;
}

int pc_cycle_evaluate(struct pc_cycle_verdict *out, const struct pc_cycle *cy,
		      const struct pc_cycle_deadline *dl, int64_t posted,
		      struct pc_err *err)
{
	struct pc_cycle_schedule s, next;
	const struct ver *v;
	int major, minor, rc;

	switch (dl->kind) {
	case PC_CYCLE_DL_BEFORE_RC:
	case PC_CYCLE_DL_BY_RC:
		if (dl->rc < 1 || dl->rc > PC_CYCLE_MAX_RC)
			return pc_err_set(err, PC_EUSAGE,
					  "invalid deadline -rc%u (1 to %d)",
					  dl->rc, PC_CYCLE_MAX_RC);
		break;
	case PC_CYCLE_DL_LAST_RC:
		break;
	case PC_CYCLE_DL_MERGE_WINDOW:
		if (dl->lead < 0 || dl->lead > 365LL * 86400)
			return pc_err_set(err, PC_EUSAGE,
					  "invalid merge window lead of %lld "
					  "seconds",
					  (long long)dl->lead);
		break;
	default:
		return pc_err_set(err, PC_EUSAGE, "unknown deadline kind %d",
				  (int)dl->kind);
	}
	if ((rc = pc_cycle_schedule_at(&s, cy, posted, err)) < 0)
		return rc;
	memset(out, 0, sizeof(*out));
	set_version(&out->cycle, s.major, s.minor);
	out->deadline = deadline_at(&s, dl);
	out->deadline_projected = deadline_in(&s, dl)->src ==
				  PC_CYCLE_PROJECTED;
	out->in_time = posted < out->deadline;
	if (out->in_time) {
		successor(cy, s.major, s.minor, &major, &minor);
		set_version(&out->lands, major, minor);
		out->window_opens = s.release.at;
		out->opens_projected = s.release.src == PC_CYCLE_PROJECTED;
		out->next_deadline = out->deadline;
		return 0;
	}
	v = successor(cy, s.major, s.minor, &major, &minor);
	build(&next, cy, major, minor, v, &s.release, NULL);
	successor(cy, major, minor, &major, &minor);
	set_version(&out->lands, major, minor);
	out->window_opens = next.release.at;
	out->opens_projected = next.release.src == PC_CYCLE_PROJECTED;
	out->next_deadline = deadline_at(&next, dl);
	return 0;
}
