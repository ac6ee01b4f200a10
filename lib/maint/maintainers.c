// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading MAINTAINERS the way read_maintainer_file() in get_maintainer.pl
 * reads it, into entries with every tag, their line numbers, and the index
 * (fpattern.c) that mapping uses.
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
	int rc = pc_read_file(out, path, 0, missing_ok ? PC_READ_MISSING_OK : 0,
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
static void parse_tag_docs(struct pc_maint *m, const char *h)
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
static int split_lines(struct pc_maint *m, struct tv **tvs, size_t *ntv,
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

static void fill_named(struct pc_maint *m, struct pc_maint_entry *e)
{
	struct pc_maint_value *vals =
		pc_maint__alloc(&m->arena, (e->n_tags + 1) * sizeof(*vals));
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
		const char **pv = pc_maint__alloc(
			&m->arena, e->n_profile_lines * sizeof(*pv));

		for (k = 0; k < e->n_profile_lines; k++)
			pv[k] = e->profile_lines[k].value;
		e->profiles = pv;
		e->n_profiles = e->n_profile_lines;
	}
}

/* L: "addr (moderated for non-subscribers)" as add_categories() reads it. */
static void parse_list(struct pc_maint *m, struct pc_maint__tagx *x,
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

static int build_entries(struct pc_maint *m, const struct tv *tvs, size_t ntv,
			 const char *orig)
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

	m->entries = xcalloc(ne ? ne : 1, sizeof(*m->entries));
	m->ex = xcalloc(ne ? ne : 1, sizeof(*m->ex));
	m->tags = xcalloc(nt ? nt : 1, sizeof(*m->tags));
	m->tagx = xcalloc(nt ? nt : 1, sizeof(*m->tagx));
	for (i = first; i < ntv;) {
		struct pc_maint_entry *e = &m->entries[m->n_entries];
		struct pc_maint__ent *x = &m->ex[m->n_entries];
		const char *last_s = NULL;
		size_t j;

		if (!tvs[i].tag) {
			i++;
			continue;
		}
		e->index = m->n_entries;
		x->tag0 = m->n_tags;
		x->tv0 = i;
		if (i == 0) {
			/* The section's first line is a tag: the script names
			 * it by that line ("F:" and the converted pattern,
			 * fixed up in load()). */
			x->first_is_name = 1;
			e->name = tvs[0].line;
			e->line = tvs[0].lineno;
		} else {
			e->name = tvs[i - 1].line;
			e->line = tvs[i - 1].lineno;
		}
		e->tags = &m->tags[m->n_tags];
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
		e->n_tags = j - i;
		e->role = last_s ? role_word(&m->arena, last_s) : "unknown";
		x->subsys = subsys_name(&m->arena, e->name);
		fill_named(m, e);
		if (!pc_maint__smap_get(&m->names, pc_maint__lc(&lc, e->name),
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

int pc_maint_load_mem(struct pc_maint **out, const char *text, size_t len,
		      const char *mailmap, size_t mailmap_len,
		      const char *tree_dir_or_NULL, struct pc_err *err)
{
	struct pc_maint *m = xcalloc(1, sizeof(*m));
	struct pc_buf dirs = PC_BUF_INIT, id = PC_BUF_INIT;
	char mmsha[2 * PC_SHA256_LEN + 1] = "-";
	struct tv *tvs = NULL;
	size_t ntv;
	int rc;

	if (tree_dir_or_NULL)
		m->tree = xstrdup(tree_dir_or_NULL);
	m->text = xmemdupz(text, len);
	m->text_len = len;
	hex_sha(m->sha, text, len);
	if ((rc = split_lines(m, &tvs, &ntv, err)) < 0 ||
	    (rc = build_entries(m, tvs, ntv, text)) < 0)
		goto out;
	if (mailmap) {
		pc_maint__mailmap_parse(&m->mailmap, mailmap, mailmap_len);
		hex_sha(mmsha, mailmap, mailmap_len);
	}
	if ((rc = pc_maint__index(m, &dirs, err)) < 0)
		goto out;
	pc_maint__file_emails_init(&m->fere);
	if (m->n_entries && m->ex[0].first_is_name) {
		/* typevalue[0] is "$type:$value", F:/X: converted. */
		const struct pc_maint_tag *t = &m->entries[0].tags[0];
		const char *v = t->value;

		if ((t->tag == 'F' || t->tag == 'X') && m->n_fpats)
			v = m->fpats[0].re;
		{
			struct pc_buf lc = PC_BUF_INIT;
			size_t n = strlen(v);
			char *s = pc_maint__alloc(&m->arena, n + 3);

			s[0] = t->tag;
			s[1] = ':';
			memcpy(s + 2, v, n + 1);
			m->entries[0].name = s;
			/* build_entries() indexed the entry under its line:
			 * pc_maint_find() must know it by this name. */
			pc_maint__smap_put(&m->names, pc_maint__lc(&lc, s), 0);
			pc_buf_release(&lc);
		}
		m->ex[0].subsys = subsys_name(&m->arena, m->entries[0].name);
	}
	pc_buf_addf(&id, "maintainers %s\nmailmap %s\ndirs\n%s", m->sha, mmsha,
		    dirs.buf);
	hex_sha(m->id, id.buf, id.len);
	*out = m;
	m = NULL;
out:
	free(tvs);
	pc_buf_release(&dirs);
	pc_buf_release(&id);
	pc_maint_free(m);
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

void pc_maint_free(struct pc_maint *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n_fpats; i++)
		pcre2_code_free(m->fpats[i].code);
	for (i = 0; i < m->n_npats; i++)
		pcre2_code_free(m->npats[i].code);
	for (i = 0; i < m->n_kpats; i++) {
		pcre2_code_free(m->kpats[i].plain);
		pcre2_code_free(m->kpats[i].diff);
		pcre2_code_free(m->kpats[i].multi);
	}
	free(m->fpats);
	free(m->npats);
	free(m->kpats);
	free(m->pidx);
	free(m->buckets);
	free(m->nidx);
	free(m->kidx);
	free(m->kbigram.start);
	free(m->nbigram.start);
	free(m->nalways);
	free(m->entries);
	free(m->ex);
	free(m->tags);
	free(m->tagx);
	pc_maint__mailmap_release(&m->mailmap);
	pc_maint__file_emails_release(&m->fere);
	pc_maint__smap_release(&m->names);
	for (i = 0; i < m->n_warnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	pc_maint__arena_release(&m->arena);
	free(m->text);
	free(m->tree);
	free(m);
}

size_t pc_maint_count(const struct pc_maint *m)
{
	return m->n_entries;
}

const struct pc_maint_entry *pc_maint_entry_at(const struct pc_maint *m,
					       size_t i)
{
	return i < m->n_entries ? &m->entries[i] : NULL;
}

const struct pc_maint_entry *pc_maint_find(const struct pc_maint *m,
					   const char *name)
{
	struct pc_buf lc = PC_BUF_INIT;
	size_t i;
	int found = pc_maint__smap_get(&m->names, pc_maint__lc(&lc, name), &i);

	pc_buf_release(&lc);
	return found ? &m->entries[i] : NULL;
}

const struct pc_maint_entry *
pc_maint_find_prefix(const struct pc_maint *m, const char *name, size_t *n_out)
{
	const struct pc_maint_entry *e = pc_maint_find(m, name), *one = NULL;
	size_t i, n = 0, len = strlen(name);

	if (e || !len) {
		if (n_out)
			*n_out = e ? 1 : 0;
		return e;
	}
	for (i = 0; i < m->n_entries; i++)
		if (!strncasecmp(m->entries[i].name, name, len)) {
			one = &m->entries[i];
			n++;
		}
	if (n_out)
		*n_out = n;
	return n == 1 ? one : NULL;
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
