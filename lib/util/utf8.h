/* SPDX-License-Identifier: GPL-2.0-or-later */
/* UTF-8: the one decoder and encoder of the code. */
#ifndef PC_UTIL_UTF8_H
#define PC_UTIL_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/*
 * The length (1 to 4) of the valid UTF-8 sequence at p, of n > 0 bytes,
 * or 0 when it is not one: no overlong form, no surrogate, nothing above
 * U+10FFFF, no truncated sequence. *cp (may be NULL) gets the code
 * point.
 */
size_t pc_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp);

/* Appends code point c (at most U+10FFFF) as UTF-8. */
void pc_utf8_put(struct pc_buf *out, uint32_t c);

#endif
