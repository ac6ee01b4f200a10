/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a cover letter asks each subsystem to apply its own part. A
 * tree-wide series ("[PATCH 000/606] i2c: Complete conversion to
 * i2c_probe_new") reaches a list only in part: its cover letter and the
 * patches of the files that list's entries cover. Most such parts are
 * no submission to the list's maintainers (five patches of a VFS series
 * of thirty go in with the rest, through one tree), but when the cover
 * letter asks the maintainers of the changed files to apply them
 * through their own trees ("I ask the maintainers of the changed files
 * to apply via their tree", Uwe Kleine-König, linux-integrity
 * 2022-11-18), the part that reached the list waits on this list's
 * appliers like any submission (lib/sla/state.c).
 *
 * Read from the author's own lines (quoted lines are skipped), by
 * phrases that name several trees or say the patches stand alone: "via
 * their trees", "through the respective subsystem trees", "can be
 * applied independently". "Please take it via your tree" names one
 * tree, and says nothing of a split.
 */
#ifndef PC_PATCH_SPLIT_H
#define PC_PATCH_SPLIT_H

#include <stddef.h>

/* 1 when (text, len), a cover letter's body, asks the maintainers of
 * each part to apply it through their own tree, else 0. */
int pc_split_by_tree(const char *text, size_t len);

#endif
