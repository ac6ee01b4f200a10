/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel tree's branches in the state: the patch-id of each commit
 * read from them (tree_commits) and the tips read so far (tree_tips), so
 * that each pass reads only what is new. lib/apply/branches.h reads the
 * repository; the caller joins the two. A patch whose patch-id is in
 * tree_commits counts as accepted at the commit's time (lib/sla/state.h,
 * "Acceptance").
 */
#ifndef PC_STORE_TREECOMMITS_H
#define PC_STORE_TREECOMMITS_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/* One ref of the tree and its tip, as hex (lib/apply/branches.h reads
 * them from the repository). */
struct pc_tree_tip {
	char *ref; /* owned: "refs/remotes/origin/libnvdimm-for-next" */
	char oid[41];
};

/* Frees (tips, n) and the refs they own. */
void pc_tree_tips_free(struct pc_tree_tip *tips, size_t n);

/*
 * Records a commit; marks for judging the series whose patches carry
 * patch_id (when the commit was new). Errors: PC_EDB.
 */
int pc_tree_commit_add(struct pc_store *st, const char *patch_id,
		       const char *commit, int64_t committed_at,
		       struct pc_err *err);

/* The tips read before from tree (free with pc_tree_tips_free()). */
int pc_tree_tips_get(struct pc_store *st, const char *tree,
		     struct pc_tree_tip **out, size_t *n, struct pc_err *err);

/* Replaces tree's tips with (tips, n), read at now. */
int pc_tree_tips_set(struct pc_store *st, const char *tree,
		     const struct pc_tree_tip *tips, size_t n, int64_t now,
		     struct pc_err *err);

#endif
