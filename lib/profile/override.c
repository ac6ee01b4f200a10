// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Profile override files (see profile.h), read with libinih. The file is
 * handed to ini_parse_stream() line by line through our own reader, which
 * counts lines (the handler learns the line of every key), refuses lines
 * longer than inih's line buffer (inih would otherwise split them and
 * read the rest as a new line), and rewrites section lines: MAINTAINERS
 * entry names contain ']' ("NETWORKING [GENERAL]") and can be longer than
 * inih's 50-byte section names, so "[NAME]" becomes "[#n]" and the name
 * is kept here. Values are gathered per file and read only when the whole
 * file is valid, so a bad file changes nothing.
 */
#include <assert.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phrase.h"
#include "profile.h"
#include "profile_internal.h"
#include "util/buf.h"
#include "util/iniline.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define KEY_PROFILE (-1)
#define KEY_UNKNOWN (-2)

struct ov_field {
	int set;
	struct pc_phrase_value v; /* owned */
	struct pc_prof_origin o; /* owned */
};

struct ov_entry {
	char *name; /* owned: as first written */
	struct ov_field f[PC_PROF_NFIELDS];
	char *profile; /* owned, or NULL */
	struct pc_prof_origin profile_from; /* owned */
};

struct pc_overrides {
	struct ov_entry *e; /* owned */
	size_t n, alloc;
};

/* Other names of a field's key: the 2018 RFC's questions and the
 * spellings people write. A field's own key is the field table's
 * (pc_profile_field_key()): a new field needs no line here. */
static const struct {
	const char *key;
	enum pc_prof_field field;
} synonyms[] = {
	{ "resubmit_cadence", PC_PROF_PING_AFTER },
	{ "resend_cadence", PC_PROF_PING_AFTER },
	{ "review_cadence", PC_PROF_PING_AFTER },
	{ "repost_interval", PC_PROF_REPOST_MIN },
	{ "review_tags", PC_PROF_REVIEW },
	{ "last_rc_new_features", PC_PROF_NEW_FEATURES },
	{ "last_rc_merge_features", PC_PROF_MERGE_FEATURES },
	{ "patches_or_pull_requests", PC_PROF_SUBMIT },
};

/* The name of key (a field or KEY_PROFILE), as the table writes it. */
static const char *key_name(int key)
{
	return key == KEY_PROFILE ?
		       "profile" :
		       pc_profile_field_key((enum pc_prof_field)key);
}

static int key_of(const char *name)
{
	char k[64];
	size_t i, n = strlen(name);
	int f;

	if (n >= sizeof(k))
		return KEY_UNKNOWN;
	for (i = 0; i <= n; i++)
		k[i] = name[i] == '-' || name[i] == ' ' ?
			       '_' :
			       (char)pc_tolower((unsigned char)name[i]);
	if (!strcmp(k, "profile"))
		return KEY_PROFILE;
	for (f = 0; f < PC_PROF_NFIELDS; f++)
		if (!strcmp(k, pc_profile_field_key((enum pc_prof_field)f)))
			return f;
	for (i = 0; i < PC_ARRAY_SIZE(synonyms); i++)
		if (!strcmp(k, synonyms[i].key))
			return (int)synonyms[i].field;
	return KEY_UNKNOWN;
}

struct pending {
	size_t sect; /* index in rd.sect */
	int key; /* a field, or KEY_PROFILE */
	const char *key_name; /* borrowed: key_name() */
	struct pc_buf raw;
	unsigned line;
};

struct rd {
	const char *name; /* the file, for messages */
	struct pc_ini_lines in; /* the file, in memory */
	int cont; /* the line just read is indented */
	int keyed; /* a key was read since the last section line */
	char **sect; /* owned: section names in this file */
	size_t n_sect;
	struct pending *pend; /* owned */
	size_t n_pend, alloc_pend;
	unsigned err_line; /* first error's line, 0 if none */
	struct pc_err err;
};

static void rd_error(struct rd *r, unsigned line, int code, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));

static void rd_error(struct rd *r, unsigned line, int code, const char *fmt,
		     ...)
{
	struct pc_buf b = PC_BUF_INIT;
	va_list ap;

	if (r->err_line && r->err_line <= line)
		return;
	va_start(ap, fmt);
	pc_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	r->err_line = line;
	pc_err_set(&r->err, code, "%s:%u: %s", r->name, line, b.buf);
	pc_buf_release(&b);
}

