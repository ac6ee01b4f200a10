// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trailers in patches and in replies (see trailer.h). A trailer line is
 * "Token: value" with Token matching [A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)*
 * and the colon followed by a blank or the end of the line; a value may go
 * on over lines that start with a blank. Well-known tokens get their
 * canonical case; "*-by" trailers are people and their value is read as a
 * mailbox ("Name <addr>", "\"Doe, Jane\" <addr>", "addr (Name)", a bare
 * address, or only a name).
 *
 * In a patch only the trailer block counts: the last paragraph of the
 * commit message, when every line of it is a trailer, a continuation or a
 * b4 custody note ("[ dj: fixed typo ]"), or, as git interpret-trailers
 * also allows, when it holds a Signed-off-by, ends in a trailer and at
 * least a quarter of its lines are trailers. In a reply every unquoted line
 * counts until the quoted original of an Outlook reply or the signature;
 * quoted lines, diff hunks and text after those markers are never read.
 * A bot's "kindly add the following tag" (or a '|'-prefixed line, as the
 * kernel test robot writes them) marks the trailers after it suggested.
 *
 * Everything is bounded by the body's length, and at most PC_TRAILER_MAX
 * trailers are taken from one body.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "trailer.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Longer "tokens" are prose ("Unfortunately-this-is-not-a-trailer:"). */
#define TOKEN_MAX 40
/* A trailer line in a reply may be indented by this many spaces. */
#define REPLY_INDENT_MAX 4
/* How many non-empty lines before a trailer may ask to add it. */
#define SUGGEST_LOOKBACK 4

struct line {
	const char *p;
	size_t len;
};

/* The next line of (body, len) from *pos, without its "\n" or "\r\n". */
static int next_line(struct line *l, const char *body, size_t len, size_t *pos)
{
	const char *nl;

	if (*pos >= len)
		return 0;
	l->p = body + *pos;
	nl = memchr(l->p, '\n', len - *pos);
	l->len = nl ? (size_t)(nl - l->p) : len - *pos;
	*pos += l->len + (nl ? 1 : 0);
	if (l->len && l->p[l->len - 1] == '\r')
		l->len--;
	return 1;
}

static int is_blank(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!pc_isspace((unsigned char)p[i]))
			return 0;
	return 1;
}

static void trim(const char **p, size_t *len)
{
	while (*len && pc_isspace((unsigned char)(*p)[0])) {
		(*p)++;
		(*len)--;
	}
	while (*len && pc_isspace((unsigned char)(*p)[*len - 1]))
		(*len)--;
}

static int line_is(const struct line *l, const char *s)
{
	return l->len == strlen(s) && memcmp(l->p, s, l->len) == 0;
}

/*
 * Length of the token when (p, len) starts with "Token:" followed by a
 * blank or the end of the line; 0 if it does not.
 */
static size_t trailer_token(const char *p, size_t len)
{
	size_t i;

	if (!len || !pc_isalpha((unsigned char)p[0]))
		return 0;
	i = 1;
	for (;;) {
		while (i < len && pc_isalnum((unsigned char)p[i]))
			i++;
		if (i + 1 < len && p[i] == '-' &&
		    pc_isalnum((unsigned char)p[i + 1])) {
			i++;
			continue;
		}
		break;
	}
	if (i > TOKEN_MAX || i >= len || p[i] != ':')
		return 0;
	if (i + 1 < len && p[i + 1] != ' ' && p[i + 1] != '\t')
		return 0;
	return i;
}

/* b4's chain-of-custody notes: "[ dj: fixed typo ]". */
static int is_custody(const char *p, size_t len)
{
	trim(&p, &len);
	return len >= 2 && p[0] == '[' && p[len - 1] == ']';
}

static char *canonical_name(const char *p, size_t len)
{
	static const char *const known[] = {
		"Signed-off-by",
		"Reviewed-by",
		"Acked-by",
		"Tested-by",
		"Reported-by",
		"Suggested-by",
		"Co-developed-by",
		"Reported-and-tested-by",
		"Fixes",
		"Link",
		"Closes",
		"Cc",
		"Message-ID",
		"Change-Id",
		"Bug",
	};
	size_t i;

	for (i = 0; i < PC_ARRAY_SIZE(known); i++)
		if (strlen(known[i]) == len && pc_mem_istarts(p, len, known[i]))
			return xstrdup(known[i]);
	return xmemdupz(p, len);
}

