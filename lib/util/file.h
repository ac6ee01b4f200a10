/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a whole file into a buffer: the one reader for MAINTAINERS,
 * .mailmap, profiles, override files and patches given on the command
 * line.
 */
#ifndef PC_UTIL_FILE_H
#define PC_UTIL_FILE_H

#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

/*
 * Appends what fd gives until its end to out. With limit (0: none), more
 * than limit bytes is PC_ELIMIT. path names fd in messages. Returns 0,
 * PC_ELIMIT or PC_EIO.
 */
int pc_read_fd(struct pc_buf *out, int fd, size_t limit, const char *path,
	       struct pc_err *err);

/* The most any file named to patchclock is read into memory (a patch or
 * series given to `who`, MAINTAINERS): far above any real one (the
 * kernel's MAINTAINERS is under 1 MiB, a 600-patch series' mbox some
 * 10 MiB), and /dev/zero stops there instead of filling memory. */
#define PC_FILE_LIMIT ((size_t)64 << 20)

/* pc_read_file's flags */
enum {
	/* a missing or not regular file returns 1, nothing read */
	PC_READ_MISSING_OK = 1 << 0,
};

/*
 * Appends the regular file at path to out, as pc_read_fd(). It is opened
 * with O_NONBLOCK, so that a FIFO never waits for a writer: it is
 * refused, as is any file that is not regular, with hint (may be NULL)
 * in parentheses after the reason ("'x' is not a regular file (a profile
 * is an .rst file)"). Returns 0, 1 (PC_READ_MISSING_OK), PC_ENOTFOUND
 * when path does not exist, PC_EIO (not regular, or an error),
 * PC_ELIMIT.
 */
int pc_read_file(struct pc_buf *out, const char *path, size_t limit,
		 unsigned flags, const char *hint, struct pc_err *err);

#endif
