// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading MAINTAINERS the way read_maintainer_file() in get_maintainer.pl
 * reads it, into entries with every tag, their line numbers, and the index
 * (fpattern.c) that mapping uses; then laid out as an image (image.c).
 * The public entries are made from the image when first asked for.
 *
 * The script keeps every line that is a tag ("X: value": an upper-case
 * letter, a colon, blanks) and every other line that is neither blank
 * nor a '#' comment; an entry is a run of tag lines, named by the line
 * before it. Blank and comment lines therefore do not end an entry, and
 * a stray text line between two tags starts a new one: both are kept
 * here as the script has them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maint/maint_internal.h"
#include "util/util.h"
#include "util/file.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A line the script keeps in @typevalue. */
struct tv {
	const char *line; /* the line, NUL-terminated in m->text */
	const char *value; /* for a tag: after "X:" and blanks */
	size_t off; /* byte offset of the line in MAINTAINERS */
	unsigned lineno;
	char tag; /* 0 for a text line */
};

static int read_file(struct pc_buf *out, const char *path, int missing_ok,
		     struct pc_err *err)
{
	int rc = pc_read_file(out, path, PC_FILE_LIMIT,
			      missing_ok ? PC_READ_MISSING_OK : 0,
			      "give the kernel tree's MAINTAINERS file", err);

	/* a missing MAINTAINERS is an I/O error here, as it always was */
	return rc == PC_ENOTFOUND ? PC_EIO : rc;
}

/* The role get_maintainer_role() derives from an S: value. */
static const char *role_word(struct pc_maint__arena *a, const char *s)
{
	static const struct {
		const char *status, *role;
	} map[] = {
		{ "supported", "supporter" },
		{ "maintained", "maintainer" },
		{ "odd fixes", "odd fixer" },
		{ "orphan", "orphan minder" },
		{ "obsolete", "obsolete minder" },
		{ "buried alive in reporters", "chief penguin" },
	};
	size_t i, n = strlen(s);
	char *lc = pc_maint__strndup(a, s, n);

	for (i = 0; i < n; i++)
		lc[i] = (char)pc_tolower((unsigned char)lc[i]);
	for (i = 0; i < PC_ARRAY_SIZE(map); i++)
		if (!strcmp(lc, map[i].status))
			return map[i].role;
	return lc;
}

/* get_subsystem_name(): names over 50 bytes are cut to 47 plus "...". */
static const char *subsys_name(struct pc_maint__arena *a, const char *name)
{
	size_t n = strlen(name);
	char *s;

	if (n <= 50)
		return name;
	n = 47;
	while (n && pc_isspace((unsigned char)name[n - 1]))
		n--;
	s = pc_maint__alloc(a, n + 4);
	memcpy(s, name, n);
	memcpy(s + n, "...", 4);
	return s;
}

/*
 * The header's tag descriptions: "\tM: *Mail* patches to: ..." and the
 * indented lines under it, up to a blank or unindented line.
 */
static void parse_tag_docs(struct pc_maint__build *m, const char *h)
{
	struct pc_buf doc = PC_BUF_INIT;
	int cur = -1;

	while (*h) {
		const char *nl = strchr(h, '\n');
		size_t n = nl ? (size_t)(nl - h) : strlen(h);
		const char *p = h;
		size_t k = n;

		h += n + (nl != NULL);
		if (k && p[k - 1] == '\r')
			k--;
		if (k >= 4 && p[0] == '\t' && p[1] >= 'A' && p[1] <= 'Z' &&
		    p[2] == ':' && p[3] == ' ') {
			if (cur >= 0)
				m->tag_doc[cur] = pc_maint__strndup(
					&m->arena, doc.buf, doc.len);
			cur = p[1] - 'A';
			pc_buf_reset(&doc);
			pc_buf_add(&doc, p + 4, k - 4);
			continue;
		}
		if (cur >= 0 && k && pc_isspace((unsigned char)p[0])) {
			while (k && pc_isspace((unsigned char)*p)) {
				p++;
				k--;
			}
			if (k) {
				pc_buf_addch(&doc, '\n');
				pc_buf_add(&doc, p, k);
				continue;
			}
		}
		if (cur >= 0)
			m->tag_doc[cur] =
				pc_maint__strndup(&m->arena, doc.buf, doc.len);
		cur = -1;
	}
	if (cur >= 0)
		m->tag_doc[cur] =
			pc_maint__strndup(&m->arena, doc.buf, doc.len);
	pc_buf_release(&doc);
}

