// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Origins, quotes and notes: the helpers profile.c and override.c
 * share (profile_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"
#include "util/file.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

void pc_profile__origin_release(struct pc_prof_origin *o)
{
	free(o->file);
	free(o->heading);
	free(o->quote);
	free(o->via);
	memset(o, 0, sizeof(*o));
}

char *pc_profile__dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void pc_profile__origin_set(struct pc_prof_origin *o, enum pc_prof_source kind,
			    const char *file, const char *heading,
			    unsigned line, const char *quote, const char *via)
{
	struct pc_prof_origin n = { 0 };

	n.kind = kind;
	n.file = pc_profile__dup_or_null(file);
	n.heading = pc_profile__dup_or_null(heading);
	n.line = line;
	n.quote = pc_profile__dup_or_null(quote);
	n.via = pc_profile__dup_or_null(via);
	pc_profile__origin_release(o);
	*o = n;
}

void pc_profile__origin_copy(struct pc_prof_origin *dst,
			     const struct pc_prof_origin *src)
{
	pc_profile__origin_set(dst, src->kind, src->file, src->heading,
			       src->line, src->quote, src->via);
}

char *pc_profile__quote(const char *s, size_t len)
{
	struct pc_buf b = PC_BUF_INIT;
	size_t i;
	int space = 1;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (pc_isspace(c) || c == 0) {
			if (!space)
				pc_buf_addch(&b, ' ');
			space = 1;
			continue;
		}
		pc_buf_addch(&b, (char)c);
		space = 0;
	}
	pc_buf_rtrim(&b);
	if (b.len > PC_PROFILE_QUOTE_MAX) {
		size_t cut = PC_PROFILE_QUOTE_MAX - 3;

		while (cut && ((unsigned char)b.buf[cut] & 0xc0) == 0x80)
			cut--;
		pc_buf_setlen(&b, cut);
		pc_buf_addstr(&b, "...");
	}
	return pc_buf_detach(&b, NULL);
}

void pc_profile__note(struct pc_profile *p, const char *fmt, ...)
{
	struct pc_buf b = PC_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	p->notes = xreallocarray(p->notes, p->n_notes + 1, sizeof(*p->notes));
	p->notes[p->n_notes++] = pc_buf_detach(&b, NULL);
}

int pc_profile__iequal(const char *a, const char *b)
{
	size_t n = strlen(a);

	return strlen(b) == n && pc_mem_istarts(a, n, b);
}

int pc_profile__read_file(struct pc_buf *b, const char *path, size_t limit,
			  struct pc_err *err)
{
	return pc_read_file(b, path, limit, 0, "a profile is an .rst file",
			    err);
}
