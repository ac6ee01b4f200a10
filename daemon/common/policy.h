/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The clock's inputs for the CLI: MAINTAINERS, overrides, releases. */
#ifndef PC_CLI_POLICY_H
#define PC_CLI_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "maint/maintainers.h"
#include "profile/profile.h"
#include "sla/cycle.h"
#include "sla/policyset.h"
#include "store/status.h"
#include "store/store.h"

/*
 * The one rule for the default kernel tree, for every command and the
 * daemon's CLI reading its configuration: opt (--tree), else
 * $PC_KERNEL_TREE, else the current directory when it has a MAINTAINERS
 * file (as get_maintainer.pl is run at the top of a tree), else the tree
 * of the configuration file (cliconf.h), else NULL. Borrowed.
 */
const char *cli_tree_dir(const char *opt);

/*
 * The part of that rule that needs no configuration (treedir.c, linked
 * into the light `patchclock` too): opt, $PC_KERNEL_TREE or ".", else
 * NULL.
 */
const char *cli_tree_dir_given(const char *opt);

struct cli_policy_args {
	const char *tree; /* NULL: no MAINTAINERS, default policy */
	const char *const *overrides; /* --overrides files, in order */
	size_t n_overrides;
	int no_map; /* skip the fallback map */
	const char *releases; /* --releases FILE, or NULL for the default */
	const char *holidays; /* --holidays FILE: "YYYY-MM-DD" lines */
	const char *const *bots; /* --bot ADDR addresses */
	size_t n_bots;
	/* other projects on the lists (patchclockd.conf [project]);
	 * borrowed, and must outlive the cli_policy */
	const struct pc_sla_project *projects;
	size_t n_projects;
	/* the tree's branches whose commits count as applied: ref globs
	 * separated by blanks, "none", or NULL for PC_BRANCHES_DEFAULT */
	const char *branches;
	/* commands by mail: the DKIM key table (NULL: DNS) and whether
	 * unsigned mail's commands are refused */
	const char *dkim_keys;
	int require_dkim;
	int attest_tags; /* attest review tags given by mail */
	/* owned by cli_policy_args_init(): storage for the arrays above */
	const char **ovr_buf, **bot_buf;
	struct pc_sla_project *proj_buf; /* from the configuration */
};

/*
 * The options of every command that judges series (status, digest):
 * put CLI_POLICY_LONGOPTS in the getopt_long table and pass each option
 * to cli_policy_option() first.
 */
#define CLI_POLICY_LONGOPTS                                                  \
	{ "tree", required_argument, NULL, 't' },                            \
		{ "overrides", required_argument, NULL, 'o' },               \
		{ "no-map", no_argument, NULL, 'M' },                        \
		{ "releases", required_argument, NULL, 'r' },                \
		{ "holidays", required_argument, NULL, 'H' },                \
		{ "branches", required_argument, NULL, 'B' },                \
		{ "dkim-keys", required_argument, NULL, CLI_OPT_DKIM_KEYS }, \
		{ "require-dkim", no_argument, NULL, CLI_OPT_REQUIRE_DKIM }, \
		{ "attest-tags", no_argument, NULL, CLI_OPT_ATTEST_TAGS },   \
	{                                                                    \
		"bot", required_argument, NULL, 'b'                          \
	}
/* Long-only options of CLI_POLICY_LONGOPTS. */
#define CLI_OPT_DKIM_KEYS 0x300
#define CLI_OPT_REQUIRE_DKIM 0x301
#define CLI_OPT_ATTEST_TAGS 0x302

/* Prepares pa for up to argc repeated options. */
void cli_policy_args_init(struct cli_policy_args *pa, int argc);
/* Takes option c (one of CLI_POLICY_LONGOPTS) into pa: 1, or 0 when c
 * is not one of them. */
int cli_policy_option(struct cli_policy_args *pa, int c, const char *arg);
/* After option parsing: --tree, else $PC_KERNEL_TREE, else the
 * configuration's tree (cliconf.h); the other settings the command
 * line left unset, from the configuration. */
void cli_policy_args_done(struct cli_policy_args *pa);
void cli_policy_args_release(struct cli_policy_args *pa);

struct pc_dkim;
struct cli_policy {
	struct pc_maint *maint; /* owned; NULL without a tree */
	struct pc_overrides *overrides; /* owned */
	struct pc_cycle *cycle; /* owned */
	struct pc_policyset *set; /* owned */
	char *config_id; /* owned */
	char **holidays; /* owned, as is each string */
	size_t n_holidays;
	char **bots; /* owned, lower-cased */
	size_t n_bots;
	const char *tree; /* borrowed */
	/* the ref globs of the tree's branches to read (owned, as is each);
	 * read_branches: the tree is a git repository and they are wanted */
	char **branch_globs;
	size_t n_branch_globs;
	int read_branches;
	struct pc_dkim *dkim; /* owned: verifies commands' senders */
	int require_dkim;
	int attest_tags;
	int warned_no_cycle; /* said once that the calendar starts too late */
};

/* Loads everything; logs what went wrong and returns -1 on failure. */
int cli_policy_open(struct cli_policy *cp, struct pc_store *st,
		    const struct cli_policy_args *a, int quiet);
void cli_policy_close(struct cli_policy *cp);

/* The pc_status_policy_fn for a struct cli_policy. */
int cli_policy_pick(struct pc_status_policy *out, const char *const *entries,
		    const int *files, size_t n, void *arg, struct pc_err *err);

/* Maps series to entries and refreshes verdicts at now, in one
 * transaction (the daemon's judging pass); logs and returns -1 on
 * failure. */
int cli_policy_refresh(struct cli_policy *cp, struct pc_store *st, int64_t now,
		       int full, struct pc_status_stats *stats);

/*
 * For a listing, which never writes the database: judges at now in a
 * transaction, calls show(st, arg) inside it, and rolls it back. With
 * stale (may be NULL): when another process holds the write lock for
 * more than two seconds (a bulk ingest), judges nothing, does not call
 * show, and sets *stale to the now of the stored verdicts (0: none
 * yet), which the caller shows; otherwise *stale is -1.
 */
int cli_policy_show(struct cli_policy *cp, struct pc_store *st, int64_t now,
		    int full, struct pc_status_stats *stats,
		    int (*show)(struct pc_store *st, void *arg), void *arg,
		    int64_t *stale);

/*
 * The same for a listing that reads the verdicts through
 * pc_status_list(): judges nothing first; the listing judges each series
 * as it reaches it, so its first lines come at once however large the
 * archive (pc_status_options.lazy).
 */
int cli_policy_list(struct cli_policy *cp, struct pc_store *st, int64_t now,
		    int full, struct pc_status_stats *stats,
		    int (*show)(struct pc_store *st, void *arg), void *arg,
		    int64_t *stale);

/*
 * The same, then plans the mail the verdicts call for (lib/notify/
 * plan.h) in the same transaction, so each action is queued exactly
 * once with the state that caused it. With dry_run the transaction is
 * rolled back: show(st, arg), when given, runs before, to print what
 * would go out. With mailable_only, judges only the series posted
 * within po's age limit (those the planner may mail about): the first
 * digest of an imported archive does not judge its years of history.
 */
struct pc_plan_options;
struct pc_plan_stats;
int cli_policy_plan(struct cli_policy *cp, struct pc_store *st, int64_t now,
		    const struct pc_plan_options *po, int mailable_only,
		    struct pc_status_stats *stats, struct pc_plan_stats *ps,
		    int dry_run, int (*show)(struct pc_store *st, void *arg),
		    void *arg);

#endif
