// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mapping series to MAINTAINERS entries: keeps maint_entries and
 * maint_people in step with the MAINTAINERS given, and maps every series
 * whose mapped_hash is not that MAINTAINERS' id (new series, series whose
 * patches moved: a trigger clears mapped_hash, and everything after a
 * MAINTAINERS change).
 */
/* memmem() */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "mail/message.h"
#include "store/mapping.h"
#include "store/raw.h"
#include "store/store_internal.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char SQL_STATE[] =
	"SELECT hash FROM maintainers_state WHERE id = 1";
static const char SQL_SET_STATE[] =
	"INSERT OR REPLACE INTO maintainers_state "
	"(id, hash, tree, loaded_at, entries) VALUES (1, ?, ?, ?, ?)";
static const char SQL_CLEAR_PEOPLE[] = "DELETE FROM maint_people";
static const char SQL_CLEAR_ENTRIES[] = "DELETE FROM maint_entries";
static const char SQL_INSERT_ENTRY[] =
	"INSERT OR IGNORE INTO maint_entries (name, idx, status, profile, "
	"tree) VALUES (?, ?, ?, ?, ?)";
static const char SQL_INSERT_PERSON[] =
	"INSERT OR IGNORE INTO maint_people (entry, pos, role, name, addr, base) "
	"VALUES (?, ?, ?, ?, ?, ?)";
static const char SQL_UNMAP_ALL[] =
	"UPDATE series SET mapped_hash = NULL WHERE mapped_hash IS NOT NULL";
/* Three ranges of series_mapped_hash (schema 17), not a scan. */
static const char SQL_TO_MAP[] =
	"SELECT id FROM series WHERE mapped_hash IS NULL UNION "
	"SELECT id FROM series WHERE mapped_hash < ?1 UNION "
	"SELECT id FROM series WHERE mapped_hash > ?1";
static const char SQL_PATCHES[] =
	"SELECT id FROM messages WHERE series_id = ? AND kind = 'patch' "
	"ORDER BY idx, id";
static const char SQL_LIST_ID[] = "SELECT list_id FROM series WHERE id = ?";
static const char SQL_CLEAR_SERIES[] =
	"DELETE FROM series_entries WHERE series_id = ?";
static const char SQL_INSERT_SERIES_ENTRY[] =
	"INSERT OR IGNORE INTO series_entries (series_id, entry, entry_idx, "
	"pos, depth, files, k_hit, k_only, lines) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
static const char SQL_MAPPED[] =
	"UPDATE series SET mapped_hash = ?, tree_files = ?3, tree_missing = ?4 "
	"WHERE id = ?2";
static const char SQL_FILES[] =
	"SELECT pf.status, pf.old_path, pf.new_path, pf.added + pf.removed, "
	"m.id "
	"FROM patch_files pf JOIN messages m ON m.id = pf.message_id "
	"WHERE m.series_id = ? AND m.kind = 'patch'";
static const char SQL_CLEAR_PATCH_ENTRIES[] =
	"DELETE FROM patch_entries WHERE message_id IN "
	"(SELECT id FROM messages WHERE series_id = ? AND kind = 'patch')";
static const char SQL_INSERT_PATCH_ENTRY[] =
	"INSERT OR IGNORE INTO patch_entries (message_id, entry) VALUES (?, ?)";
static const char SQL_ENTRIES[] =
	"SELECT se.entry, se.depth, se.files, se.k_hit, se.k_only, e.profile "
	"FROM series_entries se LEFT JOIN maint_entries e ON e.name = se.entry "
	"WHERE se.series_id = ? ORDER BY se.pos";

/*
 * Splits an M:/R:/L: value into a display name and a lower-cased
 * address: "Name <a@b>", "a@b (moderated for non-subscribers)", "a@b".
 */
