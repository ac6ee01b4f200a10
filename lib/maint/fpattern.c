// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The F:/X:/N:/K: patterns of MAINTAINERS, compiled, and the index that
 * finds the ones that can match a path without trying them all.
 *
 * get_maintainer.pl turns an F:/X: value into a Perl regex ('.' -> "\.",
 * '*' -> ".*", '?' -> "."), appends '/' when the result names a directory
 * of the tree, and matches it with m@^$pattern@. Almost every value then
 * reads as literal bytes, "any byte" and "any run", with the odd [ch]
 * class: those compile to a token list matched by a glob loop. Anything
 * else (a '+', a group...) is handed to PCRE2 as "^" . pattern, so the
 * meaning stays Perl's. Whether a value names a directory is asked of the
 * tree the first time a path could match it (pc_maint__fpat_dir()).
 *
 * Every match of such a pattern starts with its leading literal bytes.
 * The index is a hash table from those prefixes (cut at 255 bytes; the
 * '/' of a directory left out, so that the table does not depend on the
 * tree) to the patterns that have them; a lookup hashes the path's
 * prefixes of the lengths present in the table as it reads the path, so
 * mapping a path costs O(path length + patterns sharing a prefix with
 * it). N: regexes are found through a literal that every match contains,
 * looked up by its first two bytes at each position of the path.
 *
 * Building (pc_maint__index()) works on a struct pc_maint__build; the
 * literal indexes of N: and K: are laid out by image.c; matching works
 * on the image.
 */
/* memmem() */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define FNV_BASIS 1469598103934665603ull
#define FNV_PRIME 1099511628211ull
#define MAX_KEY 255

/* ---- F:/X: ------------------------------------------------------------------ */

/* The script's conversion of an F:/X: value into a regex. */
static void convert(struct pc_buf *out, const char *v)
{
	size_t n = strlen(v), i;
	char *o;

	pc_buf_reset(out);
	pc_buf_grow(out, 2 * n);
	o = out->buf;
	for (i = 0; i < n; i++) {
		if (v[i] == '.') {
			*o++ = '\\';
			*o++ = '.';
		} else if (v[i] == '*') {
			*o++ = '.';
			*o++ = '*';
		} else {
			*o++ = v[i] == '?' ? '.' : v[i];
		}
	}
	pc_buf_setlen(out, (size_t)(o - out->buf));
}

/* Bytes with a meaning in a regex that the token list cannot give. */
static int regex_meta(char c)
{
	switch (c) {
	case '+':
	case '?':
	case '*':
	case '{':
	case '}':
	case '(':
	case ')':
	case '|':
	case '^':
	case '$':
		return 1;
	default:
		return 0;
	}
}

static int quantifier(char c)
{
	return c == '*' || c == '+' || c == '?' || c == '{';
}

/*
 * Parses a class at re[*i] == '['. Returns 0 (and a bitmap) or -1 when it
 * is more than bytes and ranges (POSIX names, \d...).
 */
static int parse_class(uint8_t bits[32], const char *re, size_t n, size_t *i)
{
	size_t j = *i + 1;
	int neg = 0, first = 1, k;

	memset(bits, 0, 32);
	if (j < n && re[j] == '^') {
		neg = 1;
		j++;
	}
	for (;;) {
		unsigned char lo, hi;

		if (j >= n)
			return -1;
		lo = (unsigned char)re[j];
		if (lo == ']' && !first)
			break;
		first = 0;
		if (lo == '\\') {
			if (j + 1 >= n || pc_isalnum((unsigned char)re[j + 1]))
				return -1;
			lo = (unsigned char)re[j + 1];
			j += 2;
		} else if (lo == '[' && j + 1 < n &&
			   (re[j + 1] == ':' || re[j + 1] == '.' ||
			    re[j + 1] == '=')) {
			return -1;
		} else {
			j++;
		}
		hi = lo;
		if (j + 1 < n && re[j] == '-' && re[j + 1] != ']') {
			hi = (unsigned char)re[j + 1];
			if (hi == '\\' || hi == '[' || hi < lo)
				return -1;
			j += 2;
		}
		for (k = lo; k <= hi; k++)
			bits[k >> 3] |= (uint8_t)(1u << (k & 7));
	}
	if (neg)
		for (k = 0; k < 32; k++)
			bits[k] = (uint8_t)~bits[k];
	*i = j + 1;
	return 0;
}

/*
 * Tokenises a converted pattern into fp: its tokens, then a '/' (what a
 * directory adds), and its classes, into pool. Returns 0, or -1 when it
 * needs a real regex engine.
 */
