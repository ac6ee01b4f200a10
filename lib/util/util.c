// SPDX-License-Identifier: GPL-2.0-or-later
/* Small helpers shared by every module (see util.h). */
#include <string.h>

#include "util.h"

int pc_mem_istarts(const char *p, size_t len, const char *prefix)
{
	size_t i;

	for (i = 0; prefix[i]; i++)
		if (i >= len || pc_tolower((unsigned char)p[i]) !=
					pc_tolower((unsigned char)prefix[i]))
			return 0;
	return 1;
}

const char *pc_memimem(const char *p, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	if (!n)
		return p;
	for (i = 0; i + n <= len; i++)
		if (pc_tolower((unsigned char)p[i]) ==
			    pc_tolower((unsigned char)needle[0]) &&
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