/* inih's reader: one whole line of the file per call (see above). */
static char *ov_reader(char *str, int num, void *stream)
{
	struct rd *r = stream;
	const char *p, *name, *why = NULL;
	size_t n, i, name_len;
	int rc;

	if (num < 4)
		return NULL;
	r->cont = 0;
	rc = pc_ini_next(&r->in, (size_t)num - 3, &p, &n, &why);
	if (!rc)
		return NULL;
	if (rc == PC_ELIMIT) {
		rd_error(r, r->in.lineno, PC_ELIMIT,
			 "line is longer than %d characters; go on with the "
			 "value on indented lines below it",
			 num - 3);
		goto blank;
	}
	if (rc < 0) {
		rd_error(r, r->in.lineno, rc, "%s", why);
		goto blank;
	}
	rc = pc_ini_section(p, n, &name, &name_len, &why);
	if (rc < 0) {
		rd_error(r, r->in.lineno, PC_EPARSE, "%s%s", why,
			 strcmp(why, "empty section name") ?
				 "" :
				 ": write the MAINTAINERS entry's name, "
				 "[LIBNVDIMM: NON-VOLATILE MEMORY DEVICE "
				 "SUBSYSTEM]");
		goto blank;
	}
	if (rc) {
		r->sect =
			xreallocarray(r->sect, r->n_sect + 1, sizeof(*r->sect));
		r->sect[r->n_sect++] = xmemdupz(name, name_len);
		snprintf(str, (size_t)num, "[#%zu]\n", r->n_sect - 1);
		r->keyed = 0;
		return str;
	}
	for (i = 0; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	r->cont = i > 0 && i < n && p[i] != ';' && p[i] != '#';
	memcpy(str, p, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	return str;
blank:
	str[0] = '\n';
	str[1] = '\0';
	return str;
}

static struct pending *last_pending(struct rd *r, size_t sect, int key)
{
	size_t i;

	for (i = r->n_pend; i-- > 0;)
		if (r->pend[i].sect == sect && r->pend[i].key == key)
			return &r->pend[i];
	return NULL;
}

static int ov_handler(void *user, const char *section, const char *name,
		      const char *value)
{
	struct rd *r = user;
	struct pending *pd;
	size_t sect;
	int key;

	if (!section[0]) {
		rd_error(r, r->in.lineno, PC_EPARSE,
			 "'%s' is outside a section: start with the "
			 "MAINTAINERS entry's name in brackets",
			 name);
		return 1;
	}
	if (section[0] != '#' || !pc_isdigit((unsigned char)section[1])) {
		rd_error(r, r->in.lineno, PC_EPARSE,
			 "a section line must start in the first column");
		return 1;
	}
	sect = (size_t)strtoul(section + 1, NULL, 10);
	assert(sect < r->n_sect);
	if ((key = key_of(name)) == KEY_UNKNOWN) {
		rd_error(r, r->in.lineno, PC_EPARSE,
			 "unknown key '%s' in [%s] ('patchclock profile "
			 "--help' lists the keys)",
			 name, r->sect[sect]);
		return 1;
	}
	pd = last_pending(r, sect, key);
	/* inih continues a value on an indented line only after a key. */
	if (r->cont && r->keyed) {
		if (!pd ||
		    (key != PC_PROF_TRUSTED && key != PC_PROF_TEST_SUITE)) {
			rd_error(r, r->in.lineno, PC_EPARSE,
				 "'%s' takes one line: only trusted_reviewers "
				 "and test_suite go on over indented lines",
				 key_name(key));
			return 1;
		}
		pc_buf_addch(&pd->raw, '\n');
		pc_buf_addstr(&pd->raw, value);
		return 1;
	}
	r->keyed = 1;
	if (pd) {
		rd_error(r, r->in.lineno, PC_EPARSE,
			 "'%s' is given twice in [%s] (first on line %u)",
			 key_name(key), r->sect[sect], pd->line);
		return 1;
	}
	PC_ALLOC_GROW(r->pend, r->n_pend + 1, r->alloc_pend);
	pd = &r->pend[r->n_pend++];
	pd->sect = sect;
	pd->key = key;
	pd->key_name = key_name(key);
	pd->line = r->in.lineno;
	pc_buf_init(&pd->raw, 64);
	pc_buf_addstr(&pd->raw, value);
	return 1;
}

struct pc_overrides *pc_overrides_new(void)
{
	return xcalloc(1, sizeof(struct pc_overrides));
}

static void entry_release(struct ov_entry *e)
{
	int f;

	free(e->name);
	free(e->profile);
	pc_profile__origin_release(&e->profile_from);
	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		pc_phrase_value_release(&e->f[f].v);
		pc_profile__origin_release(&e->f[f].o);
	}
}

void pc_overrides_free(struct pc_overrides *ov)
{
	size_t i;

	if (!ov)
		return;
	for (i = 0; i < ov->n; i++)
		entry_release(&ov->e[i]);
	free(ov->e);
	free(ov);
}

size_t pc_overrides_count(const struct pc_overrides *ov)
{
	return ov ? ov->n : 0;
}

static struct ov_entry *find_entry(const struct pc_overrides *ov,
				   const char *name)
{
	size_t i;

	for (i = 0; i < ov->n; i++)
		if (pc_profile__iequal(ov->e[i].name, name))
			return &ov->e[i];
	return NULL;
}

static struct ov_entry *get_entry(struct pc_overrides *ov, const char *name)
{
	struct ov_entry *e = find_entry(ov, name);

	if (e)
		return e;
	PC_ALLOC_GROW(ov->e, ov->n + 1, ov->alloc);
	e = &ov->e[ov->n++];
	memset(e, 0, sizeof(*e));
	e->name = xstrdup(name);
	return e;
}

static void rd_release(struct rd *r)
{
	size_t i;

	for (i = 0; i < r->n_sect; i++)
		free(r->sect[i]);
	free(r->sect);
	for (i = 0; i < r->n_pend; i++)
		pc_buf_release(&r->pend[i].raw);
	free(r->pend);
}

int pc_overrides_read_mem(struct pc_overrides *ov, const char *name,
			  const char *text, size_t len, struct pc_err *err)
{
	struct rd r = { 0 };
	struct pc_phrase_value *vals = NULL;
	size_t i;
	int rc = 0, line;

	if (len > PC_PROFILE_MAX_OVERRIDE_BYTES)
		return pc_err_set(err, PC_ELIMIT,
				  "override file '%s' is larger than %u bytes",
				  name, PC_PROFILE_MAX_OVERRIDE_BYTES);
	r.name = name;
	r.in.text = text;
	r.in.len = len;
	line = ini_parse_stream(ov_reader, &r, ov_handler, &r);
	if (line > 0)
		rd_error(&r, (unsigned)line, PC_EPARSE,
			 "cannot read this line (write 'key = value', "
			 "'[ENTRY NAME]' or a comment starting with ';' or "
			 "'#')");
	else if (line < 0)
		rd_error(&r, r.in.lineno, PC_EIO,
			 "inih could not read the file");
	if (r.err_line) {
		rc = pc_err_set(err, r.err.code, "%s", r.err.msg);
		goto out;
	}
	/* Read every value before changing anything. */
	vals = xcalloc(r.n_pend ? r.n_pend : 1, sizeof(*vals));
	for (i = 0; i < r.n_pend; i++) {
		struct pending *pd = &r.pend[i];
		struct pc_err perr = { 0 };
		const char *v = pd->raw.buf;

		if (!*v) {
			rc = pc_err_set(err, PC_EPARSE,
					"%s:%u: '%s' has no value", name,
					pd->line, pd->key_name);
			goto out;
		}
		if (pd->key == KEY_PROFILE)
			continue;
		if (pc_phrase_short(&vals[i], (enum pc_prof_field)pd->key, v,
				    pd->raw.len, &perr) < 0) {
			rc = pc_err_set(err, perr.code, "%s:%u: [%s] %s: %s",
					name, pd->line, r.sect[pd->sect],
					pd->key_name, perr.msg);
			goto out;
		}
	}
	for (i = 0; i < r.n_pend; i++) {
		struct pending *pd = &r.pend[i];
		struct ov_entry *e = get_entry(ov, r.sect[pd->sect]);
		struct pc_buf q = PC_BUF_INIT;
		char *flat;

		pc_buf_addf(&q, "%s = %s", pd->key_name, pd->raw.buf);
		flat = pc_profile__quote(q.buf, q.len);
		if (pd->key == KEY_PROFILE) {
			free(e->profile);
			e->profile = xstrdup(pd->raw.buf);
			pc_profile__origin_set(&e->profile_from,
					       PC_PROF_SRC_OVERRIDE, name,
					       r.sect[pd->sect], pd->line, flat,
					       NULL);
		} else {
			struct ov_field *f = &e->f[pd->key];

			pc_phrase_value_release(&f->v);
			f->v = vals[i];
			memset(&vals[i], 0, sizeof(vals[i]));
			f->set = 1;
			pc_profile__origin_set(&f->o, PC_PROF_SRC_OVERRIDE,
					       name, r.sect[pd->sect], pd->line,
					       flat, NULL);
		}
		free(flat);
		pc_buf_release(&q);
	}
out:
	if (vals)
		for (i = 0; i < r.n_pend; i++)
			pc_phrase_value_release(&vals[i]);
	free(vals);
	rd_release(&r);
	return rc;
}

int pc_overrides_read(struct pc_overrides *ov, const char *path,
		      struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT;
	int rc;

	if ((rc = pc_profile__read_file(&b, path, PC_PROFILE_MAX_OVERRIDE_BYTES,
					err)) == 0)
		rc = pc_overrides_read_mem(ov, path, b.buf, b.len, err);
	pc_buf_release(&b);
	return rc;
}

const char *pc_overrides_profile(const struct pc_overrides *ov,
				 const char *entry,
				 const struct pc_prof_origin **from_out)
{
	const struct ov_entry *e = find_entry(ov, entry);

	if (!e || !e->profile)
		return NULL;
	if (from_out)
		*from_out = &e->profile_from;
	return e->profile;
}

static void copy_value(struct pc_phrase_value *dst,
		       const struct pc_phrase_value *src)
{
	size_t i;

	*dst = *src;
	dst->people = NULL;
	dst->text = src->text ? xstrdup(src->text) : NULL;
	dst->url = src->url ? xstrdup(src->url) : NULL;
	if (src->n_people) {
		dst->people = xcalloc(src->n_people, sizeof(*dst->people));
		for (i = 0; i < src->n_people; i++) {
			dst->people[i].name =
				src->people[i].name ?
					xstrdup(src->people[i].name) :
					NULL;
			dst->people[i].addr =
				src->people[i].addr ?
					xstrdup(src->people[i].addr) :
					NULL;
		}
	}
}

void pc_overrides_apply(struct pc_profile *p, const struct pc_overrides *ov,
			const char *entry)
{
	const struct ov_entry *e = find_entry(ov, entry);
	struct pc_buf old = PC_BUF_INIT, now = PC_BUF_INIT;
	int f;

	if (!e)
		return;
	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		struct pc_prof_origin *o = &p->policy.from[f];
		struct pc_phrase_value v;
		enum pc_prof_source was = o->kind;
		char *where = NULL;

		if (!e->f[f].set)
			continue;
		pc_buf_reset(&old);
		pc_buf_reset(&now);
		pc_profile_format(&old, &p->policy, (enum pc_prof_field)f);
		if (was == PC_PROF_SRC_SHORT || was == PC_PROF_SRC_PROSE)
			where = xasprintf("%s:%u", o->file, o->line);
		copy_value(&v, &e->f[f].v);
		pc_phrase_value_store(&p->policy, (enum pc_prof_field)f, &v);
		pc_profile__origin_copy(o, &e->f[f].o);
		pc_profile_format(&now, &p->policy, (enum pc_prof_field)f);
		if (where && strcmp(old.buf, now.buf) != 0)
			pc_profile__note(
				p,
				"%s: the override file %s:%u sets '%s' "
				"where the profile (%s %s) says '%s'",
				pc_profile_field_label((enum pc_prof_field)f),
				o->file, o->line, now.buf,
				pc_profile_source_name(was), where, old.buf);
		free(where);
	}
	pc_buf_release(&old);
	pc_buf_release(&now);
}