static int is_person_name(const char *name)
{
	size_t n = strlen(name);

	return n > 3 && pc_mem_istarts(name + n - 3, 3, "-by");
}

/* A display name, unquoted ("\"Doe, Jane\"" -> "Doe, Jane"); or NULL. */
static char *display_name(const char *p, size_t len)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;

	trim(&p, &len);
	if (len && p[0] == '"') {
		for (i = 1; i < len && p[i] != '"'; i++) {
			if (p[i] == '\\' && i + 1 < len)
				i++;
			pc_buf_addch(&b, p[i]);
		}
		pc_buf_rtrim(&b);
	} else {
		pc_buf_add(&b, p, len);
	}
	if (!b.len) {
		/* A quoted name of blanks allocated before it was trimmed. */
		pc_buf_release(&b);
		return NULL;
	}
	return pc_buf_detach(&b, NULL);
}

/* A lower-cased address if (p, len) looks like one, else NULL. */
static char *address(const char *p, size_t len)
{
	size_t i;
	char *a;

	trim(&p, &len);
	while (len &&
	       (p[len - 1] == ',' || p[len - 1] == ';' || p[len - 1] == '>'))
		len--;
	while (len && p[0] == '<') {
		p++;
		len--;
	}
	if (!len || !memchr(p, '@', len) || p[0] == '@' || p[len - 1] == '@')
		return NULL;
	for (i = 0; i < len; i++)
		if (pc_isspace((unsigned char)p[i]) || p[i] == '\0')
			return NULL;
	a = xmemdupz(p, len);
	for (i = 0; i < len; i++)
		a[i] = (char)pc_tolower((unsigned char)a[i]);
	return a;
}

/* Reads a person trailer's value as a mailbox into t->person, t->addr. */
static void parse_mailbox(struct pc_trailer *t, const char *v, size_t len)
{
	const char *lt = NULL, *gt, *at;
	size_t i, start, end;
	int quoted = 0;

	for (i = 0; i < len; i++) {
		if (quoted && v[i] == '\\')
			i++;
		else if (v[i] == '"')
			quoted = !quoted;
		else if (v[i] == '<' && !quoted) {
			lt = v + i;
			break;
		}
	}
	if (lt && (gt = memchr(lt, '>', len - (size_t)(lt - v)))) {
		/* Name <addr> */
		t->person = display_name(v, (size_t)(lt - v));
		t->addr = address(lt + 1, (size_t)(gt - lt - 1));
		return;
	}
	at = memchr(v, '@', len);
	if (!at) {
		/* Only a name: "Reported-by: syzbot". */
		t->person = display_name(v, len);
		return;
	}
	/* The word holding the '@': a bare address. */
	for (start = (size_t)(at - v);
	     start && !pc_isspace((unsigned char)v[start - 1]); start--)
		;
	for (end = (size_t)(at - v);
	     end < len && !pc_isspace((unsigned char)v[end]); end++)
		;
	t->addr = address(v + start, end - start);
	if (!t->addr) {
		t->person = display_name(v, len);
		return;
	}
	/* "addr (Name)" or "Name addr". */
	i = end;
	while (i < len && pc_isspace((unsigned char)v[i]))
		i++;
	if (i < len && v[i] == '(') {
		const char *close = memchr(v + i, ')', len - i);

		if (close)
			t->person = display_name(v + i + 1,
						 (size_t)(close - v) - i - 1);
	} else if (start) {
		t->person = display_name(v, start);
	}
}

/* Removes the trailer just added (a reply's person without address). */
static void drop_last(struct pc_trailer_list *out, size_t *taken)
{
	struct pc_trailer *t = &out->v[--out->n];

	free(t->name);
	free(t->value);
	free(t->person);
	free(t->addr);
	memset(t, 0, sizeof(*t));
	(*taken)--;
}

static int value_complete(const char *v, size_t len)
{
	const char *lt = memchr(v, '<', len), *lp = memchr(v, '(', len);
	size_t i, quotes = 0;

	for (i = 0; i < len; i++)
		quotes += v[i] == '"';
	return !(quotes & 1) &&
	       (!lt || memchr(lt, '>', len - (size_t)(lt - v))) &&
	       (!lp || memchr(lp, ')', len - (size_t)(lp - v)));
}

