// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading series and messages back out of the store (see query.h). A
 * patch's trailers are those written in it, those given in replies to
 * it, and those given in replies to its series' cover letter.
 */
#include <stdlib.h>
#include <string.h>

#include "store/mapping.h"
#include "store/query.h"
#include "store/store_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static void trailers_free(struct pc_trailer_info *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(t[i].name);
		free(t[i].value);
		free(t[i].person);
		free(t[i].addr);
		free(t[i].given_in);
	}
	free(t);
}

static const char SQL_FILES[] =
	"SELECT coalesce(new_path, old_path), "
	"CASE WHEN status IN ('R', 'C') THEN old_path END, status, added, "
	"removed, binary FROM patch_files WHERE message_id = ? ORDER BY pos";

static int load_files(struct pc_store *st, int64_t mid,
		      struct pc_file_info **out, size_t *n, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_FILES, err);
	size_t alloc = 0;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, mid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_file_info *f;
		const unsigned char *status = sqlite3_column_text(s, 2);

		PC_ALLOC_GROW(*out, *n + 1, alloc);
		f = &(*out)[(*n)++];
		f->path = pc_store__col_dup(s, 0);
		f->old_path = pc_store__col_dup(s, 1);
		f->status = status ? (char)status[0] : 'M';
		f->added = (unsigned)sqlite3_column_int(s, 3);
		f->removed = (unsigned)sqlite3_column_int(s, 4);
		f->binary = sqlite3_column_int(s, 5);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : pc_store__fail(st, err, "reading files");
}

static void files_free(struct pc_file_info *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(f[i].path);
		free(f[i].old_path);
	}
	free(f);
}

/* Trailers for message mid; cover is the series' cover letter (or 0). */
static const char SQL_TRAILERS_FOR[] =
	"SELECT t.name, t.value, t.person, t.addr, g.msgid, "
	"t.origin = 'reply', t.target_id = ?2 AND ?2 != ?1, t.suggested, "
	"t.mismatch FROM trailers t JOIN messages g ON g.id = t.message_id "
	"WHERE (t.target_id = ?1 OR (t.target_id = ?2 AND t.origin = 'reply')) "
	"AND NOT t.mismatch ORDER BY t.origin = 'reply', g.date, t.message_id, t.pos";
static const char SQL_TRAILERS_IN[] =
	"SELECT t.name, t.value, t.person, t.addr, g.msgid, "
	"t.origin = 'reply', 0, t.suggested, t.mismatch "
	"FROM trailers t JOIN messages g ON g.id = t.message_id "
	"WHERE t.message_id = ?1 ORDER BY t.pos";

static int load_trailers(struct pc_store *st, const char *sql, int64_t mid,
			 int64_t cover, struct pc_trailer_info **out, size_t *n,
			 struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);
	size_t alloc = 0;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, mid);
	if (sql == SQL_TRAILERS_FOR)
		sqlite3_bind_int64(s, 2, cover ? cover : mid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_trailer_info *t;

		PC_ALLOC_GROW(*out, *n + 1, alloc);
		t = &(*out)[(*n)++];
		t->name = pc_store__col_dup(s, 0);
		t->value = pc_store__col_dup(s, 1);
		t->person = pc_store__col_dup(s, 2);
		t->addr = pc_store__col_dup(s, 3);
		t->given_in = pc_store__col_dup(s, 4);
		t->from_reply = sqlite3_column_int(s, 5);
		t->via_cover = sqlite3_column_int(s, 6);
		t->suggested = sqlite3_column_int(s, 7);
		t->mismatch = sqlite3_column_int(s, 8);
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 :
				   pc_store__fail(st, err, "reading trailers");
}

static void patches_free(struct pc_patch_info *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].msgid);
		free(p[i].kind);
		free(p[i].subject);
		free(p[i].author_name);
		free(p[i].author_addr);
		free(p[i].patch_id);
		files_free(p[i].files, p[i].nfiles);
		trailers_free(p[i].trailers, p[i].ntrailers);
	}
	free(p);
}

static const char SQL_PATCHES[] =
	"SELECT id, msgid, kind, coalesce(idx, 1), subject, author_name, "
	"author_addr, date, patch_id FROM messages WHERE series_id = ? "
	"ORDER BY kind = 'cover' DESC, idx, date, id";

static int load_patches(struct pc_store *st, struct pc_series_info *si,
			int64_t cover, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PATCHES, err);
	size_t alloc = 0, i;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, si->id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_patch_info *p;

		PC_ALLOC_GROW(si->patches, si->npatches + 1, alloc);
		p = &si->patches[si->npatches++];
		memset(p, 0, sizeof(*p));
		p->id = sqlite3_column_int64(s, 0);
		p->msgid = pc_store__col_dup(s, 1);
		p->kind = pc_store__col_dup(s, 2);
		p->idx = sqlite3_column_int(s, 3);
		p->subject = pc_store__col_dup(s, 4);
		p->author_name = pc_store__col_dup(s, 5);
		p->author_addr = pc_store__col_dup(s, 6);
		p->has_date = sqlite3_column_type(s, 7) != SQLITE_NULL;
		p->date = sqlite3_column_int64(s, 7);
		p->patch_id = pc_store__col_dup(s, 8);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return pc_store__fail(st, err, "reading a series' patches");
	for (i = 0; i < si->npatches; i++) {
		struct pc_patch_info *p = &si->patches[i];

		if ((rc = load_files(st, p->id, &p->files, &p->nfiles, err)) <
			    0 ||
		    (rc = load_trailers(st, SQL_TRAILERS_FOR, p->id,
					strcmp(p->kind, "cover") ? cover : 0,
					&p->trailers, &p->ntrailers, err)) < 0)
			return rc;
	}
	return 0;
}

