// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing mail text: see mailtext.h. Header safety does not rest on the
 * cleaning alone: every header word goes through pc_mail_hdr_word(),
 * which asserts that it holds only printable ASCII, so a line break can
 * only ever come from the folding code.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "notify/mailtext.h"
#include "util/utf8.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define BODY_WIDTH PC_MAIL_BODY_WIDTH
#define HEADER_WIDTH PC_MAIL_HEADER_WIDTH
/* An encoded word: "=?UTF-8?Q?" + payload + "?=", at most 60 bytes, so
 * that one fits on a line after any header name used here. */
#define EW_PAYLOAD_MAX 48

/*
 * Decodes the UTF-8 character at p (len > 0 bytes) into *cp; returns its
 * length. Invalid bytes (overlongs, surrogates, truncated sequences) are
 * one byte each and decode to U+FFFD.
 */
static size_t utf8_next(const unsigned char *p, size_t len, uint32_t *cp)
{
	size_t n = pc_utf8_seq(p, len, cp);

	if (n)
		return n;
	*cp = 0xfffd;
	return 1;
}

/* Controls and line breaks of every kind: they become spaces. */
static int is_break(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
	       c == 0x2028 || c == 0x2029;
}

/* Invisible characters that reorder or hide text: dropped. */
static int is_invisible(uint32_t c)
{
	return c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	       c == 0xfeff;
}

/*
 * Appends the clean form of s (NULL: nothing) to out: see compose.h. At
 * most max bytes are appended; a longer text is cut at a character
 * boundary and ends in "...". Returns the number of bytes appended.
 */
size_t pc_mail_clean(struct pc_buf *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = s ? strlen(s) : 0, i = 0, start = out->len;
	int space = 0, cut = 0;

	assert(max >= 4);
	while (i < len) {
		uint32_t c;
		size_t before = out->len;

		i += utf8_next(p + i, len - i, &c);
		if (c == ' ' || is_break(c)) {
			space = out->len > start;
			continue;
		}
		if (is_invisible(c))
			continue;
		if (space)
			pc_buf_addch(out, ' ');
		space = 0;
		pc_utf8_put(out, c);
		if (out->len - start > max - 3) {
			/* Keep room for "..." unless the text ends here. */
			if (i < len || out->len - start > max) {
				pc_buf_setlen(out, before);
				cut = 1;
				break;
			}
		}
	}
	if (cut)
		pc_buf_addstr(out, "...");
	return out->len - start;
}

/* A cleaned copy of s; caller frees. */
char *pc_mail_clean_dup(const char *s, size_t max)
{
	struct pc_buf b = PC_BUF_INIT;

	pc_mail_clean(&b, s, max);
	return pc_buf_detach(&b, NULL);
}

/* Columns a character takes in a terminal: 0, 1 or 2. */
static int char_width(uint32_t c)
{
	if ((c >= 0x0300 && c <= 0x036f) || (c >= 0x1ab0 && c <= 0x1aff) ||
	    (c >= 0x1dc0 && c <= 0x1dff) || (c >= 0x200b && c <= 0x200f) ||
	    (c >= 0x20d0 && c <= 0x20ff) || (c >= 0xfe00 && c <= 0xfe0f) ||
	    (c >= 0xfe20 && c <= 0xfe2f))
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) ||
	    (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

size_t pc_mail_text_width(const char *p, size_t len)
{
	size_t i = 0, w = 0;

	while (i < len) {
		uint32_t c;

		i += utf8_next((const unsigned char *)p + i, len - i, &c);
		w += (size_t)char_width(c);
	}
	return w;
}

/* A plain ASCII addr-spec: one '@', no spaces, quotes or brackets. */
int pc_mail_addr_ok(const char *a)
{
	size_t i, n, at = 0, ats = 0;

	if (!a || !(n = strlen(a)) || n > PC_COMPOSE_ADDR_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)a[i];

		if (c <= 0x20 || c >= 0x7f || strchr("<>()[]\\,;:\"", c))
			return 0;
		if (c == '@') {
			ats++;
			at = i;
		}
	}
	return ats == 1 && at > 0 && at + 1 < n;
}

/*
 * The Message-ID in id without its angle brackets, as (*p_out,
 * *len_out): 0 when it is printable ASCII without spaces or brackets
 * and 1..PC_COMPOSE_ID_MAX bytes long, else PC_EPARSE or PC_ELIMIT.
 */
