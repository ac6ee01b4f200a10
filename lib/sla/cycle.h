/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's release cycle as a timeline: releases (v6.1) and release
 * candidates (v6.2-rc3) with their dates, from the tree's tags, from
 * configuration and from Linus' announcement mails, plus a projection of
 * what has not happened yet; and profile deadlines ("before -rc4", "by
 * -rc6", "end of last -rc") evaluated against it.
 *
 * Terms. The cycle of X.Y is the time from the release before it (vX.Y-1,
 * or vX-1.last) to vX.Y. It starts with the merge window, which closes
 * with vX.Y-rc1; then each -rcN lasts until -rcN+1 or the release. Right
 * after vX.Y is released, the state is both "released X.Y" and "the merge
 * window of the next cycle": struct pc_cycle_state names both. An instant
 * equal to an event's time belongs to the phase that event starts.
 *
 * Events and precedence. Each event (a release or an -rcN of a version)
 * has one time. When several sources give it, configuration wins over a
 * tag, and a tag over an announcement mail; among events of the same
 * source, the earliest time wins (a resent announcement or a re-created
 * tag does not move it).
 *
 * Projection. What is not known is projected weekly, on Sundays, in the
 * zone the releases are made in (America/Los_Angeles by default, as
 * Linus releases on Sunday afternoons US Pacific time), at the wall time
 * of day of the event it is projected from:
 *   - -rc1 closes the merge window merge_window_weeks (2) after the
 *     release before it;
 *   - each -rcN+1 comes a week after -rcN;
 *   - the release comes a week after the last -rc: -rc<last_rc> (7) unless
 *     a later -rc (rc8 happens) is known.
 * "A week after" is the Sunday nearest to seven days later, so an event
 * made a day early or late (6.2-rc5 came on a Saturday) does not shift the
 * projection off Sundays. A projection always starts from the latest
 * known (or projected) event before it, so a known event overrides the
 * projection of itself and moves what follows. Missing events before the
 * first known one of a cycle are projected backwards the same way. A
 * projected -rc at or after a known release is dropped. The next
 * version's name is X.Y+1 unless an event names X.Y+1 or X+1.0.
 *
 * The caller feeds events; it should take announcement subjects only
 * from mail sent by Linus Torvalds, since anyone can write "Linux 9.9".
 * A timeline is changed only by pc_cycle_add*(); the queries take it
 * const and may run in parallel with one another.
 */
#ifndef PC_SLA_CYCLE_H
#define PC_SLA_CYCLE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define PC_CYCLE_MAX_RC 20
#define PC_CYCLE_MAX_MAJOR 99
#define PC_CYCLE_MAX_MINOR 99
/* How many projected releases a query may step over past the last known
 * event (about 17 years) before it gives up with PC_ELIMIT. */
#define PC_CYCLE_MAX_PROJECTED 100
/* Event times must lie in [1970-01-01, 9000-01-01). */
#define PC_CYCLE_TIME_MIN 0LL
#define PC_CYCLE_TIME_MAX 221845392000LL

struct pc_cycle_version {
	int major, minor; /* 6, 2 */
	int rc; /* N of -rcN (1..PC_CYCLE_MAX_RC); 0 for the release */
};

enum pc_cycle_source {
	PC_CYCLE_PROJECTED = 0, /* not an event: a projection */
	PC_CYCLE_SRC_MAIL = 1, /* an announcement mail on the list */
	PC_CYCLE_SRC_TAG = 2, /* a tag in the kernel tree */
	PC_CYCLE_SRC_CONFIG = 3, /* the configuration */
};

struct pc_cycle_opts {
	/* borrowed during pc_cycle_new(): the IANA zone projections use */
	const char *zone;
	unsigned last_rc; /* the -rc after which a release is projected */
	unsigned merge_window_weeks;
};
#define PC_CYCLE_OPTS_INIT                  \
	{                                   \
		"America/Los_Angeles", 7, 2 \
	}

struct pc_cycle;

/*
 * An empty timeline (caller frees with pc_cycle_free()); opts may be
 * NULL for the defaults. Returns 0, or PC_EUSAGE for an unknown zone,
 * last_rc outside 1..PC_CYCLE_MAX_RC or merge_window_weeks outside 1..8.
 */
int pc_cycle_new(struct pc_cycle **out, const struct pc_cycle_opts *opts,
		 struct pc_err *err);
void pc_cycle_free(struct pc_cycle *cy);

/*
 * Reads a mainline release or -rc name, as tags and configuration write
 * it: "v6.2-rc3", "v6.1", and the same without the "v". Numbers are
 * decimal without leading zeros, major 1..99, minor 0..99, rc
 * 1..PC_CYCLE_MAX_RC. The 2.6 era's names from the first git tag on
 * ("v2.6.12" to "v2.6.39-rc7") are read as major 2, minor N (the third
 * number): 2.6.39 comes before 3.0 as 2.39 would. Returns 1 and fills
 * out for such a name, 0 for anything else: stable releases ("v6.1.5",
 * "v2.6.32.27"), names older than the git era ("v2.6.11", "v2.4.37"),
 * other tags ("next-20230120", "v6.2-rc3-dontuse"); PC_EUSAGE for NULL.
 */
int pc_cycle_parse_name(struct pc_cycle_version *out, const char *name,
			struct pc_err *err);

/* The first 2.6 release of the git era: v2.6.12. */
#define PC_CYCLE_2_6_FIRST 12

/*
 * Writes v as the kernel names it, without the "v": "6.2-rc3", "6.1",
 * "2.6.39" (major 2 is the 2.6 era). Returns what snprintf() returns.
 */
int pc_cycle_version_format(char *buf, size_t len,
			    const struct pc_cycle_version *v);

/*
 * Reads the Subject of a release announcement: exactly "Linux X.Y" or
 * "Linux X.Y-rcN", with X.Y-rcN as in pc_cycle_parse_name() (no "v"),
 * optionally after "[ANNOUNCE]", with any spaces and tabs around the
 * words. Replies and forwards ("Re: Linux 6.2-rc3"), anything after the
 * version ("Linux 6.2-rc3 regression") and stable releases ("Linux
 * 6.1.5") are not announcements. Returns 1 and fills out for an
 * announcement, 0 otherwise, PC_EUSAGE for NULL.
 */
int pc_cycle_parse_announcement(struct pc_cycle_version *out,
				const char *subject, size_t len,
				struct pc_err *err);

/*
 * Adds the event v (its rc 0 for the release) at `when` from src.
 * Returns 1 when the timeline changed, 0 when precedence kept the event
 * already there, PC_EUSAGE for a version outside the limits above, a
 * `when` outside [PC_CYCLE_TIME_MIN, PC_CYCLE_TIME_MAX) or src
 * PC_CYCLE_PROJECTED.
 */
int pc_cycle_add(struct pc_cycle *cy, enum pc_cycle_source src,
		 const struct pc_cycle_version *v, int64_t when,
		 struct pc_err *err);

/*
 * pc_cycle_parse_name() and pc_cycle_add() in one: returns 1 when the
 * name was a release or -rc and the timeline changed, 0 when the name
 * is not one (a tag to skip) or nothing changed, or a negative code.
 */
int pc_cycle_add_name(struct pc_cycle *cy, enum pc_cycle_source src,
		      const char *name, int64_t when, struct pc_err *err);

/* One event of a cycle, known or projected. */
struct pc_cycle_milestone {
	struct pc_cycle_version v; /* major 0 when not known (see .open) */
	int64_t at;
	enum pc_cycle_source src; /* PC_CYCLE_PROJECTED for a projection */
};

/* The cycle of one release, every event in time order. */
struct pc_cycle_schedule {
	int major, minor; /* the release this cycle leads to */
	int name_projected; /* 1: no event names it; X.Y+1 was assumed */
	/* the release that opened the merge window; v.major is 0 when no
	 * event names that release and it is projected back from -rc1 */
	struct pc_cycle_milestone open;
	size_t n_rc; /* -rc1 .. -rc<n_rc> */
	struct pc_cycle_milestone rc[PC_CYCLE_MAX_RC]; /* rc[i]: -rc(i+1) */
	struct pc_cycle_milestone release;
};

/*
 * The cycle in progress at `when` (open.at <= when < release.at).
 * Returns 0, PC_ENOTFOUND when no event is at or before `when`, or
 * PC_ELIMIT when `when` lies more than PC_CYCLE_MAX_PROJECTED projected
 * releases after the last event.
 */
int pc_cycle_schedule_at(struct pc_cycle_schedule *out,
			 const struct pc_cycle *cy, int64_t when,
			 struct pc_err *err);

enum pc_cycle_phase {
	PC_CYCLE_MERGE_WINDOW = 1, /* from a release to the next -rc1 */
	PC_CYCLE_RC, /* from -rcN to -rcN+1 or the release */
};

struct pc_cycle_state {
	enum pc_cycle_phase phase;
	/* the last release at or before now (rc 0); its src says whether it
	 * is known; v.major 0 when nothing names it */
	struct pc_cycle_milestone released;
	/* what started the phase: the release (merge window) or -rcN */
	struct pc_cycle_milestone since;
	/* what ends it: -rc1, -rcN+1, or the release (rc 0) */
	struct pc_cycle_milestone until;
	/* the release in development; .at is when it is (projected to be)
	 * out, which opens the next merge window */
	struct pc_cycle_milestone release;
	int name_projected; /* release.v was assumed (X.Y+1) */
};

/* The state at now; returns as pc_cycle_schedule_at(). */
int pc_cycle_state_at(struct pc_cycle_state *out, const struct pc_cycle *cy,
		      int64_t now, struct pc_err *err);

/*
 * Profile deadlines. Each is a time in the cycle a patch is posted in; a
 * posting is in time when posted < deadline, and then it is for the merge
 * window that the cycle's release opens.
 *
 * PC_CYCLE_DL_BEFORE_RC ("before -rcN", exclusive): until -rcN is
 *   released; posting at or after it is late.
 * PC_CYCLE_DL_BY_RC ("by -rcN", inclusive): through the -rcN week, until
 *   -rcN+1 (or, when the cycle ends at -rcN, the release) is out. The
 *   libnvdimm profile asks for features "sent before -rc4" and
 *   "stabilized in libnvdimm-for-next by -rc6", and counts that as two
 *   weeks of review: a series sent just before -rc4 is reviewed in the
 *   -rc4 and -rc5 weeks and is in for-next during the -rc6 week, leaving
 *   -rc7 for linux-next before the merge window. "By" grants the -rcN
 *   week itself, which is what makes it differ from "before".
 * PC_CYCLE_DL_LAST_RC ("end of last -rc"): until the release. Whatever is
 *   posted in a cycle is in time for the merge window its release opens.
 * PC_CYCLE_DL_MERGE_WINDOW ("a week before the merge window opens"):
 *   lead seconds before the release.
 *
 * An -rc the cycle does not reach (before -rc9 in a cycle that ends at
 * -rc7) is the release.
 */
enum pc_cycle_dl_kind {
	PC_CYCLE_DL_BEFORE_RC = 1,
	PC_CYCLE_DL_BY_RC,
	PC_CYCLE_DL_LAST_RC,
	PC_CYCLE_DL_MERGE_WINDOW,
};

struct pc_cycle_deadline {
	enum pc_cycle_dl_kind kind;
	unsigned rc; /* BEFORE_RC, BY_RC: 1..PC_CYCLE_MAX_RC */
	int64_t lead; /* MERGE_WINDOW: seconds, >= 0 */
};

struct pc_cycle_verdict {
	int in_time; /* posted < deadline */
	/* the cycle posted in: the release it leads to (rc 0) */
	struct pc_cycle_version cycle;
	int64_t deadline; /* the deadline in that cycle */
	int deadline_projected; /* 1 when it rests on a projection */
	/* the release whose merge window takes the posting (rc 0): the one
	 * after `cycle` when in time, whose window opens with the cycle's
	 * own release; the one after that when late */
	struct pc_cycle_version lands;
	int64_t window_opens;
	int opens_projected;
	/* when late, the same deadline in the next cycle (the one the
	 * posting then targets); when in time, equal to deadline */
	int64_t next_deadline;
};

/*
 * Evaluates deadline dl for a posting at `posted`. Returns 0, PC_EUSAGE
 * for a malformed deadline, or as pc_cycle_schedule_at().
 */
int pc_cycle_evaluate(struct pc_cycle_verdict *out, const struct pc_cycle *cy,
		      const struct pc_cycle_deadline *dl, int64_t posted,
		      struct pc_err *err);

#endif