struct entries_acc {
	struct pc_series_info *si;
	size_t alloc;
};

static int add_entry(const struct pc_series_entry *e, void *arg)
{
	struct entries_acc *acc = arg;
	struct pc_entry_info *ei;

	PC_ALLOC_GROW(acc->si->entries, acc->si->nentries + 1, acc->alloc);
	ei = &acc->si->entries[acc->si->nentries++];
	ei->name = xstrdup(e->name);
	ei->profile = e->profile ? xstrdup(e->profile) : NULL;
	ei->depth = e->depth;
	ei->files = e->files;
	ei->k_hit = e->k_hit;
	ei->k_only = e->k_only;
	return 0;
}

static void series_release(struct pc_series_info *si)
{
	size_t i;

	for (i = 0; i < si->nentries; i++) {
		free(si->entries[i].name);
		free(si->entries[i].profile);
	}
	free(si->entries);
	free(si->name);
	free(si->author_name);
	free(si->author_addr);
	free(si->anchor_msgid);
	free(si->cover_msgid);
	free(si->topic);
	free(si->list_id);
	free(si->change_id);
	patches_free(si->patches, si->npatches);
	memset(si, 0, sizeof(*si));
}

static const char SQL_SERIES_ALL[] =
	"SELECT s.id, s.name, s.author_name, s.author_addr, s.version, "
	"s.total, s.is_rfc, s.first_posted, coalesce(s.superseded_by, 0), "
	"a.msgid, c.msgid, s.topic, s.list_id, s.change_id, "
	"(SELECT count(DISTINCT idx) FROM messages WHERE series_id = s.id "
	" AND kind = 'patch'), coalesce(s.cover_id, 0) "
	"FROM series s JOIN messages a ON a.id = s.anchor_id "
	"LEFT JOIN messages c ON c.id = s.cover_id "
	"WHERE (?1 = 0 OR s.id = ?1) AND (?2 = 0 OR s.superseded_by IS NULL) "
	"ORDER BY s.first_posted, s.id";

int pc_series_list(struct pc_store *st, const struct pc_series_filter *f,
		   pc_series_fn fn, void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc;

	/* The listing statement is stepped while per-series statements
	 * run: use a private statement, not the shared cache. */
	if (sqlite3_prepare_v2(st->db, SQL_SERIES_ALL, -1, &s, NULL) !=
	    SQLITE_OK)
		return pc_store__fail(st, err, "listing series");
	sqlite3_bind_int64(s, 1, f->id);
	sqlite3_bind_int(s, 2, f->current_only);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_series_info si = { 0 };
		int64_t cover;
		int stop;

		si.id = sqlite3_column_int64(s, 0);
		si.name = pc_store__col_dup(s, 1);
		si.author_name = pc_store__col_dup(s, 2);
		si.author_addr = pc_store__col_dup(s, 3);
		si.version = sqlite3_column_int(s, 4);
		si.total = sqlite3_column_int(s, 5);
		si.is_rfc = sqlite3_column_int(s, 6);
		si.has_date = sqlite3_column_type(s, 7) != SQLITE_NULL;
		si.first_posted = sqlite3_column_int64(s, 7);
		si.superseded_by = sqlite3_column_int64(s, 8);
		si.anchor_msgid = pc_store__col_dup(s, 9);
		si.cover_msgid = pc_store__col_dup(s, 10);
		si.topic = pc_store__col_dup(s, 11);
		si.list_id = pc_store__col_dup(s, 12);
		si.change_id = pc_store__col_dup(s, 13);
		si.received = sqlite3_column_int(s, 14);
		cover = sqlite3_column_int64(s, 15);
		if (f->with_patches) {
			struct entries_acc acc = { &si, 0 };
			int lrc = load_patches(st, &si, cover, err);

			if (lrc == 0)
				lrc = pc_series_entries(st, si.id, add_entry,
							&acc, err);

			if (lrc < 0) {
				series_release(&si);
				sqlite3_finalize(s);
				return lrc;
			}
		}
		stop = fn(&si, arg);
		series_release(&si);
		if (stop) {
			rc = SQLITE_DONE;
			break;
		}
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "listing series");
		sqlite3_finalize(s);
		return rc;
	}
	sqlite3_finalize(s);
	return 0;
}

static const char *strip_brackets(const char *msgid, size_t *len)
{
	size_t n = strlen(msgid);

	if (n >= 2 && msgid[0] == '<' && msgid[n - 1] == '>') {
		*len = n - 2;
		return msgid + 1;
	}
	*len = n;
	return msgid;
}

