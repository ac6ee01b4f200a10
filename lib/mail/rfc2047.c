// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding of RFC 2047 encoded words in unstructured header text, in one
 * left-to-right pass without recursion, in time linear in the input. An
 * encoded word is `=?charset[*lang]?Q|B?text?=` whose text holds no
 * whitespace and no "=?"; anything else that starts with "=?" is kept as
 * text. Words are recognised wherever they start, also glued to text
 * ("foo=?utf-8?q?x?=" gives "foox"), as git's mailinfo does, since mailers
 * that glue them expect them decoded. The bytes of adjacent words (only
 * whitespace between them) in the same charset are joined before charset
 * conversion, so a character split across two words comes out whole, and
 * the whitespace between them is dropped. Decoding is lenient: bad Q
 * escapes stay literal, base64 skips junk and restarts after padding.
 */
#include <string.h>

#include "mail/charset.h"
#include "mail/rfc2047.h"
#include "util/util.h"
#include "util/banned.h"

/* Longest charset name (without language) taken as an encoded word's. */
#define CHARSET_MAX 64

struct word {
	const char *cs; /* borrowed: the charset, language cut off */
	size_t cslen;
	int b64; /* B encoding, else Q */
	const char *text; /* borrowed: the encoded text */
	size_t textlen;
	size_t len; /* bytes from "=?" to "?=" inclusive */
};

/* The pending run of adjacent words in one charset. */
struct run {
	struct pc_buf bytes; /* decoded, not yet converted */
	char cs[CHARSET_MAX + 1];
	int active;
};

static int is_lws(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int is_charset_char(int c)
{
	return c > ' ' && c < 0x7f && c != '?' && c != '=' && c != '"';
}

/*
 * Parses the encoded word at p (which starts with "=?"). Returns 1 and
 * fills w, or 0 if p does not start a well-formed word. Scans no further
 * than the next whitespace or "=?", which keeps the whole decode linear.
 */
static int parse_word(struct word *w, const char *p, size_t n)
{
	size_t i = 2, star = 0;

	while (i < n && i < 2 + 2 * CHARSET_MAX && is_charset_char(p[i])) {
		if (p[i] == '*' && !star)
			star = i;
		i++;
	}
	if (i >= n || p[i] != '?')
		return 0;
	w->cs = p + 2;
	w->cslen = (star ? star : i) - 2;
	if (!w->cslen || w->cslen > CHARSET_MAX)
		return 0;
	if (i + 2 >= n || p[i + 2] != '?')
		return 0;
	switch (p[i + 1]) {
	case 'B':
	case 'b':
		w->b64 = 1;
		break;
	case 'Q':
	case 'q':
		w->b64 = 0;
		break;
	default:
		return 0;
	}
	i += 3;
	w->text = p + i;
	for (; i < n; i++) {
		if (p[i] == '?' && i + 1 < n && p[i + 1] == '=') {
			w->textlen = (size_t)(p + i - w->text);
			w->len = i + 2;
			return 1;
		}
		/* "=?" opens another word, but "=?=" ends this one. */
		if (is_lws(p[i]) ||
		    (p[i] == '=' && i + 1 < n && p[i + 1] == '?' &&
		     (i + 2 >= n || p[i + 2] != '=')))
			return 0;
	}
	return 0;
}

/* Q: '_' is a space, "=XX" a byte in either case; bad escapes stay. */
static void decode_q(struct pc_buf *out, const char *s, size_t n)
{
	char *w;
	size_t i;
	int hi, lo;

	pc_buf_grow(out, n); /* Q never grows */
	w = out->buf + out->len;
	for (i = 0; i < n; i++) {
		if (s[i] == '_') {
			*w++ = ' ';
		} else if (s[i] == '=' && i + 2 < n &&
			   (hi = pc_hexval((unsigned char)s[i + 1])) >= 0 &&
			   (lo = pc_hexval((unsigned char)s[i + 2])) >= 0) {
			*w++ = (char)(hi << 4 | lo);
			i += 2;
		} else {
			*w++ = s[i];
		}
	}
	pc_buf_setlen(out, (size_t)(w - out->buf));
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * B, leniently: characters outside the alphabet are skipped, '=' ends a
 * quantum (its leftover bits are dropped) and decoding goes on after it,
 * so wrong, missing or premature padding loses at most a partial byte.
 */
static void decode_b(struct pc_buf *out, const char *s, size_t n)
{
	unsigned int acc = 0, bits = 0;
	char *w;
	size_t i;
	int v;

	pc_buf_grow(out, n / 4 * 3 + 3); /* at most 6 bits a character */
	w = out->buf + out->len;
	for (i = 0; i < n; i++) {
		if (s[i] == '=') {
			acc = bits = 0;
			continue;
		}
		if ((v = b64val((unsigned char)s[i])) < 0)
			continue;
		acc = (acc << 6 | (unsigned int)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			*w++ = (char)((acc >> bits) & 0xff);
		}
	}
	pc_buf_setlen(out, (size_t)(w - out->buf));
}

/* Compares charset names ignoring case, '-' and '_' ("UTF8" = "utf-8"). */
static int same_charset(const char *a, const char *b, size_t blen)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (a[i] == '-' || a[i] == '_')
			i++;
		while (j < blen && (b[j] == '-' || b[j] == '_'))
			j++;
		if (!a[i] || j == blen)
			return !a[i] && j == blen;
		if (pc_tolower((unsigned char)a[i]) !=
		    pc_tolower((unsigned char)b[j]))
			return 0;
		i++;
		j++;
	}
}