static void split_person(struct pc_buf *name, struct pc_buf *addr,
			 const char *v)
{
	const char *lt = strchr(v, '<'), *gt;
	size_t i;

	pc_buf_reset(name);
	pc_buf_reset(addr);
	if (lt && (gt = strchr(lt, '>'))) {
		size_t n = (size_t)(lt - v);

		while (n && pc_isspace((unsigned char)v[n - 1]))
			n--;
		if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
			pc_buf_add(name, v + 1, n - 2);
		else
			pc_buf_add(name, v, n);
		pc_buf_add(addr, lt + 1, (size_t)(gt - lt - 1));
	} else {
		size_t n = 0;

		while (v[n] && !pc_isspace((unsigned char)v[n]))
			n++;
		pc_buf_add(addr, v, n);
	}
	for (i = 0; i < addr->len; i++)
		addr->buf[i] = (char)pc_tolower((unsigned char)addr->buf[i]);
}

/* Binds addr without its "+detail" (a+dt@b is a@b), or NULL when it has
 * none: the address people write from. */
static void bind_base(sqlite3_stmt *s, int i, const char *addr)
{
	const char *plus = strchr(addr, '+'), *at = strchr(addr, '@');

	if (plus && at && plus > addr && plus < at) {
		char *b = xasprintf("%.*s%s", (int)(plus - addr), addr, at);

		sqlite3_bind_text(s, i, b, -1, SQLITE_TRANSIENT);
		free(b);
	} else {
		sqlite3_bind_null(s, i);
	}
}

static int insert_people(struct pc_store *st, const char *entry,
			 const struct pc_maint_value *v, size_t n, char role,
			 int *pos, struct pc_buf *name, struct pc_buf *addr,
			 struct pc_err *err)
{
	char r[2] = { role, '\0' };
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		sqlite3_stmt *s = pc_store__stmt(st, SQL_INSERT_PERSON, err);

		if (!s)
			return PC_EDB;
		split_person(name, addr, v[i].value);
		if (!addr->len)
			continue;
		sqlite3_bind_text(s, 1, entry, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 2, (*pos)++);
		sqlite3_bind_text(s, 3, r, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, name->buf, (int)name->len,
				  SQLITE_STATIC);
		sqlite3_bind_text(s, 5, addr->buf, (int)addr->len,
				  SQLITE_STATIC);
		bind_base(s, 6, addr->buf);
		if ((rc = pc_store__exec(st, s, err, "storing a maintainer")) <
		    0)
			return rc;
	}
	return 0;
}

/* Replaces maint_entries and maint_people with m's entries. */
static int load_entries(struct pc_store *st, const struct pc_maint *m,
			const char *tree, int64_t now, struct pc_err *err)
{
	struct pc_buf name = PC_BUF_INIT, addr = PC_BUF_INIT;
	sqlite3_stmt *s;
	size_t i, n = pc_maint_count(m);
	int rc = PC_EDB;

	if (!(s = pc_store__stmt(st, SQL_CLEAR_PEOPLE, err)) ||
	    (rc = pc_store__exec(st, s, err, "clearing maintainers")) < 0 ||
	    !(s = pc_store__stmt(st, SQL_CLEAR_ENTRIES, err)) ||
	    (rc = pc_store__exec(st, s, err, "clearing entries")) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		const struct pc_maint_entry *e = pc_maint_entry_at(m, i);
		int pos = 0;

		if (!(s = pc_store__stmt(st, SQL_INSERT_ENTRY, err))) {
			rc = PC_EDB;
			goto out;
		}
		sqlite3_bind_text(s, 1, e->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)e->index);
		pc_store__bind_text(
			s, 3,
			e->n_status ? e->status[e->n_status - 1].value : NULL);
		pc_store__bind_text(s, 4,
				    e->n_profiles ? e->profiles[0] : NULL);
		/* The tree that takes its patches (T:), if it names one. */
		pc_store__bind_text(s, 5, e->n_scm ? e->scm[0].value : NULL);
		if ((rc = pc_store__exec(st, s, err, "storing an entry")) < 0 ||
		    (rc = insert_people(st, e->name, e->maintainers,
					e->n_maintainers, 'M', &pos, &name,
					&addr, err)) < 0 ||
		    (rc = insert_people(st, e->name, e->reviewers,
					e->n_reviewers, 'R', &pos, &name, &addr,
					err)) < 0 ||
		    (rc = insert_people(st, e->name, e->lists, e->n_lists, 'L',
					&pos, &name, &addr, err)) < 0)
			goto out;
	}
	if (!(s = pc_store__stmt(st, SQL_SET_STATE, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_text(s, 1, pc_maint_id(m), -1, SQLITE_STATIC);
	pc_store__bind_text(s, 2, tree);
	sqlite3_bind_int64(s, 3, now);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)n);
	if ((rc = pc_store__exec(st, s, err, "storing MAINTAINERS state")) < 0)
		goto out;
	if (!(s = pc_store__stmt(st, SQL_UNMAP_ALL, err))) {
		rc = PC_EDB;
		goto out;
	}
	rc = pc_store__exec(st, s, err, "marking series for mapping");
out:
	pc_buf_release(&name);
	pc_buf_release(&addr);
	return rc;
}

