// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Profile documents to policy (see profile.h). The document is read with
 * the RST reader; each section title is matched, after normalisation
 * (lower case, punctuation as blanks), against the names both vocabularies
 * give the policy questions. A section named after a field is first read
 * as a short answer: its whole body must be a value. Otherwise, and in
 * every other section, each sentence is searched for phrases; a phrase in
 * a section named after its field ranks above one elsewhere. A section
 * named after a field whose body only defers to another document ("See
 * :ref:`resend_reminders`.") is read through that reference, within
 * opts->max_ref_depth hops; labels are found by scanning Documentation/
 * of the tree.
 *
 * Candidates are gathered first and the best per field is taken at the
 * end: short answer, then prose in the field's own section, then other
 * prose, in document order within a rank. A short answer that prose
 * contradicts gets a note. Sections from which nothing was read (other
 * than introductions such as "Overview") are reported as unread.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "phrase.h"
#include "profile_internal.h"
#include "rst.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Label search: files and directory depth scanned at most. */
#define LABEL_SCAN_FILES 20000
#define LABEL_SCAN_DEPTH 12
/* Sections read through references, in all, per profile. */
#define REF_SECTIONS_MAX 256
/* A short answer is at most this long. */
#define SHORT_MAX 2000
/* A section that defers to another document says little else. */
#define DEFER_TEXT_MAX 200

static const char builtin_default_file[] =
	"Documentation/process/submitting-patches.rst";
static const char builtin_default_heading[] =
	"Don't get discouraged - or impatient";
static const char builtin_default_quote[] =
	"Wait for a minimum of one week before resubmitting or pinging "
	"reviewers - possibly longer during busy times like merge windows.";

/* ---- reading a profile ---- */

struct cand {
	enum pc_prof_field f;
	int rank; /* 0 short answer, 1 prose in the field's section, 2 prose */
	size_t order;
	struct pc_phrase_value v; /* owned */
	struct pc_prof_origin o; /* owned */
};

struct cached_doc {
	char *name; /* owned: tree-relative path */
	struct pc_rst_doc *doc; /* owned; NULL when it could not be read */
};

struct ctx {
	const struct pc_profile_opts *opts;
	struct pc_profile *p;
	struct cand *c;
	size_t n_c, alloc_c;
	struct cached_doc *docs;
	size_t n_docs;
	unsigned ref_sections;
	char *tree_real; /* owned: realpath of the tree, or NULL */
	struct pc_err *err;
};

/* What a section gives: the field named by its title, a field it
 * inherits from a section that deferred to it. */
struct scope {
	const char *file; /* the document's name */
	const char *via; /* how it was reached, or NULL */
	enum pc_profile__title_kind kind;
	enum pc_prof_field field; /* T_FIELD */
	int testish;
	int inherit; /* inherited: field applies */
	enum pc_prof_field inherited;
};

static void add_cand(struct ctx *c, enum pc_prof_field f, int rank,
		     struct pc_phrase_value *v, enum pc_prof_source kind,
		     const char *file, const char *heading, unsigned line,
		     const char *quote, size_t quote_len, const char *via)
{
	struct cand *k;
	char *q = pc_profile__quote(quote, quote_len);

	PC_ALLOC_GROW(c->c, c->n_c + 1, c->alloc_c);
	k = &c->c[c->n_c];
	memset(k, 0, sizeof(*k));
	k->f = f;
	k->rank = rank;
	k->order = c->n_c++;
	k->v = *v;
	memset(v, 0, sizeof(*v));
	pc_profile__origin_set(&k->o, kind, file, heading, line, q, via);
	free(q);
}

struct sentence_scan {
	struct ctx *c;
	const struct scope *sc;
	const char *heading;
	const struct pc_rst_para *para;
	int found;
};

static int relaxed(const struct scope *sc, enum pc_prof_field f)
{
	return (sc->kind == T_FIELD && sc->field == f) ||
	       (sc->inherit && sc->inherited == f);
}

/*
 * A test rule without a link that follows another in the same section
 * ("Code should be tested ...  Anything other than minor changes should be
 * built, booted and tested ...") joins it: the field is the whole rule.
 * Takes v's text on success.
 */
static int join_test_rule(struct sentence_scan *ss, int rank,
			  struct pc_phrase_value *v)
{
	struct cand *k = ss->c->n_c ? &ss->c->c[ss->c->n_c - 1] : NULL;
	struct pc_buf b = PC_BUF_INIT;

	if (!k || k->f != PC_PROF_TEST_SUITE || k->rank != rank || k->v.url ||
	    v->url || !k->o.heading || !ss->heading ||
	    strcmp(k->o.heading, ss->heading) ||
	    strlen(k->v.text) + strlen(v->text) > PC_PROFILE_QUOTE_MAX)
		return 0;
	pc_buf_addf(&b, "%s %s", k->v.text, v->text);
	free(k->v.text);
	k->v.text = xstrdup(b.buf);
	free(k->o.quote);
	k->o.quote = pc_buf_detach(&b, NULL);
	pc_phrase_value_release(v);
	return 1;
}

static int scan_sentence(void *arg, size_t off, size_t len)
{
	struct sentence_scan *ss = arg;
	const struct scope *sc = ss->sc;
	const char *s = ss->para->text + off;
	struct pc_phrase_value v;
	int f;

	if (pc_phrase_is_example(s, len))
		return 0;
	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		int rel = relaxed(sc, (enum pc_prof_field)f), rank;

		if (f == PC_PROF_TRUSTED)
			continue;
		if (f == PC_PROF_TEST_SUITE && !rel && !sc->testish)
			continue;
		if (!pc_phrase_prose(&v, (enum pc_prof_field)f, s, len,
				     rel || (f == PC_PROF_TEST_SUITE &&
					     sc->testish)))
			continue;
		rank = rel ||
				       (sc->kind == T_DATES &&
					(f == PC_PROF_NEW_FEATURES ||
					 f == PC_PROF_MERGE_FEATURES)) ||
				       (f == PC_PROF_TEST_SUITE &&
					sc->testish) ?
			       1 :
			       2;
		if (f == PC_PROF_TEST_SUITE && join_test_rule(ss, rank, &v))
			continue;
		add_cand(ss->c, (enum pc_prof_field)f, rank, &v,
			 PC_PROF_SRC_PROSE, sc->file, ss->heading,
			 pc_rst_para_line(ss->para, off), s, len, sc->via);
		ss->found = 1;
	}
	return 0;
}

