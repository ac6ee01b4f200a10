// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diffs in mail: finds every diff in the decoded text of a mail body (git
 * diffs with their extended headers and binary patches, --no-prefix diffs,
 * plain unified diffs, CVS/SVN "Index:" diffs), lists the files it touches
 * with their line counts, and computes the patch-id that
 * `git patch-id --stable` prints for the same text. Hunks are walked by the
 * line counts of their "@@" headers, so a "--- " or "+++ " line inside a hunk
 * is content; anything after the last hunk that is not another diff header
 * ends that diff. The same file named twice (a diff pasted twice) is listed
 * and counted once.
 *
 * The patch-id is computed by a separate, literal port of git's
 * get_one_patchid() (builtin/patch-id.c as of git 2.39), line for line, so
 * that it agrees with git even where git's reading of a mail differs from
 * ours.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "patch/diff.h"
#include "util/buf.h"
#include "util/hash.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* ------------------------------------------------------------------ */
/* patch-id: git's builtin/patch-id.c, stable mode                     */
/* ------------------------------------------------------------------ */

/* git's own isspace() (sane_ctype): SP, HT, LF and CR, nothing else. */
static int git_isspace(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* get_oid_hex() == 0: 40 hex digits at p (a NUL stops the scan). */
static int is_oid_hex(const char *p)
{
	int i;

	for (i = 0; i < 40; i++)
		if (pc_hexval((unsigned char)p[i]) < 0)
			return 0;
	return 1;
}

/* starts_with() and skip_prefix() compare the first byte before calling
 * strncmp: on a diff's lines it settles almost every test. */
static int starts_with(const char *s, const char *prefix)
{
	return !prefix[0] ||
	       (s[0] == prefix[0] && strncmp(s, prefix, strlen(prefix)) == 0);
}

static int skip_prefix(const char *s, const char *prefix, const char **out)
{
	size_t n;

	if (prefix[0] && s[0] != prefix[0])
		return 0;
	n = strlen(prefix);
	if (strncmp(s, prefix, n))
		return 0;
	*out = s + n;
	return 1;
}

/*
 * The SHA-1 of one hunk, fed through a buffer: a diff is hashed a line at
 * a time, and one digest update per line cost more than the hashing.
 */
struct pid_hash {
	struct pc_sha1 *ctx;
	size_t n;
	char buf[8192];
};

static void pid_hash_flush(struct pid_hash *h)
{
	pc_sha1_update(h->ctx, h->buf, h->n);
	h->n = 0;
}

static void pid_hash_add(struct pid_hash *h, const char *p, size_t len)
{
	if (h->n + len > sizeof(h->buf)) {
		pid_hash_flush(h);
		if (len > sizeof(h->buf)) {
			pc_sha1_update(h->ctx, p, len);
			return;
		}
	}
	memcpy(h->buf + h->n, p, len);
	h->n += len;
}

/*
 * remove_space() and the hashing of its result: adds the line without
 * git-whitespace, up to its first NUL, and returns that length.
 */
static int pid_hash_add_nospace(struct pid_hash *h, const char *line)
{
	const char *src = line;
	unsigned char c;
	int added = 0;

	while ((c = (unsigned char)*src++) != '\0') {
		if (git_isspace(c))
			continue;
		if (h->n == sizeof(h->buf))
			pid_hash_flush(h);
		h->buf[h->n++] = (char)c;
		added++;
	}
	return added;
}

/*
 * scan_hunk_header() as git 2.39 has it, with atoi(): counts may be set
 * even when it fails, and git relies on that ("@@ -1, 2 +1,2 @@" sets only
 * the old count).
 */
static int atoi_(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

static void scan_hunk_header(const char *p, int *p_before, int *p_after)
{
	static const char digits[] = "0123456789";
	const char *q, *r;
	size_t n;

	q = p + 4;
	n = strspn(q, digits);
	if (q[n] == ',') {
		q += n + 1;
		*p_before = atoi_(q);
		n = strspn(q, digits);
	} else {
		*p_before = 1;
	}
	if (n == 0 || q[n] != ' ' || q[n + 1] != '+')
		return;
	r = q + n + 2;
	n = strspn(r, digits);
	if (r[n] == ',') {
		r += n + 1;
		*p_after = atoi_(r);
	} else {
		*p_after = 1;
	}
}

struct pid_input {
	const char *text;
	size_t len, pos;
};

/* strbuf_getwholeline(): one line with its '\n', into b. */
static int pid_getline(struct pc_buf *b, struct pid_input *in)
{
	const char *s = in->text + in->pos, *nl;
	size_t n;

	if (in->pos >= in->len)
		return 0;
	nl = memchr(s, '\n', in->len - in->pos);
	n = nl ? (size_t)(nl - s) + 1 : in->len - in->pos;
	pc_buf_reset(b);
	pc_buf_add(b, s, n);
	in->pos += n;
	return 1;
}

/* flush_one_hunk(): result += SHA-1(ctx), bytewise with carry. */
static void flush_one_hunk(unsigned char result[PC_SHA1_LEN],
			   struct pid_hash *h)
{
	unsigned char hash[PC_SHA1_LEN];
	unsigned short carry = 0;
	int i;

	pid_hash_flush(h);
	pc_sha1_final(hash, h->ctx);
	for (i = 0; i < PC_SHA1_LEN; i++) {
		carry += result[i] + hash[i];
		result[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

static void copy_oid_str(char dst[65], const char *src)
{
	size_t n = strlen(src);

	if (n > 64)
		n = 64;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int get_one_patchid(unsigned char result[PC_SHA1_LEN],
			   struct pid_input *in, struct pc_buf *lb,
			   struct pid_hash *ctx)
{
	int patchlen = 0, before = -1, after = -1, diff_is_binary = 0;
	/* Uninitialised in git; empty here. */
	char pre_oid[65] = "", post_oid[65] = "";

	memset(result, 0, PC_SHA1_LEN);
	while (pid_getline(lb, in)) {
		char *line = lb->buf;
		const char *p = line;
		int len;

		if (!skip_prefix(line, "commit ", &p) &&
		    !skip_prefix(line, "From ", &p) &&
		    starts_with(line, "\\ ") && 12 < strlen(line))
			continue;
		if (is_oid_hex(p))
			break; /* the next commit starts */
		if (!patchlen && !starts_with(line, "diff "))
			continue;

		if (before == -1) {
			if (starts_with(line, "GIT binary patch") ||
			    starts_with(line, "Binary files")) {
				diff_is_binary = 1;
				before = 0;
				pid_hash_add(ctx, pre_oid, strlen(pre_oid));
				pid_hash_add(ctx, post_oid, strlen(post_oid));
				flush_one_hunk(result, ctx);
				continue;
			} else if (skip_prefix(line, "index ", &p)) {
				char *oid1_end = strstr(line, "..");
				char *oid2_end = NULL;

				if (oid1_end)
					oid2_end = strstr(oid1_end, " ");
				if (!oid2_end)
					oid2_end = line + strlen(line) - 1;
				if (oid1_end) {
					*oid1_end = *oid2_end = '\0';
					copy_oid_str(pre_oid, p);
					copy_oid_str(post_oid, oid1_end + 2);
				}
				continue;
			} else if (starts_with(line, "--- ")) {
				before = after = 1;
			} else if (!pc_isalpha((unsigned char)line[0])) {
				break;
			}
		}

		if (diff_is_binary) {
			if (starts_with(line, "diff ")) {
				diff_is_binary = 0;
				before = -1;
			}
			continue;
		}

		if (before == 0 && after == 0) {
			if (starts_with(line, "@@ -")) {
				scan_hunk_header(line, &before, &after);
				continue;
			}
			if (!starts_with(line, "diff "))
				break;
			flush_one_hunk(result, ctx);
			before = after = -1;
		}

		if (line[0] == '-' || line[0] == ' ')
			before--;
		if (line[0] == '+' || line[0] == ' ')
			after--;

		len = pid_hash_add_nospace(ctx, line);
		patchlen += len;
	}
	flush_one_hunk(result, ctx);
	return patchlen;
}

/* The first patch-id `git patch-id --stable` prints for the text, or "". */
static void compute_patch_id(char out[41], const char *text, size_t len)
{
	struct pid_input in = { text, len, 0 };
	struct pc_buf lb = PC_BUF_INIT;
	struct pid_hash *h = xmalloc(sizeof(*h));
	unsigned char result[PC_SHA1_LEN];

	h->ctx = pc_sha1_new();
	h->n = 0;
	out[0] = '\0';
	do {
		if (get_one_patchid(result, &in, &lb, h) > 0) {
			pc_hex(out, result, PC_SHA1_LEN);
			break;
		}
	} while (in.pos < in.len);
	pc_sha1_free(h->ctx);
	free(h);
	pc_buf_release(&lb);
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */
/* ------------------------------------------------------------------ */

/* One line of the input: p/len exclude the '\n' and a trailing '\r'. */
struct line {
	const char *p;
	size_t len;
	size_t off; /* where the line starts */
	size_t next; /* where the next line starts */
};

static int get_line(struct line *l, const char *text, size_t len, size_t pos)
{
	const char *s = text + pos, *nl;

	if (pos >= len)
		return 0;
	nl = memchr(s, '\n', len - pos);
	l->p = s;
	l->off = pos;
	l->len = nl ? (size_t)(nl - s) : len - pos;
	l->next = pos + l->len + (nl ? 1 : 0);
	if (l->len && s[l->len - 1] == '\r')
		l->len--;
	return 1;
}

static int line_starts(const struct line *l, const char *prefix)
{
	return pc_mem_starts(l->p, l->len, prefix);
}

/* ------------------------------------------------------------------ */
/* Path names                                                          */
/* ------------------------------------------------------------------ */

/*
 * Unquotes a C-quoted name at (p, len), which starts with '"', as git
 * writes it. Returns the bytes used (through the closing quote), or 0 if it
 * is not well formed.
 */
static size_t unquote_c(struct pc_buf *out, const char *p, size_t len)
{
	size_t i = 1;

	pc_buf_reset(out);
	while (i < len) {
		unsigned char c = (unsigned char)p[i++];

		if (c == '"')
			return i;
		if (c != '\\') {
			pc_buf_addch(out, c);
			continue;
		}
		if (i >= len)
			return 0;
		c = (unsigned char)p[i++];
		switch (c) {
		case 'a':
			c = '\a';
			break;
		case 'b':
			c = '\b';
			break;
		case 'f':
			c = '\f';
			break;
		case 'n':
			c = '\n';
			break;
		case 'r':
			c = '\r';
			break;
		case 't':
			c = '\t';
			break;
		case 'v':
			c = '\v';
			break;
		case '\\':
		case '"':
			break;
		default:
			if (c < '0' || c > '3' || i + 2 > len || p[i] < '0' ||
			    p[i] > '7' || p[i + 1] < '0' || p[i + 1] > '7')
				return 0;
			c = (unsigned char)(((c - '0') << 6) |
					    ((p[i] - '0') << 3) |
					    (p[i + 1] - '0'));
			i += 2;
			break;
		}
		pc_buf_addch(out, c);
	}
	return 0;
}

/*
 * The name on a "--- ", "+++ ", "rename from " or similar line: C-quoted,
 * or up to a tab (diff's timestamp; git's trailing tab after names with
 * spaces), else up to a run of two spaces (timestamps without a tab), with
 * trailing whitespace dropped.
 */
static void line_name(struct pc_buf *out, const char *p, size_t len)
{
	size_t i;

	if (len && p[0] == '"' && unquote_c(out, p, len))
		return;
	for (i = 0; i < len; i++)
		if (p[i] == '\t' ||
		    (p[i] == ' ' && i + 1 < len && p[i + 1] == ' '))
			break;
	while (i && pc_isspace((unsigned char)p[i - 1]))
		i--;
	pc_buf_reset(out);
	pc_buf_add(out, p, i);
}

/* Whether s has a first path component ("a/x": yes, "x": no). */
static const char *after_first_component(const char *s)
{
	const char *slash = strchr(s, '/');

	return slash && slash != s && slash[1] ? slash + 1 : NULL;
}

static int is_dev_null(const char *s)
{
	return strcmp(s, "/dev/null") == 0;
}

/*
 * Splits the names of a "diff --git " line. Quoted names are unquoted. For
 * unquoted names (which may hold spaces) the split that makes both names
 * equal, with or without their first component, wins; else " b/", else the
 * first space.
 */
static int split_git_names(struct pc_buf *a, struct pc_buf *b, const char *p,
			   size_t len)
{
	size_t used, i, best = 0;
	const char *sp;

	pc_buf_reset(a);
	pc_buf_reset(b);
	if (len && p[0] == '"') {
		used = unquote_c(a, p, len);
		if (!used || used >= len || p[used] != ' ')
			return -1;
		p += used + 1;
		len -= used + 1;
		if (len && p[0] == '"') {
			if (!unquote_c(b, p, len))
				return -1;
		} else {
			pc_buf_add(b, p, len);
		}
		return 0;
	}
	/* Unquoted first name; the second may be quoted. */
	for (i = 0; i + 1 < len; i++) {
		if (p[i] == ' ' && p[i + 1] == '"') {
			pc_buf_add(a, p, i);
			return unquote_c(b, p + i + 1, len - i - 1) ? 0 : -1;
		}
	}
	if (len % 2 == 1 && p[len / 2] == ' ') {
		size_t h = len / 2;
		const char *s1 = memchr(p, '/', h),
			   *s2 = memchr(p + h + 1, '/', h);

		if (!memcmp(p, p + h + 1, h) ||
		    (s1 && s2 && s1 - p == s2 - (p + h + 1) &&
		     !memcmp(s1, s2, (size_t)(p + h - s1))))
			best = h;
	}
	if (!best) {
		for (i = 0; i + 3 < len; i++)
			if (!memcmp(p + i, " b/", 3))
				best = i;
	}
	if (!best) {
		sp = memchr(p, ' ', len);
		if (!sp)
			return -1;
		best = (size_t)(sp - p);
	}
	pc_buf_add(a, p, best);
	pc_buf_add(b, p + best + 1, len - best - 1);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The parser                                                          */
/* ------------------------------------------------------------------ */

struct parser {
	const char *text;
	size_t len;
	struct pc_diff *d;
	size_t *slots; /* owned; dedup table of index + 1, 0 = empty */
	size_t nslots;
	struct pc_buf s1, s2; /* scratch */
};

/* A file as it is being read. */
struct cur {
	struct pc_diff_file f;
	char *a, *b; /* owned; old and new names */
	int new_file, deleted, renamed, copied;
};

static void cur_release(struct cur *c)
{
	free(c->a);
	free(c->b);
	free(c->f.old_path);
	free(c->f.new_path);
}

static void set_str(char **dst, const struct pc_buf *b)
{
	free(*dst);
	*dst = xmemdupz(b->buf, b->len);
}

static uint64_t hash_file(const struct pc_diff_file *f)
{
	const char *s[2] = { f->old_path ? f->old_path : "",
			     f->new_path ? f->new_path : "" };
	uint64_t h = 1469598103934665603ULL;
	int k;

	for (k = 0; k < 2; k++) {
		const unsigned char *p = (const unsigned char *)s[k];

		for (; *p; p++)
			h = (h ^ *p) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

static int same_str(const char *x, const char *y)
{
	if (!x || !y)
		return x == y;
	return strcmp(x, y) == 0;
}

static void rehash(struct parser *ps)
{
	size_t n = ps->nslots ? ps->nslots * 2 : 64, i, j;

	free(ps->slots);
	ps->slots = xcalloc(n, sizeof(*ps->slots));
	ps->nslots = n;
	for (i = 0; i < ps->d->nfiles; i++) {
		j = hash_file(&ps->d->files[i]) & (n - 1);
		while (ps->slots[j])
			j = (j + 1) & (n - 1);
		ps->slots[j] = i + 1;
	}
}

/*
 * Adds the file unless it is already listed. Takes the paths from c either
 * way. Returns PC_ELIMIT past PC_DIFF_MAX_FILES.
 */
static int add_file(struct parser *ps, struct cur *c, size_t hdr_off,
		    struct pc_err *err)
{
	struct pc_diff *d = ps->d;
	size_t j;

	if (!c->f.old_path && !c->f.new_path)
		return 0;
	if ((d->nfiles + 1) * 2 > ps->nslots)
		rehash(ps);
	j = hash_file(&c->f) & (ps->nslots - 1);
	for (; ps->slots[j]; j = (j + 1) & (ps->nslots - 1)) {
		struct pc_diff_file *o = &d->files[ps->slots[j] - 1];

		if (same_str(o->old_path, c->f.old_path) &&
		    same_str(o->new_path, c->f.new_path))
			return 0; /* the first occurrence counts */
	}
	if (d->nfiles >= PC_DIFF_MAX_FILES)
		return pc_err_set(err, PC_ELIMIT,
				  "diff names more than %d files",
				  PC_DIFF_MAX_FILES);
	if (!d->nfiles)
		d->diff_off = hdr_off;
	PC_ALLOC_GROW(d->files, d->nfiles + 1, d->alloc);
	d->files[d->nfiles] = c->f;
	c->f.old_path = c->f.new_path = NULL;
	ps->slots[j] = ++d->nfiles;
	d->insertions += c->f.added;
	d->deletions += c->f.removed;
	return 0;
}

/* Parses "<digits>" after optional spaces; -1 when there are none. */
static long parse_count(const char **pp, const char *end)
{
	const char *p = *pp;
	long v = 0;
	int any = 0;

	while (p < end && *p == ' ')
		p++;
	while (p < end && pc_isdigit((unsigned char)*p)) {
		if (v < 100000000)
			v = v * 10 + (*p - '0');
		p++;
		any = 1;
	}
	*pp = p;
	return any ? v : -1;
}

/*
 * Reads "-start[,count] +start[,count]" of a hunk header, tolerating
 * spaces ("@@ -49, 7 +49,34 @@"). Returns 0 when both counts are known.
 */
static int parse_hunk_header(const struct line *l, long *old_n, long *new_n)
{
	const char *p = l->p, *end = l->p + l->len;
	long v;

	while (p < end && *p == '@')
		p++;
	p += 2; /* " -", checked by is_hunk_start() */
	if (parse_count(&p, end) < 0)
		return -1;
	*old_n = 1;
	if (p < end && *p == ',') {
		p++;
		if ((v = parse_count(&p, end)) < 0)
			return -1;
		*old_n = v;
	}
	while (p < end && *p == ' ')
		p++;
	if (p >= end || *p != '+')
		return -1;
	p++;
	if (parse_count(&p, end) < 0)
		return -1;
	*new_n = 1;
	if (p < end && *p == ',') {
		p++;
		if ((v = parse_count(&p, end)) < 0)
			return -1;
		*new_n = v;
	}
	return 0;
}

/*
 * Whether a line is a hunk header: "@@ -", or with more '@'s as in a
 * combined diff ("@@@ -"), which b4 and hand-edited patches also use.
 */
static int is_hunk_start(const struct line *l)
{
	size_t i = 0;

	while (i < l->len && l->p[i] == '@')
		i++;
	return i >= 2 && i + 1 < l->len && l->p[i] == ' ' && l->p[i + 1] == '-';
}

/* Whether the line at pos starts a plain "--- " / "+++ " / "@@ -" diff. */
static int plain_start_at(const char *text, size_t len, const struct line *l)
{
	struct line l2, l3;

	return line_starts(l, "--- ") && get_line(&l2, text, len, l->next) &&
	       line_starts(&l2, "+++ ") && get_line(&l3, text, len, l2.next) &&
	       is_hunk_start(&l3);
}

/*
 * Whether a line ends a hunk whose length is unknown: a signature, or the
 * start of another diff.
 */
static int ends_unknown_hunk(struct parser *ps, const struct line *l)
{
	if (!l->len)
		return 1;
	if ((l->len == 3 && !memcmp(l->p, "-- ", 3)) ||
	    (l->len == 2 && !memcmp(l->p, "--", 2)))
		return 1;
	return plain_start_at(ps->text, ps->len, l);
}

/* Walks the hunks at pos; returns where the file's last hunk ends. */
static size_t parse_hunks(struct parser *ps, size_t pos, struct pc_diff_file *f)
{
	struct line l;
	long old_n = 0, new_n = 0;

	while (get_line(&l, ps->text, ps->len, pos) && is_hunk_start(&l)) {
		int known = parse_hunk_header(&l, &old_n, &new_n) == 0;

		pos = l.next;
		while (get_line(&l, ps->text, ps->len, pos)) {
			char c = l.len ? l.p[0] : ' ';

			if (known && old_n <= 0 && new_n <= 0)
				break;
			if (!known &&
			    (ends_unknown_hunk(ps, &l) || is_hunk_start(&l) ||
			     line_starts(&l, "diff ")))
				break;
			/*
			 * A signature where no old line is left to remove:
			 * the hunk header lied, the diff is over.
			 */
			if (known && old_n <= 0 && l.len == 3 &&
			    !memcmp(l.p, "-- ", 3))
				break;
			if (c == ' ') {
				old_n--;
				new_n--;
			} else if (c == '-') {
				old_n--;
				f->removed++;
			} else if (c == '+') {
				new_n--;
				f->added++;
			} else if (c != '\\') {
				break; /* a short hunk: it ends here */
			}
			pos = l.next;
		}
		/* "\ No newline at end of file" follows the last line. */
		while (get_line(&l, ps->text, ps->len, pos) && l.len &&
		       l.p[0] == '\\')
			pos = l.next;
	}
	return pos;
}

/* Skips the literal/delta blocks after "GIT binary patch". */
static size_t skip_binary(struct parser *ps, size_t pos)
{
	struct line l;

	while (get_line(&l, ps->text, ps->len, pos) &&
	       (line_starts(&l, "literal ") || line_starts(&l, "delta "))) {
		pos = l.next;
		while (get_line(&l, ps->text, ps->len, pos) && l.len)
			pos = l.next;
		if (get_line(&l, ps->text, ps->len, pos))
			pos = l.next; /* the blank line closing the block */
	}
	return pos;
}

static unsigned parse_mode(const char *p, size_t len)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < len && p[i] >= '0' && p[i] <= '7' && v < 01000000; i++)
		v = v * 8 + (unsigned)(p[i] - '0');
	return v;
}

/* The old and new path of a file from what its headers said. */
static void finish_paths(struct cur *c, int strip)
{
	const char *a = c->a, *b = c->b, *s;

	if (strip) {
		if (a && (s = after_first_component(a)))
			a = s;
		if (b && (s = after_first_component(b)))
			b = s;
	}
	if (a && is_dev_null(c->a)) {
		a = NULL;
		c->new_file = 1;
	}
	if (b && is_dev_null(c->b)) {
		b = NULL;
		c->deleted = 1;
	}
	if (!c->f.old_path && a)
		c->f.old_path = xstrdup(a);
	if (!c->f.new_path && b)
		c->f.new_path = xstrdup(b);
	if (!c->f.old_path && c->f.new_path && !c->new_file)
		c->f.old_path = xstrdup(c->f.new_path);
	if (!c->f.new_path && c->f.old_path && !c->deleted)
		c->f.new_path = xstrdup(c->f.old_path);

	if (c->new_file && c->f.new_path) {
		c->f.status = PC_DIFF_ADDED;
		free(c->f.old_path);
		c->f.old_path = NULL;
	} else if (c->deleted && c->f.old_path) {
		c->f.status = PC_DIFF_DELETED;
		free(c->f.new_path);
		c->f.new_path = NULL;
	} else if (c->renamed) {
		c->f.status = PC_DIFF_RENAMED;
	} else if (c->copied) {
		c->f.status = PC_DIFF_COPIED;
	} else {
		c->f.status = PC_DIFF_MODIFIED;
	}
}

/*
 * Whether the names of a "diff --git" line carry prefixes (a/ b/, or any
 * two first components with the same rest) or not (--no-prefix).
 */
static int git_has_prefix(const char *a, const char *b)
{
	const char *ra = after_first_component(a),
		   *rb = after_first_component(b);

	if (!strncmp(a, "a/", 2) && !strncmp(b, "b/", 2))
		return 1;
	if (!strcmp(a, b))
		return 0;
	return ra && rb && !strcmp(ra, rb);
}

/* Skips prefix on (*p, *len) if the line starts with it. */
static int skip_hdr(const char **p, size_t *len, const char *prefix)
{
	size_t n = strlen(prefix);

	if (!pc_mem_starts(*p, *len, prefix))
		return 0;
	*p += n;
	*len -= n;
	return 1;
}

/* Parses one git diff at the "diff --git " line l. */
static int parse_git(struct parser *ps, const struct line *first,
		     size_t *pos_out, struct pc_err *err)
{
	struct cur c = { .f = { .similarity = -1 } };
	struct pc_buf *n = &ps->s1;
	struct line l;
	size_t pos = first->next;
	int strip = 1, rc;
	char *ga = NULL, *gb = NULL, *rfrom = NULL, *rto = NULL;

	if (split_git_names(&ps->s1, &ps->s2, first->p + 11, first->len - 11) ==
		    0 &&
	    ps->s1.len && ps->s2.len) {
		ga = xmemdupz(ps->s1.buf, ps->s1.len);
		gb = xmemdupz(ps->s2.buf, ps->s2.len);
		strip = git_has_prefix(ga, gb);
	}

	while (get_line(&l, ps->text, ps->len, pos)) {
		const char *p = l.p;
		size_t len = l.len;

		if (skip_hdr(&p, &len, "old mode ")) {
			c.f.old_mode = parse_mode(p, len);
		} else if (skip_hdr(&p, &len, "new mode ")) {
			c.f.new_mode = parse_mode(p, len);
		} else if (skip_hdr(&p, &len, "deleted file mode ")) {
			c.f.old_mode = parse_mode(p, len);
			c.deleted = 1;
		} else if (skip_hdr(&p, &len, "new file mode ")) {
			c.f.new_mode = parse_mode(p, len);
			c.new_file = 1;
		} else if (skip_hdr(&p, &len, "rename from ") ||
			   skip_hdr(&p, &len, "rename old ") ||
			   skip_hdr(&p, &len, "copy from ")) {
			c.renamed |= l.p[0] == 'r';
			c.copied |= l.p[0] == 'c';
			line_name(n, p, len);
			set_str(&rfrom, n);
		} else if (skip_hdr(&p, &len, "rename to ") ||
			   skip_hdr(&p, &len, "rename new ") ||
			   skip_hdr(&p, &len, "copy to ")) {
			c.renamed |= l.p[0] == 'r';
			c.copied |= l.p[0] == 'c';
			line_name(n, p, len);
			set_str(&rto, n);
		} else if (skip_hdr(&p, &len, "similarity index ")) {
			long v = parse_count(&p, p + len);

			c.f.similarity = v >= 0 && v <= 100 ? (int)v : -1;
		} else if (skip_hdr(&p, &len, "dissimilarity index ")) {
			/* A rewrite; nothing to record. */
		} else if (skip_hdr(&p, &len, "index ")) {
			const char *sp = memchr(p, ' ', len);

			if (sp) {
				unsigned m = parse_mode(
					sp + 1, len - (size_t)(sp + 1 - p));

				if (!c.f.old_mode && !c.new_file)
					c.f.old_mode = m;
				if (!c.f.new_mode && !c.deleted)
					c.f.new_mode = m;
			}
		} else if (skip_hdr(&p, &len, "Binary files ")) {
			c.f.binary = 1;
			pos = l.next;
			break;
		} else if (skip_hdr(&p, &len, "GIT binary patch")) {
			c.f.binary = 1;
			pos = skip_binary(ps, l.next);
			break;
		} else if (skip_hdr(&p, &len, "--- ")) {
			struct line l2;

			line_name(n, p, len);
			set_str(&c.a, n);
			pos = l.next;
			if (get_line(&l2, ps->text, ps->len, pos) &&
			    line_starts(&l2, "+++ ")) {
				line_name(n, l2.p + 4, l2.len - 4);
				set_str(&c.b, n);
				pos = l2.next;
			}
			pos = parse_hunks(ps, pos, &c.f);
			break;
		} else if (is_hunk_start(&l)) {
			pos = parse_hunks(ps, pos, &c.f);
			break;
		} else {
			break; /* the end of a header-only diff */
		}
		pos = l.next;
	}

	/* Names: rename/copy lines, else ---/+++, else the diff line. */
	if (!c.a && ga)
		c.a = xstrdup(ga);
	if (!c.b && gb)
		c.b = xstrdup(gb);
	if (rfrom && (c.renamed || c.copied))
		c.f.old_path = xstrdup(rfrom);
	if (rto && (c.renamed || c.copied))
		c.f.new_path = xstrdup(rto);
	finish_paths(&c, strip);
	rc = add_file(ps, &c, first->off, err);
	cur_release(&c);
	free(ga);
	free(gb);
	free(rfrom);
	free(rto);
	*pos_out = pos;
	return rc;
}

/*
 * Picks the name patch(1) would for a plain diff whose two names differ:
 * fewest components, then shortest base name, then shortest name.
 */
static const char *better_name(const char *x, const char *y)
{
	size_t cx = 0, cy = 0, bx, by;
	const char *p;

	for (p = x; *p; p++)
		cx += *p == '/';
	for (p = y; *p; p++)
		cy += *p == '/';
	if (cx != cy)
		return cx < cy ? x : y;
	bx = strlen(strrchr(x, '/') ? strrchr(x, '/') + 1 : x);
	by = strlen(strrchr(y, '/') ? strrchr(y, '/') + 1 : y);
	if (bx != by)
		return bx < by ? x : y;
	return strlen(x) <= strlen(y) ? x : y;
}

/*
 * Parses a plain unified diff at its "--- " line l (the "+++ " and "@@ -"
 * lines follow). hdr_off is where its header starts ("Index:" or "diff ");
 * index_path is the "Index:" name or NULL.
 */
static int parse_plain(struct parser *ps, const struct line *l, size_t hdr_off,
		       const char *index_path, size_t *pos_out,
		       struct pc_err *err)
{
	struct cur c = { .f = { .similarity = -1 } };
	struct line l2;
	int rc, strip;

	/* The caller saw the "+++ " line; a short read means no diff. */
	if (!get_line(&l2, ps->text, ps->len, l->next) || l2.len < 4) {
		*pos_out = l->next;
		return 0;
	}
	line_name(&ps->s1, l->p + 4, l->len - 4);
	c.a = xmemdupz(ps->s1.buf, ps->s1.len);
	line_name(&ps->s1, l2.p + 4, l2.len - 4);
	c.b = xmemdupz(ps->s1.buf, ps->s1.len);

	if (index_path) {
		strip = 0;
	} else if (is_dev_null(c.a) || is_dev_null(c.b)) {
		strip = 1;
	} else {
		strip = after_first_component(c.a) &&
			after_first_component(c.b);
	}
	if (index_path && !is_dev_null(c.a) && !is_dev_null(c.b)) {
		c.f.old_path = xstrdup(index_path);
		c.f.new_path = xstrdup(index_path);
	}
	finish_paths(&c, strip);
	if (c.f.status == PC_DIFF_MODIFIED && c.f.old_path && c.f.new_path &&
	    strcmp(c.f.old_path, c.f.new_path)) {
		char *best = xstrdup(better_name(c.f.old_path, c.f.new_path));

		free(c.f.old_path);
		free(c.f.new_path);
		c.f.old_path = best;
		c.f.new_path = xstrdup(best);
	}
	*pos_out = parse_hunks(ps, l2.next, &c.f);
	rc = add_file(ps, &c, hdr_off, err);
	cur_release(&c);
	return rc;
}

/* Lines that may sit between "Index:"/"diff " and "--- ". */
static int is_plain_header(const struct line *l)
{
	return line_starts(l, "===") || line_starts(l, "RCS file: ") ||
	       line_starts(l, "retrieving revision ") ||
	       line_starts(l, "diff ") || line_starts(l, "Index: ") ||
	       line_starts(l, "new file mode ") ||
	       line_starts(l, "deleted file mode ") || line_starts(l, "index ");
}

static void find_base_commit(struct pc_diff *d, const char *text, size_t len)
{
	struct line l;
	size_t pos = 0, i;

	for (; get_line(&l, text, len, pos); pos = l.next) {
		const char *p;
		size_t n;

		if (!line_starts(&l, "base-commit:"))
			continue;
		p = l.p + 12;
		n = l.len - 12;
		while (n && pc_isspace((unsigned char)*p))
			p++, n--;
		while (n && pc_isspace((unsigned char)p[n - 1]))
			n--;
		if (n < 4 || n > 64)
			continue;
		for (i = 0; i < n; i++)
			if (pc_hexval((unsigned char)p[i]) < 0)
				break;
		if (i < n)
			continue;
		memcpy(d->base_commit, p, n);
		d->base_commit[n] = '\0';
		return;
	}
}

void pc_diff_release(struct pc_diff *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nfiles; i++) {
		free(d->files[i].old_path);
		free(d->files[i].new_path);
	}
	free(d->files);
	memset(d, 0, sizeof(*d));
}

int pc_diff_parse(struct pc_diff *out, const char *text, size_t len,
		  struct pc_err *err)
{
	struct parser ps = { .text = text,
			     .len = len,
			     .d = out,
			     .s1 = PC_BUF_INIT,
			     .s2 = PC_BUF_INIT };
	struct line l;
	size_t pos = 0, hdr_off = SIZE_MAX;
	char *index_path = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->diff_off = len;
	while (get_line(&l, text, len, pos)) {
		if (line_starts(&l, "diff --git ")) {
			if ((rc = parse_git(&ps, &l, &pos, err)) < 0)
				goto out;
			hdr_off = SIZE_MAX;
			continue;
		}
		if (plain_start_at(text, len, &l)) {
			if ((rc = parse_plain(&ps, &l,
					      hdr_off != SIZE_MAX ? hdr_off :
								    l.off,
					      index_path, &pos, err)) < 0)
				goto out;
			hdr_off = SIZE_MAX;
			free(index_path);
			index_path = NULL;
			continue;
		}
		if (line_starts(&l, "Index: ")) {
			hdr_off = l.off;
			line_name(&ps.s1, l.p + 7, l.len - 7);
			free(index_path);
			index_path = ps.s1.len ?
					     xmemdupz(ps.s1.buf, ps.s1.len) :
					     NULL;
		} else if (is_plain_header(&l)) {
			if (hdr_off == SIZE_MAX)
				hdr_off = l.off;
		} else {
			hdr_off = SIZE_MAX;
			free(index_path);
			index_path = NULL;
		}
		pos = l.next;
	}
	find_base_commit(out, text, len);
	compute_patch_id(out->patch_id, text, len);
out:
	if (rc < 0) {
		pc_diff_release(out);
		out->diff_off = len;
	}
	free(index_path);
	free(ps.slots);
	pc_buf_release(&ps.s1);
	pc_buf_release(&ps.s2);
	return rc;
}

int pc_diff_present(const char *text, size_t len)
{
	struct line l;
	size_t pos = 0;

	for (; get_line(&l, text, len, pos); pos = l.next)
		if (line_starts(&l, "diff --git ") ||
		    plain_start_at(text, len, &l))
			return 1;
	return 0;
}

/* FNV-1a of a changed line: its sign, then its text less trailing
 * blanks (a re-post may differ in them and in nothing else). */
static uint64_t hash_change(const struct line *l)
{
	size_t n = l->len;
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	while (n > 1 && (l->p[n - 1] == ' ' || l->p[n - 1] == '\t'))
		n--;
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)l->p[i]) * 1099511628211ULL;
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t pc_diff_changes(const char *text, size_t len, uint64_t **out)
{
	uint64_t *v = NULL;
	size_t n = 0, alloc = 0, pos = 0;
	struct line l;

	while (get_line(&l, text, len, pos)) {
		long old_n, new_n;

		pos = l.next;
		if (!is_hunk_start(&l) ||
		    parse_hunk_header(&l, &old_n, &new_n) < 0)
			continue;
		while ((old_n > 0 || new_n > 0) &&
		       get_line(&l, text, len, pos)) {
			char c = l.len ? l.p[0] : ' ';

			if (c == ' ') {
				old_n--;
				new_n--;
			} else if (c == '-' || c == '+') {
				if (c == '-')
					old_n--;
				else
					new_n--;
				PC_ALLOC_GROW(v, n + 1, alloc);
				v[n++] = hash_change(&l);
			} else if (c != '\\') {
				break; /* a short hunk ends here */
			}
			pos = l.next;
		}
	}
	*out = v;
	return pc_diff_changes_unique(v, n);
}

size_t pc_diff_changes_unique(uint64_t *v, size_t n)
{
	size_t i, k;

	if (n)
		qsort(v, n, sizeof(*v), cmp_u64);
	for (i = k = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

int pc_diff_changes_within(const uint64_t *a, size_t na, const uint64_t *b,
			   size_t nb)
{
	size_t i, j = 0;

	for (i = 0; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j == nb || b[j] != a[i])
			return 0;
	}
	return 1;
}