/*
 * In a reply a value goes on over an indented line only while it is
 * visibly cut ("Acked-by: Jane Doe <jane@" or an open quote or
 * parenthesis), or when a name is followed by its "<address>": indented
 * text after a complete trailer is more likely quoted code than more value.
 */
static int reply_folds(const struct pc_buf *val, const struct line *next)
{
	const char *p = next->p;
	size_t len = next->len;

	if (!len || !pc_isspace((unsigned char)p[0]) || is_blank(p, len))
		return 0;
	trim(&p, &len);
	if (!value_complete(val->buf, val->len))
		return 1;
	return p[0] == '<' && !memchr(val->buf, '<', val->len);
}

/* "Fixes: <at least 7 hex digits>" as a reviewer writes it in a reply. */
static int is_commit_ref(const char *v, size_t len)
{
	size_t i = 0;

	while (i < len && ((v[i] >= '0' && v[i] <= '9') ||
			   (pc_tolower((unsigned char)v[i]) >= 'a' &&
			    pc_tolower((unsigned char)v[i]) <= 'f')))
		i++;
	return i >= 7 && (i == len || pc_isspace((unsigned char)v[i]));
}

/*
 * Appends one trailer; the name is (name, name_len), the unfolded value is
 * taken from val. Returns PC_ELIMIT when out already holds a body's worth.
 */
static int add(struct pc_trailer_list *out, size_t *taken, const char *name,
	       size_t name_len, struct pc_buf *val, int line, int suggested,
	       struct pc_err *err)
{
	struct pc_trailer *t;

	if (*taken >= PC_TRAILER_MAX)
		return pc_err_set(err, PC_ELIMIT,
				  "too many trailers (more than %d)",
				  PC_TRAILER_MAX);
	(*taken)++;
	PC_ALLOC_GROW(out->v, out->n + 1, out->alloc);
	t = &out->v[out->n++];
	memset(t, 0, sizeof(*t));
	t->name = canonical_name(name, name_len);
	t->value = pc_buf_detach(val, NULL);
	t->line = line;
	t->suggested = suggested ? 1 : 0;
	if (is_person_name(t->name)) {
		parse_mailbox(t, t->value, strlen(t->value));
		t->is_person = t->addr != NULL;
	}
	return 0;
}

static void value_add(struct pc_buf *val, const char *p, size_t len)
{
	trim(&p, &len);
	if (!len)
		return;
	if (val->len)
		pc_buf_addch(val, ' ');
	pc_buf_add(val, p, len);
}

void pc_trailer_list_release(struct pc_trailer_list *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].value);
		free(l->v[i].person);
		free(l->v[i].addr);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/*
 * Where git mailinfo ends a commit message (its patchbreak()): a "---"
 * line, "--- file" of a diff without headers, "diff -" or CVS's "Index: ".
 */
static int ends_message(const struct line *l)
{
	size_t i;

	if (pc_mem_starts(l->p, l->len, "diff -") ||
	    pc_mem_starts(l->p, l->len, "Index: "))
		return 1;
	if (!pc_mem_starts(l->p, l->len, "---"))
		return 0;
	if (l->len > 4 && l->p[3] == ' ' && !pc_isspace((unsigned char)l->p[4]))
		return 1;
	for (i = 3; i < l->len; i++)
		if (!pc_isspace((unsigned char)l->p[i]))
			return 0;
	return 1;
}

/* " file.c | 20 +--", " 3 files changed, ..." of a cover letter. */
static int is_diffstat(const char *p, size_t len)
{
	const char *bar = memchr(p, '|', len);

	if (pc_memimem(p, len, "file changed") ||
	    pc_memimem(p, len, "files changed"))
		return 1;
	if (!bar)
		return 0;
	for (bar++; bar < p + len && *bar == ' '; bar++)
		;
	return bar < p + len &&
	       (pc_isdigit((unsigned char)*bar) ||
		pc_mem_starts(bar, (size_t)(p + len - bar), "Bin"));
}