/* Joins a section's own paragraphs with '\n' into b. */
static void section_text(struct pc_buf *b, const struct pc_rst_doc *d, size_t s)
{
	const struct pc_rst_section *sec = &d->sec[s];
	size_t i;

	for (i = 0; i < sec->n_paras; i++) {
		if (i)
			pc_buf_addch(b, '\n');
		pc_buf_add(b, d->para[sec->first_para + i].text,
			   d->para[sec->first_para + i].len);
	}
}

static int follow_refs(struct ctx *c, const struct pc_rst_doc *d, size_t s,
		       const struct scope *sc, unsigned depth);

/*
 * The text of a section that names a field, as a short answer: its
 * paragraphs without the lines that answer for core files only ("Core:
 * Before -rc4", as the RFC allows), which have no typed field and are
 * noted. Returns the number of paragraphs that gave text.
 */
static size_t answer_text(struct ctx *c, struct pc_buf *b, unsigned *line_out,
			  const struct pc_rst_doc *d, size_t s,
			  const char *file)
{
	const struct pc_rst_section *sec = &d->sec[s];
	size_t i, n = 0;

	*line_out = 0;

	for (i = 0; i < sec->n_paras; i++) {
		const struct pc_rst_para *pa = &d->para[sec->first_para + i];
		const char *p = pa->text, *end = pa->text + pa->len;
		unsigned line = pa->line;
		int used = 0;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

			if (pc_mem_istarts(p, len, "core:")) {
				pc_profile__note(
					c->p,
					"%s:%u \"%s\": '%.*s' answers for "
					"core files only, which the "
					"policy does not type; it is "
					"kept as text",
					file, line, sec->title,
					(int)(len > 100 ? 100 : len), p);
			} else {
				if (b->len)
					pc_buf_addch(b, '\n');
				pc_buf_add(b, p, len);
				if (!*line_out)
					*line_out = line;
				used = 1;
			}
			line++;
			p += len + 1;
		}
		n += used;
	}
	return n;
}

static void add_unread(struct ctx *c, const char *file,
		       const struct pc_rst_doc *d, size_t s, const char *why)
{
	struct pc_profile *p = c->p;
	struct pc_prof_unread *u;
	struct pc_buf b = PC_BUF_INIT;

	section_text(&b, d, s);
	p->unread =
		xreallocarray(p->unread, p->n_unread + 1, sizeof(*p->unread));
	u = &p->unread[p->n_unread++];
	u->file = xstrdup(file);
	u->heading = pc_profile__dup_or_null(d->sec[s].title);
	u->line = d->sec[s].line;
	u->text = pc_buf_detach(&b, NULL);
	u->why = xstrdup(why);
}