static const char SQL_MSG_SERIES[] =
	"SELECT id, coalesce(series_id, 0) FROM messages WHERE msgid = ?";

int pc_series_of_message(struct pc_store *st, const char *msgid,
			 int64_t *series_out, int64_t *message_out,
			 struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_MSG_SERIES, err);
	const char *id;
	size_t len;
	int rc;

	*series_out = *message_out = 0;
	if (!s)
		return PC_EDB;
	id = strip_brackets(msgid, &len);
	sqlite3_bind_text(s, 1, id, (int)len, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*message_out = sqlite3_column_int64(s, 0);
		*series_out = sqlite3_column_int64(s, 1);
	}
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pc_store__fail(st, err, "looking up a message");
	return 0;
}

static const char SQL_MSG[] =
	"SELECT m.id, m.msgid, m.kind, m.subject, m.from_name, m.from_addr, "
	"m.author_name, m.author_addr, m.in_reply_to, m.list_id, m.source, "
	"m.parse_error, m.date, coalesce(m.series_id, 0), "
	"coalesce(m.version, 0), coalesce(m.idx, 0), coalesce(m.total, 0), "
	"r.size FROM messages m JOIN raw r ON r.id = m.raw_id "
	"WHERE m.msgid = ?";

int pc_message_get(struct pc_message_info **out, struct pc_store *st,
		   const char *msgid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_MSG, err);
	struct pc_message_info *m;
	const char *id;
	size_t len;
	int rc;

	if (!s)
		return PC_EDB;
	id = strip_brackets(msgid, &len);
	sqlite3_bind_text(s, 1, id, (int)len, SQLITE_TRANSIENT);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(s);
		return pc_err_set(err, PC_ENOTFOUND,
				  "no message <%.*s> in the database", (int)len,
				  id);
	}
	if (rc != SQLITE_ROW)
		return pc_store__fail(st, err, "loading a message");
	m = xcalloc(1, sizeof(*m));
	m->id = sqlite3_column_int64(s, 0);
	m->msgid = pc_store__col_dup(s, 1);
	m->kind = pc_store__col_dup(s, 2);
	m->subject = pc_store__col_dup(s, 3);
	m->from_name = pc_store__col_dup(s, 4);
	m->from_addr = pc_store__col_dup(s, 5);
	m->author_name = pc_store__col_dup(s, 6);
	m->author_addr = pc_store__col_dup(s, 7);
	m->in_reply_to = pc_store__col_dup(s, 8);
	m->list_id = pc_store__col_dup(s, 9);
	m->source = pc_store__col_dup(s, 10);
	m->parse_error = pc_store__col_dup(s, 11);
	m->has_date = sqlite3_column_type(s, 12) != SQLITE_NULL;
	m->date = sqlite3_column_int64(s, 12);
	m->series_id = sqlite3_column_int64(s, 13);
	m->version = sqlite3_column_int(s, 14);
	m->idx = sqlite3_column_int(s, 15);
	m->total = sqlite3_column_int(s, 16);
	m->raw_size = (size_t)sqlite3_column_int64(s, 17);
	sqlite3_reset(s);
	if ((rc = load_files(st, m->id, &m->files, &m->nfiles, err)) < 0 ||
	    (rc = load_trailers(st, SQL_TRAILERS_IN, m->id, 0, &m->trailers,
				&m->ntrailers, err)) < 0) {
		pc_message_info_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

void pc_message_info_free(struct pc_message_info *m)
{
	if (!m)
		return;
	free(m->msgid);
	free(m->kind);
	free(m->subject);
	free(m->from_name);
	free(m->from_addr);
	free(m->author_name);
	free(m->author_addr);
	free(m->in_reply_to);
	free(m->list_id);
	free(m->source);
	free(m->parse_error);
	files_free(m->files, m->nfiles);
	trailers_free(m->trailers, m->ntrailers);
	free(m);
}

int pc_ingest_errors(struct pc_store *st, pc_error_fn fn, void *arg,
		     struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db,
			       "SELECT source, coalesce(msgid, ''), reason "
			       "FROM ingest_errors ORDER BY id",
			       -1, &s, NULL) != SQLITE_OK)
		return pc_store__fail(st, err, "listing ingest errors");
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (fn((const char *)sqlite3_column_text(s, 0),
		       (const char *)sqlite3_column_text(s, 1),
		       (const char *)sqlite3_column_text(s, 2), arg))
			break;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err, "listing ingest errors");
}

static const char SQL_BASE_COMMIT[] =
	"SELECT base_commit FROM messages WHERE series_id = ?1 AND "
	"base_commit IS NOT NULL ORDER BY idx LIMIT 1";

int pc_series_base_commit(char **out, struct pc_store *st, int64_t series_id,
			  struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_BASE_COMMIT, err);
	int rc;

	*out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, series_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_text(s, 0))
		*out = xstrdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pc_store__fail(st, err, "reading a base commit");
	return 0;
}
