// SPDX-License-Identifier: GPL-2.0-or-later
/* Growable byte buffers (see buf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"
#include "util/banned.h"

char pc_buf__empty[1];

void pc_buf_init(struct pc_buf *b, size_t hint)
{
	b->buf = pc_buf__empty;
	b->len = b->alloc = 0;
	if (hint)
		pc_buf_grow(b, hint);
}

void pc_buf_release(struct pc_buf *b)
{
	if (b->alloc)
		free(b->buf);
	pc_buf_init(b, 0);
}

char *pc_buf_detach(struct pc_buf *b, size_t *len_out)
{
	char *p;

	if (len_out)
		*len_out = b->len;
	p = b->alloc ? b->buf : xcalloc(1, 1);
	pc_buf_init(b, 0);
	return p;
}

void pc_buf_grow(struct pc_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need <= b->alloc)
		return;
	if (need < b->alloc * 2)
		need = b->alloc * 2;
	if (need < 64)
		need = 64;
	if (!b->alloc) {
		b->buf = xmalloc(need);
		b->buf[0] = '\0';
	} else {
		b->buf = xrealloc(b->buf, need);
	}
	b->alloc = need;
}

void pc_buf_setlen(struct pc_buf *b, size_t len)
{
	if (!b->alloc) {
		/* Only length 0 is valid on the shared empty buffer. */
		return;
	}
	b->len = len;
	b->buf[len] = '\0';
}

void pc_buf_add(struct pc_buf *b, const void *p, size_t len)
{
	if (!len)
		return;
	pc_buf_grow(b, len);
	memcpy(b->buf + b->len, p, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void pc_buf_addstr(struct pc_buf *b, const char *s)
{
	pc_buf_add(b, s, strlen(s));
}

void pc_buf_addch(struct pc_buf *b, int c)
{
	pc_buf_grow(b, 1);
	b->buf[b->len++] = (char)c;
	b->buf[b->len] = '\0';
}

void pc_buf_vaddf(struct pc_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->alloc ? b->buf + b->len : NULL,
		      b->alloc ? b->alloc - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if (!b->alloc || (size_t)n >= b->alloc - b->len) {
		pc_buf_grow(b, (size_t)n);
		vsnprintf(b->buf + b->len, b->alloc - b->len, fmt, ap);
	}
	b->len += (size_t)n;
}

void pc_buf_addf(struct pc_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void pc_buf_rtrim(struct pc_buf *b)
{
	while (b->len &&
	       (b->buf[b->len - 1] == ' ' || b->buf[b->len - 1] == '\t' ||
		b->buf[b->len - 1] == '\n' || b->buf[b->len - 1] == '\r'))
		b->len--;
	if (b->alloc)
		b->buf[b->len] = '\0';
}
