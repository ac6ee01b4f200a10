/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text that reaches a terminal is hostile: a Subject or From (raw, or
 * decoded from RFC 2047) may carry escape sequences that retitle the
 * window, move the cursor or hide lines. safeout_install() puts a filter
 * in front of stdout that writes C0 control characters (other than
 * newline and tab), DEL, the C1 controls (U+0080..U+009F, as UTF-8) and
 * the Unicode bidi controls (U+202A..U+202E, U+2066..U+2069, LRM, RLM,
 * ALM: a Subject with U+202E reverses the rest of the line) as visible
 * escapes ("\x1b", "\u009b", "\u202e"). JSON output never holds raw
 * controls (json-c escapes them), so it passes unchanged.
 */
#ifndef PC_CLI_SAFEOUT_H
#define PC_CLI_SAFEOUT_H

#include <stdio.h>

/* Replaces stdout with the filter; returns 0, or -1 (stdout unchanged). */
int safeout_install(void);

/* Writes s to the terminal unfiltered, in order with what the filter has
 * taken so far: the program's own escapes (colour), never mail text. */
void safeout_raw(const char *s);

/* Writes (p, n) to out as the filter does; for tests and one-off use. */
void safeout_write(FILE *out, const char *p, size_t n);

#endif