/*
 * Reads section s of d. report: add it to the unread sections when
 * nothing came of it. Returns 1 when something was read.
 */
static int scan_section(struct ctx *c, const struct pc_rst_doc *d, size_t s,
			struct scope sc, unsigned depth, int report)
{
	const struct pc_rst_section *sec = &d->sec[s];
	struct pc_err perr = { 0 };
	struct pc_buf body = PC_BUF_INIT;
	struct pc_phrase_value v;
	int found = 0;
	size_t i, n_paras;
	unsigned answer_line = 0;

	sc.kind =
		pc_profile__classify_title(sec->title, &sc.field, &sc.testish);
	/* The document title's own text is an introduction. */
	if (sec->level == 1 && sc.kind == T_UNKNOWN)
		sc.kind = T_INFO;
	n_paras = sec->n_paras;
	if (sc.kind == T_FIELD)
		n_paras = answer_text(c, &body, &answer_line, d, s, sc.file);
	else
		section_text(&body, d, s);
	if (sc.kind == T_FIELD && n_paras && body.len <= SHORT_MAX &&
	    (n_paras == 1 || sc.field == PC_PROF_TRUSTED) &&
	    pc_phrase_short(&v, sc.field, body.buf, body.len, &perr) == 0) {
		const char *q = body.buf;
		size_t ql = body.len;
		struct pc_buf list = PC_BUF_INIT;

		if (sc.field == PC_PROF_TRUSTED) {
			/* Quote the list on one line. */
			for (i = 0; i < body.len; i++)
				if (body.buf[i] == '\n')
					pc_buf_addstr(&list, ", ");
				else
					pc_buf_addch(&list, body.buf[i]);
			q = list.buf;
			ql = list.len;
		}
		add_cand(c, sc.field, 0, &v, PC_PROF_SRC_SHORT, sc.file,
			 sec->title, answer_line, q, ql, sc.via);
		pc_buf_release(&list);
		found = 1;
		goto out;
	}
	for (i = 0; i < sec->n_paras; i++) {
		struct sentence_scan ss = { c, &sc, sec->title,
					    &d->para[sec->first_para + i], 0 };

		pc_phrase_sentences(ss.para->text, ss.para->len, scan_sentence,
				    &ss);
		found |= ss.found;
	}
	/* Trusted reviewers are a list under a paragraph that says what
	 * they do, so they are read from the whole section. */
	if ((sc.kind == T_UNKNOWN || relaxed(&sc, PC_PROF_TRUSTED)) &&
	    pc_phrase_prose(&v, PC_PROF_TRUSTED, body.buf, body.len,
			    relaxed(&sc, PC_PROF_TRUSTED))) {
		add_cand(c, PC_PROF_TRUSTED,
			 relaxed(&sc, PC_PROF_TRUSTED) ? 1 : 2, &v,
			 PC_PROF_SRC_PROSE, sc.file, sec->title,
			 sec->n_paras ? d->para[sec->first_para].line :
					sec->line,
			 body.buf, body.len, sc.via);
		found = 1;
	}
	if ((sc.kind == T_FIELD || sc.kind == T_DATES) &&
	    body.len <= DEFER_TEXT_MAX)
		found |= follow_refs(c, d, s, &sc, depth);
	if (!found && report && sc.kind != T_INFO && sec->n_paras) {
		struct pc_buf why = PC_BUF_INIT;

		if (sc.kind == T_FIELD)
			pc_buf_addf(&why, "no %s could be read from it%s%s",
				    pc_profile_field_label(sc.field),
				    perr.code ? ": " : "",
				    perr.code ? perr.msg : "");
		else if (sc.kind == T_DATES)
			pc_buf_addstr(&why, "no -rc deadline could be read "
					    "from it");
		else if (sc.kind == T_TEXT)
			pc_buf_addstr(&why, "its rules have no typed field "
					    "(kept as text)");
		else
			pc_buf_addstr(&why, "no profile field has this title, "
					    "and no policy phrase was found "
					    "in it");
		add_unread(c, sc.file, d, s, why.buf);
		pc_buf_release(&why);
	}
out:
	pc_buf_release(&body);
	return found;
}

