/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers shared by every module. */
#ifndef PC_UTIL_UTIL_H
#define PC_UTIL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr)-offsetof(type, member)))
#define PC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ASCII-only character classes: mail is bytes, not the C locale's idea. */
static inline int pc_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}
static inline int pc_isdigit(int c)
{
	return c >= '0' && c <= '9';
}
static inline int pc_isalpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static inline int pc_isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}
static inline int pc_islower(int c)
{
	return c >= 'a' && c <= 'z';
}
static inline int pc_isalnum(int c)
{
	return pc_isalpha(c) || pc_isdigit(c);
}
static inline int pc_tolower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* Case-insensitive ASCII prefix test on (p, len). */
int pc_mem_istarts(const char *p, size_t len, const char *prefix);
/* Case-sensitive prefix test on (p, len). Inline so that the length of
 * a literal prefix is folded at compile time: it runs once per line in
 * every parser. */
static inline int pc_mem_starts(const char *p, size_t len, const char *prefix)
{
	size_t n = __builtin_strlen(prefix);

	return len >= n && __builtin_memcmp(p, prefix, n) == 0;
}
/* Finds needle (case-insensitively, ASCII) in (p, len); NULL if absent. */
const char *pc_memimem(const char *p, size_t len, const char *needle);

/* Hex-encodes len bytes into out, which holds 2 * len + 1 chars. */
void pc_hex(char *out, const unsigned char *p, size_t len);

/* The value of one hexadecimal digit (either case), or -1. */
static inline int pc_hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 :
				      -1;
}

#endif