static int tokenize(struct pc_buf *pool, struct pc_maint__fpat *fp,
		    const char *re, size_t n, struct pc_buf *scratch)
{
	struct pc_maint__tok *t;
	uint8_t(*cls)[32] = NULL;
	size_t i = 0, nt = 0, ncls = 0, acls = 0;
	int rc = -1;

	pc_buf_reset(scratch);
	pc_buf_grow(scratch, (n + 2) * sizeof(*t));
	t = (struct pc_maint__tok *)(void *)scratch->buf;
	while (i < n) {
		char c = re[i];

		t[nt].c = 0;
		if (c == '\\') {
			if (i + 1 >= n || pc_isalnum((unsigned char)re[i + 1]))
				goto out;
			t[nt].op = PC_MAINT__LIT;
			t[nt].c = (unsigned char)re[i + 1];
			i += 2;
		} else if (c == '.') {
			if (i + 1 < n && re[i + 1] == '*') {
				t[nt].op = PC_MAINT__STAR;
				i += 2;
			} else {
				t[nt].op = PC_MAINT__ANY;
				i++;
			}
		} else if (c == '[') {
			if (ncls == 255)
				goto out;
			PC_ALLOC_GROW(cls, ncls + 1, acls);
			if (parse_class(cls[ncls], re, n, &i) < 0)
				goto out;
			t[nt].op = PC_MAINT__CLASS;
			t[nt].c = (unsigned char)ncls++;
		} else if (regex_meta(c)) {
			goto out;
		} else {
			t[nt].op = PC_MAINT__LIT;
			t[nt].c = (unsigned char)c;
			i++;
		}
		/* An atom followed by a quantifier other than the ".*" made
		 * above ("\\.*" from a value "\\*", "[ch]+") is regex work. */
		if (i < n && quantifier(re[i]))
			goto out;
		nt++;
	}
	t[nt].op = PC_MAINT__LIT;
	t[nt].c = '/';
	fp->ntoks = (uint32_t)nt;
	fp->toks = (uint32_t)pool->len;
	pc_buf_add(pool, t, (nt + 1) * sizeof(*t));
	fp->classes = (uint32_t)pool->len;
	pc_buf_add(pool, cls, ncls * sizeof(*cls));
	rc = 0;
out:
	free(cls);
	return rc;
}

static inline int tok_ok(const struct pc_maint__tok *t,
			 const uint8_t (*cls)[32], unsigned char c)
{
	switch (t->op) {
	case PC_MAINT__LIT:
		return c == t->c;
	case PC_MAINT__ANY:
		return c != '\n';
	default:
		return (cls[t->c][c >> 3] >> (c & 7)) & 1;
	}
}

/*
 * m@^pattern@ for a token list: the pattern must match a prefix of s.
 * The classic one-backtrack-point glob loop is exact when a star may
 * cross any byte; a path holding '\n' (which Perl's ".*" does not cross)
 * goes through a small NFA instead.
 */
static int glob_nfa(const struct pc_maint__tok *t, size_t nt,
		    const uint8_t (*cls)[32], const char *s, size_t n)
{
	unsigned char *cur = xcalloc(n + 1, 1), *next = xcalloc(n + 1, 1);
	size_t i, j;
	int ok = 0;

	cur[0] = 1;
	for (i = 0; i < nt; i++) {
		memset(next, 0, n + 1);
		if (t[i].op == PC_MAINT__STAR) {
			int on = 0;

			for (j = 0; j <= n; j++) {
				if (cur[j])
					on = 1;
				next[j] = (unsigned char)on;
				if (j < n && s[j] == '\n')
					on = 0;
			}
		} else {
			for (j = 0; j < n; j++)
				if (cur[j] &&
				    tok_ok(&t[i], cls, (unsigned char)s[j]))
					next[j + 1] = 1;
		}
		memcpy(cur, next, n + 1);
	}
	for (j = 0; j <= n && !ok; j++)
		ok = cur[j];
	free(cur);
	free(next);
	return ok;
}

static int glob(const struct pc_maint__tok *t, size_t nt,
		const uint8_t (*cls)[32], const char *s, size_t n)
{
	size_t pi = 0, si = 0, star_pi = (size_t)-1, star_si = 0;

	if (memchr(s, '\n', n))
		return glob_nfa(t, nt, cls, s, n);
	while (pi < nt) {
		if (t[pi].op == PC_MAINT__STAR) {
			star_pi = pi++;
			star_si = si;
			continue;
		}
		if (si < n && tok_ok(&t[pi], cls, (unsigned char)s[si])) {
			pi++;
			si++;
			continue;
		}
		if (star_pi == (size_t)-1 || star_si >= n)
			return 0;
		pi = star_pi + 1;
		si = ++star_si;
	}
	return 1;
}

void pc_maint__fpat_eff(struct pc_maint__feff *e, const struct pc_maint *m,
			uint32_t id)
{
	const struct pc_maint__fpat *fp = &m->fpats[id];
	int d = fp->maybe_dir && pc_maint__fpat_dir(m, id);

	e->dir = fp->dir || d;
	e->ntoks = fp->ntoks + (unsigned)d;
	e->prefix_len = fp->prefix_len + (d && !(fp->flags & PC_MAINT__FP_RE) &&
					  fp->prefix_len == fp->ntoks);
	e->slashes = fp->slashes + (unsigned)d;
	e->depth = fp->depth;
}