/* ---- references ---- */

static int tree_relative_ok(const char *rel)
{
	const char *p = rel;

	if (!*rel || *rel == '/')
		return 0;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 0;
		p += n + (e ? 1 : 0);
	}
	return 1;
}

/* The absolute path of tree-relative rel, if it stays inside the tree
 * (symlinks resolved). Caller frees. */
static int tree_file(char **out, struct ctx *c, const char *rel,
		     struct pc_err *err)
{
	char *path, *real;
	size_t tl;

	*out = NULL;
	if (!c->tree_real)
		return pc_err_set(err, PC_EUSAGE,
				  "no kernel tree to read '%s' "
				  "from",
				  rel);
	if (!tree_relative_ok(rel))
		return pc_err_set(err, PC_EPARSE,
				  "profile path '%s' leaves the tree", rel);
	path = xasprintf("%s/%s", c->tree_real, rel);
	real = realpath(path, NULL);
	if (!real) {
		int rc = pc_err_errno(err,
				      errno == ENOENT ? PC_ENOTFOUND : PC_EIO,
				      "cannot open '%s' in the tree '%s'", rel,
				      c->tree_real);

		free(path);
		return rc;
	}
	free(path);
	tl = strlen(c->tree_real);
	if (strncmp(real, c->tree_real, tl) != 0 || real[tl] != '/') {
		free(real);
		return pc_err_set(err, PC_EPARSE,
				  "profile path '%s' leads out of the tree",
				  rel);
	}
	*out = real;
	return 0;
}

/* The parsed tree document rel (cached), or NULL (err set). */
static const struct pc_rst_doc *tree_doc(struct ctx *c, const char *rel,
					 struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT;
	struct cached_doc *cd;
	struct pc_rst_doc *doc = NULL;
	char *abs = NULL;
	size_t i;

	for (i = 0; i < c->n_docs; i++)
		if (!strcmp(c->docs[i].name, rel)) {
			if (!c->docs[i].doc)
				pc_err_set(err, PC_ENOTFOUND,
					   "cannot read '%s'", rel);
			return c->docs[i].doc;
		}
	if (tree_file(&abs, c, rel, err) == 0 &&
	    pc_profile__read_file(&b, abs, PC_RST_MAX_BYTES, err) == 0)
		pc_rst_parse(&doc, b.buf, b.len, err);
	free(abs);
	pc_buf_release(&b);
	c->docs = xreallocarray(c->docs, c->n_docs + 1, sizeof(*c->docs));
	cd = &c->docs[c->n_docs++];
	cd->name = xstrdup(rel);
	cd->doc = doc;
	return doc;
}

/* Does the file text define label (".. _label:")? */
static int defines_label(const char *text, size_t len, const char *label)
{
	size_t n = strlen(label), pos = 0;

	while (pos < len) {
		const char *p = text + pos;
		const char *nl = memchr(p, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - p) : len - pos;

		if (l >= n + 4 && p[0] == '.' && p[1] == '.' && p[2] == ' ' &&
		    p[3] == '_' && pc_mem_istarts(p + 4, l - 4, label) &&
		    p[4 + n] == ':')
			return 1;
		pos += l + 1;
	}
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Searches dir (tree-relative, e.g. "Documentation") for the .rst file
 * defining label; sets *found (caller frees) to its tree-relative path.
 * Entries are taken in byte order so that the answer is stable; skip is
 * a subdirectory not to enter (searched last by the caller).
 */
static void label_search(struct ctx *c, const char *dir, const char *label,
			 const char *skip, unsigned depth, unsigned *files,
			 char **found)
{
	char *abs = xasprintf("%s/%s", c->tree_real, dir);
	DIR *dh = opendir(abs);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;

	if (!dh) {
		free(abs);
		return;
	}
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		PC_ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(dh);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n && !*found; i++) {
		char *rel = xasprintf("%s/%s", dir, names[i]);
		char *full = xasprintf("%s/%s", c->tree_real, rel);
		struct stat st;
		size_t nl = strlen(names[i]);

		if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (depth < LABEL_SCAN_DEPTH &&
			    (!skip || strcmp(rel, skip) != 0))
				label_search(c, rel, label, skip, depth + 1,
					     files, found);
		} else if (S_ISREG(st.st_mode) && nl > 4 &&
			   !strcmp(names[i] + nl - 4, ".rst") &&
			   (*files)++ < LABEL_SCAN_FILES) {
			struct pc_buf b = PC_BUF_INIT;

			if (pc_profile__read_file(&b, full, PC_RST_MAX_BYTES,
						  NULL) == 0 &&
			    defines_label(b.buf, b.len, label)) {
				*found = rel;
				rel = NULL;
			}
			pc_buf_release(&b);
		}
		free(rel);
		free(full);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(abs);
}

