/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A re-post under a new title: the same author's later posting that
 * makes part of an earlier series' change again (the same files, none
 * of its lines new), with no version link, no shared patch-id and no
 * similar title. "integrity: iint: Remove unnecessary (void*)
 * conversions" re-posted only the cast removal of "integrity: iint:
 * Optimize integrity_iintcache_init and integrity_inode_free function"
 * after 20 silent days (linux-integrity 2022-11-07): a newer version of
 * it, so the older one waits on nobody. Two patches of one author to one
 * file that change different lines are two submissions.
 */
#ifndef PC_STORE_REPOST_H
#define PC_STORE_REPOST_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/*
 * The date of the first such re-post of series sid, or 0 in *at.
 * Reads the raw mail of the two series' patches only when a later
 * series of the author's touches the same files. 0, or PC_EDB.
 */
int pc_store_reduced_repost(struct pc_store *st, int64_t sid, int64_t *at,
			    struct pc_err *err);

#endif
