// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reStructuredText reader (see rst.h). The document is split into
 * lines once; a single pass then recognises titles (an underline, or an
 * overline + underline, of one repeated punctuation character), explicit
 * markup (labels, comments, directives), literal blocks (after "::"),
 * list items and plain paragraphs. Levels are assigned by the first use of
 * each adornment style, as docutils does. Everything is bounded by the
 * input's length and the limits in rst.h.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rst.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct line {
	uint32_t off, len; /* without the newline and trailing blanks */
	uint32_t indent; /* columns of leading blanks, tabs to 8 */
	uint32_t start; /* offset of the first non-blank byte */
};

struct style {
	char ch;
	int over;
};

struct reader {
	const char *text;
	struct line *lines;
	size_t n_lines;
	struct pc_rst_doc *doc;
	size_t alloc_sec, alloc_para, alloc_labels;
	struct style styles[PC_RST_MAX_LEVELS];
	size_t n_styles;
	size_t cur; /* current section */
	/* The paragraph being gathered: raw lines joined with '\n'. */
	struct pc_buf raw;
	size_t *raw_off;
	size_t n_raw, alloc_raw;
	unsigned para_line;
	uint32_t para_indent;
	int para_item;
	/* Literal block / skipped block state. */
	int literal_next; /* the last paragraph ended with "::" */
	uint32_t literal_indent;
	int skipping;
	uint32_t skip_indent;
	size_t pending_labels; /* labels not yet given a section */
	struct pc_err *err;
	int rc;
};

/* Is c (not NUL) one of set? */
static int in_set(int c, const char *set)
{
	return c && strchr(set, c) != NULL;
}

static int is_adorn_char(int c)
{
	return c > 32 && c < 127 && !pc_isalnum(c);
}

static const char *line_ptr(const struct reader *r, size_t i)
{
	return r->text + r->lines[i].off;
}

/* A line made of one repeated punctuation character (at least 2). */
static int is_adornment(const struct reader *r, size_t i)
{
	const struct line *l = &r->lines[i];
	const char *p = line_ptr(r, i);
	uint32_t k;

	if (l->len < 2 || l->indent != 0 || !is_adorn_char((unsigned char)p[0]))
		return 0;
	for (k = 1; k < l->len; k++)
		if (p[k] != p[0])
			return 0;
	/* "::" alone introduces a literal block; ".." is a comment. */
	if (l->len == 2 && (p[0] == ':' || p[0] == '.'))
		return 0;
	return 1;
}

static int is_blank(const struct reader *r, size_t i)
{
	return r->lines[i].len == 0;
}

/* Width of a title in characters (UTF-8 continuation bytes not counted). */
static size_t text_width(const char *p, size_t len)
{
	size_t i, w = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)p[i] & 0xc0) != 0x80)
			w++;
	return w;
}

/* A simple or grid table border: only = - + | and blanks, with a blank or
 * '+' among them and a run of at least two '=' or '-'. */
static int is_table_border(const struct reader *r, size_t i)
{
	const struct line *l = &r->lines[i];
	const char *p = r->text + l->start;
	size_t n = l->off + l->len - l->start, k;
	int sep = 0, run = 0, best = 0;

	if (!n)
		return 0;
	for (k = 0; k < n; k++) {
		char c = p[k];

		if (c == '=' || c == '-') {
			run++;
			if (run > best)
				best = run;
			continue;
		}
		run = 0;
		if (c == ' ' || c == '\t' || c == '+')
			sep = 1;
		else if (c != '|')
			return 0;
	}
	return sep && best >= 2;
}

static void split_lines(struct reader *r, size_t len)
{
	size_t alloc = 0, pos = 0;

	while (pos < len) {
		const char *p = r->text + pos;
		const char *nl = memchr(p, '\n', len - pos);
		size_t raw = nl ? (size_t)(nl - p) : len - pos;
		size_t n = raw;
		struct line *l;
		size_t k;
		uint32_t col = 0;

		if (r->n_lines >= PC_RST_MAX_LINES) {
			r->rc = pc_err_set(r->err, PC_ELIMIT,
					   "document has more than %u lines",
					   PC_RST_MAX_LINES);
			return;
		}
		PC_ALLOC_GROW(r->lines, r->n_lines + 1, alloc);
		l = &r->lines[r->n_lines++];
		while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' ||
			     p[n - 1] == '\t' || p[n - 1] == '\f' ||
			     p[n - 1] == '\v'))
			n--;
		for (k = 0; k < n && (p[k] == ' ' || p[k] == '\t'); k++)
			col = p[k] == '\t' ? (col / 8 + 1) * 8 : col + 1;
		l->off = (uint32_t)pos;
		l->start = (uint32_t)(pos + k);
		l->indent = col;
		/* A line of blanks is empty. */
		l->len = k == n ? 0 : (uint32_t)n;
		if (k == n)
			l->start = (uint32_t)pos;
		pos += raw + (nl ? 1 : 0);
	}
}

