// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image of a loaded MAINTAINERS (see maint_internal.h): its format
 * and opening it (image.c), laying it out (image_layout.c), what is made
 * lazily from it (image_lazy.c) and the cache that keeps it between
 * processes (image_cache.c).
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
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "maint/image_format.h"
#include "maint/maint_internal.h"
#include "maint_srcid.h" /* PC_MAINT_SRCID: generated from the sources */
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Each section's element size, for the bounds checks. */
const size_t pc_maint__sec_elem[NSEC] = {
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

/* What the tables look like to this build: any change is a new layout. */
uint64_t pc_maint__image_layout(void)
{
	uint64_t v[NSEC + 3];
	size_t i;

	for (i = 0; i < NSEC; i++)
		v[i] = pc_maint__sec_elem[i];
	v[NSEC] = sizeof(struct head);
	v[NSEC + 1] = sizeof(struct pc_maint__tok);
	v[NSEC + 2] = NSEC;
	return pc_maint__hash64(v, sizeof(v), 0);
}

void pc_maint__pcre2_version(char out[32])
{
	memset(out, 0, 32);
	if (pcre2_config(PCRE2_CONFIG_VERSION, NULL) <= 32)
		pcre2_config(PCRE2_CONFIG_VERSION, out);
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
void pc_maint__image_key(unsigned char *img, const char *text, size_t text_len,
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
	pc_maint__pcre2_version(v);
	if (memcmp(h.magic, MAGIC, 8) || h.version != VERSION ||
	    h.order != ORDER || h.layout != pc_maint__image_layout() ||
	    h.srcid != PC_MAINT_SRCID || memcmp(h.pcre2, v, sizeof(v)) ||
	    h.total != len || !memchr(h.sha, '\0', sizeof(h.sha)) ||
	    !memchr(h.mmsha, '\0', sizeof(h.mmsha)))
		return 0;
	for (i = 0; i < NSEC; i++) {
		uint64_t off = h.sec[i].off, n = h.sec[i].n;

		if (off % 8 || off < sizeof(h) || off > len ||
		    n > (len - off) / pc_maint__sec_elem[i])
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