/* Removes every U+FEFF from out->buf + start on. */
static void drop_boms(struct pc_buf *out, size_t start)
{
	size_t r, w = start;

	for (r = start; r < out->len;) {
		if (out->len - r >= 3 &&
		    !memcmp(out->buf + r, "\xef\xbb\xbf", 3)) {
			r += 3;
			continue;
		}
		out->buf[w++] = out->buf[r++];
	}
	pc_buf_setlen(out, w);
}

static int run_flush(struct pc_buf *out, struct run *run)
{
	size_t start = out->len;
	int rc;

	if (!run->active)
		return PC_CHARSET_EXACT;
	rc = pc_charset_to_utf8(out, run->cs, run->bytes.buf, run->bytes.len);
	drop_boms(out, start);
	pc_buf_reset(&run->bytes);
	run->active = 0;
	return rc;
}

/* Raw text between words: UTF-8 if valid, else windows-1252. */
static int add_text(struct pc_buf *out, const char *p, size_t n)
{
	if (pc_utf8_valid(p, n)) {
		pc_buf_add(out, p, n);
		return PC_CHARSET_EXACT;
	}
	pc_charset_to_utf8(out, "windows-1252", p, n);
	return PC_CHARSET_FALLBACK;
}

static int only_lws(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_lws(p[i]))
			return 0;
	return 1;
}

int pc_rfc2047_decode(struct pc_buf *out, const char *p, size_t len)
{
	struct run run = { .bytes = PC_BUF_INIT };
	size_t i = 0, lit = 0;
	int rc = PC_CHARSET_EXACT, after_word = 0;
	const char *eq;
	struct word w;

	while (i + 1 < len) {
		eq = memchr(p + i, '=', len - i - 1);
		if (!eq)
			break;
		i = (size_t)(eq - p);
		if (p[i + 1] != '?' || !parse_word(&w, p + i, len - i)) {
			i++;
			continue;
		}
		/* Text since the last word: dropped if only whitespace. */
		if (!after_word || !only_lws(p + lit, i - lit)) {
			rc |= run_flush(out, &run);
			rc |= add_text(out, p + lit, i - lit);
		}
		if (run.active && !same_charset(run.cs, w.cs, w.cslen))
			rc |= run_flush(out, &run);
		if (!run.active) {
			memcpy(run.cs, w.cs, w.cslen);
			run.cs[w.cslen] = '\0';
			run.active = 1;
		}
		if (w.b64)
			decode_b(&run.bytes, w.text, w.textlen);
		else
			decode_q(&run.bytes, w.text, w.textlen);
		i += w.len;
		lit = i;
		after_word = 1;
	}
	rc |= run_flush(out, &run);
	rc |= add_text(out, p + lit, len - lit);
	pc_buf_release(&run.bytes);
	return rc;
}
