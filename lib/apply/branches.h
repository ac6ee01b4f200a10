/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a maintainer's tree already holds, read with libgit2: the stable
 * patch-id (`git patch-id --stable`, as lib/patch/diff.c computes it for
 * mail) of each commit on its branches, and fetching those branches from
 * their remote. A patch whose patch-id is on a branch was applied, whatever
 * the thread says.
 *
 * libgit2 is initialised and shut down around each call; lib/ keeps no
 * state between calls. Time is the caller's: commits older than `since`
 * are not read.
 */
#ifndef PC_APPLY_BRANCHES_H
#define PC_APPLY_BRANCHES_H

#include <stddef.h>
#include <stdint.h>

#include "store/treecommits.h" /* struct pc_tree_tip */
#include "util/err.h"

/* The branches read when none are configured. */
#define PC_BRANCHES_DEFAULT "refs/heads/*", "refs/remotes/*"

/*
 * A commit on a branch: patch_id and commit are hex, committed_at its
 * committer time. A non-zero return stops the walk and is returned.
 */
typedef int (*pc_branch_commit_fn)(const char *patch_id, const char *commit,
				   int64_t committed_at, void *arg);

struct pc_branch_walk {
	const char *const *globs; /* ref globs (fnmatch); NULL: the default */
	size_t nglobs;
	int64_t since; /* commits committed before this are not read */
	/* tips read before: their history is not read again */
	const struct pc_tree_tip *seen;
	size_t nseen;
	size_t max_commits; /* 0: no limit; else stop after this many */
};

/*
 * Reads the repository at dir: calls fn for every commit with exactly one
 * parent (merges and root commits are no patches) reachable from the
 * refs matching the globs and not from the seen tips, newest first, down
 * to walk->since. *tips_out receives the current tips of the matching
 * refs (free with pc_tree_tips_free()). Returns 0, fn's non-zero
 * return, or PC_EGIT when dir is not a git repository or cannot be read.
 */
int pc_branch_commits(const char *dir, const struct pc_branch_walk *walk,
		      pc_branch_commit_fn fn, void *arg,
		      struct pc_tree_tip **tips_out, size_t *ntips_out,
		      struct pc_err *err);

/*
 * Fetches remote ("origin") of the repository at dir with its configured
 * refspecs, as `git fetch REMOTE` does. Returns 0, PC_ENOTFOUND when there
 * is no such remote, or PC_EGIT with libgit2's message.
 */
int pc_branch_fetch(const char *dir, const char *remote, struct pc_err *err);

/*
 * Moves the checked-out branch of the repository at dir to its upstream
 * (as `git merge --ff-only @{upstream}`) when that is a fast-forward,
 * checking out the new files safely: a file with local changes in the way
 * stops it, with nothing changed. *moved_to receives the new commit (hex)
 * when it moved, "" otherwise. Returns 0 (moved or nothing to do: a
 * detached HEAD, no upstream, up to date, diverged), or PC_EGIT.
 */
int pc_branch_fast_forward(const char *dir, char moved_to[41],
			   struct pc_err *err);

/* Whether dir is a git repository (its work tree or .git). */
int pc_branch_is_repo(const char *dir);

#endif