static size_t style_level(struct reader *r, char ch, int over)
{
	size_t i;

	for (i = 0; i < r->n_styles; i++)
		if (r->styles[i].ch == ch && r->styles[i].over == over)
			return i + 1;
	if (r->n_styles == PC_RST_MAX_LEVELS)
		return PC_RST_MAX_LEVELS;
	r->styles[r->n_styles].ch = ch;
	r->styles[r->n_styles].over = over;
	return ++r->n_styles;
}

/* Is c a character that may precede an inline markup start-string? */
static int start_ok_before(const char *in, size_t i)
{
	unsigned char c;

	if (i == 0)
		return 1;
	c = (unsigned char)in[i - 1];
	return pc_isspace(c) || in_set(c, "-:/'\"<([{");
}

/* May c follow an inline markup end-string? */
static int end_ok_after(const char *in, size_t len, size_t i)
{
	unsigned char c;

	if (i >= len)
		return 1;
	c = (unsigned char)in[i];
	return pc_isspace(c) || in_set(c, "-.,:;!?\\/'\")]}>") || c >= 0x80;
}

/* Finds the end-string s (of n bytes) from i: preceded by a non-blank
 * and followed by an allowed character. */
static size_t find_end(const char *in, size_t len, size_t i, const char *s,
		       size_t n)
{
	for (; i + n <= len; i++) {
		if (memcmp(in + i, s, n) != 0)
			continue;
		if (i == 0 || pc_isspace((unsigned char)in[i - 1]) ||
		    in[i - 1] == '\\')
			continue;
		if (end_ok_after(in, len, i + n))
			return i;
	}
	return (size_t)-1;
}

static void add_ref(struct pc_rst_ref **refs, size_t *n, int is_doc,
		    const char *p, size_t len)
{
	if (!refs || !len)
		return;
	*refs = xreallocarray(*refs, *n + 1, sizeof(**refs));
	(*refs)[*n].is_doc = is_doc;
	(*refs)[*n].target = xmemdupz(p, len);
	(*n)++;
}

/* Trims blanks (and newlines) from both ends of (*p, *len). */
static void trim(const char **p, size_t *len)
{
	while (*len && pc_isspace((unsigned char)**p)) {
		(*p)++;
		(*len)--;
	}
	while (*len && pc_isspace((unsigned char)(*p)[*len - 1]))
		(*len)--;
}

/*
 * Splits "text <target>" into its parts; returns 0 when the content has
 * no trailing <target>.
 */
static int split_target(const char *p, size_t len, const char **text,
			size_t *text_len, const char **target,
			size_t *target_len)
{
	const char *lt;

	if (!len || p[len - 1] != '>')
		return 0;
	lt = NULL;
	for (size_t k = len - 1; k-- > 0;)
		if (p[k] == '<') {
			lt = p + k;
			break;
		}
	if (!lt)
		return 0;
	*text = p;
	*text_len = (size_t)(lt - p);
	trim(text, text_len);
	*target = lt + 1;
	*target_len = (size_t)(p + len - 1 - *target);
	trim(target, target_len);
	return 1;
}

static int looks_like_url(const char *p, size_t len)
{
	const char *colon = memchr(p, ':', len);

	return (colon && colon + 2 < p + len && colon[1] == '/' &&
		colon[2] == '/') ||
	       pc_mem_istarts(p, len, "mailto:");
}

/* Handles `...` at in[i] (with an optional role before it, already
 * parsed: role/role_len). Returns the index after it, or 0. */
static size_t do_interpreted(struct pc_buf *out, const char *in, size_t len,
			     size_t i, const char *role, size_t role_len,
			     struct pc_rst_ref **refs, size_t *n_refs)
{
	size_t j, text_len, target_len, end;
	const char *c, *text, *target;
	size_t clen;

