// SPDX-License-Identifier: GPL-2.0-or-later
/* Allocation wrappers that abort on exhaustion (see xalloc.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"
#include "util/banned.h"

static void oom(size_t size)
{
	fprintf(stderr, "patchclock: out of memory (%zu bytes)\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(ptr, nmemb * size);
}

char *xstrdup(const char *s)
{
	return xmemdupz(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	return xmemdupz(s, strnlen(s, n));
}

char *xmemdupz(const void *p, size_t len)
{
	char *s = xmalloc(len + 1);

	if (len)
		memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
