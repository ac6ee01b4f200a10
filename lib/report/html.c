// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HTML and XML escaping, URLs and file names for the report. See html.h.
 */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "report/html.h"
#include "util/buf.h"
#include "util/hash.h"
#include "util/utf8.h"
#include "util/util.h"
#include "util/banned.h"

/* The length of the Unicode bidi control at p (LRM, RLM, ALM, the
 * embeddings and overrides U+202A..U+202E, the isolates U+2066..U+2069),
 * or 0. */
static size_t bidi_at(const unsigned char *p, size_t n)
{
	if (n >= 2 && p[0] == 0xd8 && p[1] == 0x9c)
		return 2; /* U+061C */
	if (n < 3 || p[0] != 0xe2)
		return 0;
	if (p[1] == 0x80 &&
	    (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae)))
		return 3;
	if (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
		return 3;
	return 0;
}

static int has_bidi(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i + 1 < n; i++)
		if ((p[i] == 0xe2 || p[i] == 0xd8) && bidi_at(p + i, n - i))
			return 1;
	return 0;
}

/* How escape() writes: HTML text (bidi controls kept, the caller isolates
 * them), an attribute value, or text where no element can isolate them
 * (<title>, XML, SVG): there a bidi control becomes U+FFFD. */
enum esc_mode { ESC_TEXT, ESC_ATTR, ESC_PLAIN };

static void escape(struct pc_buf *out, const char *s, size_t n,
		   enum esc_mode mode)
{
	const unsigned char *p = (const unsigned char *)s;
	int attr = mode == ESC_ATTR;
	size_t i = 0, len;

	while (i < n) {
		unsigned char c = p[i];

		switch (c) {
		case '&':
			pc_buf_addstr(out, "&amp;");
			break;
		case '<':
			pc_buf_addstr(out, "&lt;");
			break;
		case '>':
			pc_buf_addstr(out, "&gt;");
			break;
		case '"':
			pc_buf_addstr(out, attr ? "&quot;" : "\"");
			break;
		case '\'':
			pc_buf_addstr(out, attr ? "&#39;" : "'");
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				if (c == '\t' || c == '\n')
					pc_buf_addch(out, attr ? ' ' : c);
				break;
			}
			if (!(len = pc_utf8_seq(p + i, n - i, NULL))) {
				pc_buf_addstr(out, "\xef\xbf\xbd");
				break;
			}
			if (mode != ESC_TEXT && bidi_at(p + i, n - i)) {
				pc_buf_addstr(out, "\xef\xbf\xbd");
				i += len;
				continue;
			}
			pc_buf_add(out, p + i, len);
			i += len;
			continue;
		}
		i++;
	}
}

void pc_html_text_len(struct pc_buf *out, const char *s, size_t len)
{
	/* A bidi control (U+202E in a Subject) reorders what follows it on
	 * the page: inside <bdi> it reorders only its own text. */
	int iso = s && has_bidi(s, len);

	if (!s)
		return;
	if (iso)
		pc_buf_addstr(out, "<bdi>");
	escape(out, s, len, ESC_TEXT);
	if (iso)
		pc_buf_addstr(out, "</bdi>");
}

void pc_html_text(struct pc_buf *out, const char *s)
{
	if (s)
		pc_html_text_len(out, s, strlen(s));
}

void pc_html_plain(struct pc_buf *out, const char *s)
{
	if (s)
		escape(out, s, strlen(s), ESC_PLAIN);
}

void pc_html_attr(struct pc_buf *out, const char *s)
{
	if (s)
		escape(out, s, strlen(s), ESC_ATTR);
}

int pc_html_url(struct pc_buf *out, const char *url)
{
	size_t scheme = url ? strcspn(url, ":/?#") : 0;

	if (!url || !*url ||
	    (url[scheme] == ':' &&
	     !(scheme == 4 && !strncasecmp(url, "http", 4)) &&
	     !(scheme == 5 && !strncasecmp(url, "https", 5)))) {
		pc_buf_addch(out, '#');
		return 0;
	}
	pc_html_attr(out, url);
	return 1;
}

void pc_html_textf(struct pc_buf *out, const char *fmt, ...)
{
	struct pc_buf t = PC_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&t, fmt, ap);
	va_end(ap);
	pc_html_text_len(out, t.buf, t.len);
	pc_buf_release(&t);
}

/* Whether the n bytes at p end like a slug's hash: "-" or "x" and
 * SLUG_HASH hex digits. */
#define SLUG_HASH 12
static int ends_like_hash(const char *p, size_t n)
{
	size_t i;

	if (n < SLUG_HASH + 1 ||
	    (p[n - SLUG_HASH - 1] != '-' && p[n - SLUG_HASH - 1] != 'x'))
		return 0;
	for (i = n - SLUG_HASH; i < n; i++)
		if (!pc_isdigit((unsigned char)p[i]) &&
		    (p[i] < 'a' || p[i] > 'f'))
			return 0;
	return 1;
}

void pc_html_slug(struct pc_buf *out, const char *s)
{
	size_t start = out->len, i;
	int changed = 0, dash = 0;
	unsigned char h[PC_SHA256_LEN];
	char hex[2 * PC_SHA256_LEN + 1];

	for (i = 0; s[i]; i++) {
		int c = (unsigned char)s[i];
		int lc = pc_tolower(c);
		int keep = pc_isalnum(c) || c == '.' || c == '@' || c == '+' ||
			   c == '-';

		if (c == '.' && out->len == start) {
			changed = 1; /* no hidden file, no "." or ".." */
			continue;
		}
		if (out->len - start >= 80 && (keep || !dash)) {
			changed = 1; /* cut */
			break;
		}
		if (keep) {
			changed |= lc != c;
			pc_buf_addch(out, lc);
			dash = 0;
			continue;
		}
		changed = 1;
		if (!dash && out->len > start)
			pc_buf_addch(out, '-');
		dash = 1;
	}
	/* A name that reads like a changed one's slug ("a-b-<hash>") gets a
	 * hash too, so that no two names share a file. */
	if (out->len == start ||
	    ends_like_hash(out->buf + start, out->len - start))
		changed = 1;
	if (!changed)
		return;
	pc_sha256(h, s, strlen(s));
	pc_hex(hex, h, sizeof(h));
	pc_buf_addf(out, "%s%.*s", out->len > start ? "-" : "x", SLUG_HASH,
		    hex);
}