	assert(in[i] == '`');
	for (j = i + 1; j < len; j++)
		if (in[j] == '`' && in[j - 1] != '\\')
			break;
	if (j >= len || j == i + 1)
		return 0;
	c = in + i + 1;
	clen = j - i - 1;
	end = j + 1;
	if (end < len && in[end] == '_') {
		end++;
		if (end < len && in[end] == '_')
			end++;
	}
	if (role_len == 3 &&
	    (!memcmp(role, "ref", 3) || !memcmp(role, "doc", 3))) {
		int is_doc = role[0] == 'd';

		if (split_target(c, clen, &text, &text_len, &target,
				 &target_len)) {
			pc_buf_add(out, text, text_len);
			add_ref(refs, n_refs, is_doc, target, target_len);
		} else {
			trim(&c, &clen);
			pc_buf_add(out, c, clen);
			add_ref(refs, n_refs, is_doc, c, clen);
		}
		return end;
	}
	if (split_target(c, clen, &text, &text_len, &target, &target_len)) {
		pc_buf_add(out, text, text_len);
		if (looks_like_url(target, target_len)) {
			if (text_len)
				pc_buf_addch(out, ' ');
			pc_buf_addch(out, '<');
			pc_buf_add(out, target, target_len);
			pc_buf_addch(out, '>');
		}
		return end;
	}
	pc_buf_add(out, c, clen);
	return end;
}

static void strip_map(struct pc_buf *out, const char *in, size_t len,
		      struct pc_rst_ref **refs, size_t *n_refs,
		      const size_t *raw_off, size_t *out_off, size_t n_map)
{
	size_t i = 0, k = 0, j;

	while (i < len) {
		unsigned char c = (unsigned char)in[i];

		while (k < n_map && raw_off[k] <= i)
			out_off[k++] = out->len;
		if (c == '\\' && i + 1 < len) {
			if (in[i + 1] == ' ')
				i += 2;
			else if (in[i + 1] == '\n')
				i += 1;
			else {
				pc_buf_addch(out, in[i + 1]);
				i += 2;
			}
			continue;
		}
		if (c == '`' && i + 1 < len && in[i + 1] == '`' &&
		    start_ok_before(in, i)) {
			j = find_end(in, len, i + 2, "``", 2);
			if (j != (size_t)-1 && j > i + 2) {
				pc_buf_add(out, in + i + 2, j - i - 2);
				i = j + 2;
				continue;
			}
		}
		if (c == ':' && start_ok_before(in, i)) {
			/* :role:`...` (role names: letters, digits, - _ . + :) */
			for (j = i + 1; j < len && j < i + 40; j++)
				if (!pc_isalnum((unsigned char)in[j]) &&
				    !in_set(in[j], "-_.+:"))
					break;
			if (j > i + 2 && j < len && in[j] == '`' &&
			    in[j - 1] == ':') {
				const char *role = in + i + 1;
				size_t role_len = j - i - 2, e;

				/* "c:func" -> "func": the last component. */
				for (size_t q = role_len; q-- > 0;)
					if (role[q] == ':') {
						role_len -= q + 1;
						role += q + 1;
						break;
					}
				e = do_interpreted(out, in, len, j, role,
						   role_len, refs, n_refs);
				if (e) {
					i = e;
					continue;
				}
			}
		}
		if (c == '`' && start_ok_before(in, i)) {
			j = do_interpreted(out, in, len, i, "", 0, refs,
					   n_refs);
			if (j) {
				i = j;
				continue;
			}
		}
		if (c == '*' && i + 2 < len && in[i + 1] == '*' &&
		    !pc_isspace((unsigned char)in[i + 2]) &&
		    start_ok_before(in, i)) {
			j = find_end(in, len, i + 2, "**", 2);
			if (j != (size_t)-1 && j > i + 2) {
				pc_buf_add(out, in + i + 2, j - i - 2);
				i = j + 2;
				continue;
			}
		}
		if (c == '*' && i + 1 < len && in[i + 1] != '*' &&
		    !pc_isspace((unsigned char)in[i + 1]) &&
		    start_ok_before(in, i)) {
			j = find_end(in, len, i + 1, "*", 1);
			if (j != (size_t)-1 && j > i + 1) {
				pc_buf_add(out, in + i + 1, j - i - 1);
				i = j + 1;
				continue;
			}
		}
		if (c == '[' &&
		    (i == 0 || !pc_isalnum((unsigned char)in[i - 1]))) {
			/* Footnote or citation reference: [1]_, [#]_, [#x]_ */
			for (j = i + 1; j < len && j < i + 32; j++)
				if (!pc_isalnum((unsigned char)in[j]) &&
				    !in_set(in[j], "#*-_."))
					break;
			if (j > i + 1 && j + 1 < len && in[j] == ']' &&
			    in[j + 1] == '_' &&
			    (j + 2 >= len ||
			     !pc_isalnum((unsigned char)in[j + 2]))) {
				i = j + 2;
				continue;
			}
		}
		pc_buf_addch(out, (char)c);
		i++;
	}
	while (k < n_map)
		out_off[k++] = out->len;
}

