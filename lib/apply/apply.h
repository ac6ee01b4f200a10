/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Applying a series to a git tree with libgit2, as `git am` would: one
 * commit per patch with the mail's author, date, subject and message,
 * each diff applied to the previous commit's tree (never to a work tree
 * or the index on disk), and the branch made only once every patch has
 * applied, so a failure leaves no half-made branch.
 *
 * Every path a diff names, on both sides, is checked first: git's own
 * rules and patchclock's (apply/gitpath.h: no absolute path, no "." or
 * ".." component, nothing git or a filesystem takes for ".git" or
 * ".gitmodules", no gitlink on either side, valid UTF-8, no backslash),
 * then against the base tree: no path through a symbolic link of the
 * tree, and no patch that adds or changes a symbolic link (its target
 * cannot be vetted here).
 *
 * Errors: PC_EGIT (the repository or a ref cannot be used), PC_EUSAGE
 * (a bad or existing branch name), PC_ENOTFOUND (the base is not in the
 * tree). A patch that does not apply, a diff that cannot be read and a
 * refused path are not errors of the call: they are the outcome (see
 * pc_apply_result), with the reason.
 */
#ifndef PC_APPLY_APPLY_H
#define PC_APPLY_APPLY_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* One patch, as git am sees it. Strings are borrowed. */
struct pc_apply_patch {
	const char *author_name, *author_email;
	int64_t author_time; /* Unix time */
	int author_tz; /* minutes east of UTC */
	const char *message; /* the whole commit message, trailers included */
	const char *diff; /* the diff part of the mail */
	size_t diff_len;
};

struct pc_apply_options {
	const char *tree; /* the git repository (work tree or bare) */
	const char *base; /* a commit-ish the tree has; NULL: HEAD */
	const char *branch; /* the branch to make (must not exist) */
	const char *committer_name, *committer_email; /* NULL: patchclock */
	int64_t now; /* the committer time */
};

struct pc_apply_result {
	int applied; /* 1: every patch applied and the branch exists */
	char base[41]; /* the base commit, hex */
	char **commits; /* owned, hex, one per applied patch, in order */
	size_t ncommits;
	/* When a patch does not apply: its index (1-based), the file and
	 * the hunk header, and why; "" when not applicable. */
	size_t failed_patch;
	char file[256];
	char hunk[128];
	char reason[512];
};

/*
 * Applies patches[0..n) on top of o->base and makes o->branch. Returns 0
 * with *res filled (res->applied says whether it worked), or a negative
 * code. Release res with pc_apply_result_release().
 */
int pc_apply_series(struct pc_apply_result *res,
		    const struct pc_apply_options *o,
		    const struct pc_apply_patch *patches, size_t n,
		    struct pc_err *err);

void pc_apply_result_release(struct pc_apply_result *res);

/*
 * Whether the tree has commit-ish rev (a base-commit: line). 1 yes, 0 no,
 * negative when the repository cannot be opened.
 */
int pc_apply_has_commit(const char *tree, const char *rev, struct pc_err *err);

/* Deletes branch (refs/heads/BRANCH) from the tree, if it is there. */
int pc_apply_delete_branch(const char *tree, const char *branch,
			   struct pc_err *err);

#endif