/* Splits m->text into lines; fills *tvs with the ones the script keeps. */
static int split_lines(struct pc_maint__build *m, struct tv **tvs, size_t *ntv,
		       struct pc_err *err)
{
	char *p = m->text, *end = m->text + m->text_len;
	size_t alloc = 0;
	unsigned lineno = 0;

	*tvs = NULL;
	*ntv = 0;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end, *s;
		struct tv t = { 0 };

		lineno++;
		if (memchr(p, '\0', (size_t)(le - p)))
			return pc_err_set(err, PC_EPARSE,
					  "MAINTAINERS:%u: NUL byte in line",
					  lineno);
		/* Deviation: a CR before the LF is not part of the line. */
		if (le > p && le[-1] == '\r')
			le--;
		*le = '\0';
		t.line = p;
		t.off = (size_t)(p - m->text);
		t.lineno = lineno;
		p = nl ? nl + 1 : end;
		if (t.line[0] >= 'A' && t.line[0] <= 'Z' && t.line[1] == ':') {
			/* m/^([A-Z]):\s*(.*)/ */
			for (s = (char *)t.line + 2;
			     *s && pc_isspace((unsigned char)*s); s++)
				;
			t.tag = t.line[0];
			t.value = s;
		} else {
			/* next if /^\s*$/ || /^\s*#/ */
			for (s = (char *)t.line;
			     *s && pc_isspace((unsigned char)*s); s++)
				;
			if (!*s || *s == '#')
				continue;
		}
		PC_ALLOC_GROW(*tvs, *ntv + 1, alloc);
		(*tvs)[(*ntv)++] = t;
	}
	return 0;
}

/* The order the named arrays of an entry are laid out in. */
static const char named_tags[] = "MRLSWQBCPTFXNK";

static void fill_named(struct pc_maint__arena *a, struct pc_maint_entry *e)
{
	struct pc_maint_value *vals =
		pc_maint__alloc(a, (e->n_tags + 1) * sizeof(*vals));
	const struct pc_maint_value *start[sizeof(named_tags)];
	size_t count[sizeof(named_tags)] = { 0 };
	size_t k, t, pos = 0;

	for (k = 0; named_tags[k]; k++) {
		start[k] = vals + pos;
		for (t = 0; t < e->n_tags; t++) {
			if (e->tags[t].tag != named_tags[k])
				continue;
			vals[pos].value = e->tags[t].value;
			vals[pos].line = e->tags[t].line;
			pos++;
			count[k]++;
		}
	}
#define SET(field, i)                    \
	do {                             \
		e->field = start[i];     \
		e->n_##field = count[i]; \
	} while (0)
	SET(maintainers, 0);
	SET(reviewers, 1);
	SET(lists, 2);
	SET(status, 3);
	SET(web, 4);
	SET(patchwork, 5);
	SET(bugs, 6);
	SET(chat, 7);
	SET(profile_lines, 8);
	SET(scm, 9);
	SET(files, 10);
	SET(excludes, 11);
	SET(regexes, 12);
	SET(keywords, 13);
#undef SET
	if (e->n_profile_lines) {
		const char **pv =
			pc_maint__alloc(a, e->n_profile_lines * sizeof(*pv));

		for (k = 0; k < e->n_profile_lines; k++)
			pv[k] = e->profile_lines[k].value;
		e->profiles = pv;
		e->n_profiles = e->n_profile_lines;
	}
}

/* L: "addr (moderated for non-subscribers)" as add_categories() reads it. */
static void parse_list(struct pc_maint__build *m, struct pc_maint__tagx *x,
		       const char *v)
{
	const char *sp = v;

	/* m/([^\s]+)\s+(.*)$/: the first word, then the rest. */
	while (*sp && !pc_isspace((unsigned char)*sp))
		sp++;
	if (!*sp || sp == v) {
		x->list = v;
		return;
	}
	x->list = pc_maint__strndup(&m->arena, v, (size_t)(sp - v));
	while (*sp && pc_isspace((unsigned char)*sp))
		sp++;
	x->list_sub = strstr(sp, "subscribers-only") != NULL;
	x->list_mod = strstr(sp, "moderated") != NULL;
}