/* The document and section a reference names; 0 when found. */
static int resolve_ref(struct ctx *c, const char *file,
		       const struct pc_rst_doc *d, const struct pc_rst_ref *r,
		       const struct pc_rst_doc **doc_out, char **name_out,
		       size_t *sec_out)
{
	struct pc_err err = { 0 };
	const struct pc_rst_doc *td;
	char *rel = NULL;
	size_t s;

	*doc_out = NULL;
	*name_out = NULL;
	if (!r->is_doc) {
		unsigned files = 0;

		/* In the same document first. */
		if ((s = pc_rst_find_label(d, r->target)) != PC_RST_NONE) {
			*doc_out = d;
			*name_out = xstrdup(file);
			*sec_out = s;
			return 0;
		}
		if (!c->tree_real)
			return -1;
		label_search(c, "Documentation", r->target,
			     "Documentation/translations", 0, &files, &rel);
		if (!rel)
			label_search(c, "Documentation/translations", r->target,
				     NULL, 1, &files, &rel);
		if (!rel)
			return -1;
	} else {
		const char *t = r->target;
		const char *slash = strrchr(file, '/');

		if (!c->tree_real)
			return -1;
		if (t[0] == '/')
			rel = xasprintf("Documentation%s.rst", t);
		else if (slash)
			rel = xasprintf("%.*s/%s.rst", (int)(slash - file),
					file, t);
		else
			rel = xasprintf("%s.rst", t);
	}
	td = tree_doc(c, rel, &err);
	if (!td) {
		free(rel);
		return -1;
	}
	s = r->is_doc ? 0 : pc_rst_find_label(td, r->target);
	if (s == PC_RST_NONE) {
		free(rel);
		return -1;
	}
	*doc_out = td;
	*name_out = rel;
	*sec_out = s;
	return 0;
}

static int follow_refs(struct ctx *c, const struct pc_rst_doc *d, size_t s,
		       const struct scope *sc, unsigned depth)
{
	const struct pc_rst_section *sec = &d->sec[s];
	size_t i, j;
	int found = 0;

	if (depth >= c->opts->max_ref_depth)
		return 0;
	for (i = 0; i < sec->n_paras; i++) {
		const struct pc_rst_para *pa = &d->para[sec->first_para + i];

		for (j = 0; j < pa->n_refs && j < 4; j++) {
			const struct pc_rst_ref *r = &pa->refs[j];
			const struct pc_rst_doc *td;
			struct scope ts = { 0 };
			struct pc_buf via = PC_BUF_INIT;
			char *tname;
			size_t ts_sec, end, k;

			if (resolve_ref(c, sc->file, d, r, &td, &tname,
					&ts_sec) < 0) {
				pc_profile__note(
					c->p,
					"%s:%u: cannot follow :%s:`%s` (%s)",
					sc->file, pa->line,
					r->is_doc ? "doc" : "ref", r->target,
					c->tree_real ? "not found in the tree" :
						       "no kernel tree given");
				continue;
			}
			if (sc->via)
				pc_buf_addf(&via, "%s; ", sc->via);
			pc_buf_addf(&via, "%s:%u \"%s\": :%s:`%s`", sc->file,
				    pa->line, sec->title ? sec->title : "",
				    r->is_doc ? "doc" : "ref", r->target);
			ts.file = tname;
			ts.via = via.buf;
			/* "Key Cycle Dates" names two fields: what it refers
			 * to is read on its own words. */
			ts.inherit = sc->kind == T_FIELD;
			ts.inherited = sc->field;
			/* The labelled section and its subsections; for a
			 * whole document (:doc:), all of it. */
			end = pc_rst_subtree_end(td, ts_sec);
			for (k = ts_sec; k <= end && k < td->n_sec; k++) {
				if (c->ref_sections++ >= REF_SECTIONS_MAX)
					break;
				found |= scan_section(c, td, k, ts, depth + 1,
						      0);
				/* Only the labelled section inherits. */
				ts.inherit = 0;
			}
			free(tname);
			pc_buf_release(&via);
		}
	}
	return found;
}

