// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mapping paths and patches to MAINTAINERS entries: get_maintainer.pl's
 * argument loop (which lines of a patch name files, which feed K:) and
 * get_maintainers() (X: vetoes, the last matching line's depth, the
 * order), without its git parts.
 */
#include <stdlib.h>
#include <string.h>

#include "maint/maint_internal.h"
#include "util/util.h"
#include "util/file.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct pc_maint_query {
	const struct pc_maint *m; /* borrowed */
	unsigned flags;
	char **files; /* owned, each owned: the script's @files */
	size_t n_files, alloc_files;
	unsigned char *kfound; /* owned: per K: line, whether it matched */
	pcre2_match_data *md; /* owned */
	struct pc_maint__recs recs; /* scratch */
};

struct pc_maint_query *pc_maint_query_new(const struct pc_maint *m,
					  unsigned flags)
{
	struct pc_maint_query *q = xcalloc(1, sizeof(*q));

	q->m = m;
	q->flags = flags;
	if (!m->tree)
		q->flags &= ~(unsigned)PC_MAINT_TREE_FILES;
	q->kfound = xcalloc(m->n_kpats + 1, 1);
	q->md = pcre2_match_data_create(1, NULL);
	return q;
}

void pc_maint_query_free(struct pc_maint_query *q)
{
	size_t i;

	if (!q)
		return;
	for (i = 0; i < q->n_files; i++)
		free(q->files[i]);
	free(q->files);
	free(q->kfound);
	pcre2_match_data_free(q->md);
	free(q->recs.v);
	free(q);
}

static void push_file(struct pc_maint_query *q, const char *p, size_t n)
{
	PC_ALLOC_GROW(q->files, q->n_files + 1, q->alloc_files);
	q->files[q->n_files++] = xmemdupz(p, n);
}

/* A match; PCRE2 says 0 when the match data has no room for groups. */
static int re_match(const struct pc_maint_query *q, const pcre2_code *c,
		    const char *p, size_t n)
{
	return c && pcre2_match(c, (PCRE2_SPTR)p, n, 0, 0, q->md, NULL) >= 0;
}

/*
 * Reads path (relative to the tree unless absolute) if it is a regular
 * file: 1 with its bytes, 0 if it is not one (or larger than any file
 * patchclock reads, PC_FILE_LIMIT: its keywords are not read), or PC_EIO.
 */
static int read_tree_file(struct pc_buf *out, const struct pc_maint *m,
			  const char *path, struct pc_err *err)
{
	char *full = path[0] == '/' ? xstrdup(path) :
				      xasprintf("%s/%s", m->tree, path);
	int rc = pc_read_file(out, full, PC_FILE_LIMIT, PC_READ_MISSING_OK,
			      NULL, err);

	free(full);
	if (rc == PC_ELIMIT) {
		pc_buf_reset(out);
		return 0;
	}
	return rc < 0 ? rc : !rc;
}

int pc_maint_query_add_file(struct pc_maint_query *q, const char *path,
			    struct pc_err *err)
{
	const struct pc_maint *m = q->m;
	struct pc_buf text = PC_BUF_INIT;
	unsigned char *lit;
	size_t k;
	int rc;

	push_file(q, path, strlen(path));
	if (!(q->flags & PC_MAINT_KEYWORDS) ||
	    !(q->flags & PC_MAINT_TREE_FILES) || !strcmp(path, "MAINTAINERS"))
		return 0;
	if ((rc = read_tree_file(&text, m, path, err)) <= 0)
		goto out;
	/* if ($text =~ m/$keyword_hash{$line}/x) */
	lit = xcalloc(m->n_kpats + 1, 1);
	pc_maint__kscan(m, text.buf, text.len, lit, NULL);
	for (k = 0; k < m->n_kpats; k++) {
		const struct pc_maint__kpat *kp = &m->kpats[k];

		if (q->kfound[k] || (kp->n_lits && !lit[k] &&
				     !(q->flags & PC_MAINT__NO_PREFILTER)))
			continue;
		if (re_match(q, pc_maint__code(m, kp->rid), text.buf, text.len))
			q->kfound[k] = 1;
	}
	free(lit);
	rc = 0;
out:
	pc_buf_release(&text);
	return rc;
}

/* ---- the patch loop ---------------------------------------------------------- */

/* `\s*$` from i: only blanks remain. */
static int rest_blank(const char *l, size_t n, size_t i)
{
	for (; i < n; i++)
		if (!pc_isspace((unsigned char)l[i]))
			return 0;
	return 1;
}

static size_t span(const char *l, size_t n, size_t i, int (*ok)(int))
{
	size_t j = i;

	while (j < n && ok((unsigned char)l[j]))
		j++;
	return j - i;
}