static int build_entries(struct pc_maint__build *m, const struct tv *tvs,
			 size_t ntv, const char *orig)
{
	struct pc_maint__rfc822 *rfc = NULL;
	struct pc_buf lc = PC_BUF_INIT;
	size_t i, ne = 0, nt = 0, first = ntv;

	for (i = 0; i < ntv; i++) {
		if (!tvs[i].tag)
			continue;
		nt++;
		if (i == 0 || !tvs[i - 1].tag) {
			ne++;
			if (first == ntv)
				first = i;
		}
	}
	/* The header: everything before the first entry's name. */
	if (first == ntv)
		m->header = pc_maint__strndup(&m->arena, orig, m->text_len);
	else
		m->header = pc_maint__strndup(&m->arena, orig,
					      tvs[first ? first - 1 : 0].off);
	parse_tag_docs(m, m->header);

	m->ents = xcalloc(ne ? ne : 1, sizeof(*m->ents));
	m->tags = xcalloc(nt ? nt : 1, sizeof(*m->tags));
	m->tagx = xcalloc(nt ? nt : 1, sizeof(*m->tagx));
	for (i = first; i < ntv;) {
		struct pc_maint__bent *x = &m->ents[m->n_entries];
		const char *last_s = NULL;
		size_t j;

		if (!tvs[i].tag) {
			i++;
			continue;
		}
		x->tag0 = m->n_tags;
		x->tv0 = i;
		if (i == 0) {
			/* The section's first line is a tag: the script names
			 * it by that line ("F:" and the converted pattern,
			 * fixed up in parse()). */
			x->first_is_name = 1;
			x->name = tvs[0].line;
			x->line = tvs[0].lineno;
		} else {
			x->name = tvs[i - 1].line;
			x->line = tvs[i - 1].lineno;
		}
		for (j = i; j < ntv && tvs[j].tag; j++) {
			struct pc_maint_tag *t = &m->tags[m->n_tags];
			struct pc_maint__tagx *tx = &m->tagx[m->n_tags];

			t->tag = tvs[j].tag;
			t->value = tvs[j].value;
			t->line = tvs[j].lineno;
			if (!(x->first_is_name && j == i)) {
				if (t->tag == 'S')
					last_s = t->value;
				else if (t->tag == 'M' || t->tag == 'R')
					pc_maint__split_addresses(
						&rfc, &m->arena, t->value,
						&tx->addrs, &tx->n_addrs);
				else if (t->tag == 'L')
					parse_list(m, tx, t->value);
			}
			m->n_tags++;
		}
		x->n_tags = j - i;
		x->role = last_s ? role_word(&m->arena, last_s) : "unknown";
		x->subsys = subsys_name(&m->arena, x->name);
		if (!pc_maint__smap_get(&m->names, pc_maint__lc(&lc, x->name),
					NULL))
			pc_maint__smap_put(&m->names, lc.buf, m->n_entries);
		m->n_entries++;
		i = j;
	}
	pc_maint__rfc822_free(rfc);
	pc_buf_release(&lc);
	return 0;
}

static void hex_sha(char out[2 * PC_SHA256_LEN + 1], const void *p, size_t len)
{
	unsigned char d[PC_SHA256_LEN];

	pc_sha256(d, p, len);
	pc_hex(out, d, sizeof(d));
}

/* "F:" and the converted value (with its '/' when dir): the name of an
 * entry that starts MAINTAINERS with that tag. */
static char *first_name(struct pc_maint__arena *a, char tag, const char *v,
			int dir)
{
	size_t n = strlen(v);
	char *s = pc_maint__alloc(a, n + 4);

	s[0] = tag;
	s[1] = ':';
	memcpy(s + 2, v, n);
	if (dir)
		s[2 + n++] = '/';
	s[2 + n] = '\0';
	return s;
}

int pc_maint__parse(struct pc_maint__build *m, const char *text, size_t len,
		    const char *mailmap, size_t mailmap_len, struct pc_err *err)
{
	struct tv *tvs = NULL;
	size_t ntv;
	int rc;

	memcpy(m->mmsha, "-", 2);
	m->text = xmemdupz(text, len);
	m->text_len = len;
	hex_sha(m->sha, text, len);
	if ((rc = split_lines(m, &tvs, &ntv, err)) < 0 ||
	    (rc = build_entries(m, tvs, ntv, text)) < 0)
		goto out;
	if (mailmap) {
		pc_maint__mailmap_parse(&m->mailmap, mailmap, mailmap_len);
		hex_sha(m->mmsha, mailmap, mailmap_len);
	}
	pc_maint__index(m);
	if (m->n_entries && m->ents[0].first_is_name) {
		/* typevalue[0] is "$type:$value", F:/X: converted. */
		const struct pc_maint_tag *t = &m->tags[0];
		const char *v = t->value;
		struct pc_buf lc = PC_BUF_INIT;
		int fx = (t->tag == 'F' || t->tag == 'X') && m->n_fpats;

		if (fx)
			v = m->pool.buf + m->fpats[0].re;
		m->ents[0].name = first_name(&m->arena, t->tag, v, 0);
		m->ents[0].subsys = subsys_name(&m->arena, m->ents[0].name);
		/* build_entries() indexed the entry under its line:
		 * pc_maint_find() must know it by this name too. When it
		 * depends on the tree, pc_maint_find() knows it. */
		if (!(fx && m->fpats[0].maybe_dir))
			pc_maint__smap_put(&m->names,
					   pc_maint__lc(&lc, m->ents[0].name),
					   0);
		pc_buf_release(&lc);
	}
out:
	free(tvs);
	return rc;
}

