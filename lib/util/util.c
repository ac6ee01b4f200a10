// SPDX-License-Identifier: GPL-2.0-or-later
/* Small helpers shared by every module (see util.h). */
#include <string.h>

#include "util.h"
#include "util/banned.h"

int pc_mem_istarts(const char *p, size_t len, const char *prefix)
{
	size_t i;

	for (i = 0; prefix[i]; i++)
		if (i >= len || pc_tolower((unsigned char)p[i]) !=
					pc_tolower((unsigned char)prefix[i]))
			return 0;
	return 1;
}

/* Case-insensitive Horspool: for long haystacks, where most windows are
 * skipped by up to the needle's length. */
static const char *memimem_horspool(const char *p, size_t len,
				    const char *needle, size_t n)
{
	unsigned char skip[256];
	size_t i, k;
	int last = pc_tolower((unsigned char)needle[n - 1]);

	memset(skip, (int)(n > 255 ? 255 : n), sizeof(skip));
	for (i = 0; i + 1 < n; i++) {
		unsigned char c = (unsigned char)needle[i];
		size_t d = n - 1 - i;

		if (d > 255)
			continue;
		skip[pc_tolower(c)] = (unsigned char)d;
		if (c >= 'a' && c <= 'z')
			skip[c - 32] = (unsigned char)d;
		else if (c >= 'A' && c <= 'Z')
			skip[c] = (unsigned char)d;
	}
	for (i = 0; i + n <= len;) {
		unsigned char c = (unsigned char)p[i + n - 1];

		if (pc_tolower(c) == last) {
			for (k = 0; k + 1 < n; k++)
				if (pc_tolower((unsigned char)p[i + k]) !=
				    pc_tolower((unsigned char)needle[k]))
					break;
			if (k + 1 >= n)
				return p + i;
		}
		i += skip[c];
	}
	return NULL;
}

const char *pc_memimem(const char *p, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;
	int c0, c1;

	if (!n)
		return p;
	if (n > len)
		return NULL;
	if (n >= 4 && len >= 256)
		return memimem_horspool(p, len, needle, n);
	c1 = n == 1 ? -1 : pc_tolower((unsigned char)needle[1]);
	c0 = pc_tolower((unsigned char)needle[0]);
	/* The first two characters are compared inline: most positions
	 * fail there. */
	for (i = 0; i + n <= len; i++)
		if (pc_tolower((unsigned char)p[i]) == c0 &&
		    (c1 < 0 || pc_tolower((unsigned char)p[i + 1]) == c1) &&
		    pc_mem_istarts(p + i, len - i, needle))
			return p + i;
	return NULL;
}

void pc_hex(char *out, const unsigned char *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}