/* Reads a list of ids from a statement with one int64 parameter or a text
 * one; appends to (*ids, *n). */
static int collect_ids(struct pc_store *st, sqlite3_stmt *s, int64_t **ids,
		       size_t *n, size_t *alloc, struct pc_err *err)
{
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == *alloc) {
			*alloc = *alloc ? *alloc * 2 : 64;
			*ids = xreallocarray(*ids, *alloc, sizeof(**ids));
		}
		(*ids)[(*n)++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : pc_store__fail(st, err, "listing ids");
}

/* Whether hit a matches its file more specifically than b: deeper, or
 * as deep with a longer literal start (fs/dax.c before a glob of fs/). */
static int more_specific(const struct pc_maint_hit *a,
			 const struct pc_maint_hit *b)
{
	return a->depth > b->depth ||
	       (a->depth == b->depth && a->spec > b->spec);
}

/* Whether entry e names a tree that takes patches (T:): THE REST's is
 * the mainline tree, which takes everything and applies nothing. */
static int takes_patches(const struct pc_maint_entry *e)
{
	return e->n_scm && strcmp(e->name, "THE REST") != 0;
}

/* Whether entry e's L: lines name list (an address, lower case). */
static int on_list(const struct pc_maint_entry *e, const char *list)
{
	size_t i, n;

	if (!list)
		return 0;
	n = strlen(list);
	for (i = 0; i < e->n_lists; i++) {
		const char *v = e->lists[i].value;

		if (!strncasecmp(v, list, n) &&
		    (!v[n] || pc_isspace((unsigned char)v[n])))
			return 1;
	}
	return 0;
}

/* Whether entries a and b name a list in common (both say L: linux-mm:
 * one subsystem, the one with a T: its tree). */
static int share_list(const struct pc_maint_entry *a,
		      const struct pc_maint_entry *b)
{
	size_t i;

	for (i = 0; i < a->n_lists; i++) {
		const char *v = a->lists[i].value;
		char *addr = xstrndup(v, strcspn(v, " \t"));
		int shared = on_list(b, addr);

		free(addr);
		if (shared)
			return 1;
	}
	return 0;
}

/*
 * The hit of a file whose entry applies its patches: one whose L: is the
 * list the series came through (a driver's own entry and its subsystem's
 * usually both are; the SoC's entry naming drivers/pwm/pwm-mediatek.c is
 * not), then one with a tree (T:: the subsystem's, not the driver's own
 * entry), then the most specific match (fs/dax.c's FILESYSTEM DIRECT
 * ACCESS, not the VFS's glob of fs/). Among entries of other lists, the
 * most specific first: a subsystem without a T: line of its own is still
 * more likely to take its files than the parent that has one. For arch/
 * code the broadest: the architecture's tree takes it, not the tracing
 * or KASAN entry that names arch/x86/kernel/ftrace.c. NULL when only K:
 * matched.
 */
