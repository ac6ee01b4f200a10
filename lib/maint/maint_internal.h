/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of lib/maint share.
 *
 * A MAINTAINERS file is read in two steps. The parser (maintainers.c,
 * fpattern.c, email.c) reads the text into a struct pc_maint__build: the
 * entries with their tags, the F:/X:/N:/K: patterns and their index, the
 * .mailmap. image.c then lays all of it out in one block of memory, the
 * image, where nothing is a pointer: strings, tables and the index are
 * offsets from its start. Mapping and printing (match.c, lines.c) read
 * the image only, so an image written to disk by one process and mapped
 * by another (the cache, image.c) answers exactly as the one just built:
 * they are the same bytes.
 *
 * What depends on the tree or costs time and is not always needed is
 * worked out lazily, at most once, and may be from any thread: whether
 * an F:/X: value names a directory (one stat() when a path could match
 * it), the PCRE2 compilation of a regex (when it first runs), the public
 * struct pc_maint_entry of an entry (when it is first asked for), and
 * pc_maint_id().
 */
#ifndef PC_MAINT_INTERNAL_H
#define PC_MAINT_INTERNAL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "maint/maintainers.h"
#include "util/buf.h"
#include "util/hash.h"

/* ---- bump allocator: everything a pc_maint holds, freed at once -------- */

struct pc_maint__arena {
	struct pc_maint__chunk *head; /* owned list */
};

void *pc_maint__alloc(struct pc_maint__arena *a, size_t size);
char *pc_maint__strndup(struct pc_maint__arena *a, const char *p, size_t n);
void pc_maint__arena_release(struct pc_maint__arena *a);

/* ---- string map: NUL-terminated keys (copied) to size_t values --------- */

struct pc_maint__smap {
	struct pc_maint__slot *v; /* owned; NULL when empty */
	size_t n, cap;
};

void pc_maint__smap_release(struct pc_maint__smap *s);
/* Returns 1 and sets *val (may be NULL) if key is there, else 0. */
int pc_maint__smap_get(const struct pc_maint__smap *s, const char *key,
		       size_t *val);
/* Inserts or overwrites. */
void pc_maint__smap_put(struct pc_maint__smap *s, const char *key, size_t val);
/* Calls fn(key, hash, val, arg) for each pair, in slot order. */
void pc_maint__smap_each(const struct pc_maint__smap *s,
			 void (*fn)(const char *key, uint64_t hash, size_t val,
				    void *arg),
			 void *arg);
/* The slot count (a power of two, or 0) and the slot of a pair. */
size_t pc_maint__smap_cap(const struct pc_maint__smap *s);

/* ASCII lower-case copy of s into b (reset first); returns b->buf. */
const char *pc_maint__lc(struct pc_buf *b, const char *s);

/*
 * A 64-bit hash of (p, n) for the cache's keys and checksum: fast, not
 * cryptographic (it detects damage and change, not forgery).
 */
uint64_t pc_maint__hash64(const void *p, size_t n, uint64_t seed);

/* ---- e-mail helpers, after get_maintainer.pl ---------------------------- */

/*
 * parse_email(): splits "Name <addr>" (and the script's other forms) into
 * a name, quoted when it has characters other than [A-Za-z0-9_ -], and an
 * address. Both buffers are reset first.
 */
void pc_maint__parse_email(struct pc_buf *name, struct pc_buf *addr,
			   const char *s, size_t len);
/* format_email(name, address, 1): appends to out. */
void pc_maint__format_email(struct pc_buf *out, const char *name,
			    size_t name_len, const char *addr, size_t addr_len);

/* .mailmap, as read_mailmap() keeps it: two case-sensitive maps. */
struct pc_maint__mailmap {
	struct pc_maint__smap names; /* key -> index in strs */
	struct pc_maint__smap addresses;
	char **strs; /* owned, each owned */
	size_t n_strs, alloc_strs;
};

void pc_maint__mailmap_parse(struct pc_maint__mailmap *mm, const char *p,
			     size_t len);
void pc_maint__mailmap_release(struct pc_maint__mailmap *mm);

/*
 * push_email_addresses()'s split of an M:/R: value: the strings handed
 * to push_email_address() (the whole value, or the items of an RFC 822
 * list). Appends pointers into the arena to *v.
 */