/* ---- choosing ---- */

/* Borrowing a value into a member, by kind (for formatting only). */
#define BORROW_DURATION(m) tmp.m = v->dur
#define BORROW_ENUM(m) tmp.m = v->e
#define BORROW_HOURS(m) tmp.m = v->hours
#define BORROW_DEADLINE(m) tmp.m = v->dl
#define BORROW_PEOPLE(m)                     \
	do {                                 \
		tmp.m = v->people;           \
		tmp.n_trusted = v->n_people; \
	} while (0)
#define BORROW_TEST(m)                 \
	do {                           \
		tmp.m = v->text;       \
		tmp.test_url = v->url; \
	} while (0)
#define BORROW(f, key, label, kind, member) \
	case f:                             \
		BORROW_##kind(member);      \
		break;

/* Formats value v of field f as pc_profile_format() would. */
static void format_value(struct pc_buf *out, enum pc_prof_field f,
			 const struct pc_phrase_value *v)
{
	struct pc_policy tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.from[f].kind = PC_PROF_SRC_SHORT;
	switch (f) {
		PC_PROF_FIELDS(BORROW)
	case PC_PROF_NFIELDS:
		return;
	}
	pc_profile_format(out, &tmp, f);
}

static void choose(struct ctx *c)
{
	struct pc_policy *pol = &c->p->policy;
	struct pc_buf a = PC_BUF_INIT, b = PC_BUF_INIT;
	int f;
	size_t i;

	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		struct cand *best = NULL;

		for (i = 0; i < c->n_c; i++) {
			struct cand *k = &c->c[i];

			if ((int)k->f != f)
				continue;
			if (!best || k->rank < best->rank ||
			    (k->rank == best->rank && k->order < best->order))
				best = k;
		}
		if (!best)
			continue;
		/* A short answer that prose contradicts. */
		for (i = 0; i < c->n_c; i++) {
			struct cand *k = &c->c[i];

			if ((int)k->f != f || k == best || best->rank != 0 ||
			    pc_phrase_value_equal(k->f, &k->v, &best->v))
				continue;
			pc_buf_reset(&a);
			pc_buf_reset(&b);
			format_value(&a, k->f, &best->v);
			format_value(&b, k->f, &k->v);
			pc_profile__note(c->p,
					 "%s: the short answer at %s:%u says "
					 "'%s' but %s:%u says '%s' (\"%s\")",
					 pc_profile_field_label(k->f),
					 best->o.file, best->o.line, a.buf,
					 k->o.file, k->o.line, b.buf,
					 k->o.quote);
		}
		pc_phrase_value_store(pol, (enum pc_prof_field)f, &best->v);
		pc_profile__origin_set(&pol->from[f], best->o.kind,
				       best->o.file, best->o.heading,
				       best->o.line, best->o.quote,
				       best->o.via);
	}
	pc_buf_release(&a);
	pc_buf_release(&b);
}

static void ctx_release(struct ctx *c)
{
	size_t i;

	for (i = 0; i < c->n_c; i++) {
		pc_phrase_value_release(&c->c[i].v);
		pc_profile__origin_release(&c->c[i].o);
	}
	free(c->c);
	for (i = 0; i < c->n_docs; i++) {
		free(c->docs[i].name);
		pc_rst_doc_free(c->docs[i].doc);
	}
	free(c->docs);
	free(c->tree_real);
}

static void ctx_init(struct ctx *c, struct pc_profile *p,
		     const struct pc_profile_opts *opts, struct pc_err *err)
{
	static const struct pc_profile_opts defaults = PC_PROFILE_OPTS_INIT;

	memset(c, 0, sizeof(*c));
	c->opts = opts ? opts : &defaults;
	c->p = p;
	c->err = err;
	if (c->opts->tree_dir)
		c->tree_real = realpath(c->opts->tree_dir, NULL);
}

/* Reads document (text, len) named name into c->p. */
static int read_doc(struct ctx *c, const char *text, size_t len,
		    const char *name, struct pc_err *err)
{
	struct pc_rst_doc *d;
	struct scope sc = { 0 };
	size_t s;
	int rc;

	if ((rc = pc_rst_parse(&d, text, len, err)) < 0)
		return pc_err_prefix(err, "%s", name);
	sc.file = name;
	for (s = 0; s < d->n_sec; s++)
		scan_section(c, d, s, sc, 0, 1);
	choose(c);
	pc_rst_doc_free(d);
	return 0;
}

