// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Laying out a MAINTAINERS image. See image.c.
 */
#include <assert.h>

#include "maint/image_format.h"
#include "maint/maint_internal.h"
#include "maint_srcid.h" /* PC_MAINT_SRCID: generated from the sources */
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

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
		memcpy(l->img + l->off[sec] +
			       l->n[sec] * pc_maint__sec_elem[sec],
		       p, n * pc_maint__sec_elem[sec]);
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
		pos = align8(pos + l->cap[i] * pc_maint__sec_elem[i]);
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
	h.layout = pc_maint__image_layout();
	h.srcid = PC_MAINT_SRCID;
	pc_maint__pcre2_version(h.pcre2);
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