void pc_rst_strip(struct pc_buf *out, const char *in, size_t len,
		  struct pc_rst_ref **refs, size_t *n_refs)
{
	strip_map(out, in, len, refs, n_refs, NULL, NULL, 0);
}

static struct pc_rst_section *new_section(struct reader *r)
{
	struct pc_rst_doc *d = r->doc;
	struct pc_rst_section *s;

	if (d->n_sec >= PC_RST_MAX_SECTIONS) {
		r->rc = pc_err_set(r->err, PC_ELIMIT,
				   "document has more than %u sections",
				   PC_RST_MAX_SECTIONS);
		return NULL;
	}
	PC_ALLOC_GROW(d->sec, d->n_sec + 1, r->alloc_sec);
	s = &d->sec[d->n_sec++];
	memset(s, 0, sizeof(*s));
	s->parent = PC_RST_NONE;
	s->first_para = d->n_para;
	return s;
}

static void flush_para(struct reader *r)
{
	struct pc_rst_doc *d = r->doc;
	struct pc_rst_para *p;
	struct pc_buf out = PC_BUF_INIT;
	size_t len = r->raw.len;
	const char *in = r->raw.buf;

	if (!r->n_raw)
		return;
	/* A paragraph ending in "::" introduces a literal block; "::" alone
	 * disappears, "text::" keeps one colon. */
	if (len >= 2 && in[len - 1] == ':' && in[len - 2] == ':') {
		r->literal_next = 1;
		r->literal_indent = r->para_indent;
		len--;
		if (len == 1 || pc_isspace((unsigned char)in[len - 2]))
			len--;
	}
	while (len && pc_isspace((unsigned char)in[len - 1]))
		len--;
	if (!len)
		goto out;
	if (d->n_para >= PC_RST_MAX_PARAS) {
		r->rc = pc_err_set(r->err, PC_ELIMIT,
				   "document has more than %u paragraphs",
				   PC_RST_MAX_PARAS);
		goto out;
	}
	PC_ALLOC_GROW(d->para, d->n_para + 1, r->alloc_para);
	p = &d->para[d->n_para++];
	memset(p, 0, sizeof(*p));
	p->line = r->para_line;
	p->item = r->para_item;
	p->n_lines = r->n_raw;
	p->line_off = xcalloc(r->n_raw, sizeof(*p->line_off));
	strip_map(&out, in, len, &p->refs, &p->n_refs, r->raw_off, p->line_off,
		  r->n_raw);
	p->text = pc_buf_detach(&out, &p->len);
	d->sec[r->cur].n_paras++;
	/* Labels before a paragraph point at the current section. */
	while (r->pending_labels) {
		d->labels[d->n_labels - r->pending_labels].section = r->cur;
		r->pending_labels--;
	}
out:
	pc_buf_reset(&r->raw);
	r->n_raw = 0;
	r->para_item = 0;
	pc_buf_release(&out);
}

static void para_add_line(struct reader *r, size_t i, const char *p, size_t n)
{
	if (!r->n_raw) {
		r->para_line = (unsigned)(i + 1);
		r->para_indent = r->lines[i].indent;
	} else {
		pc_buf_addch(&r->raw, '\n');
	}
	PC_ALLOC_GROW(r->raw_off, r->n_raw + 1, r->alloc_raw);
	r->raw_off[r->n_raw++] = r->raw.len;
	pc_buf_add(&r->raw, p, n);
}

/* The marker length of a list item at the start of (p, n), or 0. */
static size_t item_marker(const char *p, size_t n)
{
	size_t k;

	if (n >= 2 && in_set(p[0], "-*+") && p[1] == ' ')
		return 2;
	if (n >= 4 && !memcmp(p, "\xe2\x80\xa2", 3) && p[3] == ' ')
		return 4;
	if (n >= 3 && p[0] == '#' && p[1] == '.' && p[2] == ' ')
		return 3;
	for (k = 0; k < n && k < 3 && pc_isdigit((unsigned char)p[k]); k++)
		;
	if (k && k + 1 < n && (p[k] == '.' || p[k] == ')') && p[k + 1] == ' ')
		return k + 2;
	return 0;
}

