// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image of a loaded MAINTAINERS (see maint_internal.h), what is made
 * lazily from it, and the cache that keeps it between processes.
 *
 * An image is a header and sections, each 8-byte aligned: the strings
 * (the F:/X: pool first, so that its offsets are string offsets), then
 * the tables. The header records what the image was built from (the
 * lengths and 64-bit hashes of MAINTAINERS and .mailmap), by what (a
 * hash of lib/maint's sources, the layout of the tables, the byte order,
 * the PCRE2 version) and a checksum of the rest. A cache file is used
 * only when all of that matches; anything else (another tree's or
 * version's file, a torn or damaged one, one that cannot be read) is
 * passed over and the text read again, and a cache that cannot be
 * written is no error. Nothing in an image depends on the tree: whether
 * an F:/X: value names a directory is asked of the tree when needed.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint_internal.h"
#include "maint_srcid.h" /* PC_MAINT_SRCID: generated from the sources */
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAGIC "pcmaint\n"
#define VERSION 1
#define ORDER 0x01020304u

enum {
	S_STR,
	S_FPAT,
	S_BUCKET,
	S_PIDX,
	S_LIT,
	S_NPAT,
	S_NIDX,
	S_NBITS,
	S_NRANK,
	S_NSTART,
	S_NALWAYS,
	S_KPAT,
	S_KIDX,
	S_KBITS,
	S_KRANK,
	S_KSTART,
	S_KTRI,
	S_ENT,
	S_TAG,
	S_ADDR,
	S_MMNAMES,
	S_MMADDRS,
	S_MMSTRS,
	S_NAMES,
	S_WARN,
	S_FRES,
	NSEC
};

/* Each section's element size, for the bounds checks. */
static const size_t sec_elem[NSEC] = {
	[S_STR] = 1,
	[S_FPAT] = sizeof(struct pc_maint__fpat),
	[S_BUCKET] = sizeof(struct pc_maint__bucket),
	[S_PIDX] = sizeof(uint32_t),
	[S_LIT] = sizeof(struct pc_maint__lit),
	[S_NPAT] = sizeof(struct pc_maint__npat),
	[S_NIDX] = sizeof(struct pc_maint__nlit),
	[S_NBITS] = sizeof(uint64_t),
	[S_NRANK] = sizeof(uint16_t),
	[S_NSTART] = sizeof(uint32_t),
	[S_NALWAYS] = sizeof(uint32_t),
	[S_KPAT] = sizeof(struct pc_maint__kpat),
	[S_KIDX] = sizeof(struct pc_maint__nlit),
	[S_KBITS] = sizeof(uint64_t),
	[S_KRANK] = sizeof(uint16_t),
	[S_KSTART] = sizeof(uint32_t),
	[S_KTRI] = sizeof(uint64_t),
	[S_ENT] = sizeof(struct pc_maint__ent),
	[S_TAG] = sizeof(struct pc_maint__tag),
	[S_ADDR] = sizeof(uint32_t),
	[S_MMNAMES] = sizeof(struct pc_maint__fslot),
	[S_MMADDRS] = sizeof(struct pc_maint__fslot),
	[S_MMSTRS] = sizeof(uint32_t),
	[S_NAMES] = sizeof(struct pc_maint__fslot),
	[S_WARN] = sizeof(struct pc_maint__warn),
	[S_FRES] = sizeof(uint32_t),
};

struct sec {
	uint64_t off, n; /* offset in the image, elements */
};

struct head {
	char magic[8];
	uint32_t version;
	uint32_t order;
	uint64_t layout;
	uint64_t srcid;
	char pcre2[32];
	uint64_t text_len, text_hash;
	uint64_t mm_len, mm_hash; /* mm_len UINT64_MAX: no .mailmap */
	uint64_t total; /* the image's bytes, this header included */
	uint64_t sum; /* pc_maint__hash64() of the bytes after the header */
	char sha[72], mmsha[72];
	uint64_t bucket_mask;
	uint32_t header;
	uint32_t tag_doc[26];
	uint8_t prefix_lens[32];
	struct sec sec[NSEC];
};

/* What the tables look like to this build: any change is a new layout. */
static uint64_t layout(void)
{
	uint64_t v[NSEC + 3];
	size_t i;

	for (i = 0; i < NSEC; i++)
		v[i] = sec_elem[i];
	v[NSEC] = sizeof(struct head);
	v[NSEC + 1] = sizeof(struct pc_maint__tok);
	v[NSEC + 2] = NSEC;
	return pc_maint__hash64(v, sizeof(v), 0);
}

static void pcre2_version(char out[32])
{
	memset(out, 0, 32);
	if (pcre2_config(PCRE2_CONFIG_VERSION, NULL) <= 32)
		pcre2_config(PCRE2_CONFIG_VERSION, out);
}

/* ---- laying out ------------------------------------------------------------ */

/*
 * An image being laid out: the sections are written in place into img,
 * each into the room counted for it beforehand (cap elements at off);
 * the strings, whose size is known last, go into str and then at the
 * end of img. Nothing is copied twice: on a large MAINTAINERS the pages
 * first touched are much of what loading costs.
 */
struct lay {
	unsigned char *img; /* owned */
	uint64_t off[NSEC], cap[NSEC], n[NSEC];
	char *str; /* the strings: img + off[S_STR], n[S_STR] bytes used */
	uint32_t *seen; /* open addressing: offset + 1 of a string added */
	size_t seen_cap, n_seen;
};

static size_t seen_slot(const struct lay *l, const char *s, uint64_t h)
{
	size_t i = (size_t)h & (l->seen_cap - 1);

	while (l->seen[i] && strcmp(l->str + l->seen[i] - 1, s))
		i = (i + 1) & (l->seen_cap - 1);
	return i;
}

/* A string's offset, the string added once (many values repeat: lists,
 * statuses, addresses). */
static uint32_t add_str(struct lay *l, const char *s)
{
	size_t n, i, off;
	uint64_t h;

	if (!s)
		return PC_MAINT__NOSTR;
	n = strlen(s);
	h = pc_maint__hash64(s, n, 0);
	if ((l->n_seen + 1) * 2 > l->seen_cap) {
		uint32_t *old = l->seen;
		size_t oldcap = l->seen_cap;

		l->seen_cap = oldcap ? oldcap * 2 : 4096;
		l->seen = xcalloc(l->seen_cap, sizeof(*l->seen));
		for (i = 0; i < oldcap; i++) {
			const char *k;

			if (!old[i])
				continue;
			k = l->str + old[i] - 1;
			l->seen[seen_slot(l, k,
					  pc_maint__hash64(k, strlen(k), 0))] =
				old[i];
		}
		free(old);
	}
	i = seen_slot(l, s, h);
	if (l->seen[i])
		return l->seen[i] - 1;
	off = l->n[S_STR];
	assert(off + n + 1 <= l->cap[S_STR]);
	memcpy(l->str + off, s, n + 1);
	l->n[S_STR] += n + 1;
	l->seen[i] = (uint32_t)off + 1;
	l->n_seen++;
	return (uint32_t)off;
}

static void add(struct lay *l, int sec, const void *p, size_t n)
{
	assert(l->n[sec] + n <= l->cap[sec]);
	if (n)
		memcpy(l->img + l->off[sec] + l->n[sec] * sec_elem[sec], p,
		       n * sec_elem[sec]);
	l->n[sec] += n;
}

static void add_u32(struct lay *l, int sec, uint32_t v)
{
	add(l, sec, &v, 1);
}

struct lit_entry {
	uint32_t bigram, pat, lit; /* lit: index in S_LIT */
};

static int cmp_lit_entry(const void *a, const void *b)
{
	const struct lit_entry *x = a, *y = b;

	if (x->bigram != y->bigram)
		return x->bigram < y->bigram ? -1 : 1;
	return x->pat < y->pat ? -1 : x->pat > y->pat;
}

/* The literals of pattern pat, into S_LIT and the index e. */
static void add_lits(struct lay *l, struct lit_entry **e, size_t *ne,
		     size_t *alloc, const struct pc_maint__blit *lits,
		     size_t n_lits, uint32_t pat)
{
	size_t i, j;

	for (i = 0; i < n_lits; i++) {
		struct pc_maint__lit il = {
			.s = add_str(l, lits[i].s),
			.len = (uint32_t)lits[i].len,
			.icase = lits[i].icase,
		};
		uint32_t bg[4];
		size_t nb = pc_maint__lit_bigrams(lits[i].s, lits[i].icase, bg);

		for (j = 0; j < nb; j++) {
			PC_ALLOC_GROW(*e, *ne + 1, *alloc);
			(*e)[*ne].bigram = bg[j];
			(*e)[*ne].pat = pat;
			(*e)[(*ne)++].lit = (uint32_t)l->n[S_LIT];
		}
		add(l, S_LIT, &il, 1);
	}
}

/* A literal index sorted by bigram, with its bitmap, ranks and ranges. */
static void add_index(struct lay *l, struct lit_entry *e, size_t ne, int sidx,
		      int sbits, int srank, int sstart)
{
	const struct pc_maint__lit *lits =
		(const void *)(l->img + l->off[S_LIT]); /* complete by now */
	uint64_t bits[1024] = { 0 };
	uint16_t rank[1024], r = 0;
	size_t i;

	if (ne)
		qsort(e, ne, sizeof(*e), cmp_lit_entry);
	for (i = 0; i < ne; i++) {
		struct pc_maint__nlit nl = {
			.bigram = e[i].bigram,
			.pat = e[i].pat,
			.s = lits[e[i].lit].s,
			.len = lits[e[i].lit].len,
			.icase = lits[e[i].lit].icase,
		};

		add(l, sidx, &nl, 1);
		if (i && e[i - 1].bigram == e[i].bigram)
			continue;
		bits[e[i].bigram >> 6] |= 1ull << (e[i].bigram & 63);
		add_u32(l, sstart, (uint32_t)i);
	}
	add_u32(l, sstart, (uint32_t)ne);
	for (i = 0; i < 1024; i++) {
		rank[i] = r;
		r = (uint16_t)(r + __builtin_popcountll(bits[i]));
	}
	add(l, sbits, bits, 1024);
	add(l, srank, rank, 1024);
}

/* The cases a byte matches in: 1, or 2 for a letter without case. */
static size_t cases(unsigned char c, int icase, unsigned char v[2])
{
	v[0] = c;
	if (!icase || !pc_isalpha(c))
		return 1;
	v[0] = (unsigned char)pc_tolower(c);
	v[1] = (unsigned char)(v[0] - 32);
	return 2;
}

/* The K: literals' trigram bitmap (see pc_maint__tri()). */
static void add_trigrams(struct lay *l, const struct pc_maint__build *b)
{
	uint64_t bits[1024] = { 0 };
	size_t k, j, x, y, z, n0, n1, n2;

	for (k = 0; k < b->n_kpats; k++)
		for (j = 0; j < b->kpats[k].n_lits; j++) {
			const struct pc_maint__blit *lt = &b->kpats[k].lits[j];
			const unsigned char *s = (const void *)lt->s;
			unsigned char v0[2], v1[2], v2[256];

			n0 = cases(s[0], lt->icase, v0);
			n1 = cases(s[1], lt->icase, v1);
			if (lt->len >= 3) {
				n2 = cases(s[2], lt->icase, v2);
			} else {
				for (n2 = 0; n2 < 256; n2++)
					v2[n2] = (unsigned char)n2;
			}
			for (x = 0; x < n0; x++)
				for (y = 0; y < n1; y++)
					for (z = 0; z < n2; z++) {
						uint32_t t = pc_maint__tri(
							v0[x], v1[y], v2[z]);

						bits[t >> 6] |= 1ull
								<< (t & 63);
					}
		}
	add(l, S_KTRI, bits, 1024);
}

struct flat {
	struct lay *l;
	struct pc_maint__fslot *v;
	size_t cap;
};

static void flat_put(const char *key, uint64_t hash, size_t val, void *arg)
{
	struct flat *f = arg;
	size_t i = (size_t)hash & (f->cap - 1);

	while (f->v[i].key != PC_MAINT__NOSTR)
		i = (i + 1) & (f->cap - 1);
	f->v[i].hash = hash;
	f->v[i].key = add_str(f->l, key);
	f->v[i].val = (uint32_t)val;
}

/* A string map as an image table of the same size. */
static void add_map(struct lay *l, int sec, const struct pc_maint__smap *s)
{
	struct flat f = { .l = l, .cap = pc_maint__smap_cap(s) };
	size_t i;

	f.v = xcalloc(f.cap + 1, sizeof(*f.v));
	for (i = 0; i < f.cap; i++)
		f.v[i].key = PC_MAINT__NOSTR;
	pc_maint__smap_each(s, flat_put, &f);
	add(l, sec, f.v, f.cap);
	free(f.v);
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t len1(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

static void key_len(const char *key, uint64_t hash, size_t val, void *arg)
{
	(void)hash;
	(void)val;
	*(size_t *)arg += strlen(key) + 1;
}

/* The most the strings can take (before repeats are dropped). */
static size_t str_room(const struct pc_maint__build *b)
{
	size_t n = b->pool.len + 1, i, j;

	for (i = 0; i < b->n_npats; i++) {
		n += len1(b->npats[i].src);
		for (j = 0; j < b->npats[i].n_lits; j++)
			n += b->npats[i].lits[j].len + 1;
	}
	for (i = 0; i < b->n_kpats; i++) {
		n += len1(b->kpats[i].src);
		for (j = 0; j < b->kpats[i].n_lits; j++)
			n += b->kpats[i].lits[j].len + 1;
	}
	for (i = 0; i < b->n_entries; i++)
		n += len1(b->ents[i].name) + len1(b->ents[i].role) +
		     len1(b->ents[i].subsys);
	if (b->n_fpats)
		n += len1(b->pool.buf + b->fpats[0].re) + 3; /* name_dir */
	for (i = 0; i < b->n_tags; i++) {
		n += len1(b->tags[i].value) + len1(b->tagx[i].list);
		for (j = 0; j < b->tagx[i].n_addrs; j++)
			n += len1(b->tagx[i].addrs[j]);
	}
	for (i = 0; i < b->mailmap.n_strs; i++)
		n += len1(b->mailmap.strs[i]);
	pc_maint__smap_each(&b->mailmap.names, key_len, &n);
	pc_maint__smap_each(&b->mailmap.addresses, key_len, &n);
	pc_maint__smap_each(&b->names, key_len, &n);
	for (i = 0; i < b->n_warns; i++)
		n += len1(b->warns[i].msg);
	n += len1(b->header);
	for (i = 0; i < 26; i++)
		n += len1(b->tag_doc[i]);
	return n;
}

/* The room of each section (at most: four bigrams a literal, one start
 * a bigram; the strings' before repeats go), and where they go: the
 * strings last, so that the room they do not use is never touched. */
static size_t plan(struct lay *l, const struct pc_maint__build *b)
{
	uint64_t nlits = 0, klits = 0, addrs = 0;
	size_t i, pos;

	for (i = 0; i < b->n_npats; i++)
		if (b->npats[i].ok)
			nlits += b->npats[i].n_lits;
	for (i = 0; i < b->n_kpats; i++)
		klits += b->kpats[i].n_lits;
	for (i = 0; i < b->n_tags; i++)
		addrs += b->tagx[i].n_addrs;
	l->cap[S_FPAT] = l->cap[S_PIDX] = b->n_fpats;
	l->cap[S_BUCKET] = b->bucket_mask + 1;
	l->cap[S_FRES] = b->n_fre;
	l->cap[S_LIT] = nlits + klits;
	l->cap[S_NPAT] = l->cap[S_NALWAYS] = b->n_npats;
	l->cap[S_NIDX] = 4 * nlits;
	l->cap[S_NSTART] = 4 * nlits + 1;
	l->cap[S_KPAT] = b->n_kpats;
	l->cap[S_KIDX] = 4 * klits;
	l->cap[S_KSTART] = 4 * klits + 1;
	l->cap[S_NBITS] = l->cap[S_NRANK] = l->cap[S_KBITS] = l->cap[S_KRANK] =
		l->cap[S_KTRI] = 1024;
	l->cap[S_ENT] = b->n_entries;
	l->cap[S_TAG] = b->n_tags;
	l->cap[S_ADDR] = addrs;
	l->cap[S_MMNAMES] = pc_maint__smap_cap(&b->mailmap.names);
	l->cap[S_MMADDRS] = pc_maint__smap_cap(&b->mailmap.addresses);
	l->cap[S_MMSTRS] = b->mailmap.n_strs;
	l->cap[S_NAMES] = pc_maint__smap_cap(&b->names);
	l->cap[S_WARN] = b->n_warns;
	pos = align8(sizeof(struct head));
	for (i = 0; i < NSEC; i++) {
		if (i == S_STR)
			continue;
		l->off[i] = pos;
		pos = align8(pos + l->cap[i] * sec_elem[i]);
	}
	l->off[S_STR] = pos;
	l->cap[S_STR] = str_room(b);
	return align8(pos + l->cap[S_STR]);
}

void pc_maint__image(unsigned char **out, size_t *len,
		     const struct pc_maint__build *b)
{
	struct lay l;
	struct head h;
	struct lit_entry *e = NULL;
	size_t ne = 0, ae = 0, i, j, pos, fre = 0;
	uint32_t kbase = PC_MAINT__RID_FIXED + (uint32_t)b->n_npats;
	uint32_t fbase = kbase + 3 * (uint32_t)b->n_kpats;
	unsigned char *img;

	memset(&l, 0, sizeof(l));
	memset(&h, 0, sizeof(h));
	pos = plan(&l, b);
	l.img = xcalloc(1, pos);
	l.str = (char *)l.img + l.off[S_STR];
	/* The pool first: its offsets are string offsets. */
	if (b->pool.len) /* an empty MAINTAINERS has no pool at all */
		memcpy(l.str, b->pool.buf, b->pool.len);
	l.n[S_STR] = b->pool.len;

	for (i = 0; i < b->n_fpats; i++) {
		struct pc_maint__fpat fp = b->fpats[i];

		if (fp.flags & PC_MAINT__FP_RE) {
			fp.rid = fbase + 2 * fp.rid;
			add_u32(&l, S_FRES, (uint32_t)i);
			fre++;
		}
		add(&l, S_FPAT, &fp, 1);
	}
	assert(fre == b->n_fre);
	add(&l, S_BUCKET, b->buckets, b->bucket_mask + 1);
	add(&l, S_PIDX, b->pidx, b->n_fpats);

	/* N: the lines, their literals and the index of them. */
	for (i = 0; i < b->n_npats; i++) {
		const struct pc_maint__bnpat *np = &b->npats[i];
		struct pc_maint__npat in = {
			.entry = np->entry,
			.ord = np->ord,
			.src = add_str(&l, np->src),
			.rid = PC_MAINT__RID_FIXED + (uint32_t)i,
			.lit0 = (uint32_t)l.n[S_LIT],
			.ok = np->ok != 0,
		};

		if (np->ok && np->n_lits) {
			add_lits(&l, &e, &ne, &ae, np->lits, np->n_lits,
				 (uint32_t)i);
			in.n_lits = (uint32_t)np->n_lits;
		} else if (np->ok) {
			add_u32(&l, S_NALWAYS, (uint32_t)i);
		}
		add(&l, S_NPAT, &in, 1);
	}
	add_index(&l, e, ne, S_NIDX, S_NBITS, S_NRANK, S_NSTART);
	ne = 0;

	/* K: the same. */
	for (i = 0; i < b->n_kpats; i++) {
		const struct pc_maint__bkpat *kp = &b->kpats[i];
		struct pc_maint__kpat ik = {
			.tv = kp->tv,
			.entry = kp->entry,
			.src = add_str(&l, kp->src),
			.rid = kbase + 3 * (uint32_t)i,
			.lit0 = (uint32_t)l.n[S_LIT],
			.n_lits = (uint32_t)kp->n_lits,
			.multi = kp->multi != 0,
		};

		add_lits(&l, &e, &ne, &ae, kp->lits, kp->n_lits, (uint32_t)i);
		add(&l, S_KPAT, &ik, 1);
	}
	add_index(&l, e, ne, S_KIDX, S_KBITS, S_KRANK, S_KSTART);
	free(e);
	add_trigrams(&l, b);

	/* Entries and their tags. */
	for (i = 0; i < b->n_entries; i++) {
		const struct pc_maint__bent *x = &b->ents[i];
		struct pc_maint__ent ie = {
			.tv0 = x->tv0,
			.name = add_str(&l, x->name),
			.line = x->line,
			.role = add_str(&l, x->role),
			.subsys = add_str(&l, x->subsys),
			.tag0 = (uint32_t)x->tag0,
			.n_tags = (uint32_t)x->n_tags,
			.first_is_name = x->first_is_name,
			.name_dir = PC_MAINT__NOSTR,
		};

		if (i == 0 && x->first_is_name && b->n_fpats &&
		    (b->tags[0].tag == 'F' || b->tags[0].tag == 'X') &&
		    b->fpats[0].maybe_dir) {
			struct pc_buf nd = PC_BUF_INIT;

			pc_buf_addf(&nd, "%c:%s/", b->tags[0].tag,
				    b->pool.buf + b->fpats[0].re);
			ie.name_dir = add_str(&l, nd.buf);
			pc_buf_release(&nd);
		}
		add(&l, S_ENT, &ie, 1);
	}
	for (i = 0; i < b->n_tags; i++) {
		const struct pc_maint_tag *t = &b->tags[i];
		const struct pc_maint__tagx *tx = &b->tagx[i];
		struct pc_maint__tag it = {
			.value = add_str(&l, t->value),
			.line = t->line,
			.addr0 = (uint32_t)l.n[S_ADDR],
			.n_addrs = (uint32_t)tx->n_addrs,
			.list = add_str(&l, tx->list),
			.tag = (uint8_t)t->tag,
			.list_sub = tx->list_sub,
			.list_mod = tx->list_mod,
		};

		for (j = 0; j < tx->n_addrs; j++)
			add_u32(&l, S_ADDR, add_str(&l, tx->addrs[j]));
		add(&l, S_TAG, &it, 1);
	}

	/* .mailmap, the names, the warnings. */
	add_map(&l, S_MMNAMES, &b->mailmap.names);
	add_map(&l, S_MMADDRS, &b->mailmap.addresses);
	for (i = 0; i < b->mailmap.n_strs; i++)
		add_u32(&l, S_MMSTRS, add_str(&l, b->mailmap.strs[i]));
	add_map(&l, S_NAMES, &b->names);
	for (i = 0; i < b->n_warns; i++) {
		struct pc_maint__warn w = {
			.msg = add_str(&l, b->warns[i].msg),
			.fpat = b->warns[i].fpat,
			.cond = b->warns[i].cond,
		};

		add(&l, S_WARN, &w, 1);
	}
	h.header = add_str(&l, b->header);
	for (i = 0; i < 26; i++)
		h.tag_doc[i] = add_str(&l, b->tag_doc[i]);

	/* The header, then the sections. */
	memcpy(h.magic, MAGIC, 8);
	h.version = VERSION;
	h.order = ORDER;
	h.layout = layout();
	h.srcid = PC_MAINT_SRCID;
	pcre2_version(h.pcre2);
	memcpy(h.sha, b->sha, sizeof(b->sha));
	memcpy(h.mmsha, b->mmsha, sizeof(b->mmsha));
	h.bucket_mask = b->bucket_mask;
	memcpy(h.prefix_lens, b->prefix_lens, sizeof(h.prefix_lens));
	/* The image ends with the strings used (the rest of the room is
	 * left, untouched); then the header. */
	img = l.img;
	h.total = align8(l.off[S_STR] + l.n[S_STR]);
	for (i = 0; i < NSEC; i++) {
		h.sec[i].off = l.off[i];
		h.sec[i].n = l.n[i];
	}
	h.sum = pc_maint__hash64(img + sizeof(h), h.total - sizeof(h), 0);
	memcpy(img, &h, sizeof(h));
	free(l.seen);
	*out = img;
	*len = h.total;
}

/* ---- opening ----------------------------------------------------------------- */

static uint64_t text_len_of(const char *p, size_t n)
{
	return p ? (uint64_t)n : UINT64_MAX;
}

int pc_maint__image_fits(const unsigned char *img, size_t len, const char *text,
			 size_t text_len, const char *mailmap,
			 size_t mailmap_len)
{
	struct head h;

	if (len < sizeof(h))
		return 0;
	memcpy(&h, img, sizeof(h));
	return h.text_len == text_len &&
	       h.mm_len == text_len_of(mailmap, mailmap_len) &&
	       h.text_hash == pc_maint__hash64(text, text_len, 0) &&
	       (!mailmap ||
		h.mm_hash == pc_maint__hash64(mailmap, mailmap_len, 0));
}

/* Sets the key of an image just built from (text, mailmap). */
static void image_key(unsigned char *img, const char *text, size_t text_len,
		      const char *mailmap, size_t mailmap_len)
{
	struct head h;

	memcpy(&h, img, sizeof(h));
	h.text_len = text_len;
	h.text_hash = pc_maint__hash64(text, text_len, 0);
	h.mm_len = text_len_of(mailmap, mailmap_len);
	h.mm_hash = mailmap ? pc_maint__hash64(mailmap, mailmap_len, 0) : 0;
	memcpy(img, &h, sizeof(h));
}

/* Whether the header and sections of (img, len) are sound. */
static int image_sound(const unsigned char *img, size_t len)
{
	struct head h;
	char v[32];
	size_t i;

	if (len < sizeof(h))
		return 0;
	memcpy(&h, img, sizeof(h));
	pcre2_version(v);
	if (memcmp(h.magic, MAGIC, 8) || h.version != VERSION ||
	    h.order != ORDER || h.layout != layout() ||
	    h.srcid != PC_MAINT_SRCID || memcmp(h.pcre2, v, sizeof(v)) ||
	    h.total != len || !memchr(h.sha, '\0', sizeof(h.sha)) ||
	    !memchr(h.mmsha, '\0', sizeof(h.mmsha)))
		return 0;
	for (i = 0; i < NSEC; i++) {
		uint64_t off = h.sec[i].off, n = h.sec[i].n;

		if (off % 8 || off < sizeof(h) || off > len ||
		    n > (len - off) / sec_elem[i])
			return 0;
	}
	/* Strings are read up to their NUL: the area must end with one. */
	if (!h.sec[S_STR].n || img[h.sec[S_STR].off + h.sec[S_STR].n - 1])
		return 0;
	if (h.sec[S_BUCKET].n != h.bucket_mask + 1 ||
	    (h.bucket_mask & (h.bucket_mask + 1)) || h.sec[S_NBITS].n != 1024 ||
	    h.sec[S_KBITS].n != 1024 || h.sec[S_NRANK].n != 1024 ||
	    h.sec[S_KRANK].n != 1024 || h.sec[S_KTRI].n != 1024)
		return 0;
	return h.sum == pc_maint__hash64(img + sizeof(h), len - sizeof(h), 0);
}

static const void *at(const unsigned char *img, const struct head *h, int sec,
		      size_t *n)
{
	if (n)
		*n = (size_t)h->sec[sec].n;
	return img + h->sec[sec].off;
}

/* A map of cap slots (a power of two, or none). */
static void fmap_at(struct pc_maint__fmap *f, const struct pc_maint *m,
		    const unsigned char *img, const struct head *h, int sec)
{
	size_t n;

	f->v = at(img, h, sec, &n);
	f->cap = n & (n - 1) ? 0 : n;
	f->str = m->str;
}

/* get_subsystem_name() of a name made at run time. */
static char *subsys_of(const char *name)
{
	size_t n = strlen(name);

	if (n <= 50)
		return xstrdup(name);
	n = 47;
	while (n && pc_isspace((unsigned char)name[n - 1]))
		n--;
	return xasprintf("%.*s...", (int)n, name);
}

/* An array of zeroes whose untouched pages cost nothing. */
static void *zeroes(size_t size)
{
	void *p;

	if (size < 65536)
		return xcalloc(1, size);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		abort(); /* out of memory, as xcalloc() */
	return p;
}

static void zeroes_free(void *p, size_t size)
{
	if (size < 65536)
		free(p);
	else if (p)
		munmap(p, size);
}

int pc_maint__open(struct pc_maint **out, const unsigned char *img, size_t len,
		   int held, int check, const char *tree, struct pc_err *err)
{
	struct pc_maint *m;
	struct head h;
	size_t i;
	int rc = 0;

	if (check && !image_sound(img, len))
		return pc_err_set(err, PC_EPARSE, "not a sound image");
	memcpy(&h, img, sizeof(h));
	m = xcalloc(1, sizeof(*m));
	m->img = img;
	m->img_len = len;
	m->held = held;
	m->treefd = -1;
	pthread_mutex_init(&m->lock, NULL);
	m->str = at(img, &h, S_STR, &m->str_len);
	m->fpats = at(img, &h, S_FPAT, &m->n_fpats);
	m->buckets = at(img, &h, S_BUCKET, NULL);
	m->bucket_mask = (size_t)h.bucket_mask;
	m->pidx = at(img, &h, S_PIDX, NULL);
	memcpy(m->prefix_lens, h.prefix_lens, sizeof(m->prefix_lens));
	m->lits = at(img, &h, S_LIT, NULL);
	m->npats = at(img, &h, S_NPAT, &m->n_npats);
	m->nidx = at(img, &h, S_NIDX, &m->n_nidx);
	m->nbigram.bits = at(img, &h, S_NBITS, NULL);
	m->nbigram.rank = at(img, &h, S_NRANK, NULL);
	m->nbigram.start = at(img, &h, S_NSTART, NULL);
	m->nalways = at(img, &h, S_NALWAYS, &m->n_nalways);
	m->kpats = at(img, &h, S_KPAT, &m->n_kpats);
	m->kidx = at(img, &h, S_KIDX, &m->n_kidx);
	m->kbigram.bits = at(img, &h, S_KBITS, NULL);
	m->kbigram.rank = at(img, &h, S_KRANK, NULL);
	m->kbigram.start = at(img, &h, S_KSTART, NULL);
	m->ktri = at(img, &h, S_KTRI, NULL);
	m->ents = at(img, &h, S_ENT, &m->n_entries);
	m->tags = at(img, &h, S_TAG, &m->n_tags);
	m->addrs = at(img, &h, S_ADDR, NULL);
	fmap_at(&m->mm_names, m, img, &h, S_MMNAMES);
	fmap_at(&m->mm_addrs, m, img, &h, S_MMADDRS);
	m->mm_strs = at(img, &h, S_MMSTRS, NULL);
	fmap_at(&m->names, m, img, &h, S_NAMES);
	m->warns = at(img, &h, S_WARN, &m->n_warns);
	m->fres = at(img, &h, S_FRES, &m->n_fres);
	m->header = pc_maint__s(m, h.header);
	for (i = 0; i < 26; i++)
		m->tag_doc[i] = pc_maint__s(m, h.tag_doc[i]);
	memcpy(m->sha, h.sha, sizeof(m->sha));
	memcpy(m->mmsha, h.mmsha, sizeof(m->mmsha));

	m->n_codes = PC_MAINT__RID_FIXED + m->n_npats + 3 * m->n_kpats +
		     2 * m->n_fres;
	m->codes = xcalloc(m->n_codes, sizeof(*m->codes));
	m->dstate = xcalloc(m->n_fpats + 1, sizeof(*m->dstate));
	m->eready = xcalloc(m->n_entries + 1, sizeof(*m->eready));
	m->entries_len = (m->n_entries + 1) * sizeof(*m->entries);
	m->entries = zeroes(m->entries_len);
	if (tree) {
		m->tree = xstrdup(tree);
		m->treefd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (m->treefd < 0) {
			rc = pc_err_errno(err, PC_EIO, "cannot open tree '%s'",
					  tree);
			goto out;
		}
	}

	/* What depends on the tree at once: the warnings of F:/X: regexes
	 * that may name a directory, the name of an entry named by one. */
	m->warnings = xcalloc(m->n_warns + 1, sizeof(*m->warnings));
	for (i = 0; i < m->n_warns; i++) {
		const struct pc_maint__warn *w = &m->warns[i];

		if (w->cond &&
		    (w->fpat >= m->n_fpats ||
		     pc_maint__fpat_dir(m, w->fpat) != (w->cond == 1)))
			continue;
		m->warnings[m->n_warnings++] = xstrdup(m->str + w->msg);
	}
	if (m->n_entries && m->ents[0].first_is_name &&
	    m->ents[0].name_dir != PC_MAINT__NOSTR) {
		m->name0 = xstrdup(m->str + (pc_maint__fpat_dir(m, 0) ?
						     m->ents[0].name_dir :
						     m->ents[0].name));
		m->subsys0 = subsys_of(m->name0);
	}
out:
	if (rc < 0) {
		m->img = NULL; /* the caller's still */
		pc_maint_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

void pc_maint_free(struct pc_maint *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n_codes; i++) {
		pcre2_code *c = atomic_load(&m->codes[i]);

		if (c && c != (pcre2_code *)(void *)m)
			pcre2_code_free(c);
	}
	free(m->codes);
	free(m->dstate);
	free(m->eready);
	zeroes_free(m->entries, m->entries_len);
	pc_maint__arena_release(&m->arena);
	for (i = 0; i < m->n_warnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	free(m->name0);
	free(m->subsys0);
	free(m->tree);
	if (m->treefd >= 0)
		close(m->treefd);
	pthread_mutex_destroy(&m->lock);
	if (m->img && m->held == PC_MAINT__HELD_MMAP)
		munmap((void *)m->img, m->img_len);
	else
		free((void *)m->img);
	free(m);
}

/* ---- lazily ---------------------------------------------------------------------- */

int pc_maint__fpat_dir(const struct pc_maint *m, uint32_t id)
{
	const struct pc_maint__fpat *fp = &m->fpats[id];
	unsigned char st;

	if (!fp->maybe_dir || m->treefd < 0)
		return 0;
	st = atomic_load_explicit(&m->dstate[id], memory_order_relaxed);
	if (!st) {
		struct stat sb;

		st = fstatat(m->treefd, m->str + fp->re, &sb, 0) == 0 &&
				     S_ISDIR(sb.st_mode) ?
			     2 :
			     1;
		atomic_store_explicit(&m->dstate[id], st, memory_order_relaxed);
	}
	return st == 2;
}

const pcre2_code *pc_maint__code(const struct pc_maint *m, uint32_t rid)
{
	/* A regex that does not compile is remembered as m itself. */
	pcre2_code *bad = (pcre2_code *)(void *)m, *c, *expected = NULL;
	uint32_t kbase = PC_MAINT__RID_FIXED + (uint32_t)m->n_npats;
	uint32_t fbase = kbase + 3 * (uint32_t)m->n_kpats;
	struct pc_buf src = PC_BUF_INIT;
	uint32_t opts = 0;
	PCRE2_SIZE off;
	int ec;

	if (rid >= m->n_codes)
		return NULL;
	c = atomic_load_explicit(&m->codes[rid], memory_order_acquire);
	if (c)
		return c == bad ? NULL : c;
	if (rid == PC_MAINT__RID_FE_FIND) {
		pc_buf_addstr(&src, PC_MAINT__FE_FIND);
	} else if (rid == PC_MAINT__RID_FE_SUB) {
		pc_buf_addstr(&src, PC_MAINT__FE_SUB);
	} else if (rid < kbase) {
		pc_buf_addstr(&src, m->str + m->npats[rid - 2].src);
		opts = PCRE2_EXTENDED;
	} else if (rid < fbase) {
		const char *v = m->str + m->kpats[(rid - kbase) / 3].src;

		opts = PCRE2_EXTENDED;
		switch ((rid - kbase) % 3) {
		case 0:
			pc_buf_addstr(&src, v);
			break;
		case 1:
			pc_maint__kdiff_src(&src, v);
			break;
		default:
			pc_buf_addstr(&src, v);
			opts |= PCRE2_MULTILINE;
			break;
		}
	} else {
		const struct pc_maint__fpat *fp =
			&m->fpats[m->fres[(rid - fbase) / 2]];

		pc_buf_addch(&src, '^');
		pc_buf_addstr(&src, m->str + fp->re);
		if ((rid - fbase) % 2)
			pc_buf_addch(&src, '/');
	}
	c = pcre2_compile((PCRE2_SPTR)src.buf, src.len, opts, &ec, &off, NULL);
	pc_buf_release(&src);
	if (!c)
		c = bad;
	if (!atomic_compare_exchange_strong_explicit(&m->codes[rid], &expected,
						     c, memory_order_acq_rel,
						     memory_order_acquire)) {
		if (c != bad)
			pcre2_code_free(c);
		c = expected;
	}
	return c == bad ? NULL : c;
}

/* ---- the cache -------------------------------------------------------------------- */

/* A file's bytes, mapped (or read when it cannot be). */
struct mapped {
	const char *p;
	size_t len;
	int mapped; /* else p is malloc'd */
};

/* Maps path: 0, 1 when it is missing (missing_ok), -1 on any error. */
static int map_file(struct mapped *f, const char *path, int missing_ok)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	void *p;

	memset(f, 0, sizeof(*f));
	if (fd < 0)
		return missing_ok && errno == ENOENT ? 1 : -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (uint64_t)st.st_size > SIZE_MAX / 2) {
		close(fd);
		return -1;
	}
	f->len = (size_t)st.st_size;
	if (!f->len) {
		f->p = "";
		close(fd);
		return 0;
	}
	p = mmap(NULL, f->len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	f->p = p;
	f->mapped = 1;
	return 0;
}

static void unmap_file(struct mapped *f)
{
	if (f->mapped)
		munmap((void *)f->p, f->len);
	memset(f, 0, sizeof(*f));
}

/* mkdir -p dir, the directories made private. */
static int mkdirs(const char *dir)
{
	char *p = xstrdup(dir), *s;
	int rc = 0;

	for (s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		if (s[-1] != '/') {
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0700) < 0 && errno != EEXIST)
				rc = -1;
			*s = c;
		}
		if (!*s)
			break;
	}
	free(p);
	return rc;
}

/* Writes (img, len) to path through a new file renamed over it; 0 or
 * -1 (nothing left behind). */
static int write_cache(const char *dir, const char *path,
		       const unsigned char *img, size_t len)
{
	char *tmp = xasprintf("%s/.maint-XXXXXX", dir);
	size_t done = 0;
	int fd, rc = -1;

	if (mkdirs(dir) < 0)
		goto out;
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	while (done < len) {
		ssize_t n = write(fd, img + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (close(fd) == 0 && done == len && rename(tmp, path) == 0)
		rc = 0;
	else
		unlink(tmp);
out:
	free(tmp);
	return rc;
}

/* The cache file of a tree: one per tree, named by its real path. */
static char *cache_path(const char *cache_dir, const char *tree_dir)
{
	char *real = realpath(tree_dir, NULL), *p;

	if (!real)
		return NULL;
	p = xasprintf("%s/maint-%016llx.img", cache_dir,
		      (unsigned long long)pc_maint__hash64(real, strlen(real),
							   0));
	free(real);
	return p;
}

/* The image in path, mapped, if it is ours and fits (text, mm). */
static int try_cache(struct pc_maint **out, const char *path,
		     const struct mapped *text, const struct mapped *mm,
		     const char *tree_dir)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	void *img;
	size_t len;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_size < (off_t)sizeof(struct head) ||
	    (uint64_t)st.st_size > SIZE_MAX / 2) {
		close(fd);
		return -1;
	}
	len = (size_t)st.st_size;
	img = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return -1;
	if (!pc_maint__image_fits(img, len, text->p, text->len, mm->p,
				  mm->len) ||
	    pc_maint__open(out, img, len, PC_MAINT__HELD_MMAP, 1, tree_dir,
			   NULL) < 0) {
		munmap(img, len);
		return -1;
	}
	return 0;
}

int pc_maint_load_cached(struct pc_maint **out, const char *tree_dir,
			 const char *cache_dir, struct pc_err *err)
{
	struct mapped text, mm;
	struct pc_maint__build b;
	char *tpath = xasprintf("%s/MAINTAINERS", tree_dir);
	char *mpath = xasprintf("%s/.mailmap", tree_dir);
	char *cpath = cache_dir && *cache_dir ?
			      cache_path(cache_dir, tree_dir) :
			      NULL;
	unsigned char *img = NULL;
	size_t ilen = 0;
	int rc, have_mm;

	memset(&b, 0, sizeof(b));
	memset(&mm, 0, sizeof(mm));
	/* Anything odd about the files: the plain load says what. */
	if (!cpath || map_file(&text, tpath, 0) < 0) {
		rc = pc_maint_load(out, tree_dir, err);
		goto out_free;
	}
	if ((have_mm = map_file(&mm, mpath, 1)) < 0) {
		unmap_file(&text);
		rc = pc_maint_load(out, tree_dir, err);
		goto out_free;
	}
	if (try_cache(out, cpath, &text, &mm, tree_dir) == 0) {
		(*out)->cache = PC_MAINT_CACHE_HIT;
		rc = 0;
		goto out;
	}
	if ((rc = pc_maint__parse(&b, text.p, text.len,
				  have_mm == 0 ? mm.p : NULL, mm.len, err)) <
	    0) {
		pc_err_prefix(err, "%s", tpath);
		goto out;
	}
	pc_maint__image(&img, &ilen, &b);
	pc_maint__build_release(&b);
	image_key(img, text.p, text.len, have_mm == 0 ? mm.p : NULL, mm.len);
	{
		int wrote = write_cache(cache_dir, cpath, img, ilen) == 0;

		if ((rc = pc_maint__open(out, img, ilen, PC_MAINT__HELD_MALLOC,
					 0, tree_dir, err)) < 0) {
			pc_err_prefix(err, "%s", tpath);
			goto out;
		}
		img = NULL;
		(*out)->cache = wrote ? PC_MAINT_CACHE_WRITTEN :
					PC_MAINT_CACHE_UNWRITTEN;
	}
out:
	pc_maint__build_release(&b);
	free(img);
	unmap_file(&text);
	unmap_file(&mm);
out_free:
	free(tpath);
	free(mpath);
	free(cpath);
	return rc;
}

int pc_maint_cache(const struct pc_maint *m)
{
	return m->cache;
}
