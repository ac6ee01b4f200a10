/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where patchclock's runtime data lives (profiles.ini, kernel-releases,
 * kernel-test/): $PATCHCLOCK_DATA_DIR when set, else share/patchclock
 * beside the directory of the running program (PREFIX/bin/../share/
 * patchclock once installed; in a build tree, CMake links build/share/
 * patchclock to the sources), else /usr/share/patchclock. No path of the
 * source tree is compiled in.
 */
#ifndef PC_DATADIR_H
#define PC_DATADIR_H

/* The data directory; the string lives as long as the program. */
const char *pc_data_dir(void);

/* pc_data_dir()/name; the caller frees it. */
char *pc_data_path(const char *name);

#endif