void pc_maint__build_release(struct pc_maint__build *b)
{
	size_t i;

	free(b->ents);
	free(b->tags);
	free(b->tagx);
	free(b->fpats);
	pc_buf_release(&b->pool);
	free(b->pidx);
	free(b->buckets);
	free(b->npats);
	free(b->kpats);
	pc_maint__mailmap_release(&b->mailmap);
	pc_maint__smap_release(&b->names);
	for (i = 0; i < b->n_warns; i++)
		free(b->warns[i].msg);
	free(b->warns);
	pc_maint__arena_release(&b->arena);
	free(b->text);
	memset(b, 0, sizeof(*b));
}

int pc_maint_load_mem(struct pc_maint **out, const char *text, size_t len,
		      const char *mailmap, size_t mailmap_len,
		      const char *tree_dir_or_NULL, struct pc_err *err)
{
	struct pc_maint__build b;
	unsigned char *img = NULL;
	size_t ilen = 0;
	int rc;

	memset(&b, 0, sizeof(b));
	if ((rc = pc_maint__parse(&b, text, len, mailmap, mailmap_len, err)) <
	    0)
		goto out;
	pc_maint__image(&img, &ilen, &b);
	pc_maint__build_release(&b);
	if ((rc = pc_maint__open(out, img, ilen, PC_MAINT__HELD_MALLOC, 0,
				 tree_dir_or_NULL, err)) == 0)
		img = NULL;
out:
	pc_maint__build_release(&b);
	free(img);
	return rc;
}

int pc_maint_load_file(struct pc_maint **out, const char *maintainers_path,
		       const char *tree_dir_or_NULL, struct pc_err *err)
{
	struct pc_buf text = PC_BUF_INIT, mm = PC_BUF_INIT;
	char *mmpath = NULL;
	int rc, have_mm = 0;

	if ((rc = read_file(&text, maintainers_path, 0, err)) < 0)
		goto out;
	if (tree_dir_or_NULL) {
		mmpath = xasprintf("%s/.mailmap", tree_dir_or_NULL);
		if ((rc = read_file(&mm, mmpath, 1, err)) < 0)
			goto out;
		have_mm = rc == 0;
	}
	rc = pc_maint_load_mem(out, text.buf, text.len, have_mm ? mm.buf : NULL,
			       mm.len, tree_dir_or_NULL, err);
	if (rc < 0)
		pc_err_prefix(err, "%s", maintainers_path);
out:
	free(mmpath);
	pc_buf_release(&text);
	pc_buf_release(&mm);
	return rc;
}

int pc_maint_load(struct pc_maint **out, const char *tree_dir,
		  struct pc_err *err)
{
	char *path = xasprintf("%s/MAINTAINERS", tree_dir);
	int rc = pc_maint_load_file(out, path, tree_dir, err);

	free(path);
	return rc;
}

size_t pc_maint_count(const struct pc_maint *m)
{
	return m->n_entries;
}

/* ---- the public entries, made on first use -------------------------------- */

/* The name of entry i (entry 0 may depend on the tree, see name0). */
static const char *ent_name(const struct pc_maint *m, size_t i)
{
	if (i == 0 && m->name0)
		return m->name0;
	return m->str + m->ents[i].name;
}

static void make_entry(const struct pc_maint *m, size_t i,
		       struct pc_maint_entry *e, struct pc_maint__arena *a)
{
	const struct pc_maint__ent *x = &m->ents[i];
	struct pc_maint_tag *tags =
		pc_maint__alloc(a, (x->n_tags + 1) * sizeof(*tags));
	size_t t;

