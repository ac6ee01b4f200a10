/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RFC 2047 encoded words in header values ("=?utf-8?q?...?="), decoded to
 * UTF-8: Q and B encodings in either case, lower-case hex, adjacent encoded
 * words joined before conversion (a character split across two words comes
 * out whole), the whitespace between adjacent encoded words dropped, a BOM
 * inside dropped, unknown charsets through pc_charset_to_utf8()'s
 * fallback, RFC 2231 language suffixes ("utf-8*en") ignored. Raw 8-bit
 * bytes outside encoded words are read as UTF-8 if valid, else
 * windows-1252. Malformed encoded words are kept as text.
 */
#ifndef PC_MAIL_RFC2047_H
#define PC_MAIL_RFC2047_H

#include <stddef.h>

#include "util/buf.h"

/*
 * Appends the decoded form of the (already unfolded) header value (p, len)
 * to out. Returns PC_CHARSET_EXACT or PC_CHARSET_FALLBACK (see charset.h);
 * never fails.
 */
int pc_rfc2047_decode(struct pc_buf *out, const char *p, size_t len);

#endif
