/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * public-inbox archives read with libgit2: one message per commit, stored
 * as the blob `m` at the root of the commit's tree (a commit with `d`
 * instead records a deletion and yields nothing). A v2 inbox directory
 * holds epochs git/0.git, git/1.git, ...; a lore mirror clone is a single
 * epoch. Messages come out oldest first.
 *
 * This is the second module that includes libgit2 (lib/apply is the
 * other): reading archives is mail input, and belongs with lib/mail.
 */
#ifndef PC_MAIL_PINBOX_H
#define PC_MAIL_PINBOX_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct pc_pinbox;

/* Whether path looks like a public-inbox archive (an epoch or a v2 top). */
int pc_pinbox_detect(const char *path);

/* Opens the archive at path. Caller frees with pc_pinbox_free(). */
int pc_pinbox_open(struct pc_pinbox **out, const char *path,
		   struct pc_err *err);

/*
 * Next message: 1 with (*data, *len) borrowed until the next call and
 * *where naming "EPOCH:COMMIT", 0 at the end, PC_EGIT on failure.
 */
int pc_pinbox_next(struct pc_pinbox *pi, const char **data, size_t *len,
		   const char **where, struct pc_err *err);

void pc_pinbox_progress(const struct pc_pinbox *pi, uint64_t *done,
			uint64_t *total);

void pc_pinbox_free(struct pc_pinbox *pi);

#endif