	for (t = 0; t < x->n_tags; t++) {
		const struct pc_maint__tag *it = &m->tags[x->tag0 + t];

		tags[t].tag = (char)it->tag;
		tags[t].value = m->str + it->value;
		tags[t].line = it->line;
	}
	e->name = ent_name(m, i);
	e->index = i;
	e->line = x->line;
	e->tags = tags;
	e->n_tags = x->n_tags;
	e->role = m->str + x->role;
	fill_named(a, e);
}

const struct pc_maint_entry *pc_maint__entry(const struct pc_maint *m, size_t i)
{
	/* m is immutable to its users; what is made here is made once,
	 * under the lock, and published by the flag. */
	struct pc_maint *mm = (struct pc_maint *)m;

	if (!atomic_load_explicit(&m->eready[i], memory_order_acquire)) {
		pthread_mutex_lock(&mm->lock);
		if (!atomic_load_explicit(&m->eready[i],
					  memory_order_relaxed)) {
			make_entry(m, i, &mm->entries[i], &mm->arena);
			atomic_store_explicit(&mm->eready[i], 1,
					      memory_order_release);
		}
		pthread_mutex_unlock(&mm->lock);
	}
	return &m->entries[i];
}

const struct pc_maint_entry *pc_maint_entry_at(const struct pc_maint *m,
					       size_t i)
{
	return i < m->n_entries ? pc_maint__entry(m, i) : NULL;
}

const struct pc_maint_entry *pc_maint_find(const struct pc_maint *m,
					   const char *name)
{
	struct pc_buf lc = PC_BUF_INIT, lc0 = PC_BUF_INIT;
	size_t i;
	int found;

	pc_maint__lc(&lc, name);
	if (m->name0 && !strcmp(lc.buf, pc_maint__lc(&lc0, m->name0))) {
		i = 0;
		found = 1;
	} else {
		found = pc_maint__fmap_get(&m->names, lc.buf, &i);
	}
	pc_buf_release(&lc);
	pc_buf_release(&lc0);
	return found ? pc_maint__entry(m, i) : NULL;
}

const struct pc_maint_entry *
pc_maint_find_prefix(const struct pc_maint *m, const char *name, size_t *n_out)
{
	const struct pc_maint_entry *e = pc_maint_find(m, name);
	size_t i, n = 0, one = 0, len = strlen(name);

	if (e || !len) {
		if (n_out)
			*n_out = e ? 1 : 0;
		return e;
	}
	for (i = 0; i < m->n_entries; i++)
		if (!strncasecmp(ent_name(m, i), name, len)) {
			one = i;
			n++;
		}
	if (n_out)
		*n_out = n;
	return n == 1 ? pc_maint__entry(m, one) : NULL;
}

const char *pc_maint_tree(const struct pc_maint *m)
{
	return m->tree;
}

const char *pc_maint_header(const struct pc_maint *m)
{
	return m->header;
}

const char *pc_maint_tag_doc(const struct pc_maint *m, char tag)
{
	if (tag < 'A' || tag > 'Z')
		return NULL;
	return m->tag_doc[tag - 'A'];
}

const char *pc_maint_id(const struct pc_maint *m)
{
	struct pc_maint *mm = (struct pc_maint *)m;

	if (!atomic_load_explicit(&m->id_ready, memory_order_acquire)) {
		pthread_mutex_lock(&mm->lock);
		if (!atomic_load_explicit(&m->id_ready, memory_order_relaxed)) {
			struct pc_buf id = PC_BUF_INIT;
			size_t i;

			/* The F:/X: lines that named a directory, all asked
			 * of the tree now. */
			pc_buf_addf(&id, "maintainers %s\nmailmap %s\ndirs\n",
				    m->sha, m->mmsha);
			for (i = 0; i < m->n_fpats; i++)
				if (pc_maint__fpat_dir(m, (uint32_t)i))
					pc_buf_addf(
						&id, "%u\n",
						m->tags[m->ents[m->fpats[i].entry]
								.tag0 +
							m->fpats[i].ord]
							.line);
			hex_sha(mm->id, id.buf, id.len);
			pc_buf_release(&id);
			atomic_store_explicit(&mm->id_ready, 1,
					      memory_order_release);
		}
		pthread_mutex_unlock(&mm->lock);
	}
	return m->id;
}

const char *pc_maint_sha256(const struct pc_maint *m)
{
	return m->sha;
}

size_t pc_maint_warning_count(const struct pc_maint *m)
{
	return m->n_warnings;
}

const char *pc_maint_warning(const struct pc_maint *m, size_t i)
{
	return i < m->n_warnings ? m->warnings[i] : NULL;
}