static void add_label(struct reader *r, const char *p, size_t n, size_t i)
{
	struct pc_rst_doc *d = r->doc;
	struct pc_rst_label *l;
	size_t k;

	if (n && p[0] == '`' && n >= 2 && p[n - 1] == '`') {
		p++;
		n -= 2;
	}
	if (!n || n > 200 || d->n_labels >= PC_RST_MAX_SECTIONS)
		return;
	PC_ALLOC_GROW(d->labels, d->n_labels + 1, r->alloc_labels);
	l = &d->labels[d->n_labels++];
	l->name = xmemdupz(p, n);
	for (k = 0; k < n; k++)
		l->name[k] = (char)pc_tolower((unsigned char)l->name[k]);
	l->section = r->cur;
	l->line = (unsigned)(i + 1);
	r->pending_labels++;
}

static int is_admonition(const char *p, size_t n)
{
	static const char *const names[] = {
		"note",	  "warning", "attention", "caution",
		"danger", "error",   "hint",	  "important",
		"tip",	  "seealso", "admonition"
	};
	size_t k;

	for (k = 0; k < PC_ARRAY_SIZE(names); k++) {
		size_t m = strlen(names[k]);

		if (n >= m + 2 && pc_mem_istarts(p, n, names[k]) &&
		    p[m] == ':' && p[m + 1] == ':')
			return (int)(m + 2);
	}
	return 0;
}

/* Explicit markup ".. " at line i: label, admonition, or a block to skip. */
static void explicit_markup(struct reader *r, size_t i)
{
	const struct line *l = &r->lines[i];
	const char *p = r->text + l->start + 3;
	size_t n = l->off + l->len - l->start - 3;
	int adm;

	flush_para(r);
	r->literal_next = 0;
	if (n > 2 && p[0] == '_' && p[n - 1] == ':') {
		add_label(r, p + 1, n - 2, i);
		return;
	}
	if ((adm = is_admonition(p, n)) != 0) {
		/* The content (on this line and indented below) is prose. */
		p += adm;
		n -= (size_t)adm;
		trim(&p, &n);
		if (n)
			para_add_line(r, i, p, n);
		return;
	}
	/* Comment, footnote, substitution or other directive: skip it and
	 * everything indented below it. */
	r->skipping = 1;
	r->skip_indent = l->indent;
}

static void heading(struct reader *r, size_t text_line, char ch, int over,
		    size_t first_line)
{
	struct pc_rst_doc *d = r->doc;
	const struct line *l = &r->lines[text_line];
	struct pc_rst_section *s;
	struct pc_buf t = PC_BUF_INIT;
	const char *p = r->text + l->start;
	size_t n = l->off + l->len - l->start, lvl, k;

	flush_para(r);
	if (r->rc)
		goto out;
	d->sec[r->cur].end_line = (unsigned)first_line;
	if (!(s = new_section(r)))
		goto out;
	lvl = style_level(r, ch, over);
	pc_rst_strip(&t, p, n, NULL, NULL);
	pc_buf_rtrim(&t);
	s->title = pc_buf_detach(&t, NULL);
	s->level = (unsigned)lvl;
	s->line = (unsigned)(text_line + 1);
	for (k = d->n_sec - 1; k-- > 0;)
		if (d->sec[k].level < lvl) {
			s->parent = k;
			break;
		}
	r->cur = d->n_sec - 1;
	while (r->pending_labels) {
		d->labels[d->n_labels - r->pending_labels].section = r->cur;
		r->pending_labels--;
	}
	r->literal_next = 0;
out:
	pc_buf_release(&t);
}

