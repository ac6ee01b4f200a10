/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing HTML and XML safely: every text and attribute value passes
 * through here, so a subject or a name (hostile input: "<script>", an
 * RFC 2047 word that decodes to markup, a control character) is shown as
 * the characters it is and never read as markup. Invalid UTF-8 is shown
 * as U+FFFD; control characters other than tab and newline are dropped
 * (XML 1.0 forbids them).
 */
#ifndef PC_REPORT_HTML_H
#define PC_REPORT_HTML_H

#include <stddef.h>

#include "util/buf.h"

/* Appends s (may be NULL: nothing) as HTML text: & < > escaped, and
 * inside <bdi> when it holds a Unicode bidi control (U+202E, U+2066..
 * U+2069...), which then reorders only its own text. */
void pc_html_text(struct pc_buf *out, const char *s);
/* Appends s as text where no element can isolate it (<title>, an Atom
 * feed, SVG): & < > escaped, bidi controls shown as U+FFFD. */
void pc_html_plain(struct pc_buf *out, const char *s);
/* The same for the first len bytes of s. */
void pc_html_text_len(struct pc_buf *out, const char *s, size_t len);
/* Appends s as a double-quoted attribute's value: & < > " ' escaped. */
void pc_html_attr(struct pc_buf *out, const char *s);
/*
 * Appends url as an attribute value when it is an http:, https: or
 * relative URL (no scheme); anything else (javascript:, data:) becomes
 * "#". Returns 1 when url was kept.
 */
int pc_html_url(struct pc_buf *out, const char *url);
/* printf into out, then the whole result as text. */
void pc_html_textf(struct pc_buf *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A file name for s (an entry's name, an address): lower case ASCII
 * letters and digits, '.', '@', '+' and '-' kept, every other run of
 * bytes one '-', at most 80 bytes; with a '-' and 12 hex digits of s's
 * SHA-256 appended whenever anything was changed or cut, or the result
 * ends like such a hash, so that two names share a file only if they
 * share 48 bits of SHA-256. Never empty, never starts with '.'.
 */
void pc_html_slug(struct pc_buf *out, const char *s);

#endif