/*
 * Whether a paragraph (n non-blank lines) is a trailer block. As in git
 * interpret-trailers, every line is a trailer, a continuation of one or a
 * custody note; or the paragraph holds a Signed-off-by and at least a
 * quarter of its lines are trailers. The second form must also end in a
 * trailer, so prose that mentions a tag and goes on is never one. A
 * diffstat folded under "Diffstat:" makes it a cover letter's, not a block.
 */
static int is_trailer_block(const struct line *l, size_t n)
{
	size_t i, trailers = 0, other = 0;
	int sob = 0, in_trailer = 0;

	for (i = 0; i < n; i++) {
		if (trailer_token(l[i].p, l[i].len)) {
			trailers++;
			in_trailer = 1;
			sob |= pc_mem_istarts(l[i].p, l[i].len,
					      "Signed-off-by:");
		} else if (pc_isspace((unsigned char)l[i].p[0])) {
			if (is_diffstat(l[i].p, l[i].len))
				return 0;
			other += !in_trailer;
		} else if (is_custody(l[i].p, l[i].len)) {
			in_trailer = 0;
		} else {
			other++;
			in_trailer = 0;
		}
	}
	if (!trailers)
		return 0;
	return !other || (sob && in_trailer && trailers * 3 >= other);
}

/* Whether every line of a paragraph is a footnote ("[1] https://...",
 * "[2]: ...") or the continuation of one: a block of link footnotes
 * after the trailers, which then stay the trailer block. */
static int is_footnote_block(const struct line *l, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (pc_isspace((unsigned char)l[i].p[0]) && i)
			continue;
		if (l[i].len < 3 || l[i].p[0] != '[')
			return 0;
		for (k = 1;
		     k < l[i].len && pc_isdigit((unsigned char)l[i].p[k]); k++)
			;
		if (k == 1 || k >= l[i].len || l[i].p[k] != ']')
			return 0;
	}
	return n > 0;
}

/* The last paragraph of lines[0..end): [*first, *last]; 0 when there
 * is none (only blank lines). */
static int paragraph_before(const struct line *lines, size_t end, size_t *first,
			    size_t *last)
{
	size_t l = end, f;

	while (l && is_blank(lines[l - 1].p, lines[l - 1].len))
		l--;
	if (!l)
		return 0;
	l--;
	f = l;
	while (f && !is_blank(lines[f - 1].p, lines[f - 1].len))
		f--;
	*first = f;
	*last = l;
	return 1;
}

int pc_trailers_from_patch(struct pc_trailer_list *out, const char *body,
			   size_t len, struct pc_err *err)
{
	struct line *lines = NULL, l;
	size_t n = 0, alloc = 0, pos = 0, first, last, i, taken = 0;
	struct pc_buf val = PC_BUF_INIT;
	int rc = 0;

	if (!out || !body)
		return pc_err_set(err, PC_EUSAGE,
				  "cannot read trailers: null argument");
	while (next_line(&l, body, len, &pos) && !ends_message(&l)) {
		PC_ALLOC_GROW(lines, n + 1, alloc);
		lines[n++] = l;
	}
	/* The last paragraph, [first, last]; before footnotes after the
	 * trailers, the paragraph before them. */
	if (!paragraph_before(lines, n, &first, &last))
		goto out;
	while (first && is_footnote_block(lines + first, last - first + 1))
		if (!paragraph_before(lines, first, &first, &last))
			goto out;

	if (!is_trailer_block(lines + first, last - first + 1))
		goto out;

	for (i = first; i <= last; i++) {
		const struct line *c = &lines[i];
		size_t tok = trailer_token(c->p, c->len), j;

		if (!tok)
			continue;
		value_add(&val, c->p + tok + 1, c->len - tok - 1);
		for (j = i + 1;
		     j <= last && !trailer_token(lines[j].p, lines[j].len) &&
		     pc_isspace((unsigned char)lines[j].p[0]);
		     j++)
			value_add(&val, lines[j].p, lines[j].len);
		if (val.len) {
			rc = add(out, &taken, c->p, tok, &val, (int)(i + 1), 0,
				 err);
			if (rc < 0)
				goto out;
		}
		pc_buf_reset(&val);
	}
out:
	pc_buf_release(&val);
	free(lines);
	return rc;
}

