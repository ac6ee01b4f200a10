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

static uint64_t hash_str(const char *s)
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
	sl = find(s, key, hash_str(key));
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
	uint64_t h = hash_str(key);
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
