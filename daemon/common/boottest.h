/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running kernel-test/run on an applied series and storing its verdict:
 * shared by 'patchclock boot-test' and the daemon's test child. The
 * runner builds the commit in its own worktree of the cache and boots it
 * in QEMU (it blocks for seconds to minutes: the daemon calls this in a
 * child process).
 */
#ifndef PC_DAEMON_CLI_BOOTTEST_H
#define PC_DAEMON_CLI_BOOTTEST_H

#include <stdint.h>

#include "store/store.h"

struct boottest {
	const char *runner; /* NULL: $PATCHCLOCK_KERNEL_TEST_RUN or the
			       source tree's kernel-test/run */
	const char *tree;
	const char *const *guest_checks; /* borrowed; --guest-check files */
	size_t n_guest_checks;
	int quiet; /* the runner's progress to /dev/null */
	int64_t now; /* the verdict's time */
	/* out */
	int64_t boot_id;
	int passed;
	char reason[512];
	char commit[41];
	int nchecks;
};

/*
 * Boots the latest applied commit of series_id and stores the verdict.
 * Returns 0 (bt->passed says how it went), or -1 after logging why no
 * verdict could be had (never applied, runner missing, setup error).
 */
int boottest_run(struct boottest *bt, struct pc_store *st, int64_t series_id);

#endif
