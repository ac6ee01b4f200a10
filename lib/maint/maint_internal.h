/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of lib/maint share: the loaded form of MAINTAINERS, the
 * pattern index, the e-mail helpers that copy get_maintainer.pl's
 * parse_email/format_email/mailmap, and a small string map.
 */
#ifndef PC_MAINT_INTERNAL_H
#define PC_MAINT_INTERNAL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>

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

/* ASCII lower-case copy of s into b (reset first); returns b->buf. */
const char *pc_maint__lc(struct pc_buf *b, const char *s);

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
/* mailmap_email(): the mapped "Name <addr>" of s, into out (reset). */
void pc_maint__mailmap_email(struct pc_buf *out,
			     const struct pc_maint__mailmap *mm, const char *s);

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
struct pc_maint__fere {
	pcre2_code *find, *sub; /* owned */
};

void pc_maint__file_emails_init(struct pc_maint__fere *fe);
void pc_maint__file_emails_release(struct pc_maint__fere *fe);
/*
 * maintainers_in_file() and clean_file_emails(): the addresses found in
 * (text, len), cleaned, appended to r->file_emails.
 */
void pc_maint__file_emails(struct pc_maint_result *r,
			   const struct pc_maint__fere *fe, const char *text,
			   size_t len);

/* ---- patterns ------------------------------------------------------------ */

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

/* An F: or X: line. */
struct pc_maint__fpat {
	uint32_t entry; /* index of the entry */
	uint32_t ord; /* position of the tag in the entry */
	char kind; /* 'F' or 'X' */
	unsigned char dir; /* the converted pattern ends with '/' */
	unsigned char bad; /* did not compile: never matches */
	int depth; /* the script's $value_pd */
	unsigned slashes; /* '/' in the converted pattern */
	const char *re; /* the converted pattern (arena) */
	size_t prefix_len; /* literal bytes at the start of every match */
	struct pc_maint__tok *toks; /* arena; NULL when code is used */
	size_t ntoks;
	const uint8_t (*classes)[32]; /* arena: the bitmaps of [...] */
	pcre2_code *code; /* owned: "^" + re when toks cannot say it */
};

/*
 * Literals a regex cannot match without: every match contains one of
 * them (one per top-level alternative).
 */
struct pc_maint__lit {
	const char *s; /* arena, NUL-terminated */
	size_t len;
	unsigned char icase; /* matched without ASCII case */
};

/* An N: line. */
struct pc_maint__npat {
	uint32_t entry, ord;
	pcre2_code *code; /* owned; NULL if it did not compile */
	const struct pc_maint__lit *lits; /* arena; NULL: run it always */
	size_t n_lits;
};

/* An N: literal in the index by its first two bytes. */
struct pc_maint__nlit {
	uint32_t bigram, npat;
	const char *s; /* borrowed from the npat */
	size_t len;
	unsigned char icase;
};

/*
 * Literals by their first two bytes (a bigram, first byte high): a
 * bitmap of the bigrams present, and the rank of each word of it, so
 * that the range of a bigram's literals in an index sorted by bigram is
 * found in O(1): start[r] to start[r + 1] for the r-th bigram present.
 */
struct pc_maint__bigrams {
	uint64_t bits[1024];
	uint16_t rank[1024]; /* set bits in the words before */
	uint32_t *start; /* owned: n + 1 offsets into the index */
};

/* A K: line. */
struct pc_maint__kpat {
	uint32_t entry;
	size_t tv; /* the script's index of the line in @typevalue */
	pcre2_code *plain; /* owned: the regex, /x */
	pcre2_code *diff; /* owned: "^[+-].*" . regex, /x */
	/* Prefilters: literals one of which every match contains (found
	 * by pc_maint__kscan()), else a /xm regex that matches the whole
	 * text when the regex matches one of its lines (NULL when no such
	 * regex can be had: \A, \z, lookarounds...). */
	const struct pc_maint__lit *lits; /* arena */
	size_t n_lits;
	pcre2_code *multi; /* owned */
};

