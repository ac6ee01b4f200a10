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
 * meaning stays Perl's.
 *
 * Every match of such a pattern starts with its leading literal bytes.
 * The index is a hash table from those prefixes (cut at 255 bytes) to the
 * patterns that have them; a lookup hashes the path's prefixes of the
 * lengths present in the table as it reads the path, so mapping a path
 * costs O(path length + patterns sharing a prefix with it). N: regexes
 * are found through a literal that every match contains, looked up by
 * its first two bytes at each position of the path.
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
 * Tokenises a converted pattern into fp (tokens and classes in the
 * arena). Returns 0, or -1 when it needs a real regex engine.
 */
static int tokenize(struct pc_maint__arena *a, struct pc_maint__fpat *fp,
		    const char *re, size_t n, struct pc_buf *scratch)
{
	struct pc_maint__tok *t;
	uint8_t(*cls)[32] = NULL;
	size_t i = 0, nt = 0, ncls = 0, acls = 0;
	int rc = -1;

	pc_buf_reset(scratch);
	pc_buf_grow(scratch, (n + 1) * sizeof(*t));
	t = (struct pc_maint__tok *)(void *)scratch->buf;
	while (i < n) {
		char c = re[i];

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
	fp->ntoks = nt;
	fp->toks = pc_maint__alloc(a, (nt ? nt : 1) * sizeof(*t));
	memcpy(fp->toks, t, nt * sizeof(*t));
	if (ncls) {
		uint8_t(*c2)[32] = pc_maint__alloc(a, ncls * sizeof(*cls));

		memcpy(c2, cls, ncls * sizeof(*cls));
		fp->classes = (const uint8_t(*)[32])c2;
	}
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

int pc_maint__fpat_match(const struct pc_maint__fpat *fp, const char *path,
			 size_t plen, unsigned pslashes, pcre2_match_data *md)
{
	if (fp->bad || (!fp->dir && fp->slashes != pslashes))
		return 0;
	if (fp->toks)
		return glob(fp->toks, fp->ntoks, fp->classes, path, plen);
	/* 0 is a match with too small an ovector. */
	return pcre2_match(fp->code, (PCRE2_SPTR)path, plen, 0, 0, md, NULL) >=
	       0;
}

static pcre2_code *compile_or_warn(struct pc_maint *m, const char *re,
				   uint32_t opts, char tag, unsigned line)
{
	int ec;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
				      opts, &ec, &off, NULL);

	if (!c) {
		PCRE2_UCHAR msg[160];

		pcre2_get_error_message(ec, msg, sizeof(msg));
		pc_maint__warn(m,
			       "MAINTAINERS:%u: %c: pattern does not compile "
			       "(never matches): %s at offset %zu",
			       line, tag, (const char *)msg, (size_t)off);
	}
	return c;
}

static void fpat_init(struct pc_maint *m, struct pc_maint__fpat *fp,
		      const struct pc_maint_tag *tag, int treefd,
		      struct pc_buf *dirs, struct pc_buf *re,
		      struct pc_buf *scratch)
{
	struct stat st;
	size_t i;

	convert(re, tag->value);
	/*
	 * if ((-d $value)) { $value =~ s@([^/])$@$1/@; }
	 * Deviation: a value with a '.' is not tested. The script tests the
	 * converted value, where '.' became "\\.", so it names a directory
	 * only if the tree has a name with a backslash; none is assumed.
	 * That saves four in five of the stat() calls.
	 */
	if (treefd >= 0 && re->len && re->buf[re->len - 1] != '/' &&
	    !memchr(re->buf, '\\', re->len) &&
	    fstatat(treefd, re->buf, &st, 0) == 0 && S_ISDIR(st.st_mode)) {
		pc_buf_addch(re, '/');
		pc_buf_addf(dirs, "%u\n", tag->line);
	}
	fp->kind = tag->tag;
	fp->re = pc_maint__strndup(&m->arena, re->buf, re->len);
	fp->dir = re->len && re->buf[re->len - 1] == '/';
	for (i = 0; i < re->len; i++)
		fp->slashes += re->buf[i] == '/';
	fp->depth = (int)fp->slashes + !fp->dir;
	if (pc_mem_starts(re->buf, re->len, ".*"))
		fp->depth = -1;
	if (tokenize(&m->arena, fp, re->buf, re->len, scratch) == 0) {
		while (fp->prefix_len < fp->ntoks &&
		       fp->toks[fp->prefix_len].op == PC_MAINT__LIT)
			fp->prefix_len++;
	} else {
		struct pc_buf anch = PC_BUF_INIT;

		fp->toks = NULL;
		fp->ntoks = 0;
		pc_buf_addch(&anch, '^');
		pc_buf_add(&anch, re->buf, re->len);
		fp->code = compile_or_warn(m, anch.buf, 0, tag->tag, tag->line);
		fp->bad = !fp->code;
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

static struct pc_maint__bucket *bucket_find(struct pc_maint__bucket *b,
					    size_t mask, const char *key,
					    size_t len, uint64_t h)
{
	size_t i = (size_t)(h ^ (h >> 29)) & mask;

	for (;; i = (i + 1) & mask) {
		if (!b[i].key || (b[i].hash == h && b[i].len == len &&
				  !memcmp(b[i].key, key, len)))
			return &b[i];
	}
}

/* The literal prefix of fp, decoded, into key; returns its length. */
static size_t fpat_key(const struct pc_maint__fpat *fp, char *key)
{
	size_t i, n = fp->prefix_len < MAX_KEY ? fp->prefix_len : MAX_KEY;

	for (i = 0; i < n; i++)
		key[i] = (char)fp->toks[i].c;
	return n;
}

static void build_buckets(struct pc_maint *m)
{
	size_t cap = 16, i, pos = 0;
	uint32_t *bucket_of =
		xcalloc(m->n_fpats ? m->n_fpats : 1, sizeof(*bucket_of));
	char key[MAX_KEY];

	while (cap < m->n_fpats * 2 + 2)
		cap *= 2;
	m->buckets = xcalloc(cap, sizeof(*m->buckets));
	m->bucket_mask = cap - 1;
	m->pidx = xcalloc(m->n_fpats ? m->n_fpats : 1, sizeof(*m->pidx));
	/* Pass 1: a bucket per distinct prefix, counting its patterns. */
	for (i = 0; i < m->n_fpats; i++) {
		struct pc_maint__fpat *fp = &m->fpats[i];
		struct pc_maint__bucket *b;
		size_t len;
		uint64_t h;

		if (fp->bad)
			continue;
		len = fpat_key(fp, key);
		h = fnv(key, len);
		b = bucket_find(m->buckets, m->bucket_mask, key, len, h);
		if (!b->key) {
			b->key = pc_maint__strndup(&m->arena, key, len);
			b->len = (uint32_t)len;
			b->hash = h;
			m->prefix_lens[len >> 3] |= (uint8_t)(1u << (len & 7));
		}
		b->count++;
		bucket_of[i] = (uint32_t)(b - m->buckets);
	}
	/* Pass 2: ranges in pidx, then the ids in MAINTAINERS order. */
	for (i = 0; i <= m->bucket_mask; i++) {
		if (!m->buckets[i].key)
			continue;
		m->buckets[i].first = (uint32_t)pos;
		pos += m->buckets[i].count;
		m->buckets[i].count = 0;
	}
	for (i = 0; i < m->n_fpats; i++) {
		struct pc_maint__bucket *b;

		if (m->fpats[i].bad)
			continue;
		b = &m->buckets[bucket_of[i]];
		m->pidx[b->first + b->count++] = (uint32_t)i;
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
			size_t *i, struct pc_maint__lit *set, size_t max)
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

static size_t shortest(const struct pc_maint__lit *set, size_t n)
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
		       struct pc_maint__lit *out, size_t *nout, size_t max)
{
	struct pc_maint__lit set[16], best_set[16];
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
static const struct pc_maint__lit *
literals(struct pc_maint__arena *a, const char *v, size_t min, size_t *n_out)
{
	struct pc_maint__lit tmp[64];
	struct pc_maint__lit *out;
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

/*
 * Two bytes as one number, the way the scans read them: one 16-bit load
 * in the machine's byte order (the index is built with the same load,
 * so the order does not matter).
 */
static inline uint32_t load2(const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* The bigrams a literal can start with: 1, or up to 4 without case. */
static size_t lit_bigrams(const struct pc_maint__lit *l, uint32_t bg[4])
{
	unsigned char c0 = (unsigned char)l->s[0], c1 = (unsigned char)l->s[1];
	unsigned char v0[2] = { c0, c0 }, v1[2] = { c1, c1 };
	size_t n = 0, i, j;

	if (l->icase) {
		v0[0] = (unsigned char)pc_tolower(c0);
		v0[1] = (unsigned char)(pc_isalpha(c0) ? v0[0] - 32 : c0);
		v1[0] = (unsigned char)pc_tolower(c1);
		v1[1] = (unsigned char)(pc_isalpha(c1) ? v1[0] - 32 : c1);
	}
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			unsigned char two[2] = { v0[i], v1[j] };
			uint32_t b = load2(two);
			size_t k;

			for (k = 0; k < n && bg[k] != b; k++)
				;
			if (k == n)
				bg[n++] = b;
		}
	return n;
}

static int lit_at(const struct pc_maint__nlit *nl, const char *p, size_t left)
{
	if (nl->len > left)
		return 0;
	if (!nl->icase)
		return !memcmp(p, nl->s, nl->len);
	return pc_mem_istarts(p, left, nl->s);
}

/* Fills the bitmap and ranges of idx, which is sorted by bigram. */
static void bigrams_build(struct pc_maint__bigrams *b,
			  const struct pc_maint__nlit *idx, size_t n)
{
	size_t i, r = 0, w;
	uint16_t rank = 0;

	memset(b->bits, 0, sizeof(b->bits));
	b->start = xcalloc(n + 1, sizeof(*b->start));
	for (i = 0; i < n; i++) {
		uint32_t bg = idx[i].bigram;

		if (i && idx[i - 1].bigram == bg)
			continue;
		b->bits[bg >> 6] |= 1ull << (bg & 63);
		b->start[r++] = (uint32_t)i;
	}
	b->start[r] = (uint32_t)n;
	for (w = 0; w < 1024; w++) {
		b->rank[w] = rank;
		rank = (uint16_t)(rank + __builtin_popcountll(b->bits[w]));
	}
}

/* The range [*first, return) of the literals with bigram bg; empty when
 * there is none. */
static inline size_t bigram_range(const struct pc_maint__bigrams *b,
				  uint32_t bg, size_t *first)
{
	uint64_t word = b->bits[bg >> 6], bit = 1ull << (bg & 63);
	size_t r;

	if (!(word & bit)) {
		*first = 0;
		return 0;
	}
	r = b->rank[bg >> 6] + (size_t)__builtin_popcountll(word & (bit - 1));
	*first = b->start[r];
	return b->start[r + 1];
}

void pc_maint__kscan(const struct pc_maint *m, const char *p, size_t len,
		     unsigned char *hit, struct pc_maint__khits *pos)
{
	const uint64_t *bits = m->kbigram.bits;
	size_t i, k, end;

	for (i = 0; i + 1 < len; i++) {
		uint32_t bg = load2(p + i);

		if (!((bits[bg >> 6] >> (bg & 63)) & 1))
			continue;
		for (end = bigram_range(&m->kbigram, bg, &k); k < end; k++) {
			uint32_t kp = m->kidx[k].npat;

			if ((hit[kp] && !pos) ||
			    !lit_at(&m->kidx[k], p + i, len - i))
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

/* Adds the literals of pattern id to an index. */
static void index_lits(struct pc_maint__nlit *idx, size_t *n,
		       const struct pc_maint__lit *l, size_t nl, uint32_t id)
{
	size_t i, j;

	for (i = 0; i < nl; i++) {
		uint32_t bg[4];
		size_t nb = lit_bigrams(&l[i], bg);

		for (j = 0; j < nb; j++) {
			struct pc_maint__nlit *e = &idx[(*n)++];

			e->bigram = bg[j];
			e->npat = id;
			e->s = l[i].s;
			e->len = l[i].len;
			e->icase = l[i].icase;
		}
	}
}

static int cmp_nlit(const void *a, const void *b)
{
	const struct pc_maint__nlit *x = a, *y = b;

	if (x->bigram != y->bigram)
		return x->bigram < y->bigram ? -1 : 1;
	return x->npat < y->npat ? -1 : x->npat > y->npat;
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
	const struct pc_maint__kpat *x = a, *y = b;
	char bx[32], by[32];

	snprintf(bx, sizeof(bx), "%zu", x->tv);
	snprintf(by, sizeof(by), "%zu", y->tv);
	return strcmp(bx, by);
}

/* ---- the index --------------------------------------------------------------- */

static void kpat_init(struct pc_maint *m, struct pc_maint__kpat *kp,
		      const struct pc_maint_tag *tag)
{
	struct pc_buf re = PC_BUF_INIT;

	pc_buf_addstr(&re, "^[+-].*");
	pc_buf_addstr(&re, tag->value);
	kp->diff = compile_or_warn(m, re.buf, PCRE2_EXTENDED, 'K', tag->line);
	pc_buf_release(&re);
	/* Literals must hold in both forms; "^[+-].*" only adds bytes. */
	kp->lits = literals(&m->arena, tag->value, 2, &kp->n_lits);
	if (!kp->lits && kw_prefilter_ok(tag->value))
		kp->multi = compile_or_warn(m, tag->value,
					    PCRE2_EXTENDED | PCRE2_MULTILINE,
					    'K', tag->line);
}

int pc_maint__index(struct pc_maint *m, struct pc_buf *dirs, struct pc_err *err)
{
	struct pc_buf re = PC_BUF_INIT, scratch = PC_BUF_INIT;
	size_t e, t, nf = 0, nn = 0, nk = 0, nlits = 0, i, k;
	int treefd = -1;

	if (m->tree &&
	    (treefd = open(m->tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return pc_err_errno(err, PC_EIO, "cannot open tree '%s'",
				    m->tree);
	for (t = 0; t < m->n_tags; t++) {
		char c = m->tags[t].tag;

		nf += c == 'F' || c == 'X';
		nn += c == 'N';
		nk += c == 'K';
	}
	m->fpats = xcalloc(nf ? nf : 1, sizeof(*m->fpats));
	m->npats = xcalloc(nn ? nn : 1, sizeof(*m->npats));
	m->kpats = xcalloc(nk ? nk : 1, sizeof(*m->kpats));
	for (e = 0; e < m->n_entries; e++) {
		const struct pc_maint_entry *ent = &m->entries[e];

		for (t = 0; t < ent->n_tags; t++) {
			const struct pc_maint_tag *tag = &ent->tags[t];

			if (tag->tag == 'F' || tag->tag == 'X') {
				struct pc_maint__fpat *fp =
					&m->fpats[m->n_fpats++];

				fp->entry = (uint32_t)e;
				fp->ord = (uint32_t)t;
				fpat_init(m, fp, tag, treefd, dirs, &re,
					  &scratch);
			} else if (tag->tag == 'N') {
				struct pc_maint__npat *np =
					&m->npats[m->n_npats++];

				np->entry = (uint32_t)e;
				np->ord = (uint32_t)t;
				np->code = compile_or_warn(m, tag->value,
							   PCRE2_EXTENDED, 'N',
							   tag->line);
				np->lits = literals(&m->arena, tag->value, 2,
						    &np->n_lits);
				if (np->code)
					nlits += np->n_lits;
			} else if (tag->tag == 'K') {
				struct pc_maint__kpat *kp =
					&m->kpats[m->n_kpats];

				kp->entry = (uint32_t)e;
				kp->tv = m->ex[e].tv0 + t;
				kp->plain = compile_or_warn(m, tag->value,
							    PCRE2_EXTENDED, 'K',
							    tag->line);
				if (!kp->plain)
					continue;
				kpat_init(m, kp, tag);
				m->n_kpats++;
			}
		}
	}
	if (treefd >= 0)
		close(treefd);
	pc_buf_release(&re);
	pc_buf_release(&scratch);
	qsort(m->kpats, m->n_kpats, sizeof(*m->kpats), cmp_tv_string);
	build_buckets(m);

	/* N: by the first two bytes of their literals; the others always.
	 * K: the same, for pc_maint__kscan(). */
	m->nidx = xcalloc(4 * nlits + 1, sizeof(*m->nidx));
	m->nalways = xcalloc(m->n_npats + 1, sizeof(*m->nalways));
	for (i = 0; i < m->n_npats; i++) {
		const struct pc_maint__npat *np = &m->npats[i];

		if (!np->code)
			continue;
		if (!np->n_lits)
			m->nalways[m->n_nalways++] = (uint32_t)i;
		else
			index_lits(m->nidx, &m->n_nidx, np->lits, np->n_lits,
				   (uint32_t)i);
	}
	for (i = k = 0; i < m->n_kpats; i++)
		k += m->kpats[i].n_lits;
	m->kidx = xcalloc(4 * k + 1, sizeof(*m->kidx));
	for (i = 0; i < m->n_kpats; i++)
		index_lits(m->kidx, &m->n_kidx, m->kpats[i].lits,
			   m->kpats[i].n_lits, (uint32_t)i);
	qsort(m->kidx, m->n_kidx, sizeof(*m->kidx), cmp_nlit);
	qsort(m->nidx, m->n_nidx, sizeof(*m->nidx), cmp_nlit);
	bigrams_build(&m->kbigram, m->kidx, m->n_kidx);
	bigrams_build(&m->nbigram, m->nidx, m->n_nidx);
	return 0;
}

void pc_maint__warn(struct pc_maint *m, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	PC_ALLOC_GROW(m->warnings, m->n_warnings + 1, m->alloc_warnings);
	m->warnings[m->n_warnings++] = pc_buf_detach(&b, NULL);
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
	const struct pc_maint__bucket *b =
		bucket_find(m->buckets, m->bucket_mask, path, len, h);
	uint32_t i;

	if (!b->key)
		return;
	for (i = 0; i < b->count; i++) {
		uint32_t id = m->pidx[b->first + i];
		const struct pc_maint__fpat *fp = &m->fpats[id];

		if (pc_maint__fpat_match(fp, path, plen, pslashes, md))
			add_rec(r, fp->entry, fp->ord, fp->kind, fp->depth,
				fp->prefix_len);
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
		uint32_t bg = load2(path + i);
		size_t k, end;

		for (end = bigram_range(&m->nbigram, bg, &k); k < end; k++) {
			const struct pc_maint__nlit *nl = &m->nidx[k];

			if (!lit_at(nl, path + i, plen - i))
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
			cand[nc++] = nl->npat;
		}
	}
	qsort(cand, nc, sizeof(*cand), cmp_u32);
	for (i = 0; i < nc + m->n_nalways; i++) {
		uint32_t id = i < nc ? cand[i] : m->nalways[i - nc];
		const struct pc_maint__npat *np = &m->npats[id];

		if (i < nc && i && cand[i - 1] == id)
			continue;
		/* 0 is a match with too small an ovector. */
		if (pcre2_match(np->code, (PCRE2_SPTR)path, plen, 0, 0, md,
				NULL) >= 0)
			add_rec(r, np->entry, np->ord, 'N', 0, 0);
	}
	if (cand != ncand)
		free(cand);
}
