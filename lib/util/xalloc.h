/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation that cannot fail: out of memory aborts. Per-message memory is
 * bounded by explicit limits elsewhere, so running out is a bug or a machine
 * in trouble, not an input to recover from.
 */
#ifndef PC_UTIL_XALLOC_H
#define PC_UTIL_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grows an array of nmemb * size bytes, checking the multiplication. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A NUL-terminated copy of (p, len); p may hold NULs. */
char *xmemdupz(const void *p, size_t len);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Makes room for at least `need` elements in *arr of capacity *alloc. */
#define PC_ALLOC_GROW(arr, need, alloc)                                      \
	do {                                                                 \
		if ((need) > (alloc)) {                                      \
			size_t pc_n_ = (alloc) ? (alloc)*2 : 8;              \
			while (pc_n_ < (need))                               \
				pc_n_ *= 2;                                  \
			(arr) = xreallocarray((arr), pc_n_, sizeof(*(arr))); \
			(alloc) = pc_n_;                                     \
		}                                                            \
	} while (0)

#endif