static void read_lines(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->n_lines && !r->rc; i++) {
		const struct line *l = &r->lines[i];
		const char *p = r->text + l->start;
		size_t n = l->len ? l->off + l->len - l->start : 0, m;

		if (r->skipping) {
			if (!n || l->indent > r->skip_indent)
				continue;
			r->skipping = 0;
		}
		if (!n) {
			flush_para(r);
			continue;
		}
		if (r->literal_next && !r->n_raw) {
			if (l->indent > r->literal_indent) {
				r->skipping = 1;
				r->skip_indent = r->literal_indent;
				r->literal_next = 0;
				continue;
			}
			r->literal_next = 0;
		}
		/* Titles start a paragraph. */
		if (!r->n_raw && is_adornment(r, i) && i + 2 < r->n_lines &&
		    !is_blank(r, i + 1) && !is_adornment(r, i + 1) &&
		    is_adornment(r, i + 2) &&
		    line_ptr(r, i + 2)[0] == line_ptr(r, i)[0] &&
		    r->lines[i + 2].len == l->len) {
			heading(r, i + 1, line_ptr(r, i)[0], 1, i);
			i += 2;
			continue;
		}
		if (!r->n_raw && l->indent == 0 && !is_adornment(r, i) &&
		    i + 1 < r->n_lines && is_adornment(r, i + 1)) {
			size_t w = text_width(p, n);
			size_t u = r->lines[i + 1].len;

			if (u >= w || u >= 4) {
				heading(r, i, line_ptr(r, i + 1)[0], 0, i);
				i++;
				continue;
			}
		}
		if (is_table_border(r, i) ||
		    (!r->n_raw && is_adornment(r, i))) {
			/* A table border or a transition; a line of
			 * punctuation inside a paragraph ("Short\n--", an
			 * underline too short to make a title) is text. */
			flush_para(r);
			continue;
		}
		if (n >= 3 && p[0] == '.' && p[1] == '.' &&
		    (p[2] == ' ' || n == 2)) {
			explicit_markup(r, i);
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			flush_para(r);
			r->skipping = 1;
			r->skip_indent = l->indent;
			continue;
		}
		if ((m = item_marker(p, n)) != 0) {
			flush_para(r);
			para_add_line(r, i, p + m, n - m);
			r->para_item = 1;
			continue;
		}
		para_add_line(r, i, p, n);
	}
	if (!r->rc)
		flush_para(r);
	if (r->doc->n_sec)
		r->doc->sec[r->cur].end_line = (unsigned)r->n_lines;
}

void pc_rst_doc_free(struct pc_rst_doc *doc)
{
	size_t i, j;

	if (!doc)
		return;
	for (i = 0; i < doc->n_sec; i++)
		free(doc->sec[i].title);
	for (i = 0; i < doc->n_para; i++) {
		free(doc->para[i].text);
		free(doc->para[i].line_off);
		for (j = 0; j < doc->para[i].n_refs; j++)
			free(doc->para[i].refs[j].target);
		free(doc->para[i].refs);
	}
	for (i = 0; i < doc->n_labels; i++)
		free(doc->labels[i].name);
	free(doc->sec);
	free(doc->para);
	free(doc->labels);
	free(doc);
}

int pc_rst_parse(struct pc_rst_doc **out, const char *text, size_t len,
		 struct pc_err *err)
{
	struct reader r = { 0 };
	int rc;

	*out = NULL;
	if (len > PC_RST_MAX_BYTES)
		return pc_err_set(err, PC_ELIMIT,
				  "document is larger than %u bytes",
				  PC_RST_MAX_BYTES);
	r.text = text;
	r.err = err;
	r.doc = xcalloc(1, sizeof(*r.doc));
	pc_buf_init(&r.raw, 256);
	new_section(&r);
	split_lines(&r, len);
	if (!r.rc)
		read_lines(&r);
	rc = r.rc;
	free(r.lines);
	free(r.raw_off);
	pc_buf_release(&r.raw);
	if (rc < 0) {
		pc_rst_doc_free(r.doc);
		return rc;
	}
	*out = r.doc;
	return 0;
}

size_t pc_rst_find_label(const struct pc_rst_doc *doc, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < doc->n_labels; i++)
		if (strlen(doc->labels[i].name) == n &&
		    pc_mem_istarts(doc->labels[i].name, n, name))
			return doc->labels[i].section;
	return PC_RST_NONE;
}

size_t pc_rst_subtree_end(const struct pc_rst_doc *doc, size_t s)
{
	size_t i;

	if (s == 0)
		return doc->n_sec - 1;
	for (i = s + 1; i < doc->n_sec; i++)
		if (doc->sec[i].level <= doc->sec[s].level)
			return i - 1;
	return doc->n_sec - 1;
}

unsigned pc_rst_para_line(const struct pc_rst_para *p, size_t off)
{
	size_t k;

	for (k = p->n_lines; k-- > 1;)
		if (p->line_off[k] <= off)
			return p->line + (unsigned)k;
	return p->line;
}