int pc_maint__fpat_match(const struct pc_maint *m, uint32_t id,
			 const char *path, size_t plen, unsigned pslashes,
			 pcre2_match_data *md)
{
	const struct pc_maint__fpat *fp = &m->fpats[id];
	struct pc_maint__feff e;
	const pcre2_code *c;

	pc_maint__fpat_eff(&e, m, id);
	if (!e.dir && e.slashes != pslashes)
		return 0;
	if (!(fp->flags & PC_MAINT__FP_RE))
		return glob(
			(const struct pc_maint__tok *)(const void *)(m->str +
								     fp->toks),
			e.ntoks,
			(const uint8_t(*)[32])(const void *)(m->str +
							     fp->classes),
			path, plen);
	if (fp->flags &
	    (e.dir && !fp->dir ? PC_MAINT__FP_BAD_DIR : PC_MAINT__FP_BAD))
		return 0;
	c = pc_maint__code(m, fp->rid + (e.dir && !fp->dir));
	/* 0 is a match with too small an ovector. */
	return c && pcre2_match(c, (PCRE2_SPTR)path, plen, 0, 0, md, NULL) >= 0;
}

static int compile_or_warn(struct pc_maint__build *b, const char *re,
			   uint32_t opts, char tag, unsigned line,
			   uint32_t cond, uint32_t fpat)
{
	int ec;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				      opts, &ec, &off, NULL);

	if (!c) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(ec, msg, sizeof(msg));
		pc_maint__warn(b, cond, fpat,
			       "MAINTAINERS:%u: %c: pattern does not compile "
			       "(never matches): %s at offset %zu",
			       line, tag, (const char *)msg, (size_t)off);
		return 0;
	}
	pcre2_code_free(c);
	return 1;
}

static void fpat_init(struct pc_maint__build *b, uint32_t id,
		      const struct pc_maint_tag *tag, struct pc_buf *re,
		      struct pc_buf *scratch)
{
	struct pc_maint__fpat *fp = &b->fpats[id];
	size_t i;

	convert(re, tag->value);
	/*
	 * if ((-d $value)) { $value =~ s@([^/])$@$1/@; }
	 * Asked of the tree when a path could match (maybe_dir). Deviation:
	 * a value with a '.' is not asked. The script tests the converted
	 * value, where '.' became "\\.", so it names a directory only if
	 * the tree has a name with a backslash; none is assumed. That saves
	 * four in five of the stat() calls.
	 */
	fp->maybe_dir = re->len && re->buf[re->len - 1] != '/' &&
			!memchr(re->buf, '\\', re->len);
	fp->kind = (uint8_t)tag->tag;
	fp->re = (uint32_t)b->pool.len;
	pc_buf_add(&b->pool, re->buf, re->len);
	pc_buf_addch(&b->pool, '\0');
	fp->dir = re->len && re->buf[re->len - 1] == '/';
	for (i = 0; i < re->len; i++)
		fp->slashes += re->buf[i] == '/';
	/* The same with the '/' of a directory: one more slash, and the +1
	 * for a value without a trailing slash gone. */
	fp->depth = (int)fp->slashes + !fp->dir;
	if (pc_mem_starts(re->buf, re->len, ".*"))
		fp->depth = -1;
	if (tokenize(&b->pool, fp, re->buf, re->len, scratch) == 0) {
		const struct pc_maint__tok *t =
			(const void *)(b->pool.buf + fp->toks);

		while (fp->prefix_len < fp->ntoks &&
		       t[fp->prefix_len].op == PC_MAINT__LIT)
			fp->prefix_len++;
	} else {
		struct pc_buf anch = PC_BUF_INIT;

		fp->ntoks = 0;
		fp->toks = fp->classes = 0;
		fp->flags |= PC_MAINT__FP_RE;
		fp->rid = (uint32_t)b->n_fre++; /* laid out by image.c */
		pc_buf_addch(&anch, '^');
		pc_buf_add(&anch, re->buf, re->len);
		if (!compile_or_warn(b, anch.buf, 0, (char)tag->tag, tag->line,
				     fp->maybe_dir ? 2 : 0, id))
			fp->flags |= PC_MAINT__FP_BAD;
		if (fp->maybe_dir) {
			pc_buf_addch(&anch, '/');
			if (!compile_or_warn(b, anch.buf, 0, (char)tag->tag,
					     tag->line, 1, id))
				fp->flags |= PC_MAINT__FP_BAD_DIR;
		}
		pc_buf_release(&anch);
	}
}

static uint64_t fnv(const char *p, size_t n)
{
	uint64_t h = FNV_BASIS;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * FNV_PRIME;
	return h;
}

/* The slot of key in table b (keys in str), or the free slot where it
 * would go. */
