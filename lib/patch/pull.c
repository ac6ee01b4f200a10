// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pull requests: finds what `git request-pull` writes into a mail, the
 * repository URL and ref after "are available in the Git repository at:",
 * and the head commit after "for you to fetch changes up to". The ref may
 * follow the URL on the same line, or on the next line (after a trailing
 * backslash, or because a mailer wrapped the line); trailing whitespace and
 * CRs are ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "patch/pull.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct span {
	const char *p;
	size_t len;
};

/* The line at *pos, without its '\n' and trailing whitespace. */
static int next_line(struct span *l, const char *text, size_t len, size_t *pos)
{
	const char *s = text + *pos, *nl;
	size_t n;

	if (*pos >= len)
		return 0;
	nl = memchr(s, '\n', len - *pos);
	n = nl ? (size_t)(nl - s) : len - *pos;
	*pos += n + (nl ? 1 : 0);
	while (n && pc_isspace((unsigned char)s[n - 1]))
		n--;
	l->p = s;
	l->len = n;
	return 1;
}

static void trim_left(struct span *l)
{
	while (l->len && pc_isspace((unsigned char)*l->p))
		l->p++, l->len--;
}

/* Splits off the first whitespace-separated word of l. */
static struct span word(struct span *l)
{
	struct span w = { l->p, 0 };

	while (w.len < l->len && !pc_isspace((unsigned char)l->p[w.len]))
		w.len++;
	l->p += w.len;
	l->len -= w.len;
	trim_left(l);
	return w;
}

/* Whether a line looks like a lone ref that a mailer wrapped. */
static int looks_like_ref(const struct span *l)
{
	size_t i;

	if (!l->len || memchr(l->p, ':', l->len))
		return 0;
	for (i = 0; i < l->len; i++)
		if (pc_isspace((unsigned char)l->p[i]))
			return 0;
	return 1;
}

static int is_hex(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!pc_isdigit((unsigned char)p[i]) &&
		    !(pc_tolower((unsigned char)p[i]) >= 'a' &&
		      pc_tolower((unsigned char)p[i]) <= 'f'))
			return 0;
	return len > 0;
}

void pc_pull_release(struct pc_pull *p)
{
	if (!p)
		return;
	free(p->url);
	free(p->ref);
	free(p->head);
	p->url = p->ref = p->head = NULL;
}

/* Reads the URL and ref on the lines after "...repository at:". */
static void parse_url(struct pc_pull *out, const char *text, size_t len,
		      size_t pos)
{
	struct span l, u, r;
	int cont;

	/* The URL is on the first non-blank line. */
	do {
		if (!next_line(&l, text, len, &pos))
			return;
		trim_left(&l);
	} while (!l.len);
	u = word(&l);
	if (!memchr(u.p, ':', u.len) && !memchr(u.p, '/', u.len))
		return; /* not a URL */
	out->url = xmemdupz(u.p, u.len);
	cont = l.len == 1 && l.p[0] == '\\';
	if (l.len && !cont) {
		r = word(&l);
		if (r.len && !(r.len == 1 && r.p[0] == '\\')) {
			out->ref = xmemdupz(r.p, r.len);
			return;
		}
		cont = 1;
	}
	if (!next_line(&l, text, len, &pos))
		return;
	trim_left(&l);
	if (cont ? l.len > 0 : looks_like_ref(&l)) {
		r = word(&l);
		out->ref = xmemdupz(r.p, r.len);
	}
}

/* Reads "for you to fetch changes up to <sha>:". */
static void parse_head(struct pc_pull *out, struct span l)
{
	const char *key = "for you to fetch changes up to";
	const char *p = pc_memimem(l.p, l.len, key);
	struct span h;

	if (!p)
		return;
	l.len -= (size_t)(p - l.p) + strlen(key);
	l.p = p + strlen(key);
	trim_left(&l);
	h = word(&l);
	if (h.len && h.p[h.len - 1] == ':')
		h.len--;
	if (h.len >= 7 && h.len <= 64 && is_hex(h.p, h.len))
		out->head = xmemdupz(h.p, h.len);
}

int pc_pull_parse(struct pc_pull *out, const char *text, size_t len)
{
	struct span l;
	size_t pos = 0;

	memset(out, 0, sizeof(*out));
	while (next_line(&l, text, len, &pos)) {
		if (!out->url &&
		    pc_memimem(l.p, l.len,
			       "are available in the git repository at"))
			parse_url(out, text, len, pos);
		else if (!out->head)
			parse_head(out, l);
	}
	return out->url ? 1 : 0;
}

/* "Name (N):", the head of a shortlog group. */
static int group_head(const struct span *l)
{
	size_t i = l->len;

	if (i < 5 || l->p[0] == ' ' || l->p[0] == '\t' || l->p[i - 1] != ':' ||
	    l->p[i - 2] != ')')
		return 0;
	for (i -= 3; i > 0 && pc_isdigit((unsigned char)l->p[i]); i--)
		;
	return i > 1 && i < l->len - 3 && l->p[i] == '(' && l->p[i - 1] == ' ';
}

int pc_pull_titles(const char *text, size_t len, pc_pull_title_fn fn, void *arg)
{
	struct span l;
	size_t pos = 0;
	int in = 0, n = 0, rc;

	while (next_line(&l, text, len, &pos)) {
		if (!l.len) {
			in = 0;
			continue;
		}
		if (group_head(&l)) {
			in = 1;
			continue;
		}
		if (!in || (l.p[0] != ' ' && l.p[0] != '\t')) {
			in = 0;
			continue;
		}
		while (l.len && (l.p[0] == ' ' || l.p[0] == '\t')) {
			l.p++;
			l.len--;
		}
		if (!l.len)
			continue;
		if ((rc = fn(l.p, l.len, arg)) != 0)
			return rc;
		n++;
	}
	return n;
}

int pc_pull_branch_head(const char *text, size_t len, pc_pull_title_fn fn,
			void *arg)
{
	static const char key[] = "branch HEAD:";
	struct span l;
	size_t pos = 0;
	int n = 0, rc;

	while (next_line(&l, text, len, &pos)) {
		struct span id;

		if (l.len <= sizeof(key) - 1 ||
		    memcmp(l.p, key, sizeof(key) - 1) != 0)
			continue;
		l.p += sizeof(key) - 1;
		l.len -= sizeof(key) - 1;
		trim_left(&l);
		id = word(&l);
		/* An abbreviated or full commit id, then its title. */
		if (id.len < 7 || id.len > 64 || !l.len ||
		    !is_hex(id.p, id.len))
			continue;
		if ((rc = fn(l.p, l.len, arg)) != 0)
			return rc;
		n++;
	}
	return n;
}
