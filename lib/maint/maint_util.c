// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Small pieces lib/maint shares: a bump allocator that holds everything a
 * loaded MAINTAINERS points to (one free at the end, and loading does not
 * pay for thousands of mallocs), and a string map with the semantics of a
 * Perl hash (exact keys, last put wins).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "maint/maint_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct pc_maint__chunk {
	struct pc_maint__chunk *next; /* owned */
	size_t used, size;
	max_align_t data[];
};

#define CHUNK_MIN (64u << 10)

void *pc_maint__alloc(struct pc_maint__arena *a, size_t size)
{
	struct pc_maint__chunk *c = a->head;
	size_t align = sizeof(max_align_t);
	void *p;

	size = (size + align - 1) / align * align;
	if (!c || c->size - c->used < size) {
		size_t n = size > CHUNK_MIN ? size : CHUNK_MIN;

		c = xmalloc(sizeof(*c) + n);
		c->size = n;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	p = (char *)c->data + c->used;
	c->used += size;
	return p;
}

char *pc_maint__strndup(struct pc_maint__arena *a, const char *p, size_t n)
{
	char *s = pc_maint__alloc(a, n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

void pc_maint__arena_release(struct pc_maint__arena *a)
{
	struct pc_maint__chunk *c = a->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
}

/* ---- string map ----------------------------------------------------------- */

struct pc_maint__slot {
	char *key; /* owned; NULL for a free slot */
	uint64_t hash;
	size_t val;
};

uint64_t pc_maint__hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

void pc_maint__smap_release(struct pc_maint__smap *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->v[i].key);
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

static struct pc_maint__slot *find(const struct pc_maint__smap *s,
				   const char *key, uint64_t h)
{
	size_t i = (size_t)h & (s->cap - 1);

	for (;; i = (i + 1) & (s->cap - 1)) {
		struct pc_maint__slot *sl = &s->v[i];

		if (!sl->key || (sl->hash == h && !strcmp(sl->key, key)))
			return sl;
	}
}

int pc_maint__smap_get(const struct pc_maint__smap *s, const char *key,
		       size_t *val)
{
	struct pc_maint__slot *sl;

	if (!s->n)
		return 0;
	sl = find(s, key, pc_maint__hash_str(key));
	if (!sl->key)
		return 0;
	if (val)
		*val = sl->val;
	return 1;
}

static void grow(struct pc_maint__smap *s)
{
	struct pc_maint__slot *old = s->v;
	size_t oldcap = s->cap, i;

	s->cap = oldcap ? oldcap * 2 : 16;
	s->v = xcalloc(s->cap, sizeof(*s->v));
	for (i = 0; i < oldcap; i++)
		if (old[i].key)
			*find(s, old[i].key, old[i].hash) = old[i];
	free(old);
}

void pc_maint__smap_put(struct pc_maint__smap *s, const char *key, size_t val)
{
	uint64_t h = pc_maint__hash_str(key);
	struct pc_maint__slot *sl;

	if ((s->n + 1) * 2 > s->cap)
		grow(s);
	sl = find(s, key, h);
	if (!sl->key) {
		sl->key = xstrdup(key);
		sl->hash = h;
		s->n++;
	}
	sl->val = val;
}

void pc_maint__smap_each(const struct pc_maint__smap *s,
			 void (*fn)(const char *key, uint64_t hash, size_t val,
				    void *arg),
			 void *arg)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		if (s->v[i].key)
			fn(s->v[i].key, s->v[i].hash, s->v[i].val, arg);
}

size_t pc_maint__smap_cap(const struct pc_maint__smap *s)
{
	return s->cap;
}

int pc_maint__fmap_get(const struct pc_maint__fmap *f, const char *key,
		       size_t *val)
{
	uint64_t h;
	size_t i;

	if (!f->cap)
		return 0;
	h = pc_maint__hash_str(key);
	for (i = (size_t)h & (f->cap - 1);; i = (i + 1) & (f->cap - 1)) {
		const struct pc_maint__fslot *sl = &f->v[i];

		if (sl->key == PC_MAINT__NOSTR)
			return 0;
		if (sl->hash == h && !strcmp(f->str + sl->key, key)) {
			if (val)
				*val = sl->val;
			return 1;
		}
	}
}

/* ---- hash64 ------------------------------------------------------------------ */

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull
#define P5 0x27D4EB2F165667C5ull

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t load8(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t round64(uint64_t acc, uint64_t in)
{
	return rotl(acc + in * P2, 31) * P1;
}

/* xxHash64's construction (not its exact output, which is not needed):
 * four lanes, a merge, the tail, an avalanche. */
uint64_t pc_maint__hash64(const void *p, size_t n, uint64_t seed)
{
	const unsigned char *s = p;
	uint64_t h, v[4] = { seed + P1 + P2, seed + P2, seed, seed - P1 };
	size_t left = n;
	int i;

	if (left >= 32) {
		uint64_t v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];

		for (; left >= 32; s += 32, left -= 32) {
			v0 = round64(v0, load8(s));
			v1 = round64(v1, load8(s + 8));
			v2 = round64(v2, load8(s + 16));
			v3 = round64(v3, load8(s + 24));
		}
		v[0] = v0;
		v[1] = v1;
		v[2] = v2;
		v[3] = v3;
		h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) +
		    rotl(v[3], 18);
		for (i = 0; i < 4; i++)
			h = (h ^ round64(0, v[i])) * P1 + P4;
	} else {
		h = seed + P5;
	}
	h += (uint64_t)n;
	for (; left >= 8; s += 8, left -= 8)
		h = rotl(h ^ round64(0, load8(s)), 27) * P1 + P4;
	for (; left; s++, left--)
		h = rotl(h ^ (*s * P5), 11) * P1;
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

const char *pc_maint__lc(struct pc_buf *b, const char *s)
{
	size_t i, n = strlen(s);

	pc_buf_reset(b);
	pc_buf_grow(b, n);
	for (i = 0; i < n; i++)
		b->buf[i] = (char)pc_tolower((unsigned char)s[i]);
	pc_buf_setlen(b, n);
	return b->buf;
}
