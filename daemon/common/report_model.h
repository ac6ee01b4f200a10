/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML report's model (lib/report/report.h) from the database and
 * the policy, for `patchclock report` and the daemon. Read it inside the
 * transaction that judged at now (cli_policy_show(), or after the
 * daemon's judging pass), so the pages say what status says.
 */
#ifndef PC_CLI_REPORT_MODEL_H
#define PC_CLI_REPORT_MODEL_H

#include <stdint.h>

#include "policy.h"
#include "report/report.h"
#include "store/store.h"
#include "util/err.h"

/*
 * Every judged series with its patches, tags, mail, applies and boot
 * tests, into r (which starts zeroed); archive is the link pattern (NULL:
 * lore). Returns 0 or a store error.
 */
int cli_report_series(struct pc_report *r, struct pc_store *st,
		      const char *archive, struct pc_err *err);

/* Every entry that governs one of r's series: its profile, M: and R:
 * people, and the dates of the cycle in progress at now. */
void cli_report_entries(struct pc_report *r, struct cli_policy *cp,
			int64_t now);

/*
 * Writes r's site into dir as a whole: into a new directory beside it,
 * then swapped into place with one rename (renameat2 RENAME_EXCHANGE
 * when dir exists), so a reader sees the old site or the new one, never
 * half of each; the old one is then removed. Returns 0, or PC_EIO with
 * the path and the reason.
 */
int cli_report_write(const char *dir, const struct pc_report *r,
		     struct pc_err *err);

#endif
