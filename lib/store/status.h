/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Evaluating the clock over the state: gathers each series' facts (its
 * thread, tags, versions, mapped entries and their people), asks the
 * caller for the policy that governs it, judges it with lib/sla/state.h
 * at an explicit now, and stores the verdict in series_status and
 * patch_status, which the v_* views read.
 *
 * Re-evaluation is incremental: a series is judged again only when mail
 * reached its thread, its messages, versions, mapping or acceptance
 * changed (status_dirty), or its verdict's next_check time has come. A
 * "now" earlier than the last one, a different policy id, or `full`
 * judges everything again.
 */
#ifndef PC_STORE_STATUS_H
#define PC_STORE_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "sla/state.h"
#include "store/store.h"
#include "util/err.h"

/* The policy the caller chose for a series. */
struct pc_status_policy {
	const struct pc_sla_ctx *ctx; /* borrowed until the next call */
	const char *entry; /* borrowed: the governing entry, or NULL */
	const char *profile; /* borrowed: its profile document, or NULL */
};

/*
 * Picks the policy for a series mapped to entries[0..n), most files
 * covered first (files[i] of the series' files), get_maintainer.pl
 * order among equals; n may be 0. Returns 0 or a negative code (the
 * refresh stops with it).
 */
typedef int (*pc_status_policy_fn)(struct pc_status_policy *out,
				   const char *const *entries, const int *files,
				   size_t n, void *arg, struct pc_err *err);

struct pc_status_options {
	pc_status_policy_fn policy;
	void *policy_arg;
	/* Identifies the policies (MAINTAINERS, profiles, overrides,
	 * configuration): when it differs from the stored one, every
	 * series is judged again. Borrowed. */
	const char *policy_id;
	int full; /* judge every series again */
	/* Called now and then while judging (done of total series), for a
	 * progress bar; may be NULL. */
	void (*progress)(uint64_t done, uint64_t total, void *arg);
	void *progress_arg;
	/* Judge only the series first posted at or after this (0: all);
	 * the others due a judging are marked for the next pass
	 * (stats->deferred): the mail pass judges what it may mail about,
	 * and a million-message archive's old series wait for a listing or
	 * the daemon. */
	int64_t min_posted;
	/* Of those posted before min_posted, judge this many still, the
	 * oldest first (a backlog shrinks with every pass). */
	unsigned max_old;
	/* Judge nothing yet: what is due a judging is kept in the store
	 * for pc_status_list() in the same transaction, which judges each
	 * series as it reaches it, so a listing's first screen does not
	 * wait on the whole archive. opt and stats must outlive that
	 * listing; the set goes with the transaction. */
	int lazy;
};

/* The "now" of the last judging pass (*now_out), or 0 when nothing has
 * been judged yet (*now_out untouched); negative on failure. */
int pc_status_last_judged(struct pc_store *st, int64_t *now_out,
			  struct pc_err *err);

struct pc_status_stats {
	int full; /* everything was judged again */
	uint64_t judged; /* series evaluated */
	uint64_t touched; /* of them, marked by new mail or changes */
	uint64_t scheduled; /* of them, because next_check came */
	uint64_t new_mail; /* messages looked at since the last run */
	/* of the judged, those whose cycle could not be judged: no release
	 * or -rc is known at or before their posting (the caller warns) */
	uint64_t no_cycle;
	/* due a judging but posted before min_posted: left for later */
	uint64_t deferred;
};

/*
 * Brings series_status up to date at now (see opt's min_posted and lazy
 * for judging part of it, or later). Run it inside a transaction.
 * Series first posted after now have no verdict (their rows go).
 * Errors: PC_EDB, and whatever the policy callback or the clock returns.
 */
int pc_status_refresh(struct pc_store *st, const struct pc_status_options *opt,
		      int64_t now, struct pc_status_stats *stats,
		      struct pc_err *err);

/*
 * Records `patchclock accept`: series_id accepted at `when` by by_addr
 * (may be NULL) with a note (may be NULL). Returns 0, PC_ENOTFOUND for
 * an unknown series, or PC_EDB.
 */
int pc_status_accept(struct pc_store *st, int64_t series_id, int64_t when,
		     const char *by_addr, const char *note, struct pc_err *err);

/*
 * Adds to cy the release announcements ingest has seen: mail from Linus
 * Torvalds whose Subject is exactly "Linux X.Y" or "Linux X.Y-rcN"
 * (pc_cycle_parse_announcement()), at its Date. *added_out counts the
 * events that changed the timeline. Errors: PC_EDB.
 */
int pc_status_announcements(struct pc_store *st, struct pc_cycle *cy,
			    int *added_out, struct pc_err *err);

/* The next time after now that a verdict changes by itself (its
 * next_check), in *next_out; 0 when none. Errors: PC_EDB. */
int pc_status_next_check(struct pc_store *st, int64_t now, int64_t *next_out,
			 struct pc_err *err);

/* One patch of a verdict. */
struct pc_status_patch {
	int idx;
	const char *msgid, *subject; /* borrowed for the callback */
	int reviewed, off_list, own_domain;
	/* borrowed, or NULL: who gave the tag that met the review rule */
	const char *reviewed_by, *reviewed_by_addr;
	int64_t accepted_at; /* 0 when not accepted */
};

/* One stored verdict, as the listing reads it; strings borrowed for the
 * callback's duration, NULL when not stored. */
struct pc_status_row {
	int64_t id;
	const char *name, *author_name, *author_addr;
	int version, is_rfc;
	int64_t superseded_by;
	const char *state, *flags, *turn, *entry, *profile, *zone, *lands;
	unsigned flag_bits; /* the flags as PC_SLA_* bits (sla/state.h) */
	int64_t evaluated_at, posted, due, act_at, first_response, deadline;
	double overdue_days;
	int patches, reviewed;
	const char *anchor_msgid;
	const char *hold, *hold_why; /* why no mail may go, or NULL */
	int64_t wait_from; /* this wait on the maintainers began, or 0 */
	const struct pc_status_patch *patch; /* owned by the listing */
	size_t npatch;
	const char *const *entries; /* all mapped entries, in order */
	size_t nentries;
};

struct pc_status_filter {
	int all; /* also superseded, accepted, applied and tested series */
	const char *entry; /* only series mapped to this entry */
	const char *mine; /* only series by, or maintained by, this address */
	int64_t id; /* one series, or 0 */
};

typedef int (*pc_status_fn)(const struct pc_status_row *r, void *arg);

/*
 * The MAINTAINERS entry that name means, as a person types it: the entry
 * of that name in any case, else the one entry whose name starts with it
 * (in any case). *out (caller frees) is its name as MAINTAINERS writes
 * it. PC_ENOTFOUND when none matches, PC_EUSAGE when several start with
 * it (the message names some), with a message either way.
 */
int pc_status_find_entry(char **out, struct pc_store *st, const char *name,
			 struct pc_err *err);

/*
 * Calls fn for each stored verdict matching f, the oldest posting first;
 * fn returning non-zero stops. Errors: PC_EDB.
 */
int pc_status_list(struct pc_store *st, const struct pc_status_filter *f,
		   pc_status_fn fn, void *arg, struct pc_err *err);

#endif