void pc_profile_free(struct pc_profile *p)
{
	size_t i;
	int f;

	if (!p)
		return;
	free(p->entry);
	free(p->doc);
	pc_profile__origin_release(&p->doc_from);
	for (f = 0; f < PC_PROF_NFIELDS; f++) {
		struct pc_phrase_value v = { 0 };

		pc_profile__origin_release(&p->policy.from[f]);
		if (f == PC_PROF_TRUSTED || f == PC_PROF_TEST_SUITE)
			pc_phrase_value_store(&p->policy, (enum pc_prof_field)f,
					      &v);
	}
	for (i = 0; i < p->n_unread; i++) {
		free(p->unread[i].file);
		free(p->unread[i].heading);
		free(p->unread[i].text);
		free(p->unread[i].why);
	}
	free(p->unread);
	for (i = 0; i < p->n_notes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p);
}

static struct pc_profile *profile_new(void)
{
	struct pc_profile *p = xcalloc(1, sizeof(*p));

	p->policy.office_hours.start = p->policy.office_hours.end = -1;
	return p;
}

int pc_profile_parse(struct pc_profile **out, const char *text, size_t len,
		     const char *name, const struct pc_profile_opts *opts,
		     struct pc_err *err)
{
	struct pc_profile *p = profile_new();
	struct ctx c;
	int rc;

