/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The terminal a listing is read on: a pager for long output, colour,
 * and the width. All of it only when stdout is a terminal: piped or
 * redirected output is plain text, whole lines, no escapes.
 *
 * The pager is $PATCHCLOCK_PAGER, else $PAGER, else "less"; with less,
 * LESS defaults to "FRX" (quit when it fits one screen, keep colours, do
 * not clear the screen). "cat" or an empty value: no pager. Colour is on
 * unless NO_COLOR is set (to anything: no-color.org) or TERM is "dumb".
 */
#ifndef PC_CLI_TERM_H
#define PC_CLI_TERM_H

#include <stddef.h>

/* Starts the pager when stdout is a terminal (call before any output);
 * it is waited for at exit. Returns 1 when one runs. */
int term_pager(void);

/* Whether to colour stdout (decided once, before term_pager()). */
int term_colour(void);

/* Columns of the terminal on stdout (or, under the pager, the one the
 * pager shows on); 0 when stdout is no terminal. */
size_t term_width(void);

/* SGR colours for term_paint(). */
enum term_ink { TERM_PLAIN, TERM_RED, TERM_YELLOW, TERM_GREEN, TERM_DIM };

/* Switches the colour of what follows on stdout (no-op without colour).
 * The escape goes past the control-character filter (safeout.h), which
 * keeps escaping what the mail says. */
void term_paint(enum term_ink ink);

#endif