/* What an M:/R:/L: tag is, precomputed for output. */
struct pc_maint__tagx {
	const char **addrs; /* M:/R: what push_email_address() gets */
	size_t n_addrs;
	const char *list; /* L: the address */
	unsigned char list_sub; /* L: subscribers-only */
	unsigned char list_mod; /* L: moderated */
};

struct pc_maint__ent {
	const char *subsys; /* get_subsystem_name(): the name, cut to 50 */
	size_t tag0; /* index of the first tag in m->tags */
	size_t tv0; /* the script's @typevalue index of the first tag */
	/* The script's section starts at a tag line (a tag on the first
	 * line of MAINTAINERS): that tag matches but adds no address. */
	unsigned char first_is_name;
};

/* One literal prefix of the F:/X: index and the patterns that share it. */
struct pc_maint__bucket {
	const char *key; /* arena */
	uint32_t len;
	uint32_t first, count; /* range in m->pidx */
	uint64_t hash;
};

struct pc_maint {
	struct pc_maint__arena arena;
	char *text; /* owned: MAINTAINERS, lines cut with NULs */
	size_t text_len;
	char *tree; /* owned, or NULL */
	const char *header;
	const char *tag_doc[26];

	struct pc_maint_entry *entries; /* owned */
	struct pc_maint__ent *ex; /* owned, parallel to entries */
	size_t n_entries;
	struct pc_maint_tag *tags; /* owned: every entry's tags */
	struct pc_maint__tagx *tagx; /* owned, parallel to tags */
	size_t n_tags;

	struct pc_maint__fpat *fpats; /* owned */
	size_t n_fpats;
	uint32_t *pidx; /* owned: fpats ids grouped by literal prefix */
	struct pc_maint__bucket *buckets; /* owned hash table */
	size_t bucket_mask; /* table size - 1 */
	/* Bitmap of bucket key lengths; keys are cut at 255 bytes. */
	uint8_t prefix_lens[32];

	struct pc_maint__npat *npats; /* owned */
	size_t n_npats;
	struct pc_maint__bigrams nbigram; /* of the N: literals */
	struct pc_maint__nlit *nidx; /* owned: N: literals by two bytes */
	size_t n_nidx;
	uint32_t *nalways; /* owned: N: without a literal */
	size_t n_nalways;

	struct pc_maint__kpat *kpats; /* owned, in the script's order */
	size_t n_kpats;
	struct pc_maint__nlit *kidx; /* owned: K: literals by two bytes
				      * (npat is the kpat there) */
	size_t n_kidx;
	struct pc_maint__bigrams kbigram;

	struct pc_maint__mailmap mailmap;
	struct pc_maint__fere fere;
	struct pc_maint__smap names; /* lower-case name -> entry */

	char id[2 * PC_SHA256_LEN + 1];
	char sha[2 * PC_SHA256_LEN + 1];
	char **warnings; /* owned */
	size_t n_warnings, alloc_warnings;
};

/*
 * A query flag for tests: match every K: regex on every line (or file)
 * instead of only those the prefilters let through. Results must not
 * change.
 */
#define PC_MAINT__NO_PREFILTER (1u << 30)

/* Builds the F:/X:/N:/K: index of a parsed m; 0 or a negative code. */
int pc_maint__index(struct pc_maint *m, struct pc_buf *dirs,
		    struct pc_err *err);
/* Adds a load warning. */
void pc_maint__warn(struct pc_maint *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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
 * file_match_pattern() for one compiled F:/X: pattern: whether path
 * (plen bytes, with pslashes '/' in it) matches. md is scratch match data.
 */
int pc_maint__fpat_match(const struct pc_maint__fpat *fp, const char *path,
			 size_t plen, unsigned pslashes, pcre2_match_data *md);

#endif
