/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stored series to a branch of the kernel tree, as `b4 am` and `git
 * am` would make it: each patch mail (by its stored raw bytes) becomes a
 * commit with its author, date, subject and message, the trailers given
 * on the list added (Reviewed-by, Acked-by, Tested-by, Reported-by,
 * Suggested-by, Fixes, Closes; never a bot's suggestion or a tag given
 * by someone it does not name), then Link: to the archive. The base is
 * the series' base-commit when the tree has it, else the given base or
 * HEAD. The outcome is stored (table applies).
 *
 * The series is read in one read transaction, applied with none open
 * (applying to a kernel tree takes seconds; the daemon's fetcher and
 * sender keep writing meanwhile), and the outcome written in a short
 * write transaction of its own: the caller must not hold one. When that
 * write fails, the branch is deleted again, so that nothing is left that
 * the database does not know of.
 */
#ifndef PC_APPLY_AMSERIES_H
#define PC_APPLY_AMSERIES_H

#include <stddef.h>
#include <stdint.h>

#include "apply/apply.h"
#include "store/store.h"
#include "util/err.h"

struct pc_am_options {
	const char *tree; /* the kernel tree (git) */
	const char *base; /* NULL: base-commit if the tree has it, else HEAD */
	const char *branch; /* NULL: "<prefix><id>-v<version>" */
	const char *branch_prefix; /* NULL: "patchclock/" */
	const char *archive_url; /* printf pattern with one %s (Message-ID);
				    NULL: https://lore.kernel.org/r/%s */
	const char *committer_name, *committer_email; /* NULL: patchclock */
	int64_t now;
	/* Called (when not NULL) once the series is read, just before it
	 * is applied: series id, version, number of patches, branch. No
	 * transaction is open then. */
	void (*applying)(void *arg, int64_t series_id, int version,
			 size_t npatches, const char *branch);
	void *arg;
};

/*
 * Applies series series_id. Returns 0 with *res filled (res->applied;
 * res->reason when not) and the stored row's id in *apply_id_out, or a
 * negative code: PC_ENOTFOUND (no such series), PC_EUSAGE (incomplete
 * series, bad or existing branch), PC_EGIT, PC_EDB. *branch_out (caller
 * frees) is the branch name used.
 */
int pc_am_series(struct pc_apply_result *res, int64_t *apply_id_out,
		 char **branch_out, struct pc_store *st, int64_t series_id,
		 const struct pc_am_options *o, struct pc_err *err);

#endif