struct pc_maint__rfc822; /* compiled regexes, made on first need */
void pc_maint__rfc822_free(struct pc_maint__rfc822 *r);
void pc_maint__split_addresses(struct pc_maint__rfc822 **rp,
			       struct pc_maint__arena *a, const char *value,
			       const char ***v, size_t *n);

/* The regexes of maintainers_in_file() and clean_file_emails(). */
#define PC_MAINT__FE_FIND                                                     \
	"[A-Za-z\\x80-\\xc3\"' ,.+\\-]*\\s*[,]*\\s*[(<{]?[A-Za-z0-9_.+\\-]+@" \
	"[A-Za-z0-9.\\-]+\\.[A-Za-z0-9]+[)>}]?"
#define PC_MAINT__FE_SUB "[(<{]?([A-Za-z0-9_.+\\-]+@[A-Za-z0-9.\\-]+)[)>}]?"

/*
 * maintainers_in_file() and clean_file_emails(): the addresses found in
 * (text, len) with the two regexes above, cleaned, appended to
 * r->file_emails.
 */
void pc_maint__file_emails(struct pc_maint_result *r, const pcre2_code *find,
			   const pcre2_code *sub, const char *text, size_t len);

/* ---- the image ------------------------------------------------------------ */

/*
 * Every table below is an array in the image; every uint32_t naming a
 * string is an offset in its string area (m->str), NUL-terminated, or
 * PC_MAINT__NOSTR. Fields are laid out without implicit padding, so that
 * an image's bytes depend on its content only.
 */
#define PC_MAINT__NOSTR UINT32_MAX

enum {
	PC_MAINT__LIT,
	PC_MAINT__ANY, /* '.': any byte but '\n' */
	PC_MAINT__STAR, /* ".*" */
	PC_MAINT__CLASS, /* [...]: bitmap in cls */
};

struct pc_maint__tok {
	unsigned char op;
	unsigned char c; /* LIT: the byte; CLASS: index in fpat.classes */
};

/* pc_maint__fpat.flags */
enum {
	PC_MAINT__FP_RE = 1 << 0, /* matched by PCRE2 ("^" + re) */
	PC_MAINT__FP_BAD = 1 << 1, /* the regex did not compile */
	PC_MAINT__FP_BAD_DIR = 1 << 2, /* nor did it with the '/' */
};

/*
 * An F: or X: line. A value that may name a directory of the tree (no
 * trailing '/', no '.') is stored as written; whether it does is asked
 * of the tree when a path could match it (pc_maint__fpat_dir()), and
 * then it matches as the script's value with a '/' appended.
 */
struct pc_maint__fpat {
	uint32_t entry; /* index of the entry */
	uint32_t ord; /* position of the tag in the entry */
	uint32_t re; /* string: the converted pattern, no '/' added */
	uint32_t toks; /* string: ntoks tokens, then a '/' token */
	uint32_t classes; /* string: the bitmaps of [...], 32 bytes each */
	uint32_t ntoks; /* tokens of re (0 with PC_MAINT__FP_RE) */
	uint32_t prefix_len; /* literal tokens at the start of re */
	uint32_t slashes; /* '/' in re */
	int32_t depth; /* the script's $value_pd (the same with a '/') */
	uint32_t rid; /* with PC_MAINT__FP_RE: its regex, an index in codes */
	uint8_t kind; /* 'F' or 'X' */
	uint8_t dir; /* re ends with '/' */
	uint8_t maybe_dir; /* re may name a directory of the tree */
	uint8_t flags;
};

/* One literal prefix of the F:/X: index and the patterns that share it. */
struct pc_maint__bucket {
	uint64_t hash;
	uint32_t key; /* string, or PC_MAINT__NOSTR for a free slot */
	uint32_t len;
	uint32_t first, count; /* range in m->pidx */
};

/*
 * A literal a regex cannot match without: every match contains one of
 * those of its line (one per top-level alternative).
 */
struct pc_maint__lit {
	uint32_t s; /* string */
	uint32_t len;
	uint32_t icase; /* matched without ASCII case */
};

/* Two bytes as one number, the way the indexes read them: one 16-bit
 * load in the machine's byte order (the image records that order). */
