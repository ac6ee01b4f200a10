/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growable byte buffers after git's strbuf: `buf` is never NULL and always
 * NUL-terminated, and may hold NULs. pc_buf_detach() is the only way to take
 * the memory.
 */
#ifndef PC_UTIL_BUF_H
#define PC_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct pc_buf {
	char *buf; /* owned, unless it is pc_buf__empty */
	size_t len, alloc;
};

extern char pc_buf__empty[];
#define PC_BUF_INIT                                        \
	{                                                  \
		.buf = pc_buf__empty, .len = 0, .alloc = 0 \
	}

void pc_buf_init(struct pc_buf *b, size_t hint);
/* Frees the memory and leaves b empty and reusable. */
void pc_buf_release(struct pc_buf *b);
/* Returns the memory (caller frees with free()) and leaves b empty. */
char *pc_buf_detach(struct pc_buf *b, size_t *len_out);

void pc_buf_grow(struct pc_buf *b, size_t extra);
void pc_buf_setlen(struct pc_buf *b, size_t len);
static inline void pc_buf_reset(struct pc_buf *b)
{
	pc_buf_setlen(b, 0);
}

void pc_buf_add(struct pc_buf *b, const void *p, size_t len);
void pc_buf_addstr(struct pc_buf *b, const char *s);
void pc_buf_addch(struct pc_buf *b, int c);
void pc_buf_addf(struct pc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pc_buf_vaddf(struct pc_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Removes trailing ASCII whitespace. */
void pc_buf_rtrim(struct pc_buf *b);

#endif