static const struct pc_maint_hit *applying_hit(const struct pc_maint_result *pr,
					       const char *path,
					       const char *list)
{
	const struct pc_maint_hit *best = NULL;
	int arch = path && !strncmp(path, "arch/", 5), bl = 0, bt = 0;
	size_t i;

	for (i = 0; i < pr->n_hits; i++) {
		const struct pc_maint_hit *h = &pr->hits[i];
		int l, t, better;

		if (h->k_only)
			continue;
		/* With no list known, every entry could be the list's. */
		l = list ? on_list(h->entry, list) : 1;
		t = takes_patches(h->entry);
		if (!best)
			better = 1;
		else if (!arch && l != bl)
			better = l > bl;
		else if (!arch && !l && t != bt &&
			 share_list(h->entry, best->entry))
			/* Neither is this list's, but they share theirs:
			 * the one with the tree takes it (MEMORY
			 * MANAGEMENT's akpm/mm, not HWPOISON's entry for
			 * mm/memory-failure.c, both on linux-mm). */
			better = t > bt;
		else if (!arch && !l)
			/* Neither entry is this list's: the most specific
			 * (KEYS/KEYRINGS for security/keys/key.c, though
			 * only SECURITY SUBSYSTEM names a tree). */
			better = more_specific(h, best) ||
				 (!more_specific(best, h) && t > bt);
		else if (t != bt)
			better = t > bt;
		else
			better = arch ? more_specific(best, h) :
					more_specific(h, best);
		if (better) {
			best = h;
			bl = l;
			bt = t;
		}
	}
	return best;
}

/*
 * How many of r's files map to entry e (K: aside), and the lines of the
 * files whose patches e applies (applying_hit()): a file's changed lines
 * count once, for the entry whose tree takes it.
 */
static int files_matching(int *lines_out, const struct pc_maint_result *r,
			  const struct pc_maint_entry *e,
			  struct pc_maint_result *per_file, const int *lines,
			  const char *list)
{
	int count = 0;
	size_t f, h;

	*lines_out = 0;
	for (f = 0; f < r->n_files; f++) {
		const struct pc_maint_result *pr = &per_file[f];
		const struct pc_maint_hit *a;

		for (h = 0; h < pr->n_hits; h++)
			if (pr->hits[h].entry == e && !pr->hits[h].k_only) {
				count++;
				a = applying_hit(pr, r->files[f], list);
				if (a && a->entry == e)
					*lines_out += lines[f];
				break;
			}
	}
	return count;
}

/*
 * Whether path (a's pre-image: the file itself, or for a new file its
 * directory) exists below tree. Paths from mail are hostile: an absolute
 * one or one with a ".." component is never looked up, and counts as
 * missing.
 */
static int in_tree(const char *tree, const char *path, int dir_of)
{
	struct pc_buf p = PC_BUF_INIT;
	struct stat sb;
	const char *c;
	int ok;

	if (!path || !*path || path[0] == '/')
		return 0;
	for (c = path; *c; c = strchr(c, '/') ? strchr(c, '/') + 1 : "")
		if (!strncmp(c, "..", 2) && (c[2] == '/' || !c[2]))
			return 0;
	pc_buf_addf(&p, "%s/%s", tree, path);
	if (dir_of) {
		char *slash = strrchr(p.buf, '/');

		/* A new file at the top: the tree itself is its directory. */
		*slash = '\0';
	}
	ok = lstat(p.buf, &sb) == 0;
	pc_buf_release(&p);
	return ok;
}

/* Whether path, a file the tree lacks, is in a directory the tree has
 * (drivers/pwm/pwm-rzg2l-gpt.c, edited by a series that builds on one
 * still under review that adds it): a kernel file yet to be merged, not
 * another project's (ndctl's cxl/meson.build, QEMU's hw/ppc/). A file
 * at the top (configure.ac) must exist itself. */