static size_t bucket_find(const struct pc_maint__bucket *b, size_t mask,
			  const char *str, const char *key, size_t len,
			  uint64_t h)
{
	size_t i = (size_t)(h ^ (h >> 29)) & mask;

	for (;; i = (i + 1) & mask) {
		if (b[i].key == PC_MAINT__NOSTR ||
		    (b[i].hash == h && b[i].len == len &&
		     !memcmp(str + b[i].key, key, len)))
			return i;
	}
}

/* The literal prefix of fp, decoded, into key; returns its length. */
static size_t fpat_key(const struct pc_buf *pool,
		       const struct pc_maint__fpat *fp, char *key)
{
	const struct pc_maint__tok *t = (const void *)(pool->buf + fp->toks);
	size_t i, n = fp->prefix_len < MAX_KEY ? fp->prefix_len : MAX_KEY;

	for (i = 0; i < n; i++)
		key[i] = (char)t[i].c;
	return n;
}

static void build_buckets(struct pc_maint__build *b)
{
	size_t cap = 16, i, pos = 0;
	uint32_t *bucket_of =
		xcalloc(b->n_fpats ? b->n_fpats : 1, sizeof(*bucket_of));
	char key[MAX_KEY];

	while (cap < b->n_fpats * 2 + 2)
		cap *= 2;
	b->buckets = xcalloc(cap, sizeof(*b->buckets));
	for (i = 0; i < cap; i++)
		b->buckets[i].key = PC_MAINT__NOSTR;
	b->bucket_mask = cap - 1;
	b->pidx = xcalloc(b->n_fpats ? b->n_fpats : 1, sizeof(*b->pidx));
	/* Pass 1: a bucket per distinct prefix, counting its patterns. */
	for (i = 0; i < b->n_fpats; i++) {
		struct pc_maint__fpat *fp = &b->fpats[i];
		struct pc_maint__bucket *bk;
		size_t len = fpat_key(&b->pool, fp, key);
		uint64_t h = fnv(key, len);

		bk = &b->buckets[bucket_find(b->buckets, b->bucket_mask,
					     b->pool.buf, key, len, h)];
		if (bk->key == PC_MAINT__NOSTR) {
			bk->key = (uint32_t)b->pool.len;
			pc_buf_add(&b->pool, key, len);
			pc_buf_addch(&b->pool, '\0');
			bk->len = (uint32_t)len;
			bk->hash = h;
			b->prefix_lens[len >> 3] |= (uint8_t)(1u << (len & 7));
		}
		bk->count++;
		bucket_of[i] = (uint32_t)(bk - b->buckets);
	}
	/* Pass 2: ranges in pidx, then the ids in MAINTAINERS order. */
	for (i = 0; i <= b->bucket_mask; i++) {
		if (b->buckets[i].key == PC_MAINT__NOSTR)
			continue;
		b->buckets[i].first = (uint32_t)pos;
		pos += b->buckets[i].count;
		b->buckets[i].count = 0;
	}
	for (i = 0; i < b->n_fpats; i++) {
		struct pc_maint__bucket *bk = &b->buckets[bucket_of[i]];

		b->pidx[bk->first + bk->count++] = (uint32_t)i;
	}
	free(bucket_of);
}

/* ---- literals a regex needs (N:, K:) ----------------------------------------- */

#define MAX_LIT 255

struct litbuf {
	char run[MAX_LIT + 1], best[MAX_LIT + 1];
	size_t rn, bn;
};

static void end_run(struct litbuf *b)
{
	if (b->rn > b->bn) {
		memcpy(b->best, b->run, b->rn);
		b->bn = b->rn;
	}
	b->rn = 0;
}

/* Skips a quantifier at p[*i] ("?", "*", "+", "{n,m}" and a lazy or
 * possessive mark). Returns 1 when the atom before may be absent, 0 when
 * it is required (or there is no quantifier), -1 on what Perl might read
 * as a literal '{'. */
static int skip_quant(const char *p, size_t n, size_t *i)
{
	size_t j = *i;
	int optional;

	if (j >= n)
		return 0;
	if (p[j] == '?' || p[j] == '*') {
		optional = 1;
		j++;
	} else if (p[j] == '+') {
		optional = 0;
		j++;
	} else if (p[j] == '{') {
		size_t k = j + 1;

		while (k < n &&
		       (pc_isdigit((unsigned char)p[k]) || p[k] == ','))
			k++;
		if (k >= n || p[k] != '}' || k == j + 1)
			return -1;
		optional = p[j + 1] == '0' || p[j + 1] == ',';
		j = k + 1;
	} else {
		return 0;
	}
	if (j < n && (p[j] == '?' || p[j] == '+'))
		j++;
	*i = j;
	return optional;
}

/* Skips a class at p[*i] == '['. */
static int skip_class(const char *p, size_t n, size_t *i)
{
	size_t j = *i + 1;

	if (j < n && p[j] == '^')
		j++;
	if (j < n && p[j] == ']')
		j++;
	for (; j < n && p[j] != ']'; j++) {
		if (p[j] == '\\')
			j++;
		else if (p[j] == '[' && j + 1 < n && p[j + 1] == ':')
			return -1;
	}
	if (j >= n)
		return -1;
	*i = j + 1;
	return 0;
}

