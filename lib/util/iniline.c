// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading an INI file one whole line at a time. See iniline.h.
 */
#include <string.h>

#include "util/err.h"
#include "util/iniline.h"
#include "util/util.h"
#include "util/banned.h"

static int is_comment(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i < n && (p[i] == ';' || p[i] == '#');
}

int pc_ini_next(struct pc_ini_lines *l, size_t max, const char **line,
		size_t *n, const char **why)
{
	const char *p, *nl;
	size_t k;

	if (l->pos >= l->len)
		return 0;
	p = l->text + l->pos;
	nl = memchr(p, '\n', l->len - l->pos);
	k = nl ? (size_t)(nl - p) : l->len - l->pos;
	l->pos += k + (nl ? 1 : 0);
	l->lineno++;
	if (k && p[k - 1] == '\r')
		k--;
	if (l->lineno == 1 && k >= 3 && !memcmp(p, "\xef\xbb\xbf", 3)) {
		p += 3;
		k -= 3;
	}
	*line = p;
	*n = k;
	if (memchr(p, '\0', k)) {
		*why = "NUL byte in the line";
		return PC_EPARSE;
	}
	if (k > max) {
		if (!is_comment(p, k)) {
			*why = "line too long";
			return PC_ELIMIT;
		}
		*n = max;
	}
	return 1;
}

int pc_ini_section(const char *p, size_t n, const char **name, size_t *name_len,
		   const char **why)
{
	const char *close = NULL, *a, *e;
	size_t k;

	if (!n || p[0] != '[')
		return 0;
	for (k = n; k-- > 1;)
		if (p[k] == ']') {
			close = p + k;
			break;
		}
	if (!close) {
		*why = "section line without a closing ']'";
		return PC_EPARSE;
	}
	for (e = close + 1; e < p + n && pc_isspace((unsigned char)*e); e++)
		;
	if (e < p + n && *e != ';' && *e != '#') {
		*why = "text after the section's ']'";
		return PC_EPARSE;
	}
	a = p + 1;
	e = close;
	while (a < e && pc_isspace((unsigned char)*a))
		a++;
	while (e > a && pc_isspace((unsigned char)e[-1]))
		e--;
	if (a == e) {
		*why = "empty section name";
		return PC_EPARSE;
	}
	*name = a;
	*name_len = (size_t)(e - a);
	return 1;
}