static int in_kernel_dir(const char *tree, const char *path)
{
	return path && strchr(path, '/') && in_tree(tree, path, 1);
}

/* A patch and one of the series' files it touches (index in r.files). */
struct patch_file {
	int64_t message_id;
	size_t file;
};

/* The index in r's files of path, or r->n_files. */
static size_t file_index(const struct pc_maint_result *r, const char *path)
{
	size_t f;

	for (f = 0; path && f < r->n_files; f++)
		if (!strcmp(r->files[f], path))
			break;
	return path ? f : r->n_files;
}

/*
 * One read of the series' patch files gives: the lines each of r's files
 * changes (matched by old or new path), which patch touches which file
 * (*pf: for patch_entries), and whether the series' pre-images exist in
 * tree (when tree is given): a kernel patch edits files the kernel has;
 * a userspace project's patch on the same list (ndctl's cxl/meson.build)
 * edits files it does not.
 */
static int file_facts(int *lines, struct patch_file **pf, size_t *npf,
		      int *checked_out, int *missing_out, struct pc_store *st,
		      const struct pc_maint_result *r, const char *tree,
		      int64_t series_id, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_FILES, err);
	size_t alloc = 0;
	int rc;

	*checked_out = *missing_out = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *status = (const char *)sqlite3_column_text(s, 0);
		const char *old = (const char *)sqlite3_column_text(s, 1);
		const char *new = (const char *)sqlite3_column_text(s, 2);
		size_t fo = file_index(r, old), fn = file_index(r, new);
		int k;

		/* The lines count once, for the name listed first. */
		if (fo < r->n_files || fn < r->n_files)
			lines[fo < fn ? fo : fn] += sqlite3_column_int(s, 3);
		/* A rename touches both names. */
		for (k = 0; k < 2; k++) {
			size_t f = k ? fn : fo;

			if (f == r->n_files || (k && fn == fo))
				continue;
			PC_ALLOC_GROW(*pf, *npf + 1, alloc);
			(*pf)[*npf].message_id = sqlite3_column_int64(s, 4);
			(*pf)[(*npf)++].file = f;
		}
		if (!tree)
			continue;
		(*checked_out)++;
		if (status && status[0] == 'A' ?
			    !in_tree(tree, new, 1) :
			    !in_tree(tree, old ? old : new, 0) &&
				    !in_kernel_dir(tree, old ? old : new))
			(*missing_out)++;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading a series' files");
}

/* Stores the entries each patch's files map to (K: aside): an "Applied"
 * from another subsystem's maintainer takes only the patches its
 * entries cover. */
static int map_patches(struct pc_store *st, int64_t series_id,
		       const struct patch_file *pf, size_t npf,
		       const struct pc_maint_result *per_file,
		       struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_CLEAR_PATCH_ENTRIES, err);
	size_t i, h;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	if ((rc = pc_store__exec(st, s, err, "clearing patches' entries")) < 0)
		return rc;
	for (i = 0; i < npf; i++)
		for (h = 0; h < per_file[pf[i].file].n_hits; h++) {
			const struct pc_maint_hit *hit =
				&per_file[pf[i].file].hits[h];

			if (hit->k_only)
				continue;
			if (!(s = pc_store__stmt(st, SQL_INSERT_PATCH_ENTRY,
						 err)))
				return PC_EDB;
			sqlite3_bind_int64(s, 1, pf[i].message_id);
			sqlite3_bind_text(s, 2, hit->entry->name, -1,
					  SQLITE_STATIC);
			if ((rc = pc_store__exec(st, s, err,
						 "storing a patch's entry")) <
			    0)
				return rc;
		}
	return 0;
}

/* The list a series came through, as an L: address: its List-Id
 * "linux-pwm.vger.kernel.org" is linux-pwm@vger.kernel.org. NULL when
 * unknown. */