/* Skips a group at p[*i] == '('; inline flag settings like "(?i)" that
 * change what follows are refused. */
static int skip_group(const char *p, size_t n, size_t *i)
{
	size_t j = *i + 1;
	int depth = 1;

	if (j < n && p[j] == '?') {
		size_t k = j + 1;

		while (k < n && (pc_isalpha((unsigned char)p[k]) ||
				 p[k] == '-' || p[k] == '^'))
			k++;
		if (k > j + 1 && k < n && p[k] == ')')
			return -1;
	}
	for (; j < n && depth; j++) {
		if (p[j] == '\\') {
			j++;
		} else if (p[j] == '[') {
			if (skip_class(p, n, &j) < 0)
				return -1;
			j--;
		} else if (p[j] == '(') {
			depth++;
		} else if (p[j] == ')') {
			depth--;
		}
	}
	if (depth)
		return -1;
	*i = j;
	return 0;
}

/* A byte that stands for itself in a regex (outside a class). */
static int plain_byte(char c)
{
	return c && !strchr(".^$|()[]{}?*+\\ \t\n\r\f\v#", c);
}

/*
 * A group that is an alternation of plain strings, "(a|bc)", "(?:a|b)",
 * "(?i:a|b)", at p[*i] == '(': its members into set (arena), the end
 * after it into *i. Returns the number of members, 0 if it is not one.
 */
static size_t group_set(struct pc_maint__arena *a, const char *p, size_t n,
			size_t *i, struct pc_maint__blit *set, size_t max)
{
	size_t j = *i + 1, k = 0;
	unsigned char icase = 0;
	char buf[MAX_LIT + 1];
	size_t bl = 0;

	if (pc_mem_starts(p + j, n - j, "?:")) {
		j += 2;
	} else if (pc_mem_starts(p + j, n - j, "?i:")) {
		j += 3;
		icase = 1;
	}
	for (; j < n; j++) {
		char c = p[j];

		if (c == '|' || c == ')') {
			if (k == max || !bl)
				return 0;
			set[k].s = pc_maint__strndup(a, buf, bl);
			set[k].len = bl;
			set[k++].icase = icase;
			bl = 0;
			if (c == ')') {
				*i = j + 1;
				return k;
			}
			continue;
		}
		if (c == '\\' && j + 1 < n &&
		    !pc_isalnum((unsigned char)p[j + 1]) && p[j + 1] != ' ') {
			c = p[++j];
		} else if (!plain_byte(c)) {
			return 0;
		}
		if (bl == MAX_LIT)
			return 0;
		buf[bl++] = c;
	}
	return 0;
}

static size_t shortest(const struct pc_maint__blit *set, size_t n)
{
	size_t i, m = (size_t)-1;

	for (i = 0; i < n; i++)
		if (set[i].len < m)
			m = set[i].len;
	return n ? m : 0;
}

/*
 * The literals one top-level alternative needs (one of them): its
 * longest run of plain bytes, or, when that is shorter than min, its
 * best group of plain alternatives. Appends to out; -1 if none.
 */
static int alt_literal(struct pc_maint__arena *a, struct litbuf *b,
		       const char *p, size_t n, size_t min, int icase,
		       struct pc_maint__blit *out, size_t *nout, size_t max)
{
	struct pc_maint__blit set[16], best_set[16];
	size_t i = 0, nbest = 0, k;

	b->rn = b->bn = 0;
	while (i < n) {
		char c = p[i];
		int q;

		if (c == '(') {
			size_t j = i, ns = group_set(a, p, n, &j, set,
						     PC_ARRAY_SIZE(set));

			if (skip_group(p, n, &i) < 0)
				return -1;
			end_run(b);
			if ((q = skip_quant(p, n, &i)) < 0)
				return -1;
			if (ns && q == 0 &&
			    shortest(set, ns) > shortest(best_set, nbest)) {
				memcpy(best_set, set, ns * sizeof(*set));
				nbest = ns;
			}
			continue;
		}
		if (c == '[') {
			if (skip_class(p, n, &i) < 0)
				return -1;
			end_run(b);
			if (skip_quant(p, n, &i) < 0)
				return -1;
			continue;
		}
		if (c == '.' || c == '^' || c == '$') {
			end_run(b);
			i++;
			if (skip_quant(p, n, &i) < 0)
				return -1;
			continue;
		}
		if (c == ')' || quantifier(c))
			return -1;
		if (c == '\\') {
			char d = i + 1 < n ? p[i + 1] : '\0';

			if (!d || strchr("QExpPNgkoc", d))
				return -1;
			i += 2;
			if (pc_isalnum((unsigned char)d)) {
				/* \b, \d, \1...: no literal byte. */
				end_run(b);
				if (skip_quant(p, n, &i) < 0)
					return -1;
				continue;
			}
			c = d;
		} else {
			i++;
		}
		if (b->rn == MAX_LIT)
			end_run(b);
		b->run[b->rn++] = c;
		{
			size_t before = i;

			if ((q = skip_quant(p, n, &i)) < 0)
				return -1;
			if (i != before) {
				/* Optional or repeated: what follows is
				 * not next to it. */
				if (q == 1)
					b->rn--;
				end_run(b);
			}
		}
	}
	end_run(b);
	if (b->bn >= min && b->bn >= shortest(best_set, nbest)) {
		if (*nout == max)
			return -1;
		out[*nout].s = pc_maint__strndup(a, b->best, b->bn);
		out[*nout].len = b->bn;
		out[(*nout)++].icase = (unsigned char)icase;
		return 0;
	}
	if (!nbest || shortest(best_set, nbest) < min || *nout + nbest > max)
		return -1;
	for (k = 0; k < nbest; k++) {
		out[*nout] = best_set[k];
		out[(*nout)++].icase |= (unsigned char)icase;
	}
	return 0;
}