static inline uint32_t pc_maint__load2(const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

/* An N: line. */
struct pc_maint__npat {
	uint32_t entry, ord;
	uint32_t src; /* string: the value */
	uint32_t rid; /* index in codes */
	uint32_t lit0, n_lits; /* range in m->lits; none: always run it */
	uint32_t ok; /* it compiled (else it never matches) */
};

/* A literal in an index by its first two bytes (N: or K:). */
struct pc_maint__nlit {
	uint32_t bigram; /* the first two bytes, as load2() reads them */
	uint32_t pat; /* the npat or kpat */
	uint32_t s; /* string */
	uint32_t len;
	uint32_t icase;
};

/*
 * Literals by their first two bytes: a bitmap of the bigrams present and
 * the rank of each of its words, so that the range of a bigram's
 * literals in an index sorted by bigram is start[r] to start[r + 1] for
 * the r-th bigram present: O(1).
 */
struct pc_maint__bigrams {
	const uint64_t *bits; /* 1024 words */
	const uint16_t *rank; /* 1024: set bits in the words before */
	const uint32_t *start; /* one per bigram present, and the end */
};

/* The range [*first, return) of the literals with bigram bg. */
static inline size_t pc_maint__bigram_range(const struct pc_maint__bigrams *b,
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

/* The bigrams a literal s can start with: 1, or up to 4 without case. */
size_t pc_maint__lit_bigrams(const char *s, int icase, uint32_t bg[4]);

/*
 * The K: scan's second filter: a bitmap of the first three bytes of the
 * literals (every case of them without case; every third byte after a
 * literal of two), by this 16-bit hash.
 */
static inline uint32_t pc_maint__tri(unsigned char a, unsigned char b,
				     unsigned char c)
{
	return ((uint32_t)a * 0x9E37u ^ (uint32_t)b * 0x85EBu ^
		(uint32_t)c * 0xC2B3u) &
	       0xffff;
}

/* A K: line, in the script's order. */
struct pc_maint__kpat {
	uint64_t tv; /* the script's index of the line in @typevalue */
	uint32_t entry;
	uint32_t src; /* string: the value */
	uint32_t rid; /* index in codes: the regex, then "^[+-].*" . regex,
		       * then the /m form (when multi) */
	uint32_t lit0, n_lits; /* range in m->lits */
	/* Without literals: whether a /m form of the regex matches the
	 * whole text when the regex matches one of its lines (not when it
	 * looks at the ends of the subject, looks around...). */
	uint32_t multi;
};

/* An entry: what the public struct pc_maint_entry is made from. */
struct pc_maint__ent {
	uint64_t tv0; /* the script's @typevalue index of the first tag */
	uint32_t name; /* string */
	uint32_t line;
	uint32_t role; /* string */
	uint32_t subsys; /* get_subsystem_name(): the name, cut to 50 */
	uint32_t tag0, n_tags; /* range in m->tags */
	/* The script's section starts at a tag line (a tag on the first
	 * line of MAINTAINERS): that tag matches but adds no address, and
	 * names the entry. When that tag is an F:/X: line that may name a
	 * directory, name_dir is its name as one (with the '/'). */
	uint32_t first_is_name;
	uint32_t name_dir; /* string, or PC_MAINT__NOSTR */
};

/* A tag line, with what an M:/R:/L: tag gives the output. */
struct pc_maint__tag {
	uint32_t value; /* string */
	uint32_t line;
	uint32_t addr0, n_addrs; /* M:/R: in m->addrs, push_email_address()'s
				  * strings */
	uint32_t list; /* L: the address (string), or PC_MAINT__NOSTR */
	uint8_t tag;
	uint8_t list_sub; /* L: subscribers-only */
	uint8_t list_mod; /* L: moderated */
	uint8_t pad;
};

/* A string map in the image: an open-addressing table of
 * pc_maint__hash_str() hashes, probed as pc_maint__smap is. */
struct pc_maint__fslot {
	uint64_t hash;
	uint32_t key; /* string, or PC_MAINT__NOSTR for a free slot */
	uint32_t val;
};

struct pc_maint__fmap {
	const struct pc_maint__fslot *v;
	size_t cap; /* a power of two, or 0 */
	const char *str; /* the strings keys point into */
};

/* Returns 1 and sets *val (may be NULL) if key is there, else 0. */
int pc_maint__fmap_get(const struct pc_maint__fmap *f, const char *key,
		       size_t *val);
/* The hash both maps use. */
uint64_t pc_maint__hash_str(const char *s);

/* A load warning; some depend on whether a pattern names a directory. */
struct pc_maint__warn {
	uint32_t msg; /* string */
	uint32_t fpat; /* with cond */
	uint32_t cond; /* 0: always; 1: if fpat is a directory; 2: if not */
};

/* ---- a loaded MAINTAINERS --------------------------------------------- */

/* How the image's memory is held. */
enum {
	PC_MAINT__HELD_MALLOC, /* built here: freed */
	PC_MAINT__HELD_MMAP, /* the cache file: unmapped */
};

struct pc_maint {
	/* The image, and views into it (all borrowed from it). */
	const unsigned char *img; /* owned: see held */
	size_t img_len;
	int held;
	const char *str;
	size_t str_len;
	const struct pc_maint__fpat *fpats;
	size_t n_fpats;
	const struct pc_maint__bucket *buckets; /* hash table */
	size_t bucket_mask; /* table size - 1 */
	const uint32_t *pidx; /* fpats ids grouped by literal prefix */
	/* Bitmap of bucket key lengths; keys are cut at 255 bytes. */
	uint8_t prefix_lens[32];
	const struct pc_maint__lit *lits;
	const struct pc_maint__npat *npats;
	size_t n_npats;
	const struct pc_maint__nlit *nidx; /* N: literals by two bytes */
	size_t n_nidx;
	struct pc_maint__bigrams nbigram;
	const uint32_t *nalways; /* N: without a literal */
	size_t n_nalways;
	const struct pc_maint__kpat *kpats;
	size_t n_kpats;
	const struct pc_maint__nlit *kidx; /* K: literals by two bytes */
	size_t n_kidx;
	struct pc_maint__bigrams kbigram;
	const uint64_t *ktri; /* 1024 words: pc_maint__tri() of K: literals */
	const struct pc_maint__ent *ents;
	size_t n_entries;
	const struct pc_maint__tag *tags;
	size_t n_tags;
	const uint32_t *addrs; /* strings */
	struct pc_maint__fmap mm_names, mm_addrs; /* .mailmap: key -> index
						   * in mm_strs */
	const uint32_t *mm_strs; /* strings */
	struct pc_maint__fmap names; /* lower-case entry name -> entry */
	const struct pc_maint__warn *warns;
	size_t n_warns;
	const uint32_t *fres; /* per F:/X: regex, its fpat */
	size_t n_fres;
	const char *header;
	const char *tag_doc[26];
	char sha[2 * PC_SHA256_LEN + 1];
	char mmsha[2 * PC_SHA256_LEN + 1]; /* of .mailmap, or "-" */

	/* The tree, for directories and the files mapping reads. */
	char *tree; /* owned, or NULL */
	int treefd; /* owned, or -1 */
	int cache; /* enum pc_maint_cache */

	/* Worked out lazily (see the top of this file). */
	size_t n_codes;
	_Atomic(pcre2_code *) *codes; /* owned, each owned */
	_Atomic unsigned char *dstate; /* owned: per fpat, 0 unknown, 1 not
					* a directory, 2 a directory */
	pthread_mutex_t lock; /* for what follows */
	struct pc_maint_entry *entries; /* owned (mmap), filled per entry */
	size_t entries_len;
	_Atomic unsigned char *eready; /* owned: per entry, filled */
	struct pc_maint__arena arena; /* the entries' arrays */
	atomic_int id_ready;
	char id[2 * PC_SHA256_LEN + 1];
	char **warnings; /* owned, each owned: made at load */
	size_t n_warnings;
	/* Entry 0 when MAINTAINERS starts with an F:/X: tag that may name
	 * a directory: its name and subsystem name once that is known. */
	char *name0, *subsys0; /* owned, or NULL */
};

/* A string of the image; NULL for PC_MAINT__NOSTR. */
static inline const char *pc_maint__s(const struct pc_maint *m, uint32_t off)
{
	return off == PC_MAINT__NOSTR ? NULL : m->str + off;
}

/* get_subsystem_name() of entry i. */
static inline const char *pc_maint__subsys(const struct pc_maint *m, size_t i)
{
	return i == 0 && m->subsys0 ? m->subsys0 : m->str + m->ents[i].subsys;
}

/*
 * Regex ids: two fixed ones, then one per N: line (npat i is FIXED + i),
 * three per K: line (plain, diff, multi), two per F:/X: regex (as
 * written, and with the '/' of a directory); m->fres gives the fpat of
 * each F:/X: regex.
 */
enum {
	PC_MAINT__RID_FE_FIND, /* maintainers_in_file() */
	PC_MAINT__RID_FE_SUB,
	PC_MAINT__RID_FIXED /* how many */
};

/* The compiled regex rid (first use compiles it); NULL if it does not
 * compile. */
const pcre2_code *pc_maint__code(const struct pc_maint *m, uint32_t rid);

/* Whether F:/X: line id names a directory of the tree (asked once). */
int pc_maint__fpat_dir(const struct pc_maint *m, uint32_t id);

/* Entry i as the public struct (made on first use). */
const struct pc_maint_entry *pc_maint__entry(const struct pc_maint *m,
					     size_t i);

/* ---- building ------------------------------------------------------------ */

/* An N: or K: literal while building: its string is in the arena. */
struct pc_maint__blit {
	const char *s;
	size_t len;
	unsigned char icase;
};

/* An N: line while building. */
struct pc_maint__bnpat {
	uint32_t entry, ord;
	const char *src; /* the value */
	int ok; /* it compiled */
	const struct pc_maint__blit *lits; /* arena; NULL: run it always */
	size_t n_lits;
};

/* A K: line while building. */
struct pc_maint__bkpat {
	uint32_t entry;
	size_t tv;
	const char *src; /* the value */
	const struct pc_maint__blit *lits; /* arena */
	size_t n_lits;
	int multi;
};

/* What an M:/R:/L: tag is, precomputed for output. */
struct pc_maint__tagx {
	const char **addrs; /* M:/R: what push_email_address() gets */
	size_t n_addrs;
	const char *list; /* L: the address */
	unsigned char list_sub; /* L: subscribers-only */
	unsigned char list_mod; /* L: moderated */
};

/* An entry while building. */
struct pc_maint__bent {
	const char *name;
	unsigned line;
	const char *role;
	const char *subsys;
	size_t tag0; /* index of the first tag in b->tags */
	size_t n_tags;
	size_t tv0;
	unsigned char first_is_name;
};

/* A warning while building (see struct pc_maint__warn). */
struct pc_maint__bwarn {
	char *msg; /* owned */
	uint32_t fpat, cond;
};

/* A parsed MAINTAINERS, before image.c lays it out. */
struct pc_maint__build {
	struct pc_maint__arena arena;
	char *text; /* owned: MAINTAINERS, lines cut with NULs */
	size_t text_len;
	const char *header;
	const char *tag_doc[26];

	struct pc_maint__bent *ents; /* owned */
	size_t n_entries;
	struct pc_maint_tag *tags; /* owned: every entry's tags */
	struct pc_maint__tagx *tagx; /* owned, parallel to tags */
	size_t n_tags;

	/* F:/X: patterns; their strings, tokens and classes are in pool
	 * (a string area of its own, appended to the image's). */
	struct pc_maint__fpat *fpats; /* owned */
	size_t n_fpats;
	struct pc_buf pool;
	size_t n_fre; /* F:/X: regexes */
	uint32_t *pidx; /* owned */
	struct pc_maint__bucket *buckets; /* owned; keys in pool */
	size_t bucket_mask;
	uint8_t prefix_lens[32];

	struct pc_maint__bnpat *npats; /* owned */
	size_t n_npats;
	struct pc_maint__bkpat *kpats; /* owned, in the script's order */
	size_t n_kpats;

	struct pc_maint__mailmap mailmap;
	struct pc_maint__smap names; /* lower-case name -> entry */

	char sha[2 * PC_SHA256_LEN + 1];
	char mmsha[2 * PC_SHA256_LEN + 1];
	struct pc_maint__bwarn *warns; /* owned */
	size_t n_warns, alloc_warns;
};

void pc_maint__build_release(struct pc_maint__build *b);

/*
 * Parses (text, len) and (mailmap, mailmap_len) (NULL for none) into b
 * (zeroed by the caller). 0, or PC_EPARSE (a NUL byte).
 */
int pc_maint__parse(struct pc_maint__build *b, const char *text, size_t len,
		    const char *mailmap, size_t mailmap_len,
		    struct pc_err *err);

/* Builds the F:/X:/N:/K: patterns and their index of a parsed b. */
void pc_maint__index(struct pc_maint__build *b);
/* Adds a load warning (cond and fpat as in struct pc_maint__warn). */
void pc_maint__warn(struct pc_maint__build *b, uint32_t cond, uint32_t fpat,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "^[+-].*" . value: the K: regex on a diff's lines (into out, reset). */
void pc_maint__kdiff_src(struct pc_buf *out, const char *value);

/*
 * Lays b out as an image: *out (caller frees it) of *len bytes, which
 * pc_maint__open() takes.
 */
void pc_maint__image(unsigned char **out, size_t *len,
		     const struct pc_maint__build *b);

/*
 * A pc_maint on image (img, len), which it takes over (held as said).
 * With check, the image is checked first (a cache file: its header,
 * checksum and bounds) and PC_EPARSE returned, img left to the caller,
 * when it is not sound. 0 or PC_EPARSE; PC_EIO when tree cannot be
 * opened.
 */
int pc_maint__open(struct pc_maint **out, const unsigned char *img, size_t len,
		   int held, int check, const char *tree, struct pc_err *err);

/*
 * Whether image (img, len) was built from this MAINTAINERS and .mailmap
 * (the lengths and hashes its header records; mailmap NULL for none).
 */
int pc_maint__image_fits(const unsigned char *img, size_t len, const char *text,
			 size_t text_len, const char *mailmap,
			 size_t mailmap_len);

/* ---- mapping --------------------------------------------------------------- */

/* mailmap_email(): the mapped "Name <addr>" of s by m's .mailmap, into
 * out (reset). */
void pc_maint__mailmap_email(struct pc_buf *out, const struct pc_maint *m,
			     const char *s);

/*
 * A query flag for tests: match every K: regex on every line (or file)
 * instead of only those the prefilters let through. Results must not
 * change.
 */
#define PC_MAINT__NO_PREFILTER (1u << 30)

/* One matching line of an entry, for one path. */
struct pc_maint__rec {
	uint32_t entry, ord; /* entry index, position of the tag in it */
	char kind; /* 'F', 'X' or 'N' */
	int depth;
	unsigned spec; /* literal bytes the pattern starts with (0 for N:) */
};

struct pc_maint__recs {
	struct pc_maint__rec *v; /* owned */
	size_t n, alloc;
};

/*
 * The F:/X:/N: lines matching path, in no particular order, into r
 * (emptied first). md is scratch match data.
 */
void pc_maint__match_path(struct pc_maint__recs *r, const struct pc_maint *m,
			  const char *path, size_t plen, pcre2_match_data *md);

/* Where pc_maint__kscan() found a literal of K: line kpat. */
struct pc_maint__khit {
	size_t pos; /* offset of the literal in the text */
	uint32_t kpat; /* index in m->kpats */
};

struct pc_maint__khits {
	struct pc_maint__khit *v; /* owned */
	size_t n, alloc;
};

/*
 * One pass over (p, len): sets hit[k] for every K: line k (an index in
 * m->kpats) one of whose literals occurs. Lines without literals are
 * left alone. With pos not NULL, every occurrence is also appended to
 * it, in order of position.
 */
void pc_maint__kscan(const struct pc_maint *m, const char *p, size_t len,
		     unsigned char *hit, struct pc_maint__khits *pos);

/*
 * file_match_pattern() for F:/X: line id: whether path (plen bytes, with
 * pslashes '/' in it) matches. md is scratch match data.
 */
int pc_maint__fpat_match(const struct pc_maint *m, uint32_t id,
			 const char *path, size_t plen, unsigned pslashes,
			 pcre2_match_data *md);

/* What the F:/X: line id is once the tree is asked: the script's value
 * (with the '/' of a directory), literal prefix, slashes, depth. */
struct pc_maint__feff {
	int dir;
	unsigned ntoks, prefix_len, slashes;
	int depth;
};

void pc_maint__fpat_eff(struct pc_maint__feff *e, const struct pc_maint *m,
			uint32_t id);

/* ---- files of the cache (image_cache.c) ---- */

/* A file's bytes, mapped (or read when it cannot be). */
struct pc_maint__mapped {
	const char *p;
	size_t len;
	int mapped; /* else p is malloc'd */
};

/* Maps the regular file path: 0, 1 when it is missing and missing_ok,
 * -1 otherwise. */
int pc_maint__map(struct pc_maint__mapped *f, const char *path, int missing_ok);
void pc_maint__unmap(struct pc_maint__mapped *f);
/* Writes (img, len) to path through a new file in dir (made with its
 * parents when missing) renamed into place: 0 or -1. */
int pc_maint__cache_write(const char *dir, const char *path,
			  const unsigned char *img, size_t len);

#endif