static int asks_to_add(const struct line *l)
{
	static const char *const phrases[] = {
		"kindly add following tag",	"kindly add the following tag",
		"please add the following tag", "please add following tag",
		"add the following tags",	"if you fix the issue",
	};
	size_t i;

	for (i = 0; i < PC_ARRAY_SIZE(phrases); i++)
		if (pc_memimem(l->p, l->len, phrases[i]))
			return 1;
	return 0;
}

/* Where a reply's own text ends. */
static int ends_reply(const struct line *l, const char *rest, size_t rest_len)
{
	const char *p = l->p;
	size_t len = l->len;
	struct line next;
	size_t pos = 0;

	if (line_is(l, "-- ") || line_is(l, "--"))
		return 1;
	trim(&p, &len);
	if (pc_mem_starts(p, len, "-----") &&
	    pc_memimem(p, len, "original message"))
		return 1;
	/* Outlook quotes the original unmarked under "From:" and "Sent:". */
	if (pc_mem_istarts(l->p, l->len, "From:") &&
	    next_line(&next, rest, rest_len, &pos) &&
	    pc_mem_istarts(next.p, next.len, "Sent:"))
		return 1;
	return 0;
}

int pc_trailers_from_reply(struct pc_trailer_list *out, const char *body,
			   size_t len, struct pc_err *err)
{
	struct line recent[SUGGEST_LOOKBACK], l, c;
	size_t nrecent = 0, pos = 0, peek, taken = 0, i, tok, skip;
	struct pc_buf val = PC_BUF_INIT;
	int rc = 0, lineno = 0, in_hunk = 0;

	if (!out || !body)
		return pc_err_set(err, PC_EUSAGE,
				  "cannot read trailers: null argument");
	while (next_line(&l, body, len, &pos)) {
		const char *p = l.p;
		size_t plen = l.len;
		int piped = 0, suggested = 0, trailer_line = lineno + 1;

		lineno++;
		if (ends_reply(&l, body + pos, len - pos))
			break;
		/* A diff in the reply: its context lines are not text. */
		if (pc_mem_starts(l.p, l.len, "@@ ")) {
			in_hunk = 1;
			continue;
		}
		if (in_hunk) {
			if (l.len && (l.p[0] == ' ' || l.p[0] == '+' ||
				      l.p[0] == '-' || l.p[0] == '\\'))
				continue;
			in_hunk = 0;
		}
		for (skip = 0; skip < plen && p[skip] == ' '; skip++)
			;
		if (skip < plen && p[skip] == '>')
			continue;
		if (skip < plen && p[skip] == '|') {
			piped = 1;
			for (skip++; skip < plen && p[skip] == ' '; skip++)
				;
		} else if (skip > REPLY_INDENT_MAX) {
			skip = plen;
		}
		p += skip;
		plen -= skip;
		if (is_blank(l.p, l.len))
			continue;

		tok = trailer_token(p, plen);
		if (tok) {
			value_add(&val, p + tok + 1, plen - tok - 1);
			peek = pos;
			while (next_line(&c, body, len, &peek) &&
			       reply_folds(&val, &c)) {
				pos = peek;
				lineno++;
				value_add(&val, c.p, c.len);
			}
			suggested = piped;
			for (i = 0; i < nrecent && !suggested; i++)
				suggested = asks_to_add(&recent[i]);
			if (val.len &&
			    ((tok == 5 && pc_mem_istarts(p, tok, "fixes") &&
			      is_commit_ref(val.buf, val.len)) ||
			     (tok > 3 &&
			      pc_mem_istarts(p + tok - 3, 3, "-by")))) {
				rc = add(out, &taken, p, tok, &val,
					 trailer_line, suggested, err);
				if (rc < 0)
					goto out;
				/* A person trailer needs an address here. */
				if (pc_mem_istarts(p + tok - 3, 3, "-by") &&
				    !out->v[out->n - 1].is_person)
					drop_last(out, &taken);
			}
			pc_buf_reset(&val);
		}
		/* Remember the last few lines for "kindly add ..." */
		if (nrecent < SUGGEST_LOOKBACK) {
			recent[nrecent++] = l;
		} else {
			memmove(recent, recent + 1,
				sizeof(recent[0]) * (SUGGEST_LOOKBACK - 1));
			recent[SUGGEST_LOOKBACK - 1] = l;
		}
	}
out:
	pc_buf_release(&val);
	return rc;
}