/*
 * The literals regex v (read with /x) needs: every match contains one of
 * them. None (NULL) when some top-level alternative has no literal of
 * min bytes or the regex is beyond this reading. A leading "(?i)" makes
 * them all case-insensitive.
 */
static const struct pc_maint__blit *
literals(struct pc_maint__arena *a, const char *v, size_t min, size_t *n_out)
{
	struct pc_maint__blit tmp[64];
	struct pc_maint__blit *out;
	struct litbuf b;
	size_t n = strlen(v), i, start, nl = 0;
	int depth = 0, icase = 0;

	*n_out = 0;
	/* /x: blanks and # comments are not literal. */
	if (strpbrk(v, " \t\n\r\f\v#"))
		return NULL;
	if (pc_mem_starts(v, n, "(?i)")) {
		icase = 1;
		v += 4;
		n -= 4;
	}
	for (i = start = 0; i <= n; i++) {
		if (i < n && v[i] == '\\') {
			i++;
			continue;
		}
		if (i < n && v[i] == '[') {
			if (skip_class(v, n, &i) < 0)
				return NULL;
			i--;
			continue;
		}
		if (i < n && v[i] == '(')
			depth++;
		if (i < n && v[i] == ')')
			depth--;
		if (i < n && (v[i] != '|' || depth))
			continue;
		if (alt_literal(a, &b, v + start, i - start, min, icase, tmp,
				&nl, PC_ARRAY_SIZE(tmp)) < 0)
			return NULL;
		start = i + 1;
	}
	out = pc_maint__alloc(a, nl * sizeof(*out));
	memcpy(out, tmp, nl * sizeof(*out));
	*n_out = nl;
	return out;
}

size_t pc_maint__lit_bigrams(const char *s, int icase, uint32_t bg[4])
{
	unsigned char c0 = (unsigned char)s[0], c1 = (unsigned char)s[1];
	unsigned char v0[2] = { c0, c0 }, v1[2] = { c1, c1 };
	size_t n = 0, i, j;

	if (icase) {
		v0[0] = (unsigned char)pc_tolower(c0);
		v0[1] = (unsigned char)(pc_isalpha(c0) ? v0[0] - 32 : c0);
		v1[0] = (unsigned char)pc_tolower(c1);
		v1[1] = (unsigned char)(pc_isalpha(c1) ? v1[0] - 32 : c1);
	}
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			unsigned char two[2] = { v0[i], v1[j] };
			uint32_t b = pc_maint__load2(two);
			size_t k;

			for (k = 0; k < n && bg[k] != b; k++)
				;
			if (k == n)
				bg[n++] = b;
		}
	return n;
}

static int lit_at(const struct pc_maint *m, const struct pc_maint__nlit *nl,
		  const char *p, size_t left)
{
	if (nl->len > left)
		return 0;
	if (!nl->icase)
		return !memcmp(p, m->str + nl->s, nl->len);
	return pc_mem_istarts(p, left, m->str + nl->s);
}

void pc_maint__kscan(const struct pc_maint *m, const char *p, size_t len,
		     unsigned char *hit, struct pc_maint__khits *pos)
{
	const uint64_t *bits = m->kbigram.bits, *tri = m->ktri;
	const unsigned char *s = (const unsigned char *)p;
	size_t i, k, end;

	for (i = 0; i + 1 < len; i++) {
		uint32_t bg = pc_maint__load2(p + i), t;

		if (!((bits[bg >> 6] >> (bg & 63)) & 1))
			continue;
		/* A literal starting here has its first three bytes in the
		 * trigram bitmap (every third byte after one of two). */
		if (i + 2 < len) {
			t = pc_maint__tri(s[i], s[i + 1], s[i + 2]);
			if (!((tri[t >> 6] >> (t & 63)) & 1))
				continue;
		}
		for (end = pc_maint__bigram_range(&m->kbigram, bg, &k); k < end;
		     k++) {
			uint32_t kp = m->kidx[k].pat;

			if ((hit[kp] && !pos) ||
			    !lit_at(m, &m->kidx[k], p + i, len - i))
				continue;
			hit[kp] = 1;
			if (pos) {
				PC_ALLOC_GROW(pos->v, pos->n + 1, pos->alloc);
				pos->v[pos->n].pos = i;
				pos->v[pos->n++].kpat = kp;
			}
		}
	}
}

