/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Release tags of a kernel tree, read with libgit2: every tag with its
 * time (the tagger's date of an annotated tag, else the commit's date),
 * for the release cycle (lib/sla/cycle.h takes the names it knows).
 */
#ifndef PC_APPLY_TAGS_H
#define PC_APPLY_TAGS_H

#include <stdint.h>

#include "util/err.h"

typedef int (*pc_tag_fn)(const char *name, int64_t when, void *arg);

/*
 * Calls fn for each tag of the git repository at tree_dir (name without
 * "refs/tags/"); fn returning non-zero stops and is returned. Returns 0,
 * or PC_EIO when tree_dir is not a git repository.
 */
int pc_tree_tags(const char *tree_dir, pc_tag_fn fn, void *arg,
		 struct pc_err *err);

#endif