static int list_of(char **out, struct pc_store *st, int64_t series_id,
		   struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LIST_ID, err);
	const char *id, *dot;
	int rc;

	*out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW &&
	    (id = (const char *)sqlite3_column_text(s, 0)) &&
	    (dot = strchr(id, '.')) && dot > id) {
		*out = xasprintf("%.*s@%s", (int)(dot - id), id, dot + 1);
		for (char *p = *out; *p; p++)
			*p = (char)pc_tolower((unsigned char)*p);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "reading a series' list");
}

/* Whether (p, len) holds a line that names a path of a diff. */
static int has_diff_line(const char *p, size_t len)
{
	return (len >= 11 && !memcmp(p, "diff --git ", 11)) ||
	       memmem(p, len, "\ndiff --git ", 12) ||
	       memmem(p, len, "\n+++ ", 5);
}

/*
 * Adds patch (raw, len) to q as the script reads a patch file: the raw
 * bytes. A patch the list carried base64-encoded (gmx.net's mailer sends
 * them so) holds no diff line there: then its header and its decoded
 * text and attachments, which the paths stored for it came from.
 */
static void add_patch(struct pc_maint_query *q, const char *raw, size_t len)
{
	struct pc_msg *msg = NULL;
	struct pc_buf b = PC_BUF_INIT;
	const char *end;
	size_t i;

	if (has_diff_line(raw, len) || pc_msg_parse(&msg, raw, len, NULL) < 0) {
		pc_maint_query_add_patch(q, raw, len, NULL);
		return;
	}
	end = memmem(raw, len, "\n\n", 2);
	pc_buf_add(&b, raw, end ? (size_t)(end - raw) + 2 : len);
	pc_buf_add(&b, msg->body.buf, msg->body.len);
	for (i = 0; i < msg->natt; i++) {
		pc_buf_addch(&b, '\n');
		pc_buf_add(&b, msg->att[i].text.buf, msg->att[i].text.len);
	}
	pc_maint_query_add_patch(q, b.buf, b.len, NULL);
	pc_buf_release(&b);
	pc_msg_free(msg);
}

/* A path a MAINTAINERS F: value names: the value up to its first
 * wildcard ("drivers/pwm/pwm-*.c": drivers/pwm/pwm-), added to q; an
 * empty one is none. */
static void add_pattern_path(struct pc_maint_query *q, const char *v, size_t n)
{
	size_t k = 0;
	char *path;

	while (k < n && !strchr("*?[", v[k]))
		k++;
	while (k && pc_isspace((unsigned char)v[k - 1]))
		k--;
	if (!k)
		return;
	path = xstrndup(v, k);
	pc_maint_query_add_file(q, path, NULL);
	free(path);
}

/*
 * The entries a patch to MAINTAINERS edits, as paths added to q: the F:
 * lines of its hunks (context, added or removed: "+F:
 * drivers/nvdimm/virtio_pmem.c" of a new entry), and the F: lines of
 * an entry whose title line is in a hunk (an R: added below it). A
 * patch that only edits MAINTAINERS maps to THE REST, as get_
 * maintainer.pl says; but whoever applies the entries it edits takes
 * it (lore nvdimm 2021-10-16, "virtio-pmem: add myself as virtio-pmem
 * maintainer", applied through the nvdimm tree). How many paths were
 * added.
 */
