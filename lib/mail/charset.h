/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Conversion of mail text to UTF-8 with iconv, and a defined fallback for
 * bad or unknown charsets: charset labels are mapped as the WHATWG
 * Encoding Standard does (iso-8859-1 and us-ascii read as windows-1252,
 * gb2312 as GB18030, ...); bytes the declared charset cannot convert are
 * read as UTF-8 when they are valid UTF-8, else as windows-1252; what is
 * still undecodable becomes U+FFFD.
 */
#ifndef PC_MAIL_CHARSET_H
#define PC_MAIL_CHARSET_H

#include <stddef.h>

#include "util/buf.h"

enum {
	PC_CHARSET_EXACT = 0, /* converted as declared */
	PC_CHARSET_FALLBACK =
		1, /* unknown/bad charset or bytes: fallback used */
};

/*
 * Appends (p, len) converted from charset (NULL or "" = unknown) to UTF-8
 * to out. Returns PC_CHARSET_EXACT or PC_CHARSET_FALLBACK; never fails.
 * A leading UTF-8/UTF-16 BOM is dropped.
 */
int pc_charset_to_utf8(struct pc_buf *out, const char *charset, const char *p,
		       size_t len);

/* Whether (p, len) is valid UTF-8 (no overlongs, no surrogates). */
int pc_utf8_valid(const char *p, size_t len);

#endif