/* ---- K: ------------------------------------------------------------------------ */

/*
 * Whether a match of K: regex v inside one line implies a match of v
 * with PCRE2_MULTILINE somewhere in the whole text: true unless it looks
 * at the ends of the subject (\A \z \Z \G), looks around, or sets flags
 * other than (?i); and unless a leading quantifier would change meaning
 * once prefixed with "^[+-].*".
 */
static int kw_prefilter_ok(const char *v)
{
	const char *p;

	if (quantifier(v[0]))
		return 0;
	for (p = v; *p; p++) {
		if (p[0] == '\\' && p[1]) {
			if (strchr("AzZG", p[1]))
				return 0;
			p++;
			continue;
		}
		if (p[0] == '(' && p[1] == '*')
			return 0;
		if (p[0] == '(' && p[1] == '?') {
			if (p[2] == ':')
				continue;
			if (p[2] == 'i' && (p[3] == ')' || p[3] == ':'))
				continue;
			return 0;
		}
	}
	return 1;
}

/* The script sorts K: hits by the decimal string of their position. */
static int cmp_tv_string(const void *a, const void *b)
{
	const struct pc_maint__bkpat *x = a, *y = b;
	char bx[32], by[32];

	snprintf(bx, sizeof(bx), "%zu", x->tv);
	snprintf(by, sizeof(by), "%zu", y->tv);
	return strcmp(bx, by);
}

/* ---- the index --------------------------------------------------------------- */

void pc_maint__kdiff_src(struct pc_buf *out, const char *value)
{
	pc_buf_reset(out);
	pc_buf_addstr(out, "^[+-].*");
	pc_buf_addstr(out, value);
}

/* A K: line: 0 when the regex does not compile (it is then left out). */
static int kpat_init(struct pc_maint__build *b, struct pc_maint__bkpat *kp,
		     const struct pc_maint_tag *tag)
{
	struct pc_buf re = PC_BUF_INIT;

	kp->src = tag->value;
	if (!compile_or_warn(b, tag->value, PCRE2_EXTENDED, 'K', tag->line, 0,
			     0))
		return 0;
	pc_maint__kdiff_src(&re, tag->value);
	compile_or_warn(b, re.buf, PCRE2_EXTENDED, 'K', tag->line, 0, 0);
	pc_buf_release(&re);
	/* Literals must hold in both forms; "^[+-].*" only adds bytes. */
	kp->lits = literals(&b->arena, tag->value, 2, &kp->n_lits);
	if (!kp->lits && kw_prefilter_ok(tag->value))
		kp->multi = compile_or_warn(b, tag->value,
					    PCRE2_EXTENDED | PCRE2_MULTILINE,
					    'K', tag->line, 0, 0);
	return 1;
}

void pc_maint__index(struct pc_maint__build *b)
{
	struct pc_buf re = PC_BUF_INIT, scratch = PC_BUF_INIT;
	size_t e, t, nf = 0, nn = 0, nk = 0;

	for (t = 0; t < b->n_tags; t++) {
		char c = b->tags[t].tag;

		nf += c == 'F' || c == 'X';
		nn += c == 'N';
		nk += c == 'K';
	}
	b->fpats = xcalloc(nf ? nf : 1, sizeof(*b->fpats));
	b->npats = xcalloc(nn ? nn : 1, sizeof(*b->npats));
	b->kpats = xcalloc(nk ? nk : 1, sizeof(*b->kpats));
	for (e = 0; e < b->n_entries; e++) {
		const struct pc_maint__bent *ent = &b->ents[e];

		for (t = 0; t < ent->n_tags; t++) {
			const struct pc_maint_tag *tag =
				&b->tags[ent->tag0 + t];

			if (tag->tag == 'F' || tag->tag == 'X') {
				uint32_t id = (uint32_t)b->n_fpats++;

				b->fpats[id].entry = (uint32_t)e;
				b->fpats[id].ord = (uint32_t)t;
				fpat_init(b, id, tag, &re, &scratch);
			} else if (tag->tag == 'N') {
				struct pc_maint__bnpat *np =
					&b->npats[b->n_npats++];

				np->entry = (uint32_t)e;
				np->ord = (uint32_t)t;
				np->src = tag->value;
				np->ok = compile_or_warn(b, tag->value,
							 PCRE2_EXTENDED, 'N',
							 tag->line, 0, 0);
				np->lits = literals(&b->arena, tag->value, 2,
						    &np->n_lits);
			} else if (tag->tag == 'K') {
				struct pc_maint__bkpat *kp =
					&b->kpats[b->n_kpats];

				kp->entry = (uint32_t)e;
				kp->tv = ent->tv0 + t;
				if (kpat_init(b, kp, tag))
					b->n_kpats++;
				else
					memset(kp, 0, sizeof(*kp));
			}
		}
	}
	pc_buf_release(&re);
	pc_buf_release(&scratch);
	qsort(b->kpats, b->n_kpats, sizeof(*b->kpats), cmp_tv_string);
	build_buckets(b);
}