static size_t maintainers_hunk_paths(struct pc_maint_query *q,
				     const struct pc_maint *m, const char *raw,
				     size_t len)
{
	static const char head[] = "diff --git a/MAINTAINERS b/MAINTAINERS\n";
	const char *p = memmem(raw, len, head, sizeof(head) - 1), *end;
	const struct pc_maint_entry *ent;
	size_t added = 0, k;
	char *title;

	if (!p)
		return 0;
	end = raw + len;
	p += sizeof(head) - 1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *v = p + 1;
		size_t vn = n ? n - 1 : 0;

		if (n >= 11 && !memcmp(p, "diff --git ", 11))
			break;
		p += n + (nl ? 1 : 0);
		if (!n || !strchr(" +-", *(v - 1)) ||
		    (n >= 3 &&
		     (!memcmp(v - 1, "+++", 3) || !memcmp(v - 1, "---", 3))))
			continue;
		if (vn > 2 && v[0] == 'F' && v[1] == ':') {
			add_pattern_path(q, v + 2 + strspn(v + 2, " \t"),
					 vn - 2 - strspn(v + 2, " \t"));
			added++;
			continue;
		}
		if (vn < 3 || v[1] == ':')
			continue;
		title = xstrndup(v, vn);
		ent = pc_maint_find(m, title);
		free(title);
		for (k = 0; ent && k < ent->n_files && k < 4; k++) {
			add_pattern_path(q, ent->files[k].value,
					 strlen(ent->files[k].value));
			added++;
		}
	}
	return added;
}

static int map_one(struct pc_store *st, const struct pc_maint *m,
		   const char *tree, int64_t series_id,
		   struct pc_map_stats *stats, struct pc_err *err)
{
	struct pc_maint_query *q = pc_maint_query_new(m, PC_MAINT_KEYWORDS);
	struct pc_maint_query *edits = pc_maint_query_new(m, 0);
	struct pc_maint_result r = PC_MAINT_RESULT_INIT;
	size_t edited = 0;
	struct pc_maint_result *per_file = NULL;
	int *lines = NULL, checked = 0, missing = 0;
	int64_t *ids = NULL;
	char *list = NULL;
	struct patch_file *pf = NULL;
	size_t n = 0, alloc = 0, npf = 0, i;
	sqlite3_stmt *s;
	int rc;

