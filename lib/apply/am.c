// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * git am's view of a patch mail, and b4's trailer merging. See am.h.
 */
#include <string.h>

#include "apply/am.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* The line at p (up to, not including, the newline), its length. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

static int starts(const char *p, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(p, prefix, n);
}

/* "---" alone (or with trailing blanks): git's separator. */
static int is_separator(const char *p, size_t len)
{
	size_t i;

	if (len < 3 || memcmp(p, "---", 3))
		return 0;
	for (i = 3; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return 0;
	return 1;
}

int pc_am_split(size_t *msg_len, const char **diff, size_t *diff_len,
		const char *body, size_t len, struct pc_err *err)
{
	const char *p = body, *end = body + len, *msg_end = NULL;
	const char *dstart = NULL, *dend = end;

	for (; p < end;) {
		size_t l = line_len(p, end);
		const char *next = p + l + (p + l < end);

		if (!msg_end && (is_separator(p, l) || starts(p, l, "diff -") ||
				 starts(p, l, "Index: ") ||
				 (starts(p, l, "--- ") && next < end &&
				  starts(next, line_len(next, end), "+++ "))))
			msg_end = p;
		if (msg_end && !dstart &&
		    (starts(p, l, "diff -") || starts(p, l, "Index: ") ||
		     (starts(p, l, "--- ") && next < end &&
		      starts(next, line_len(next, end), "+++ "))))
			dstart = p;
		/* The mail signature ("-- " then the git version). */
		if (dstart && l == 3 && !memcmp(p, "-- ", 3))
			dend = p;
		p = next;
	}
	if (!dstart)
		return pc_err_set(err, PC_EPARSE, "the mail has no diff");
	*msg_len = (size_t)(msg_end - body);
	*diff = dstart;
	*diff_len = (size_t)(dend - dstart);
	return 0;
}

/* Lower case, runs of blanks as one space, no blanks at the ends. */
static void normalize(struct pc_buf *out, const char *p, size_t len)
{
	size_t i;
	int blank = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == ' ' || c == '\t') {
			blank = out->len > 0;
			continue;
		}
		if (blank)
			pc_buf_add(out, " ", 1);
		blank = 0;
		c = (unsigned char)pc_tolower(c);
		pc_buf_add(out, (const char *)&c, 1);
	}
}

/* Compares "name: value" lines without case and runs of blanks. */
static int same_trailer(const char *line, size_t len, const char *name,
			const char *value)
{
	struct pc_buf want = PC_BUF_INIT, raw = PC_BUF_INIT, got = PC_BUF_INIT;
	int same;

	pc_buf_addf(&raw, "%s: %s", name, value);
	normalize(&want, raw.buf, raw.len);
	normalize(&got, line, len);
	same = want.len == got.len && !memcmp(want.buf, got.buf, got.len);
	pc_buf_release(&want);
	pc_buf_release(&raw);
	pc_buf_release(&got);
	return same;
}

static int has_trailer(const char *text, size_t len, const char *name,
		       const char *value)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		size_t l = line_len(p, end);

		if (same_trailer(p, l, name, value))
			return 1;
		p += l + (p + l < end);
	}
	return 0;
}

/* Whether the line looks like a trailer ("Token: value"). */
static int trailer_line(const char *p, size_t l)
{
	size_t i = 0;

	while (i < l && (pc_isalnum((unsigned char)p[i]) || p[i] == '-'))
		i++;
	return i > 0 && i + 1 < l && p[i] == ':' && p[i + 1] == ' ';
}

/* Drops leading in-body From:/Date:/Subject: headers and blank lines. */
static const char *skip_inbody(const char *p, const char *end)
{
	const char *q;

	while (p < end && *p == '\n')
		p++;
	for (q = p; q < end;) {
		size_t l = line_len(q, end);

		if (l == 0) {
			if (q != p)
				p = q + 1;
			break;
		}
		if (!starts(q, l, "From: ") && !starts(q, l, "Date: ") &&
		    !starts(q, l, "Subject: "))
			break;
		q += l + (q + l < end);
	}
	while (p < end && *p == '\n')
		p++;
	return p;
}

void pc_am_message(struct pc_buf *out, const char *title, const char *msg,
		   size_t msg_len, const struct pc_am_trailer *add, size_t nadd,
		   const char *link)
{
	const char *p, *end = msg + msg_len, *last;
	size_t start, i;
	int block = 0;

	p = skip_inbody(msg, end);
	while (end > p && (end[-1] == '\n' || end[-1] == ' ' ||
			   end[-1] == '\t' || end[-1] == '\r'))
		end--;
	pc_buf_addf(out, "%s\n", title);
	start = out->len;
	if (end > p) {
		pc_buf_add(out, "\n", 1);
		pc_buf_add(out, p, (size_t)(end - p));
		pc_buf_add(out, "\n", 1);
		/* Is the last paragraph a trailer block? */
		last = end;
		while (last > p &&
		       !(last[-1] == '\n' && last - 1 > p && last[-2] == '\n'))
			last--;
		block = 1;
		for (; last < end;) {
			size_t l = line_len(last, end);

			if (l && !trailer_line(last, l) && last[0] != ' ')
				block = 0;
			last += l + (last + l < end);
		}
	}
	for (i = 0; i <= nadd; i++) {
		const char *name = i < nadd ? add[i].name : "Link";
		const char *value = i < nadd ? add[i].value : link;

		if (!value || !name ||
		    has_trailer(out->buf + start, out->len - start, name,
				value))
			continue;
		if (!block) {
			pc_buf_add(out, "\n", 1);
			block = 1;
		}
		pc_buf_addf(out, "%s: %s\n", name, value);
	}
}
