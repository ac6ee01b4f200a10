/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From verdicts to the outbox: which mails the clock's verdicts call for,
 * composed and queued under their action keys in the caller's
 * transaction (the one that stored the verdicts), so each goes out once.
 *
 *  - "resend now" to the author of an overdue series: the first when it
 *    becomes overdue, the n-th after each further cadence of silence
 *    (from the second on, naming the trusted reviewers); sent at the
 *    maintainers' next office-hours opening;
 *  - a too-soon note to the author of a version posted before the
 *    profile's minimum repost interval;
 *  - with boot_reports, a report of each test verdict (boot test, or a
 *    series that did not apply) in the series' thread, like the kernel
 *    test robot's: once per verdict, at once;
 *  - one digest per maintainer address per local day, at the start of
 *    that maintainer's office hours (the next opening: news at 10:00
 *    waits for tomorrow's), when there is something to say: overdue,
 *    ready to apply, late for the cycle, too soon. Until it goes out, a
 *    pending digest is gathered again at every planning (same key and
 *    Message-ID), so it says what is true at the opening; one left with
 *    nothing to say is withdrawn ("suppressed").
 *
 * Safety rules, each recorded as a "suppressed" outbox row with its
 * reason: no mail to an address or domain that opted out (a reply with
 * the line "patchclock: opt-out" adds its sender), to bots, in answer to
 * Auto-Submitted mail or Precedence: bulk/junk/list mail, or to a list
 * address; at most daily_limit mails per recipient per day.
 */
#ifndef PC_NOTIFY_PLAN_H
#define PC_NOTIFY_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "sla/policyset.h"
#include "store/store.h"
#include "util/err.h"

struct pc_plan_options {
	const char *from_name; /* "patchclock" */
	const char *from_addr; /* patchclock's address (From:) */
	const char *domain; /* for Message-IDs */
	const char *archive_url; /* NULL: lore.kernel.org/r/%s */
	unsigned daily_limit; /* mails per recipient per day; 0: 3 */
	int digests; /* plan maintainer digests */
	int replies; /* plan resend / too-soon replies */
	int boot_reports; /* reply in the thread with each test verdict */
};

#define PC_PLAN_OPTIONS_INIT                               \
	{                                                  \
		"patchclock", NULL, NULL, NULL, 3, 1, 1, 0 \
	}

struct pc_plan_stats {
	unsigned queued, suppressed, already, opt_outs;
	unsigned refreshed; /* pending digests gathered again */
	unsigned withdrawn; /* pending digests left with nothing to say */
};

/*
 * Plans and queues at now. ps gives each governing entry's policy and
 * clock (the one the verdicts were judged with). Errors: PC_EDB, and
 * composition errors (PC_ELIMIT).
 */
int pc_plan_actions(struct pc_store *st, struct pc_policyset *ps,
		    const struct pc_plan_options *o, int64_t now,
		    struct pc_plan_stats *stats, struct pc_err *err);

#endif
