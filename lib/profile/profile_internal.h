/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by profile*.c and override.c; not part of the API. */
#ifndef PC_MAINT_PROFILE_INTERNAL_H
#define PC_MAINT_PROFILE_INTERNAL_H

#include <stddef.h>

#include "profile/profile.h"
#include "util/buf.h"
#include "util/err.h"

/* Sets *o (releasing what it held); strings are copied, NULL allowed. */
void pc_profile__origin_set(struct pc_prof_origin *o, enum pc_prof_source kind,
			    const char *file, const char *heading,
			    unsigned line, const char *quote, const char *via);
void pc_profile__origin_copy(struct pc_prof_origin *dst,
			     const struct pc_prof_origin *src);
void pc_profile__origin_release(struct pc_prof_origin *o);

/* A quote of (s, len): newlines as spaces, trimmed, cut at
 * PC_PROFILE_QUOTE_MAX bytes (on a UTF-8 boundary) with "...". Caller
 * frees. */
char *pc_profile__quote(const char *s, size_t len);

/* Appends a printf-formatted note to p. */
void pc_profile__note(struct pc_profile *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Reads the regular file path into b (appending), refusing more than
 * limit bytes. Returns 0, PC_ENOTFOUND, PC_EIO or PC_ELIMIT.
 */
int pc_profile__read_file(struct pc_buf *b, const char *path, size_t limit,
			  struct pc_err *err);

/* Case-insensitive (ASCII) string equality. */
int pc_profile__iequal(const char *a, const char *b);

/* A copy of s, or NULL for NULL. Caller frees. */
char *pc_profile__dup_or_null(const char *s);

/* What a section title names (profile_titles.c). */
enum pc_profile__title_kind {
	T_UNKNOWN = 0,
	T_FIELD, /* names one field */
	T_DATES, /* "Key Cycle Dates": both deadlines */
	T_INFO, /* an introduction or a list: nothing to read, not unread */
	T_TEXT, /* rules with no typed field: reported as text if unread */
};

/* The kind of section title (NULL: the text before the first title, an
 * introduction); *f the field it names (T_FIELD), *testish whether it
 * speaks of tests or a checklist. */
enum pc_profile__title_kind pc_profile__classify_title(const char *title,
						       enum pc_prof_field *f,
						       int *testish);

#endif