void pc_maint__warn(struct pc_maint__build *b, uint32_t cond, uint32_t fpat,
		    const char *fmt, ...)
{
	struct pc_buf msg = PC_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	PC_ALLOC_GROW(b->warns, b->n_warns + 1, b->alloc_warns);
	b->warns[b->n_warns].msg = pc_buf_detach(&msg, NULL);
	b->warns[b->n_warns].cond = cond;
	b->warns[b->n_warns++].fpat = fpat;
}

/* ---- mapping one path ------------------------------------------------------------ */

static void add_rec(struct pc_maint__recs *r, uint32_t entry, uint32_t ord,
		    char kind, int depth, size_t spec)
{
	PC_ALLOC_GROW(r->v, r->n + 1, r->alloc);
	r->v[r->n].entry = entry;
	r->v[r->n].ord = ord;
	r->v[r->n].kind = kind;
	r->v[r->n].depth = depth;
	r->v[r->n].spec = (unsigned)spec;
	r->n++;
}

static void probe(const struct pc_maint *m, struct pc_maint__recs *r,
		  const char *path, size_t plen, unsigned pslashes, size_t len,
		  uint64_t h, pcre2_match_data *md)
{
	const struct pc_maint__bucket *b = &m->buckets[bucket_find(
		m->buckets, m->bucket_mask, m->str, path, len, h)];
	uint32_t i;

	if (b->key == PC_MAINT__NOSTR)
		return;
	for (i = 0; i < b->count; i++) {
		uint32_t id = m->pidx[b->first + i];
		const struct pc_maint__fpat *fp = &m->fpats[id];
		struct pc_maint__feff e;

		if (!pc_maint__fpat_match(m, id, path, plen, pslashes, md))
			continue;
		pc_maint__fpat_eff(&e, m, id);
		add_rec(r, fp->entry, fp->ord, (char)fp->kind, e.depth,
			e.prefix_len);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void pc_maint__match_path(struct pc_maint__recs *r, const struct pc_maint *m,
			  const char *path, size_t plen, pcre2_match_data *md)
{
	uint64_t h = FNV_BASIS;
	unsigned pslashes = 0;
	size_t i, lim = plen < MAX_KEY ? plen : MAX_KEY;
	uint32_t ncand[64], *cand = ncand;
	size_t nc = 0, acand = PC_ARRAY_SIZE(ncand);

	r->n = 0;
	for (i = 0; i < plen; i++)
		pslashes += path[i] == '/';
	if (m->n_fpats) {
		for (i = 0;; i++) {
			if ((m->prefix_lens[i >> 3] >> (i & 7)) & 1)
				probe(m, r, path, plen, pslashes, i, h, md);
			if (i == lim)
				break;
			h = (h ^ (unsigned char)path[i]) * FNV_PRIME;
		}
	}
	/* N: candidates: literal hits, then the ones without a literal. */
	for (i = 0; i + 1 < plen; i++) {
		uint32_t bg = pc_maint__load2(path + i);
		size_t k, end;

		for (end = pc_maint__bigram_range(&m->nbigram, bg, &k); k < end;
		     k++) {
			const struct pc_maint__nlit *nl = &m->nidx[k];

			if (!lit_at(m, nl, path + i, plen - i))
				continue;
			if (nc == acand) {
				uint32_t *nv = xreallocarray(NULL, acand * 2,
							     sizeof(*nv));

				memcpy(nv, cand, nc * sizeof(*nv));
				if (cand != ncand)
					free(cand);
				cand = nv;
				acand *= 2;
			}
			cand[nc++] = nl->pat;
		}
	}
	qsort(cand, nc, sizeof(*cand), cmp_u32);
	for (i = 0; i < nc + m->n_nalways; i++) {
		uint32_t id = i < nc ? cand[i] : m->nalways[i - nc];
		const struct pc_maint__npat *np = &m->npats[id];
		const pcre2_code *c;

		if (i < nc && i && cand[i - 1] == id)
			continue;
		/* 0 is a match with too small an ovector. */
		if ((c = pc_maint__code(m, np->rid)) &&
		    pcre2_match(c, (PCRE2_SPTR)path, plen, 0, 0, md, NULL) >= 0)
			add_rec(r, np->entry, np->ord, 'N', 0, 0);
	}
	if (cand != ncand)
		free(cand);
}