static int is_space(int c)
{
	return pc_isspace(c);
}
static int not_space(int c)
{
	return !pc_isspace(c);
}
static int is_octal(int c)
{
	return c >= '0' && c <= '7';
}
static int is_hex(int c)
{
	return pc_isdigit(c) || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* (\S+)\s*$ at i: the word's length, or 0. */
static size_t last_word(const char *l, size_t n, size_t i)
{
	size_t w = span(l, n, i, not_space);

	return w && rest_blank(l, n, i + w) ? w : 0;
}

/* m/^ mode change [0-7]+ => [0-7]+ (\S+)\s*$/ */
static int mode_change(const char *l, size_t n, size_t *f0, size_t *f1)
{
	size_t i = 13, d, w;

	if (!pc_mem_starts(l, n, " mode change "))
		return 0;
	if (!(d = span(l, n, i, is_octal)))
		return 0;
	i += d;
	if (!pc_mem_starts(l + i, n - i, " => "))
		return 0;
	i += 4;
	if (!(d = span(l, n, i, is_octal)))
		return 0;
	i += d;
	if (i >= n || l[i] != ' ')
		return 0;
	i++;
	if (!(w = last_word(l, n, i)))
		return 0;
	*f0 = i;
	*f1 = i + w;
	return 1;
}

/* m/^rename (?:from|to) (\S+)\s*$/ */
static int rename_line(const char *l, size_t n, size_t *f0, size_t *f1)
{
	size_t i, w;

	if (pc_mem_starts(l, n, "rename from "))
		i = 12;
	else if (pc_mem_starts(l, n, "rename to "))
		i = 10;
	else
		return 0;
	if (!(w = last_word(l, n, i)))
		return 0;
	*f0 = i;
	*f1 = i + w;
	return 1;
}

/* m/^diff --git a\/(\S+) b\/(\S+)\s*$/ */
static int diff_git(const char *l, size_t n, size_t f[4])
{
	size_t i = 13, w;

	if (!pc_mem_starts(l, n, "diff --git a/"))
		return 0;
	if (!(w = span(l, n, i, not_space)))
		return 0;
	f[0] = i;
	f[1] = i + w;
	i += w;
	if (!pc_mem_starts(l + i, n - i, " b/"))
		return 0;
	i += 3;
	if (!(w = last_word(l, n, i)))
		return 0;
	f[2] = i;
	f[3] = i + w;
	return 1;
}

/* m/^Fixes:\s+([0-9a-fA-F]{6,40})/ */
static int fixes(const char *l, size_t n)
{
	size_t i = 6, s;

	if (!pc_mem_starts(l, n, "Fixes:"))
		return 0;
	if (!(s = span(l, n, i, is_space)))
		return 0;
	return span(l, n, i + s, is_hex) >= 6;
}

/* m/^\+\+\+\s+(\S+)/ or m/^---\s+(\S+)/ */
static int plus_minus(const char *l, size_t n, size_t *f0, size_t *f1)
{
	size_t s, w;

	if (!pc_mem_starts(l, n, "+++") && !pc_mem_starts(l, n, "---"))
		return 0;
	if (!(s = span(l, n, 3, is_space)))
		return 0;
	if (!(w = span(l, n, 3 + s, not_space)))
		return 0;
	*f0 = 3 + s;
	*f1 = 3 + s + w;
	return 1;
}

/* m/^\@\@ -(\d+),(\d+)/ */
static int hunk(const char *l, size_t n)
{
	size_t d;

	if (!pc_mem_starts(l, n, "@@ -"))
		return 0;
	if (!(d = span(l, n, 4, pc_isdigit)))
		return 0;
	if (4 + d >= n || l[4 + d] != ',')
		return 0;
	return span(l, n, 5 + d, pc_isdigit) > 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sort_and_uniq(@files) */
static void sort_uniq(struct pc_maint_query *q)
{
	size_t i, j = 0;

	if (q->n_files > 1)
		qsort(q->files, q->n_files, sizeof(*q->files), cmp_str);
	for (i = 0; i < q->n_files; i++) {
		if (j && !strcmp(q->files[j - 1], q->files[i])) {
			free(q->files[i]);
			continue;
		}
		q->files[j++] = q->files[i];
	}
	q->n_files = j;
}

/*
 * The K: candidates of one line [l, l + n) of a patch into *cand (after
 * the ones that run on every line): those with a literal occurrence that
 * starts in it, each once. *h walks hits, which are in order of position.
 */
static size_t line_cands(uint32_t *cand, size_t nc,
			 const struct pc_maint__khits *hits, size_t *h,
			 size_t l, size_t n, size_t *seen, size_t line)
{
	while (*h < hits->n && hits->v[*h].pos < l)
		(*h)++;
	for (; *h < hits->n && hits->v[*h].pos < l + n; (*h)++) {
		uint32_t k = hits->v[*h].kpat;

		if (seen[k] == line)
			continue;
		seen[k] = line;
		cand[nc++] = k;
	}
	return nc;
}

void pc_maint_query_add_patch(struct pc_maint_query *q, const char *p,
			      size_t len, size_t *n_paths_out)
{
	const struct pc_maint *m = q->m;
	const char *start = p, *end = p + len;
	size_t before = q->n_files, k, nall = 0, h = 0, line = 0;
	struct pc_maint__khits hits = { 0 };
	uint32_t *cand = NULL;
	size_t *seen = NULL;
	int in_diff = 0;

	/*
	 * K: candidates. A regex with literals can match only a line that
	 * holds one of them: it runs on the lines where pc_maint__kscan()
	 * found one. The others run on every line, unless their /m form
	 * (pc_maint__kpat.multi) matches nowhere in the whole text.
	 */
	if (q->flags & PC_MAINT_KEYWORDS) {
		unsigned char *lit = xcalloc(m->n_kpats + 1, 1);
		int all = (q->flags & PC_MAINT__NO_PREFILTER) != 0;

		pc_maint__kscan(m, p, len, lit, all ? NULL : &hits);
		cand = xcalloc(2 * m->n_kpats + 1, sizeof(*cand));
		seen = xcalloc(m->n_kpats + 1, sizeof(*seen));
		for (k = 0; k < m->n_kpats; k++) {
			const struct pc_maint__kpat *kp = &m->kpats[k];
			const pcre2_code *mc;

			seen[k] = (size_t)-1;
			if (q->kfound[k])
				continue;
			if (!all && kp->n_lits)
				continue; /* by line, below */
			/* A /m form that does not compile is no filter. */
			mc = kp->multi && !all ?
				     pc_maint__code(m, kp->rid + 2) :
				     NULL;
			if (mc && !re_match(q, mc, p, len))
				continue;
			cand[nall++] = (uint32_t)k;
		}
		free(lit);
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *l = p;
		size_t n = nl ? (size_t)(nl + 1 - p) : (size_t)(end - p);
		size_t f[4], c, nc;

		p += n;
		line++;
		if (mode_change(l, n, &f[0], &f[1]) ||
		    rename_line(l, n, &f[0], &f[1])) {
			push_file(q, l + f[0], f[1] - f[0]);
		} else if (diff_git(l, n, f)) {
			push_file(q, l + f[0], f[1] - f[0]);
			push_file(q, l + f[2], f[3] - f[2]);
		} else if (fixes(l, n)) {
			/* Deviation: the signers of the fixed commit come
			 * from git; not followed. */
		} else if (plus_minus(l, n, &f[0], &f[1])) {
			/* $filename =~ s@^[^/]*\/@@; */
			const char *s = memchr(l + f[0], '/', f[1] - f[0]);

			if (s)
				f[0] = (size_t)(s + 1 - l);
			push_file(q, l + f[0], f[1] - f[0]);
			in_diff = 1;
		} else if (hunk(l, n)) {
			/* Only --git-blame reads hunks. */
		} else if (cand) {
			nc = line_cands(cand, nall, &hits, &h,
					(size_t)(l - start), n, seen, line);
			for (c = 0; c < nc; c++) {
				const struct pc_maint__kpat *kp =
					&m->kpats[cand[c]];

				if (q->kfound[cand[c]])
					continue;
				if (re_match(q,
					     pc_maint__code(m,
							    kp->rid + in_diff),
					     l, n))
					q->kfound[cand[c]] = 1;
			}
		}
	}
	free(cand);
	free(seen);
	free(hits.v);
	if (n_paths_out)
		*n_paths_out = q->n_files - before;
	sort_uniq(q);
}

/* ---- get_maintainers() --------------------------------------------------------- */

static int cmp_rec(const void *a, const void *b)
{
	const struct pc_maint__rec *x = a, *y = b;

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/* Entries by depth, highest first; ties by MAINTAINERS order. */
static int cmp_depth(const void *a, const void *b)
{
	const struct pc_maint__rec *x = a, *y = b;

	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static void add_hit(struct pc_maint_result *r, const struct pc_maint *m,
		    uint32_t entry, int depth, unsigned spec, size_t file,
		    int k_only)
{
	struct pc_maint_hit *h;

	PC_ALLOC_GROW(r->hits, r->n_hits + 1, r->alloc_hits);
	h = &r->hits[r->n_hits++];
	memset(h, 0, sizeof(*h));
	h->entry = pc_maint__entry(m, entry);
	h->depth = depth;
	h->spec = spec;
	h->file = file;
	h->k_only = k_only != 0;
	h->keyword = k_only != 0;
}

/* m@\bMAINTAINERS$@ */
static int names_maintainers(const char *f)
{
	size_t n = strlen(f);

	if (n < 11 || strcmp(f + n - 11, "MAINTAINERS"))
		return 0;
	return n == 11 ||
	       !(pc_isalnum((unsigned char)f[n - 12]) || f[n - 12] == '_');
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

int pc_maint_query_run(struct pc_maint_result *out, struct pc_maint_query *q,
		       struct pc_err *err)
{
	const struct pc_maint *m = q->m;
	struct pc_maint__recs *r = &q->recs;
	size_t *placed = xmalloc((m->n_entries + 1) * sizeof(*placed));
	struct pc_buf text = PC_BUF_INIT;
	size_t fi, i, k;
	int rc = 0;

	for (i = 0; i < m->n_entries; i++)
		placed[i] = PC_MAINT_NONE;
	for (fi = 0; fi < q->n_files; fi++) {
		const char *f = q->files[fi];
		size_t nrec = 0;

		pc_maint__match_path(r, m, f, strlen(f), q->md);
		if (r->n > 1)
			qsort(r->v, r->n, sizeof(*r->v), cmp_rec);
		/* Per entry: one X: vetoes; else the last F:/N: sets the
		 * depth. Kept entries are compacted to the front. */
		for (i = 0; i < r->n;) {
			size_t j = i;
			int veto = 0, depth = 0, any = 0;
			unsigned spec = 0;

			for (; j < r->n && r->v[j].entry == r->v[i].entry;
			     j++) {
				if (r->v[j].kind == 'X') {
					veto = 1;
				} else {
					any = 1;
					depth = r->v[j].depth;
					if (r->v[j].spec > spec)
						spec = r->v[j].spec;
				}
			}
			if (any && !veto) {
				r->v[nrec] = r->v[i];
				r->v[nrec].depth = depth;
				r->v[nrec].spec = spec;
				nrec++;
			}
			i = j;
		}
		if (nrec > 1)
			qsort(r->v, nrec, sizeof(*r->v), cmp_depth);
		for (i = 0; i < nrec; i++) {
			if (placed[r->v[i].entry] != PC_MAINT_NONE)
				continue;
			placed[r->v[i].entry] = out->n_hits;
			add_hit(out, m, r->v[i].entry, r->v[i].depth,
				r->v[i].spec, out->n_files, 0);
		}
		/* maintainers_in_file() */
		if ((q->flags & PC_MAINT_TREE_FILES) && !names_maintainers(f) &&
		    ends_with(f, ".yaml")) {
			pc_buf_reset(&text);
			if ((rc = read_tree_file(&text, m, f, err)) < 0)
				goto out;
			if (rc)
				pc_maint__file_emails(
					out,
					pc_maint__code(m,
						       PC_MAINT__RID_FE_FIND),
					pc_maint__code(m, PC_MAINT__RID_FE_SUB),
					text.buf, text.len);
			rc = 0;
		}
		PC_ALLOC_GROW(out->files, out->n_files + 1, out->alloc_files);
		out->files[out->n_files++] = xstrdup(f);
	}
	for (k = 0; k < m->n_kpats; k++) {
		uint32_t e = m->kpats[k].entry;

		if (!q->kfound[k])
			continue;
		if (placed[e] != PC_MAINT_NONE) {
			out->hits[placed[e]].keyword = 1;
			continue;
		}
		placed[e] = out->n_hits;
		add_hit(out, m, e, 0, 0, PC_MAINT_NONE, 1);
	}
out:
	free(placed);
	pc_buf_release(&text);
	return rc;
}

void pc_maint_result_release(struct pc_maint_result *r)
{
	size_t i;

	for (i = 0; i < r->n_files; i++)
		free(r->files[i]);
	for (i = 0; i < r->n_file_emails; i++)
		free(r->file_emails[i]);
	free(r->files);
	free(r->file_emails);
	free(r->hits);
	memset(r, 0, sizeof(*r));
}

int pc_maint_map_file(struct pc_maint_result *out, const struct pc_maint *m,
		      const char *path, unsigned flags, struct pc_err *err)
{
	struct pc_maint_query *q = pc_maint_query_new(m, flags);
	int rc;

	if ((rc = pc_maint_query_add_file(q, path, err)) == 0)
		rc = pc_maint_query_run(out, q, err);
	pc_maint_query_free(q);
	return rc;
}

int pc_maint_map_patch(struct pc_maint_result *out, const struct pc_maint *m,
		       const char *p, size_t len, unsigned flags,
		       struct pc_err *err)
{
	struct pc_maint_query *q = pc_maint_query_new(m, flags);
	int rc;

	pc_maint_query_add_patch(q, p, len, NULL);
	rc = pc_maint_query_run(out, q, err);
	pc_maint_query_free(q);
	return rc;
}