	if (!(s = pc_store__stmt(st, SQL_PATCHES, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, series_id);
	if ((rc = collect_ids(st, s, &ids, &n, &alloc, err)) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		char *raw = NULL;
		size_t len = 0;

		if ((rc = pc_message_raw(&raw, &len, st, ids[i], err)) < 0)
			goto out;
		add_patch(q, raw, len);
		edited += maintainers_hunk_paths(edits, m, raw, len);
		free(raw);
		stats->patches++;
	}
	if ((rc = pc_maint_query_run(&r, q, err)) < 0)
		goto out;
	if ((rc = list_of(&list, st, series_id, err)) < 0)
		goto out;
	per_file = xcalloc(r.n_files ? r.n_files : 1, sizeof(*per_file));
	lines = xcalloc(r.n_files ? r.n_files : 1, sizeof(*lines));
	if ((rc = file_facts(lines, &pf, &npf, &checked, &missing, st, &r, tree,
			     series_id, err)) < 0)
		goto out;
	/* MAINTAINERS alone: the entries it edits, for its one file and
	 * for the series. */
	if (edited && r.n_files == 1 && !strcmp(r.files[0], "MAINTAINERS")) {
		if ((rc = pc_maint_query_run(&per_file[0], edits, err)) < 0)
			goto out;
		if (per_file[0].n_hits) {
			free(r.hits);
			r.n_hits = r.alloc_hits = per_file[0].n_hits;
			r.hits = xreallocarray(NULL, r.n_hits, sizeof(*r.hits));
			memcpy(r.hits, per_file[0].hits,
			       r.n_hits * sizeof(*r.hits));
		} else {
			pc_maint_result_release(&per_file[0]);
			edited = 0;
		}
	} else {
		edited = 0;
	}
	for (i = edited ? 1 : 0; i < r.n_files; i++)
		if ((rc = pc_maint_map_file(&per_file[i], m, r.files[i], 0,
					    err)) < 0)
			goto out;
	if (!(s = pc_store__stmt(st, SQL_CLEAR_SERIES, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, series_id);
	if ((rc = pc_store__exec(st, s, err, "clearing a series' entries")) < 0)
		goto out;
	for (i = 0; i < r.n_hits; i++) {
		const struct pc_maint_hit *h = &r.hits[i];
		int nlines, nfiles;

		nfiles = files_matching(&nlines, &r, h->entry, per_file, lines,
					list);
		if (!(s = pc_store__stmt(st, SQL_INSERT_SERIES_ENTRY, err))) {
			rc = PC_EDB;
			goto out;
		}
		sqlite3_bind_int64(s, 1, series_id);
		sqlite3_bind_text(s, 2, h->entry->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 3, (sqlite3_int64)h->entry->index);
		sqlite3_bind_int64(s, 4, (sqlite3_int64)i);
		sqlite3_bind_int(s, 5, h->depth);
		sqlite3_bind_int(s, 6, nfiles);
		sqlite3_bind_int(s, 7, h->keyword);
		sqlite3_bind_int(s, 8, h->k_only);
		sqlite3_bind_int(s, 9, nlines);
		if ((rc = pc_store__exec(st, s, err,
					 "storing a series entry")) < 0)
			goto out;
	}
	if ((rc = map_patches(st, series_id, pf, npf, per_file, err)) < 0)
		goto out;
	if (!(s = pc_store__stmt(st, SQL_MAPPED, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_text(s, 1, pc_maint_id(m), -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, series_id);
	if (tree) {
		sqlite3_bind_int(s, 3, checked);
		sqlite3_bind_int(s, 4, missing);
	} else {
		sqlite3_bind_null(s, 3);
		sqlite3_bind_null(s, 4);
	}
	if ((rc = pc_store__exec(st, s, err, "marking a series mapped")) < 0)
		goto out;
	stats->series++;
	if (!r.n_hits)
		stats->unmapped++;
out:
	if (per_file)
		for (i = 0; i < r.n_files; i++)
			pc_maint_result_release(&per_file[i]);
	free(per_file);
	free(list);
	free(pf);
	free(lines);
	pc_maint_result_release(&r);
	pc_maint_query_free(q);
	pc_maint_query_free(edits);
	free(ids);
	if (rc < 0)
		pc_err_prefix(err, "mapping series %lld", (long long)series_id);
	return rc;
}

int pc_map_series(struct pc_store *st, const struct pc_maint *m,
		  const char *tree, int64_t now, struct pc_map_stats *stats,
		  struct pc_err *err)
{
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i;
	sqlite3_stmt *s;
	int rc, same;

	memset(stats, 0, sizeof(*stats));
	if (!(s = pc_store__stmt(st, SQL_STATE, err)))
		return PC_EDB;
	rc = sqlite3_step(s);
	same = rc == SQLITE_ROW &&
	       !strcmp((const char *)sqlite3_column_text(s, 0), pc_maint_id(m));
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pc_store__fail(st, err, "reading MAINTAINERS state");
	if (!same) {
		if ((rc = load_entries(st, m, tree, now, err)) < 0)
			return rc;
		stats->maintainers_changed = 1;
	}
	if (!(s = pc_store__stmt(st, SQL_TO_MAP, err)))
		return PC_EDB;
	sqlite3_bind_text(s, 1, pc_maint_id(m), -1, SQLITE_STATIC);
	if ((rc = collect_ids(st, s, &ids, &n, &alloc, err)) < 0)
		goto out;
	for (i = 0; i < n; i++)
		if ((rc = map_one(st, m, tree, ids[i], stats, err)) < 0)
			goto out;
out:
	free(ids);
	return rc;
}

int pc_series_entries(struct pc_store *st, int64_t series_id,
		      pc_series_entry_fn fn, void *arg, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ENTRIES, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_series_entry e = {
			.name = (const char *)sqlite3_column_text(s, 0),
			.depth = sqlite3_column_int(s, 1),
			.files = sqlite3_column_int(s, 2),
			.k_hit = sqlite3_column_int(s, 3),
			.k_only = sqlite3_column_int(s, 4),
			.profile = (const char *)sqlite3_column_text(s, 5),
		};

		if ((rc = fn(&e, arg)) != 0) {
			sqlite3_reset(s);
			return rc;
		}
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 :
				   pc_store__fail(st, err, "reading entries");
}