int pc_mail_msgid_check(const char **p_out, size_t *len_out, const char *id)
{
	size_t n = id ? strlen(id) : 0, i;

	if (n >= 2 && id[0] == '<' && id[n - 1] == '>') {
		id++;
		n -= 2;
	}
	if (!n)
		return PC_EPARSE;
	if (n > PC_COMPOSE_ID_MAX)
		return PC_ELIMIT;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)id[i];

		if (c <= 0x20 || c >= 0x7f || c == '<' || c == '>')
			return PC_EPARSE;
	}
	*p_out = id;
	*len_out = n;
	return 0;
}

int pc_mail_domain_ok(const char *d)
{
	size_t i, n;

	if (!d || !(n = strlen(d)) || n > PC_COMPOSE_DOMAIN_MAX ||
	    d[0] == '.' || d[0] == '-' || d[n - 1] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!pc_isalnum((unsigned char)d[i]) && d[i] != '.' &&
		    d[i] != '-')
			return 0;
	return 1;
}

/*
 * Appends text (one line of single-space-separated words, no line
 * breaks) wrapped at BODY_WIDTH columns: the first line starts with
 * `first`, the others with `rest`. Words are never split; a word wider
 * than a line stands alone on its line.
 */
void pc_mail_wrap(struct pc_buf *out, const char *text, const char *first,
		  const char *rest)
{
	const char *p = text;
	size_t col = strlen(first), words = 0, line = out->len;

	assert(!strchr(text, '\n'));
	pc_buf_addstr(out, first);
	while (*p) {
		const char *q;
		size_t len, w;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		q = strchr(p, ' ');
		len = q ? (size_t)(q - p) : strlen(p);
		w = pc_mail_text_width(p, len);
		if (words && col + 1 + w > BODY_WIDTH) {
			pc_buf_addch(out, '\n');
			pc_buf_addstr(out, rest);
			col = strlen(rest);
			words = 0;
		}
		if (words) {
			pc_buf_addch(out, ' ');
			col++;
		}
		pc_buf_add(out, p, len);
		col += w;
		words++;
		p += len;
	}
	/* No word at all: no trailing spaces from the indent. */
	while (!words && out->len > line && out->buf[out->len - 1] == ' ')
		pc_buf_setlen(out, out->len - 1);
	pc_buf_addch(out, '\n');
}

void pc_mail_para(struct pc_buf *out, const char *first, const char *rest,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void pc_mail_para(struct pc_buf *out, const char *first, const char *rest,
		  const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pc_mail_wrap(out, b.buf, first, rest);
	pc_buf_release(&b);
}

void pc_mail_hdr_start(struct pc_mail_hdr *h, struct pc_buf *out,
		       const char *name)
{
	h->out = out;
	h->words = 0;
	pc_buf_addf(out, "%s:", name);
	h->col = strlen(name) + 1;
}

/*
 * Adds one word, after a space or a fold. Callers pass printable ASCII
 * without spaces (asserted); in a build without assertions any other
 * byte still becomes '?', so no caller can ever start a header line.
 */
void pc_mail_hdr_word(struct pc_mail_hdr *h, const char *w, size_t len)
{
	size_t i;

	if (h->words && h->col + 1 + len > HEADER_WIDTH) {
		pc_buf_addstr(h->out, "\n ");
		h->col = 1;
	} else {
		pc_buf_addch(h->out, ' ');
		h->col++;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)w[i];

		assert(c > 0x20 && c < 0x7f);
		pc_buf_addch(h->out, c > 0x20 && c < 0x7f ? c : '?');
	}
	h->col += len;
	h->words++;
}

void pc_mail_hdr_wordz(struct pc_mail_hdr *h, const char *w)
{
	pc_mail_hdr_word(h, w, strlen(w));
}

void pc_mail_hdr_end(struct pc_mail_hdr *h)
{
	pc_buf_addch(h->out, '\n');
}

/* A header whose value is the given space-separated ASCII words. */
void pc_mail_header(struct pc_buf *out, const char *name, const char *value)
{
	struct pc_mail_hdr h;
	const char *p = value;

	pc_mail_hdr_start(&h, out, name);
	while (*p) {
		size_t len = strcspn(p, " ");

		if (len)
			pc_mail_hdr_word(&h, p, len);
		p += len;
		while (*p == ' ')
			p++;
	}
	pc_mail_hdr_end(&h);
}

static int q_safe(unsigned char c)
{
	/* RFC 2047, 5 (3): what a Q-encoded word in a phrase may hold. */
	return pc_isalnum(c) || c == '!' || c == '*' || c == '+' || c == '-' ||
	       c == '/';
}

/*
 * Adds (p, len), UTF-8, as RFC 2047 encoded words ("=?UTF-8?Q?...?="),
 * each at most 60 bytes and each holding whole characters.
 */
