// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Subject lines of patches, pull requests and replies (see subject.h).
 * The parser walks the leading part of the subject, where reply and
 * forward prefixes ("Re:", "AW:", "Re[2]:", "Fwd:") and bracket groups
 * come in any order, and stops at the first thing that is neither. A
 * bracket group holding a patch-ish word (PATCH, RFC, RESEND, PULL, vN,
 * n/N) is the patch tag; any other leading group is a list tag
 * ("[Qemu-devel]") and is dropped. Brackets later in the subject belong to
 * the name. Numbers above PC_SUBJ__NUM_MAX are not numbers, so hostile
 * input never overflows; every scan is bounded by the subject's length and
 * linear in it.
 *
 * Also here: the normalised form of a name and a word-set similarity,
 * used to match the versions of a series whose subject was reworded.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "subject.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Larger numbers in a tag are words, not versions or counts. */
#define PC_SUBJ__NUM_MAX 100000

enum kw {
	KW_NONE,
	KW_PATCH,
	KW_RFC,
	KW_RESEND,
	KW_PULL,
	KW_GIT,
	KW_REQUEST,
	KW_OF,
};

/* What one bracket group says; -1 means "not given". */
struct tag {
	unsigned flags;
	int version, index, total;
	char topic[PC_SUBJ_TOPIC_MAX];
};

static int is_sep(int c)
{
	return pc_isspace(c) || c == ',' || c == '\0';
}

/*
 * Parses all of (p, len) as a decimal number of at most
 * PC_SUBJ__NUM_MAX; returns -1 if it is not one.
 */
