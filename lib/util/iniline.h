/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading an INI file for libinih one whole line at a time: the one line
 * reader of patchclockd.conf (daemon/conf.c) and of profile override
 * files (lib/profile/override.c). Each hands its lines to
 * ini_parse_stream() through its own ini_reader, so that it knows the
 * line of every key, refuses what inih would silently split or misread,
 * and reads section lines itself (a MAINTAINERS entry's name holds ']'
 * and can be longer than inih's section names).
 */
#ifndef PC_UTIL_INILINE_H
#define PC_UTIL_INILINE_H

#include <stddef.h>

/* The file, in memory, and where the reader is. */
struct pc_ini_lines {
	const char *text; /* borrowed */
	size_t len, pos;
	unsigned lineno; /* the line last returned, 1-based */
};

/*
 * The next line: (*line, *n) without its LF or CR LF, a UTF-8 byte order
 * mark left out on the first line. A comment (';' or '#' after blanks)
 * longer than max bytes is cut to max. Returns 1, 0 at the end, or a
 * negative error with *why set (the line is passed over):
 * PC_EPARSE for a NUL byte, PC_ELIMIT for another line longer than max.
 */
int pc_ini_next(struct pc_ini_lines *l, size_t max, const char **line,
		size_t *n, const char **why);

/*
 * Whether (p, n) is a section line: '[' first, then the name up to the
 * last ']' on the line, with only blanks or a comment after it. Returns
 * 1 with the name, blanks trimmed, in (*name, *name_len); 0 when the
 * line does not start with '['; PC_EPARSE with *why for a '[' without
 * ']', text after it, or an empty name.
 */
int pc_ini_section(const char *p, size_t n, const char **name, size_t *name_len,
		   const char **why);

#endif