void pc_mail_hdr_encoded(struct pc_mail_hdr *h, const char *p, size_t len)
{
	struct pc_buf w = PC_BUF_INIT;
	size_t i = 0, payload = 0;

	while (i < len) {
		uint32_t c;
		size_t n = utf8_next((const unsigned char *)p + i, len - i, &c);
		size_t enc = 0, k;

		for (k = 0; k < n; k++) {
			unsigned char b = (unsigned char)p[i + k];

			enc += (q_safe(b) || b == ' ') ? 1 : 3;
		}
		if (payload && payload + enc > EW_PAYLOAD_MAX) {
			pc_buf_addstr(&w, "?=");
			pc_mail_hdr_word(h, w.buf, w.len);
			pc_buf_reset(&w);
			payload = 0;
		}
		if (!payload)
			pc_buf_addstr(&w, "=?UTF-8?Q?");
		for (k = 0; k < n; k++) {
			unsigned char b = (unsigned char)p[i + k];

			if (b == ' ')
				pc_buf_addch(&w, '_');
			else if (q_safe(b))
				pc_buf_addch(&w, b);
			else
				pc_buf_addf(&w, "=%02X", b);
		}
		payload += enc;
		i += n;
	}
	if (payload) {
		pc_buf_addstr(&w, "?=");
		pc_mail_hdr_word(h, w.buf, w.len);
	}
	pc_buf_release(&w);
}

/* Whether a word of header text must be encoded: non-ASCII, or "=?". */
int pc_mail_needs_encoding(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)p[i] >= 0x80 ||
		    (p[i] == '=' && i + 1 < len && p[i + 1] == '?'))
			return 1;
	return 0;
}

/*
 * Adds cleaned unstructured text (a subject): plain words as they are,
 * runs of words that need it as encoded words (the spaces inside a run
 * encoded, since the space between two encoded words is dropped).
 */
void pc_mail_hdr_text(struct pc_mail_hdr *h, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, " ");
		const char *run_end;

		if (!pc_mail_needs_encoding(p, len)) {
			pc_mail_hdr_word(h, p, len);
			p += len;
		} else {
			run_end = p + len;
			while (*run_end == ' ') {
				size_t l2 = strcspn(run_end + 1, " ");

				if (!l2 ||
				    !pc_mail_needs_encoding(run_end + 1, l2))
					break;
				run_end += 1 + l2;
			}
			pc_mail_hdr_encoded(h, p, (size_t)(run_end - p));
			p = run_end;
		}
		while (*p == ' ')
			p++;
	}
}

static int atext(unsigned char c)
{
	return pc_isalnum(c) || strchr("!#$%&'*+-/=?^_`{|}~", c);
}

/*
 * Adds a mailbox: "Name <addr>" with the name as atoms, a quoted-string
 * or encoded words, or the bare address without a name; a "," after it
 * when comma. addr was checked with pc_mail_addr_ok().
 */
void pc_mail_hdr_mailbox(struct pc_mail_hdr *h, const struct pc_notify_addr *a,
			 int comma)
{
	char *name = pc_mail_clean_dup(a->name, PC_COMPOSE_NAME_MAX);
	size_t i, n = strlen(name);
	int plain = 1;
	struct pc_buf w = PC_BUF_INIT;

	for (i = 0; i < n; i++)
		if (name[i] != ' ' && !atext((unsigned char)name[i]))
			plain = 0;
	if (!n) {
		/* nothing before the address */
	} else if (pc_mail_needs_encoding(name, n)) {
		pc_mail_hdr_encoded(h, name, n);
	} else if (plain) {
		pc_mail_hdr_text(h, name);
	} else {
		/* A quoted-string, split at its spaces for folding. */
		pc_buf_addch(&w, '"');
		for (i = 0; i < n; i++) {
			if (name[i] == ' ') {
				pc_mail_hdr_word(h, w.buf, w.len);
				pc_buf_reset(&w);
				continue;
			}
			if (name[i] == '"' || name[i] == '\\')
				pc_buf_addch(&w, '\\');
			pc_buf_addch(&w, name[i]);
		}
		pc_buf_addch(&w, '"');
		pc_mail_hdr_word(h, w.buf, w.len);
		pc_buf_reset(&w);
	}
	pc_buf_addf(&w, n ? "<%s>%s" : "%s%s", a->addr, comma ? "," : "");
	pc_mail_hdr_word(h, w.buf, w.len);
	pc_buf_release(&w);
	free(name);
}

void pc_mail_header_mailboxes(struct pc_buf *out, const char *name,
			      const struct pc_notify_addr *const *a, size_t n)
{
	struct pc_mail_hdr h;
	size_t i;

	pc_mail_hdr_start(&h, out, name);
	for (i = 0; i < n; i++)
		pc_mail_hdr_mailbox(&h, a[i], i + 1 < n);
	pc_mail_hdr_end(&h);
}