static int parse_num(const char *p, size_t len)
{
	int v = 0;
	size_t i;

	if (!len)
		return -1;
	for (i = 0; i < len; i++) {
		if (!pc_isdigit((unsigned char)p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
		if (v > PC_SUBJ__NUM_MAX)
			return -1;
	}
	return v;
}

static int word_is(const char *p, size_t len, const char *word)
{
	return strlen(word) == len && pc_mem_istarts(p, len, word);
}

static enum kw keyword(const char *p, size_t len)
{
	if (word_is(p, len, "patch") || word_is(p, len, "patches") ||
	    word_is(p, len, "patchset"))
		return KW_PATCH;
	if (word_is(p, len, "rfc"))
		return KW_RFC;
	/* "[REPOST PATCH v2]" says the same as RESEND. */
	if (word_is(p, len, "resend") || word_is(p, len, "repost"))
		return KW_RESEND;
	if (word_is(p, len, "pull"))
		return KW_PULL;
	if (word_is(p, len, "git"))
		return KW_GIT;
	if (word_is(p, len, "request"))
		return KW_REQUEST;
	if (word_is(p, len, "of"))
		return KW_OF;
	return KW_NONE;
}

static unsigned kw_flag(enum kw k)
{
	switch (k) {
	case KW_PATCH:
		return PC_SUBJ_PATCH;
	case KW_RFC:
		return PC_SUBJ_RFC;
	case KW_RESEND:
		return PC_SUBJ_RESEND;
	case KW_PULL:
		return PC_SUBJ_PULL;
	default:
		return 0;
	}
}

/* "v3", "V2", "v2.1" (the integer part counts); -1 if not a version. */
static int parse_version(const char *p, size_t len)
{
	size_t i, dot;

	if (len < 2 || (p[0] != 'v' && p[0] != 'V'))
		return -1;
	for (dot = 1; dot < len && p[dot] != '.'; dot++)
		;
	/* What follows a dot must be digits too ("v2.1", "v2.1.3"). */
	for (i = dot; i < len; i++)
		if (p[i] != '.' && !pc_isdigit((unsigned char)p[i]))
			return -1;
	if (dot < len && (p[len - 1] == '.' || dot + 1 == len))
		return -1;
	return parse_num(p + 1, dot - 1);
}

/* "2/5", "00/12", "3/n" (total unknown: 0); returns 0 if it is one. */
static int parse_fraction(const char *p, size_t len, int *index, int *total)
{
	const char *slash = memchr(p, '/', len);
	size_t ilen, tlen;
	int i, n;

	if (!slash)
		return -1;
	ilen = (size_t)(slash - p);
	tlen = len - ilen - 1;
	if ((i = parse_num(p, ilen)) < 0)
		return -1;
	if (tlen == 1 &&
	    (slash[1] == 'n' || slash[1] == 'N' || slash[1] == 'x' ||
	     slash[1] == 'X' || slash[1] == '?'))
		n = 0;
	else if ((n = parse_num(slash + 1, tlen)) < 0)
		return -1;
	*index = i;
	*total = n;
	return 0;
}

/* Appends a word to a space-separated topic; "-ndctl" adds "ndctl". */
static void topic_add(char topic[PC_SUBJ_TOPIC_MAX], const char *p, size_t len)
{
	size_t have = strlen(topic);

	while (len && p[0] == '-') {
		p++;
		len--;
	}
	/* Words that do not fit are dropped whole. */
	if (!len || have + (have ? 1 : 0) + len >= PC_SUBJ_TOPIC_MAX)
		return;
	if (have)
		topic[have++] = ' ';
	memcpy(topic + have, p, len);
	topic[have + len] = '\0';
}

/*
 * A number word glued to a keyword: "PATCHv2", "PATCH1/8", "RFCv2",
 * "PATCH-v2"; or a topic hyphenated to it: "PATCH-next". Returns 0 when
 * (p, len) was one and has been applied.
 */
static int apply_glued(struct tag *t, const char *p, size_t len)
{
	static const char *const heads[] = { "patch", "rfc", "resend" };
	size_t i, n;
	int v, idx, tot;

	for (i = 0; i < PC_ARRAY_SIZE(heads); i++) {
		const char *rest;
		size_t rlen;

		n = strlen(heads[i]);
		if (len <= n || !pc_mem_istarts(p, len, heads[i]))
			continue;
		rest = p + n;
		rlen = len - n;
		if (rest[0] == '-' && rlen > 1) {
			rest++;
			rlen--;
		}
		if ((v = parse_version(rest, rlen)) >= 0) {
			t->version = v;
		} else if (parse_fraction(rest, rlen, &idx, &tot) == 0) {
			t->index = idx;
			t->total = tot;
		} else if (rest != p + n) {
			topic_add(t->topic, rest, rlen);
		} else {
			continue;
		}
		t->flags |= kw_flag(keyword(p, n));
		return 0;
	}
	return -1;
}

/* "RFC/PATCH", "RESEND-PATCH": every '/' or '-' separated part a keyword. */
static int apply_slashed(struct tag *t, const char *p, size_t len)
{
	unsigned flags = 0;
	size_t i = 0, start;

	if (!memchr(p, '/', len) && !memchr(p, '-', len))
		return -1;
	while (i <= len) {
		unsigned f;

		start = i;
		while (i < len && p[i] != '/' && p[i] != '-')
			i++;
		f = kw_flag(keyword(p + start, i - start));
		if (!f)
			return -1;
		flags |= f;
		i++;
	}
	t->flags |= flags;
	return 0;
}

static int next_token(const char *g, size_t glen, size_t *pos, const char **tok,
		      size_t *tok_len)
{
	size_t i = *pos, start;

	while (i < glen && is_sep((unsigned char)g[i]))
		i++;
	if (i >= glen) {
		*pos = i;
		return 0;
	}
	start = i;
	while (i < glen && !is_sep((unsigned char)g[i]))
		i++;
	*tok = g + start;
	*tok_len = i - start;
	*pos = i;
	return 1;
}

/*
 * Reads the words of one bracket group (without its brackets) into t.
 * Returns 1 if the group is a patch tag, 0 if it is a list tag.
 */
static int parse_group(struct tag *t, const char *g, size_t glen)
{
	const char *tok, *tok2, *tok3;
	size_t pos = 0, p2, p3, len, len2, len3;
	int v, idx, tot;

	while (next_token(g, glen, &pos, &tok, &len)) {
		enum kw k = keyword(tok, len);

		if (k == KW_GIT || k == KW_REQUEST) {
			/* "GIT PULL", "PULL REQUEST": GIT alone is a word. */
			p2 = pos;
			if (k == KW_GIT &&
			    next_token(g, glen, &p2, &tok2, &len2) &&
			    keyword(tok2, len2) == KW_PULL)
				continue;
			if (k == KW_REQUEST && (t->flags & PC_SUBJ_PULL))
				continue;
			topic_add(t->topic, tok, len);
		} else if (kw_flag(k)) {
			t->flags |= kw_flag(k);
		} else if ((v = parse_version(tok, len)) >= 0) {
			t->version = v;
		} else if (parse_fraction(tok, len, &idx, &tot) == 0) {
			t->index = idx;
			t->total = tot;
		} else if ((idx = parse_num(tok, len)) >= 0) {
			/* Mercurial's "0 of 2". */
			p2 = pos;
			if (next_token(g, glen, &p2, &tok2, &len2) &&
			    keyword(tok2, len2) == KW_OF &&
			    (p3 = p2, next_token(g, glen, &p3, &tok3, &len3)) &&
			    (tot = parse_num(tok3, len3)) >= 0) {
				t->index = idx;
				t->total = tot;
				pos = p3;
			} else {
				topic_add(t->topic, tok, len);
			}
		} else if (apply_slashed(t, tok, len) != 0 &&
			   apply_glued(t, tok, len) != 0) {
			topic_add(t->topic, tok, len);
		}
	}
	return t->flags || t->index >= 0 || t->version >= 0;
}

/*
 * Length of a reply or forward prefix at p ("Re:", "AW:", "Re[2]:",
 * "Re(2):", "Re :"), or 0; sets its flag. Once a patch tag has been seen
 * only the common words count: "[PATCH] sv: ..." or "[PATCH] r: ..." may
 * well be a subsystem prefix.
 */
static size_t reply_prefix(const char *p, size_t len, int after_tag,
			   unsigned *flags)
{
	static const struct {
		const char *word;
		unsigned flag;
		int common;
	} words[] = {
		{ "re", PC_SUBJ_REPLY, 1 },   { "aw", PC_SUBJ_REPLY, 1 },
		{ "antw", PC_SUBJ_REPLY, 0 }, { "sv", PC_SUBJ_REPLY, 0 },
		{ "vs", PC_SUBJ_REPLY, 0 },   { "r", PC_SUBJ_REPLY, 0 },
		{ "odp", PC_SUBJ_REPLY, 0 },  { "rif", PC_SUBJ_REPLY, 0 },
		{ "fwd", PC_SUBJ_FWD, 1 },    { "fw", PC_SUBJ_FWD, 0 },
	};
	size_t w, i;

	for (w = 0; w < PC_ARRAY_SIZE(words); w++) {
		i = strlen(words[w].word);
		if (after_tag && !words[w].common)
			continue;
		if (!pc_mem_istarts(p, len, words[w].word))
			continue;
		/* A reply count: "Re[2]:", "Re(2):", "Re^2:". */
		if (i < len && (p[i] == '[' || p[i] == '(' || p[i] == '^')) {
			char close = p[i] == '[' ? ']' : p[i] == '(' ? ')' : 0;
			size_t j = i + 1;

			while (j < len && j - i <= 6 &&
			       pc_isdigit((unsigned char)p[j]))
				j++;
			if (j == i + 1)
				continue;
			if (close) {
				if (j >= len || p[j] != close)
					continue;
				j++;
			}
			i = j;
		}
		while (i < len && (p[i] == ' ' || p[i] == '\t') && i < 8)
			i++;
		if (i < len && p[i] == ':') {
			*flags |= words[w].flag;
			return i + 1;
		}
	}
	return 0;
}

int pc_subject_parse(struct pc_subject *out, const char *subject, size_t len,
		     struct pc_err *err)
{
	size_t pos = 0, end, n;
	int after_tag = 0;

	if (!out || !subject)
		return pc_err_set(err, PC_EUSAGE,
				  "cannot parse subject: null argument");
	memset(out, 0, sizeof(*out));
	out->version = 1;
	out->index = 1;
	out->total = 1;

	for (;;) {
		const char *close;
		struct tag t;

		while (pos < len && (pc_isspace((unsigned char)subject[pos]) ||
				     subject[pos] == ':'))
			pos++;
		if (pos >= len)
			break;
		if ((n = reply_prefix(subject + pos, len - pos, after_tag,
				      &out->flags))) {
			pos += n;
			continue;
		}
		if (subject[pos] != '[')
			break;
		close = memchr(subject + pos + 1, ']', len - pos - 1);
		if (!close)
			break;
		memset(&t, 0, sizeof(t));
		t.version = t.index = t.total = -1;
		if (parse_group(&t, subject + pos + 1,
				(size_t)(close - subject) - pos - 1)) {
			after_tag = 1;
			out->flags |= t.flags;
			if (t.version >= 0)
				out->version = t.version;
			if (t.index >= 0) {
				out->index = t.index;
				out->total = t.total;
				out->flags |= PC_SUBJ_NUMBERED;
			}
			if (t.topic[0])
				topic_add(out->topic, t.topic, strlen(t.topic));
		}
		pos = (size_t)(close - subject) + 1;
	}

	end = len;
	while (end > pos && pc_isspace((unsigned char)subject[end - 1]))
		end--;
	out->name_off = pos < len ? pos : len;
	out->name_len = end > pos ? end - pos : 0;
	return 0;
}

static int is_trailing_punct(int c)
{
	return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' ||
	       c == '?';
}

void pc_subject_normalize(char *out, size_t out_len, const char *name,
			  size_t name_len)
{
	size_t i, o = 0, end = name_len;
	int space = 0;

	assert(out || !out_len);
	assert(name || !name_len);
	if (!out_len)
		return;
	while (end && (pc_isspace((unsigned char)name[end - 1]) ||
		       name[end - 1] == '\0' ||
		       is_trailing_punct((unsigned char)name[end - 1])))
		end--;
	for (i = 0; i < end; i++) {
		unsigned char c = (unsigned char)name[i];

		if (pc_isspace(c) || c == '\0') {
			space = o > 0;
			continue;
		}
		if (o + 1 + (space ? 1 : 0) >= out_len)
			break;
		if (space)
			out[o++] = ' ';
		space = 0;
		out[o++] = (char)pc_tolower(c);
	}
	/* A cut never leaves half a UTF-8 sequence behind. */
	if (i < end && ((unsigned char)name[i] & 0xc0) == 0x80) {
		while (o && ((unsigned char)out[o - 1] & 0xc0) == 0x80)
			o--;
		if (o && (unsigned char)out[o - 1] >= 0xc0)
			o--;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

struct word {
	const char *p;
	size_t len;
};

static int is_word_punct(int c)
{
	return is_trailing_punct(c) || c == '"' || c == '\'' || c == '(' ||
	       c == ')';
}

/* Splits s into words trimmed of punctuation; caller frees *out. */
static size_t split_words(struct word **out, const char *s)
{
	struct word *v = NULL;
	size_t n = 0, alloc = 0, i = 0, start, end;

	while (s[i]) {
		while (s[i] && pc_isspace((unsigned char)s[i]))
			i++;
		start = i;
		while (s[i] && !pc_isspace((unsigned char)s[i]))
			i++;
		end = i;
		while (start < end && is_word_punct((unsigned char)s[start]))
			start++;
		while (end > start && is_word_punct((unsigned char)s[end - 1]))
			end--;
		if (end == start)
			continue;
		PC_ALLOC_GROW(v, n + 1, alloc);
		v[n].p = s + start;
		v[n].len = end - start;
		n++;
	}
	*out = v;
	return n;
}

static int word_cmp(const void *a, const void *b)
{
	const struct word *x = a, *y = b;
	size_t i, n = x->len < y->len ? x->len : y->len;

	for (i = 0; i < n; i++) {
		int c = pc_tolower((unsigned char)x->p[i]) -
			pc_tolower((unsigned char)y->p[i]);

		if (c)
			return c;
	}
	return x->len < y->len ? -1 : x->len > y->len ? 1 : 0;
}

/* Sorts and de-duplicates; returns the number of distinct words. */
static size_t word_set(struct word *v, size_t n)
{
	size_t i, o = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), word_cmp);
	for (i = 1; i < n; i++)
		if (word_cmp(&v[o], &v[i]))
			v[++o] = v[i];
	return o + 1;
}

/*
 * The Jaccard index of the two word sets, |A ∩ B| / |A ∪ B|: words are
 * runs of non-space bytes trimmed of surrounding punctuation, compared
 * ignoring ASCII case, each counted once. Two empty names are equal (1).
 */
double pc_subject_similarity(const char *a, const char *b)
{
	struct word *wa, *wb;
	size_t na, nb, i = 0, j = 0, both = 0;
	double r;

	assert(a && b);
	na = split_words(&wa, a);
	na = word_set(wa, na);
	nb = split_words(&wb, b);
	nb = word_set(wb, nb);
	while (i < na && j < nb) {
		int c = word_cmp(&wa[i], &wb[j]);

		if (!c) {
			both++;
			i++;
			j++;
		} else if (c < 0) {
			i++;
		} else {
			j++;
		}
	}
	r = na + nb ? (double)both / (double)(na + nb - both) : 1.0;
	free(wa);
	free(wb);
	return r;
}
