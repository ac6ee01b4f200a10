/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From verdicts to the outbox: which mails the clock's verdicts call for,
 * composed and queued under their action keys in the caller's
 * transaction (the one that stored the verdicts), so each goes out once.
 *
 *  - one "resend now" to the author of a series version that waits on its
 *    maintainers past the cadence and that no hold of the verdict stops
 *    (lib/sla/state.h, "Holds"), sent at the maintainers' next
 *    office-hours opening, and only if it is still justified then (a
 *    reply that arrives meanwhile withdraws it). One per series version:
 *    later waiting shows in the maintainers' digest. To the author, who
 *    is the one to act on it, naming the governing entry's M:/R: people
 *    to write to (with cc_maintainers, Cc them, unless the profile
 *    prefers a private reminder);
 *  - with too_soon, a note to the author of a version posted before the
 *    profile's minimum repost interval (off by default: it answers no
 *    wait on the maintainers);
 *  - with boot_reports, a report of each test verdict (boot test, or a
 *    series that did not apply) in the series' thread, like the kernel
 *    test robot's: once per verdict, at once;
 *  - one digest per M: person of the governing entries, at the start of
 *    that maintainer's office hours (the next opening: news at 10:00
 *    waits for tomorrow's), when a series newly waits on them past the
 *    cadence (or a boot test has a verdict): it lists every series that
 *    does (each held to the same rules as a reminder), oldest first. Until
 *    it goes out, a pending digest is gathered again at every planning
 *    (same key and Message-ID), so it says what is true at the opening;
 *    one left with nothing to say is withdrawn ("suppressed").
 *
 * Nothing is said about a series posted more than max_age ago, nor about
 * waits that were already due before mail was first planned on this
 * database (a first run over an existing archive is silent about the
 * past). Recipients are people: never a mailing list (an L: address of
 * any entry), never a group alias (an M:/R: line without a name, such
 * as x86@kernel.org), never a bot.
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
	int too_soon; /* note reposts made before the minimum interval */
	/* Cc the governing entry's M:/R: people on reminders (unless the
	 * profile asks for a private one); default: the author alone, the
	 * maintainers named in the mail and told in their digest */
	int cc_maintainers;
	int64_t max_age; /* seconds; 0: PC_PLAN_MAX_AGE */
	/* On the first planning over a database: waits due since then are
	 * news (0: since that first planning's now). */
	int64_t watching_since;
};

/* Nothing is said about series posted longer ago than this. */
#define PC_PLAN_MAX_AGE ((int64_t)90 * 86400)

#define PC_PLAN_OPTIONS_INIT                                           \
	{                                                              \
		"patchclock", NULL, NULL, NULL, 3, 1, 1, 0, 0, 0, 0, 0 \
	}

#define PC_PLAN_HOLD_KINDS 16

struct pc_plan_stats {
	unsigned queued, suppressed, already, opt_outs;
	unsigned refreshed; /* pending digests gathered again */
	unsigned withdrawn; /* pending digests left with nothing to say */
	/* mails, or digest items, that could not be composed (kept
	 * suppressed with the reason, or left out of the digest) */
	unsigned unwritable;
	/* Series past their cadence that no mail may be about, and why:
	 * due before mail was first planned here (--watching-since, the
	 * first run), and each hold of their verdicts by name
	 * ("already-answered": the count), the first PC_PLAN_HOLD_KINDS. */
	unsigned held_first_run;
	struct {
		char hold[32]; /* the verdict's hold word */
		unsigned n;
	} held[PC_PLAN_HOLD_KINDS];
	size_t nheld;
};

/*
 * Plans and queues at now. ps gives each governing entry's policy and
 * clock (the one the verdicts were judged with). A mail that cannot be
 * composed (an author without an address, a Message-ID with a space) is
 * kept suppressed with the reason, and a digest item that cannot is
 * left out: one bad series never stops the others' mail. Errors:
 * PC_EDB.
 */
int pc_plan_actions(struct pc_store *st, struct pc_policyset *ps,
		    const struct pc_plan_options *o, int64_t now,
		    struct pc_plan_stats *stats, struct pc_err *err);

#endif