	*out = NULL;
	ctx_init(&c, p, opts, err);
	p->doc = xstrdup(name);
	rc = read_doc(&c, text, len, name, err);
	ctx_release(&c);
	if (rc < 0) {
		pc_profile_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

/* ---- the default ---- */

struct default_scan {
	struct pc_phrase_value v;
	unsigned line;
	char *quote;
	const struct pc_rst_para *para;
};

static int default_sentence(void *arg, size_t off, size_t len)
{
	struct default_scan *ds = arg;

	if (!pc_phrase_prose(&ds->v, PC_PROF_PING_AFTER, ds->para->text + off,
			     len, 1))
		return 0;
	ds->line = pc_rst_para_line(ds->para, off);
	ds->quote = pc_profile__quote(ds->para->text + off, len);
	return 1;
}

/* Fills the fields that have a default and are not stated. */
static void fill_default(struct ctx *c)
{
	struct pc_policy *pol = &c->p->policy;
	struct default_scan ds = { 0 };
	struct pc_err err = { 0 };
	const struct pc_rst_doc *d = NULL;
	size_t s = PC_RST_NONE, i;

	if (c->opts->no_default ||
	    pol->from[PC_PROF_PING_AFTER].kind != PC_PROF_SRC_NONE)
		return;
	if (c->tree_real && (d = tree_doc(c, builtin_default_file, &err))) {
		s = pc_rst_find_label(d, "resend_reminders");
		for (i = 1; s == PC_RST_NONE && i < d->n_sec; i++)
			if (d->sec[i].title &&
			    pc_memimem(d->sec[i].title, strlen(d->sec[i].title),
				       "get discouraged"))
				s = i;
	}
	if (s != PC_RST_NONE) {
		for (i = 0; i < d->sec[s].n_paras && !ds.quote; i++) {
			ds.para = &d->para[d->sec[s].first_para + i];
			pc_phrase_sentences(ds.para->text, ds.para->len,
					    default_sentence, &ds);
		}
	}
	if (ds.quote) {
		pol->ping_after = ds.v.dur;
		pc_profile__origin_set(&pol->from[PC_PROF_PING_AFTER],
				       PC_PROF_SRC_DEFAULT,
				       builtin_default_file, d->sec[s].title,
				       ds.line, ds.quote, NULL);
		free(ds.quote);
		pc_phrase_value_release(&ds.v);
		return;
	}
	/* No tree (or a tree without the text): the guideline as 6.1 has
	 * it. */
	pol->ping_after.count = 1;
	pol->ping_after.unit = PC_PROF_UNIT_WEEKS;
	pc_profile__origin_set(&pol->from[PC_PROF_PING_AFTER],
			       PC_PROF_SRC_DEFAULT, builtin_default_file,
			       builtin_default_heading, 0,
			       builtin_default_quote, NULL);
}

/* ---- reading documents by path ---- */

/* Tree-relative name of absolute path real, or NULL if outside. */
static char *relative_to_tree(const struct ctx *c, const char *real)
{
	size_t tl;

	if (!c->tree_real)
		return NULL;
	tl = strlen(c->tree_real);
	if (strncmp(real, c->tree_real, tl) != 0 || real[tl] != '/')
		return NULL;
	return xstrdup(real + tl + 1);
}

static int read_path(struct ctx *c, const char *path, int in_tree_only,
		     struct pc_err *err)
{
	struct pc_buf b = PC_BUF_INIT;
	char *real = NULL, *name = NULL;
	struct stat st;
	int rc;

	if (!in_tree_only && stat(path, &st) == 0) {
		if (!(real = realpath(path, NULL))) {
			rc = pc_err_errno(err, PC_EIO, "cannot resolve '%s'",
					  path);
			goto out;
		}
		if (!(name = relative_to_tree(c, real)))
			name = xstrdup(path);
	} else {
		if ((rc = tree_file(&real, c, path, err)) < 0) {
			if (rc == PC_EUSAGE)
				rc = pc_err_set(err, PC_ENOTFOUND,
						"cannot open '%s'", path);
			goto out;
		}
		name = xstrdup(path);
	}
	if ((rc = pc_profile__read_file(&b, real, PC_RST_MAX_BYTES, err)) < 0)
		goto out;
	free(c->p->doc);
	c->p->doc = xstrdup(name);
	rc = read_doc(c, b.buf, b.len, name, err);
out:
	free(real);
	free(name);
	pc_buf_release(&b);
	return rc;
}

int pc_profile_read(struct pc_profile **out, const char *path,
		    const struct pc_profile_opts *opts, struct pc_err *err)
{
	struct pc_profile *p = profile_new();
	struct ctx c;
	int rc;

	*out = NULL;
	ctx_init(&c, p, opts, err);
	if ((rc = read_path(&c, path, 0, err)) == 0)
		fill_default(&c);
	ctx_release(&c);
	if (rc < 0) {
		pc_profile_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

static int is_url(const char *s)
{
	const char *colon = strstr(s, "://");
	const char *p;

	if (!colon || colon == s)
		return 0;
	for (p = s; p < colon; p++)
		if (!pc_isalpha((unsigned char)*p))
			return 0;
	return 1;
}

int pc_profile_for_entry(struct pc_profile **out, const char *entry,
			 const char *const *p_values, const unsigned *p_lines,
			 size_t n_p, const struct pc_overrides *ov,
			 const struct pc_profile_opts *opts, struct pc_err *err)
{
	struct pc_profile *p = profile_new();
	const struct pc_prof_origin *from = NULL;
	const char *doc = ov ? pc_overrides_profile(ov, entry, &from) : NULL;
	struct ctx c;
	size_t i;
	int rc = 0;

	*out = NULL;
	ctx_init(&c, p, opts, err);
	p->entry = xstrdup(entry);
	if (doc) {
		pc_profile__origin_copy(&p->doc_from, from);
		for (i = 0; i < n_p; i++)
			if (strcmp(p_values[i], doc) != 0)
				pc_profile__note(p,
						 "MAINTAINERS names '%s' (P:), "
						 "the override file %s:%u "
						 "'%s' instead",
						 p_values[i], from->file,
						 from->line, doc);
	} else if (n_p) {
		char *q = xasprintf("P: %s", p_values[0]);

		doc = p_values[0];
		pc_profile__origin_set(&p->doc_from, PC_PROF_SRC_MAINTAINERS,
				       "MAINTAINERS", entry,
				       p_lines ? p_lines[0] : 0, q, NULL);
		free(q);
		for (i = 1; i < n_p; i++)
			pc_profile__note(p,
					 "the entry has more than one P: line; "
					 "'%s' is not read",
					 p_values[i]);
	}
	if (doc && is_url(doc)) {
		p->doc = xstrdup(doc);
		p->doc_is_url = 1;
		pc_profile__note(p,
				 "the profile is a URL, which is not fetched: "
				 "give its policy in an override file section "
				 "[%s]",
				 entry);
	} else if (doc) {
		if ((rc = read_path(&c, doc, 1, err)) < 0)
			goto out;
	} else {
		pc_profile__note(p, "the entry has no profile (no P: line and "
				    "no `profile =` in an override file)");
	}
	if (ov)
		pc_overrides_apply(p, ov, entry);
	fill_default(&c);
out:
	ctx_release(&c);
	if (rc < 0) {
		pc_profile_free(p);
		return rc;
	}
	*out = p;
	return 0;
}
