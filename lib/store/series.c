// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Series assembly (see series.h). Every decision is made from what the
 * store holds, so messages may arrive in any order: a cover letter that
 * comes after its patches adopts them, a patch whose cover is missing
 * anchors its own series until the cover shows up, and version links are
 * recomputed whenever a series is made or renamed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch/subject.h"
#include "store/series.h"
#include "sla/state.h"
#include "store/store_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define MAX_THREAD_DEPTH 64
/* A new version supersedes one of its sender's recent series: look at
 * no more than this many (a prolific sender has thousands). */
#define MAX_AUTHOR_SERIES 200

struct row {
	int64_t id;
	char kind[8];
	int64_t series_id; /* 0 when none */
	int version, idx, total, numbered, is_rfc;
	int64_t date;
	int has_date;
	int has_parent;
	char *msgid, *name, *from_name, *from_addr, *in_reply_to; /* owned */
	char *topic, *list_id, *change_id; /* owned */
	char *refs; /* owned; space-separated References, oldest first */
	char *author_addr; /* owned: a patch's author (in-body From:) */
};

static void row_release(struct row *r)
{
	free(r->msgid);
	free(r->name);
	free(r->from_name);
	free(r->from_addr);
	free(r->in_reply_to);
	free(r->topic);
	free(r->list_id);
	free(r->change_id);
	free(r->refs);
	free(r->author_addr);
	memset(r, 0, sizeof(*r));
}

static const char SQL_LOAD[] =
	"SELECT id, kind, coalesce(series_id, 0), coalesce(version, 1), "
	"coalesce(idx, 1), coalesce(total, 1), numbered, is_rfc, date, msgid, "
	"name, from_name, from_addr, in_reply_to, topic, list_id, change_id, "
	"in_reply_to IS NOT NULL OR refs IS NOT NULL, refs, author_addr "
	"FROM messages WHERE id = ?";

/* Loads message id into r; returns 1 when found, 0 when not. */
static int load_row(struct pc_store *st, int64_t id, struct row *r,
		    struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_LOAD, err);
	const unsigned char *k;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return pc_store__fail(st, err, "loading a message");
	r->id = sqlite3_column_int64(s, 0);
	k = sqlite3_column_text(s, 1);
	snprintf(r->kind, sizeof(r->kind), "%s", k ? (const char *)k : "");
	r->series_id = sqlite3_column_int64(s, 2);
	r->version = sqlite3_column_int(s, 3);
	r->idx = sqlite3_column_int(s, 4);
	r->total = sqlite3_column_int(s, 5);
	r->numbered = sqlite3_column_int(s, 6);
	r->is_rfc = sqlite3_column_int(s, 7);
	r->has_date = sqlite3_column_type(s, 8) != SQLITE_NULL;
	r->date = sqlite3_column_int64(s, 8);
	r->msgid = pc_store__col_dup(s, 9);
	r->name = pc_store__col_dup(s, 10);
	r->from_name = pc_store__col_dup(s, 11);
	r->from_addr = pc_store__col_dup(s, 12);
	r->in_reply_to = pc_store__col_dup(s, 13);
	r->topic = pc_store__col_dup(s, 14);
	r->list_id = pc_store__col_dup(s, 15);
	r->change_id = pc_store__col_dup(s, 16);
	r->has_parent = sqlite3_column_int(s, 17);
	r->refs = pc_store__col_dup(s, 18);
	r->author_addr = pc_store__col_dup(s, 19);
	sqlite3_reset(s);
	return 1;
}

/*
 * The nearest stored ancestor of a message: its In-Reply-To if stored,
 * else the latest stored entry of its References. *parent_out is 0 when
 * none is stored.
 */
static int stored_parent(struct pc_store *st, const struct row *r,
			 int64_t *parent_out, struct pc_err *err)
{
	const char *end, *p;
	int64_t id;

	*parent_out = 0;
	if (r->in_reply_to) {
		id = pc_store__message_id(st, r->in_reply_to, err);
		if (id != 0) {
			*parent_out = id > 0 ? id : 0;
			return id < 0 ? (int)id : 0;
		}
	}
	if (!r->refs)
		return 0;
	/* Newest reference first: walk the list backwards. */
	end = r->refs + strlen(r->refs);
	while (end > r->refs) {
		char *ref;

		p = end;
		while (p > r->refs && p[-1] != ' ')
			p--;
		ref = xmemdupz(p, (size_t)(end - p));
		end = p > r->refs ? p - 1 : p;
		if (r->in_reply_to && !strcmp(ref, r->in_reply_to)) {
			free(ref);
			continue;
		}
		id = pc_store__message_id(st, ref, err);
		free(ref);
		if (id < 0)
			return (int)id;
		if (id > 0 && id != r->id) {
			*parent_out = id;
			break;
		}
	}
	return 0;
}

static int is_kind(const struct row *r, const char *k)
{
	return !strcmp(r->kind, k);
}

/*
 * Walks up the thread from message `mid`. For each stored ancestor, fn
 * decides: 0 to go on, 1 to stop. The walk ends at the top of what is
 * stored, or after MAX_THREAD_DEPTH steps (threads can be cyclic).
 */
typedef int (*walk_fn)(const struct row *anc, void *arg);

static int walk_up(struct pc_store *st, const struct row *start, walk_fn fn,
		   void *arg, struct pc_err *err)
{
	struct row cur = { 0 }, next = { 0 };
	const struct row *at = start;
	int64_t parent;
	int depth, rc = 0;

	for (depth = 0; depth < MAX_THREAD_DEPTH; depth++) {
		if ((rc = stored_parent(st, at, &parent, err)) < 0 || !parent ||
		    parent == start->id)
			break;
		if ((rc = load_row(st, parent, &next, err)) <= 0)
			break;
		rc = 0;
		if (fn(&next, arg))
			break;
		row_release(&cur);
		cur = next;
		memset(&next, 0, sizeof(next));
		at = &cur;
	}
	row_release(&cur);
	row_release(&next);
	return rc < 0 ? rc : 0;
}

static int target_fn(const struct row *anc, void *arg)
{
	if (is_kind(anc, "patch") || is_kind(anc, "cover")) {
		*(int64_t *)arg = anc->id;
		return 1;
	}
	return 0;
}

int pc_series__thread_target(struct pc_store *st, int64_t mid,
			     int64_t *target_out, struct pc_err *err)
{
	struct row r = { 0 };
	int rc;

	*target_out = 0;
	if ((rc = load_row(st, mid, &r, err)) <= 0)
		return rc;
	rc = walk_up(st, &r, target_fn, target_out, err);
	row_release(&r);
	return rc;
}

static const char SQL_SERIES_GET[] =
	"SELECT version, total, cover_id IS NOT NULL FROM series WHERE id = ?";
static const char SQL_SLOT_TAKEN[] =
	"SELECT 1 FROM messages WHERE series_id = ? AND kind = 'patch' "
	"AND idx = ? LIMIT 1";

/* Whether message m may join series sid: same version (or any, with
 * any_version), compatible total, and its slot (the cover, or patch n)
 * still free. */
static int fits(struct pc_store *st, int64_t sid, const struct row *m,
		int any_version, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_SERIES_GET, err);
	int version, total, has_cover, rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW)
		return rc == SQLITE_DONE ?
			       0 :
			       pc_store__fail(st, err, "loading a series");
	version = sqlite3_column_int(s, 0);
	total = sqlite3_column_int(s, 1);
	has_cover = sqlite3_column_int(s, 2);
	sqlite3_reset(s);
	if (version != m->version && !any_version)
		return 0;
	if (total != m->total && total != 0 && m->total != 0)
		return 0;
	if (is_kind(m, "cover"))
		return !has_cover;
	if (!(s = pc_store__stmt(st, SQL_SLOT_TAKEN, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_int(s, 2, m->idx);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return pc_store__fail(st, err, "checking a series slot");
	sqlite3_reset(s);
	return rc == SQLITE_DONE;
}

struct place_walk {
	struct pc_store *st;
	const struct row *m;
	int64_t join; /* series to join, or 0 */
	int64_t naked; /* an untagged root to promote, or 0 */
	int rc;
	struct pc_err *err;
};

static int place_fn(const struct row *anc, void *arg)
{
	struct place_walk *w = arg;

	if (is_kind(anc, "patch") || is_kind(anc, "cover")) {
		if (anc->series_id && w->m->numbered) {
			/* A patch answering its sender's own cover letter of
			 * the same n/N joins it whatever version either says
			 * ("[PATCH v4 0/6]" over "[PATCH v3 1/6]"). */
			int any = is_kind(anc, "cover") && w->m->total &&
				  anc->total == w->m->total && anc->from_addr &&
				  w->m->from_addr &&
				  !strcmp(anc->from_addr, w->m->from_addr);
			int f = fits(w->st, anc->series_id, w->m, any, w->err);

			if (f < 0)
				w->rc = f;
			else if (f)
				w->join = anc->series_id;
		}
		return 1;
	}
	if (is_kind(anc, "reply"))
		return 0;
	/* b4's naked cover letter: an untagged, diff-less thread root by
	 * the same sender, answered by the patches. */
	if (is_kind(anc, "other") && is_kind(w->m, "patch") &&
	    !anc->has_parent && !anc->series_id && anc->from_addr &&
	    w->m->from_addr && !strcmp(anc->from_addr, w->m->from_addr))
		w->naked = anc->id;
	return 1;
}

static const char SQL_NEW_SERIES[] =
	"INSERT INTO series (anchor_id, cover_id, name, norm_name, "
	"author_name, author_addr, version, total, is_rfc, topic, list_id, "
	"change_id, first_posted, last_posted) "
	"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

static int new_series(struct pc_store *st, const struct row *m,
		      int64_t *sid_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_NEW_SERIES, err);
	char norm[256];
	int rc;

	if (!s)
		return PC_EDB;
	pc_subject_normalize(norm, sizeof(norm), m->name ? m->name : "",
			     m->name ? strlen(m->name) : 0);
	sqlite3_bind_int64(s, 1, m->id);
	if (is_kind(m, "cover"))
		sqlite3_bind_int64(s, 2, m->id);
	else
		sqlite3_bind_null(s, 2);
	pc_store__bind_text(s, 3, m->name ? m->name : "");
	sqlite3_bind_text(s, 4, norm, -1, SQLITE_TRANSIENT);
	pc_store__bind_text(s, 5, m->from_name ? m->from_name : "");
	pc_store__bind_text(s, 6, m->from_addr ? m->from_addr : "");
	sqlite3_bind_int(s, 7, m->version);
	sqlite3_bind_int(s, 8, m->total);
	sqlite3_bind_int(s, 9, m->is_rfc);
	pc_store__bind_text(s, 10, m->topic);
	pc_store__bind_text(s, 11, m->list_id);
	pc_store__bind_text(s, 12, m->change_id);
	if (m->has_date) {
		sqlite3_bind_int64(s, 13, m->date);
		sqlite3_bind_int64(s, 14, m->date);
	}
	if ((rc = pc_store__exec(st, s, err, "creating a series")) < 0)
		return rc;
	*sid_out = sqlite3_last_insert_rowid(st->db);
	return 0;
}

static const char SQL_FUZZY[] =
	"SELECT id FROM series WHERE author_addr = ? AND version = ? "
	"AND total = ? AND first_posted BETWEEN ? AND ? "
	"ORDER BY abs(first_posted - ?) LIMIT 8";

static int fuzzy_join(struct pc_store *st, const struct row *m,
		      int64_t *sid_out, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_FUZZY, err);
	int64_t cand[8];
	int n = 0, i, rc;

	*sid_out = 0;
	if (!s)
		return PC_EDB;
	pc_store__bind_text(s, 1, m->from_addr ? m->from_addr : "");
	sqlite3_bind_int(s, 2, m->version);
	sqlite3_bind_int(s, 3, m->total);
	sqlite3_bind_int64(s, 4, m->date - PC_SERIES_WINDOW);
	sqlite3_bind_int64(s, 5, m->date + PC_SERIES_WINDOW);
	sqlite3_bind_int64(s, 6, m->date);
	while (n < 8 && (rc = sqlite3_step(s)) == SQLITE_ROW)
		cand[n++] = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	for (i = 0; i < n; i++) {
		if ((rc = fits(st, cand[i], m, 0, err)) < 0)
			return rc;
		if (rc) {
			*sid_out = cand[i];
			break;
		}
	}
	return 0;
}

static const char SQL_SET_SERIES[] =
	"UPDATE messages SET series_id = ? WHERE id = ?";
static const char SQL_REFRESH[] =
	"UPDATE series SET "
	"anchor_id = (SELECT id FROM messages WHERE series_id = ?1 "
	"  ORDER BY kind = 'cover' DESC, idx, date, id LIMIT 1), "
	"cover_id = (SELECT id FROM messages WHERE series_id = ?1 "
	"  AND kind = 'cover' ORDER BY id LIMIT 1), "
	"first_posted = (SELECT min(date) FROM messages WHERE series_id = ?1), "
	"last_posted = (SELECT max(date) FROM messages WHERE series_id = ?1), "
	"change_id = coalesce(change_id, (SELECT change_id FROM messages "
	"  WHERE series_id = ?1 AND change_id IS NOT NULL LIMIT 1)) "
	"WHERE id = ?1 RETURNING anchor_id, name";
static const char SQL_RENAME[] =
	"UPDATE series SET name = ?, norm_name = ?, total = ?, "
	"is_rfc = ?, topic = ? WHERE id = ?";

/*
 * Recomputes a series' anchor (its cover, else its lowest-numbered
 * patch), name and dates from its members. *renamed is set when the name
 * changed, since version links depend on it.
 */
static int refresh(struct pc_store *st, int64_t sid, int *renamed,
		   struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_REFRESH, err);
	struct row a = { 0 };
	int64_t anchor;
	char *old = NULL, norm[256];
	int rc;

	*renamed = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW)
		return pc_store__fail(st, err, "updating a series");
	anchor = sqlite3_column_int64(s, 0);
	old = pc_store__col_dup(s, 1);
	while (sqlite3_step(s) == SQLITE_ROW)
		;
	sqlite3_reset(s);
	if ((rc = load_row(st, anchor, &a, err)) <= 0)
		goto out;
	rc = 0;
	if (old && a.name && !strcmp(old, a.name))
		goto out;
	*renamed = 1;
	pc_subject_normalize(norm, sizeof(norm), a.name ? a.name : "",
			     a.name ? strlen(a.name) : 0);
	if (!(s = pc_store__stmt(st, SQL_RENAME, err))) {
		rc = PC_EDB;
		goto out;
	}
	pc_store__bind_text(s, 1, a.name ? a.name : "");
	sqlite3_bind_text(s, 2, norm, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 3, a.total);
	sqlite3_bind_int(s, 4, a.is_rfc);
	pc_store__bind_text(s, 5, a.topic);
	sqlite3_bind_int64(s, 6, sid);
	rc = pc_store__exec(st, s, err, "renaming a series");
out:
	free(old);
	row_release(&a);
	return rc;
}

static const char SQL_JOIN_DATES[] =
	"UPDATE series SET "
	"first_posted = CASE WHEN ?2 IS NULL THEN first_posted "
	"  ELSE min(coalesce(first_posted, ?2), ?2) END, "
	"last_posted = CASE WHEN ?2 IS NULL THEN last_posted "
	"  ELSE max(coalesce(last_posted, ?2), ?2) END, "
	"change_id = coalesce(change_id, ?3) "
	"WHERE id = ?1 RETURNING cover_id IS NOT NULL, "
	"(SELECT coalesce(idx, 1) FROM messages WHERE id = anchor_id), name";
static const char SQL_REANCHOR[] =
	"UPDATE series SET anchor_id = ?2, cover_id = coalesce(cover_id, ?3), "
	"name = ?4, norm_name = ?5, total = ?6, is_rfc = ?7, topic = ?8 "
	"WHERE id = ?1";

/*
 * Message m joined series sid: widens its dates, and makes m the anchor
 * (and the name) when it is the cover letter, or a lower-numbered patch
 * of a series without one. *renamed is set when the name changed.
 */
static int join_update(struct pc_store *st, int64_t sid, const struct row *m,
		       int *renamed, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_JOIN_DATES, err);
	int has_cover, anchor_idx, rc;
	char *name = NULL, norm[256];

	*renamed = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	if (m->has_date)
		sqlite3_bind_int64(s, 2, m->date);
	pc_store__bind_text(s, 3, m->change_id);
	if (sqlite3_step(s) != SQLITE_ROW)
		return pc_store__fail(st, err, "updating a series");
	has_cover = sqlite3_column_int(s, 0);
	anchor_idx = sqlite3_column_int(s, 1);
	name = pc_store__col_dup(s, 2);
	while (sqlite3_step(s) == SQLITE_ROW)
		;
	sqlite3_reset(s);
	rc = 0;
	if (!is_kind(m, "cover") && (has_cover || m->idx >= anchor_idx))
		goto out;
	pc_subject_normalize(norm, sizeof(norm), m->name ? m->name : "",
			     m->name ? strlen(m->name) : 0);
	if (!(s = pc_store__stmt(st, SQL_REANCHOR, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_int64(s, 2, m->id);
	if (is_kind(m, "cover"))
		sqlite3_bind_int64(s, 3, m->id);
	pc_store__bind_text(s, 4, m->name ? m->name : "");
	sqlite3_bind_text(s, 5, norm, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(s, 6, m->total);
	sqlite3_bind_int(s, 7, m->is_rfc);
	pc_store__bind_text(s, 8, m->topic);
	if ((rc = pc_store__exec(st, s, err, "re-anchoring a series")) < 0)
		goto out;
	*renamed = !name || !m->name || strcmp(name, m->name) != 0;
out:
	free(name);
	return rc;
}

static int set_series(struct pc_store *st, int64_t mid, int64_t sid,
		      struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_SET_SERIES, err);

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_int64(s, 2, mid);
	return pc_store__exec(st, s, err, "joining a series");
}

static const char SQL_PROMOTE[] =
	"UPDATE messages SET kind = 'cover', version = ?, idx = 0, total = ?, "
	"numbered = ?, is_rfc = ? WHERE id = ?";

static int promote_naked(struct pc_store *st, int64_t cover,
			 const struct row *m, struct row *c, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PROMOTE, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int(s, 1, m->version);
	sqlite3_bind_int(s, 2, m->total);
	sqlite3_bind_int(s, 3, m->numbered);
	sqlite3_bind_int(s, 4, m->is_rfc);
	sqlite3_bind_int64(s, 5, cover);
	if ((rc = pc_store__exec(st, s, err, "promoting a cover letter")) < 0)
		return rc;
	return load_row(st, cover, c, err) < 0 ? PC_EDB : 0;
}

static const char SQL_CHILD_SERIES[] =
	"SELECT DISTINCT series_id FROM messages "
	"WHERE in_reply_to = ? AND kind = 'patch' AND numbered = 1 "
	"AND version = ? AND series_id IS NOT NULL AND series_id != ?";
static const char SQL_CAN_MERGE[] =
	"SELECT NOT EXISTS (SELECT 1 FROM messages a JOIN messages b "
	"  ON a.idx = b.idx AND a.kind = b.kind "
	"  WHERE a.series_id = ?1 AND b.series_id = ?2) "
	"AND (SELECT version FROM series WHERE id = ?1) = "
	"    (SELECT version FROM series WHERE id = ?2)";
static const char SQL_MERGE_MSGS[] =
	"UPDATE messages SET series_id = ?1 WHERE series_id = ?2";
static const char SQL_MERGE_LINKS[] =
	"UPDATE series SET superseded_by = ?1 WHERE superseded_by = ?2";
static const char SQL_DROP_SERIES[] = "DELETE FROM series WHERE id = ?";

/*
 * Adopts series made of patches that answer message m (they arrived
 * before it, so they could not join it then). Returns how many series
 * were merged away.
 */
static int adopt_children(struct pc_store *st, const struct row *m, int64_t sid,
			  int *merged, struct pc_err *err)
{
	int64_t kids[16];
	int n = 0, i, rc;
	sqlite3_stmt *s = pc_store__stmt(st, SQL_CHILD_SERIES, err);

	*merged = 0;
	if (!s)
		return PC_EDB;
	pc_store__bind_text(s, 1, m->msgid);
	sqlite3_bind_int(s, 2, m->version);
	sqlite3_bind_int64(s, 3, sid);
	while (n < 16 && (rc = sqlite3_step(s)) == SQLITE_ROW)
		kids[n++] = sqlite3_column_int64(s, 0);
	sqlite3_reset(s);
	for (i = 0; i < n; i++) {
		if (!(s = pc_store__stmt(st, SQL_CAN_MERGE, err)))
			return PC_EDB;
		sqlite3_bind_int64(s, 1, sid);
		sqlite3_bind_int64(s, 2, kids[i]);
		rc = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0);
		sqlite3_reset(s);
		if (!rc)
			continue;
		if (!(s = pc_store__stmt(st, SQL_MERGE_MSGS, err)))
			return PC_EDB;
		sqlite3_bind_int64(s, 1, sid);
		sqlite3_bind_int64(s, 2, kids[i]);
		if ((rc = pc_store__exec(st, s, err, "merging series")) < 0)
			return rc;
		if (!(s = pc_store__stmt(st, SQL_MERGE_LINKS, err)))
			return PC_EDB;
		sqlite3_bind_int64(s, 1, sid);
		sqlite3_bind_int64(s, 2, kids[i]);
		if ((rc = pc_store__exec(st, s, err, "merging series")) < 0)
			return rc;
		if (!(s = pc_store__stmt(st, SQL_DROP_SERIES, err)))
			return PC_EDB;
		sqlite3_bind_int64(s, 1, kids[i]);
		if ((rc = pc_store__exec(st, s, err, "merging series")) < 0)
			return rc;
		(*merged)++;
	}
	return 0;
}

struct vseries {
	int64_t id;
	int is_rfc;
	int version;
	int64_t first;
	int64_t superseded_by; /* as stored, 0 for none */
};

/*
 * Version order: an RFC and a real posting by date (their numbering is
 * separate: "RFC v3" usually precedes "v1", and an "RFC PATCH v2" may
 * rework a "v1"), others by version, then by date (a RESEND of the same
 * version supersedes the earlier posting).
 */
static int cmp_vseries(const void *a, const void *b)
{
	const struct vseries *x = a, *y = b;

	/* An RFC and a real posting: by date ("RFC v3" then "v1", or a
	 * "v1" then an "RFC PATCH v2" that reworks it). */
	if (x->is_rfc != y->is_rfc && x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static const char SQL_SERIES_KEY[] =
	"SELECT author_addr, norm_name, change_id, coalesce(co_author, ''), "
	"topic FROM series WHERE id = ?";
/* The series sent by, or carrying patches by, either address: a patch
 * re-posted by a colleague (in-body From: the original author) is the
 * original's next version. Each side takes its latest ?2 through its
 * index (series_author, series_co_author_posted), then the latest ?2 of
 * them all: never every series of a prolific author, sorted. Both
 * indexes hold every column read here (schema 19). Ties on first_posted
 * are broken by id, as the plain indexes and UNION's sorter broke them
 * before: which series make the limit does not change. */
static const char SQL_AUTHOR_SERIES[] =
	"SELECT id, version, coalesce(first_posted, 0), norm_name, change_id, "
	"is_rfc, coalesce(superseded_by, 0), topic FROM ("
	"SELECT * FROM (SELECT id, version, first_posted, norm_name, "
	"change_id, is_rfc, superseded_by, topic FROM series "
	"WHERE author_addr = ?1 ORDER BY first_posted DESC, id DESC LIMIT ?2) "
	"UNION "
	"SELECT * FROM (SELECT id, version, first_posted, norm_name, "
	"change_id, is_rfc, superseded_by, topic FROM series "
	"WHERE author_addr = ?3 ORDER BY first_posted DESC, id DESC LIMIT ?2) "
	"UNION "
	"SELECT * FROM (SELECT id, version, first_posted, norm_name, "
	"change_id, is_rfc, superseded_by, topic FROM series "
	"WHERE co_author = ?1 ORDER BY first_posted DESC, id DESC LIMIT ?2) "
	"UNION "
	"SELECT * FROM (SELECT id, version, first_posted, norm_name, "
	"change_id, is_rfc, superseded_by, topic FROM series "
	"WHERE co_author = ?3 ORDER BY first_posted DESC, id DESC LIMIT ?2) "
	") ORDER BY first_posted DESC, id LIMIT ?2";
static const char SQL_CO_AUTHOR[] =
	"UPDATE series SET co_author = ?2 WHERE id = ?1 AND co_author IS NULL "
	"AND author_addr != ?2";
static const char SQL_SET_SUPERSEDED[] =
	"UPDATE series SET superseded_by = ? WHERE id = ?";
static const char SQL_EXPLICIT[] =
	/* Series named by this one's Supersedes:/"Link to vN" lines, and
	 * series that name this one; each half uses an index. */
	"SELECT o.series_id, m1.series_id FROM messages m1 "
	"JOIN messages o ON o.msgid = m1.supersedes "
	"WHERE m1.series_id = ?1 AND m1.supersedes IS NOT NULL "
	"AND o.series_id IS NOT NULL AND o.series_id != m1.series_id "
	"UNION "
	"SELECT o.series_id, m1.series_id FROM messages o "
	"JOIN messages m1 ON m1.supersedes = o.msgid "
	"WHERE o.series_id = ?1 AND m1.series_id IS NOT NULL "
	"AND o.series_id != m1.series_id";

/*
 * Recomputes superseded-by links around series sid: among the same
 * sender's series with the same change-id or a similar name, each is
 * superseded by the next in version order (cmp_vseries). Explicit
 * links (Supersedes:, b4's "Link to vN") are applied last and win.
 */
static int relink_versions(struct pc_store *st, int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_SERIES_KEY, err);
	struct vseries *group = NULL;
	size_t n = 0, alloc = 0, i;
	char *author = NULL, *norm = NULL, *change = NULL, *co = NULL,
	     *topic = NULL;
	int foreign;
	int64_t pairs[32][2];
	int npairs = 0, rc = 0;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_reset(s);
		return 0;
	}
	author = pc_store__col_dup(s, 0);
	norm = pc_store__col_dup(s, 1);
	change = pc_store__col_dup(s, 2);
	co = pc_store__col_dup(s, 3);
	topic = pc_store__col_dup(s, 4);
	sqlite3_reset(s);
	foreign = pc_sla_foreign_topic(topic, NULL, 0);

	if (!(s = pc_store__stmt(st, SQL_AUTHOR_SERIES, err))) {
		rc = PC_EDB;
		goto out;
	}
	pc_store__bind_text(s, 1, author ? author : "");
	sqlite3_bind_int(s, 2, MAX_AUTHOR_SERIES);
	/* No co-author: NULL matches nothing, where the author's address
	 * again would read the same 200 series twice over. */
	if (co && *co)
		pc_store__bind_text(s, 3, co);
	else
		sqlite3_bind_null(s, 3);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *xn = (const char *)sqlite3_column_text(s, 3);
		const char *xc = (const char *)sqlite3_column_text(s, 4);
		int64_t id = sqlite3_column_int64(s, 0);

		if (id != sid && !(change && xc && !strcmp(change, xc)) &&
		    pc_subject_similarity(norm ? norm : "", xn ? xn : "") <
			    PC_SERIES_SIMILAR)
			continue;
		/* Another project's series of the same title ("[ndctl PATCH]
		 * papr: ..." beside the kernel's "papr: ...") is no version
		 * of this one. */
		if (id != sid &&
		    pc_sla_foreign_topic(
			    (const char *)sqlite3_column_text(s, 7), NULL, 0) !=
			    foreign)
			continue;
		PC_ALLOC_GROW(group, n + 1, alloc);
		group[n].id = id;
		group[n].version = sqlite3_column_int(s, 1);
		group[n].first = sqlite3_column_int64(s, 2);
		group[n].is_rfc = sqlite3_column_int(s, 5);
		group[n].superseded_by = sqlite3_column_int64(s, 6);
		n++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		rc = pc_store__fail(st, err, "reading an author's series");
		goto out;
	}
	rc = 0;
	qsort(group, n, sizeof(*group), cmp_vseries);
	for (i = 0; n > 1 && i < n; i++) {
		int64_t next = i + 1 < n ? group[i + 1].id : 0;

		/* Most links stay as they were: write only the changes. */
		if (group[i].superseded_by == next)
			continue;
		if (!(s = pc_store__stmt(st, SQL_SET_SUPERSEDED, err))) {
			rc = PC_EDB;
			goto out;
		}
		if (i + 1 < n)
			sqlite3_bind_int64(s, 1, group[i + 1].id);
		else
			sqlite3_bind_null(s, 1);
		sqlite3_bind_int64(s, 2, group[i].id);
		if ((rc = pc_store__exec(st, s, err, "linking versions")) < 0)
			goto out;
	}

	if (!(s = pc_store__stmt(st, SQL_EXPLICIT, err))) {
		rc = PC_EDB;
		goto out;
	}
	sqlite3_bind_int64(s, 1, sid);
	while (npairs < 32 && sqlite3_step(s) == SQLITE_ROW) {
		pairs[npairs][0] = sqlite3_column_int64(s, 0);
		pairs[npairs][1] = sqlite3_column_int64(s, 1);
		npairs++;
	}
	sqlite3_reset(s);
	for (i = 0; i < (size_t)npairs; i++) {
		if (!(s = pc_store__stmt(st, SQL_SET_SUPERSEDED, err))) {
			rc = PC_EDB;
			goto out;
		}
		sqlite3_bind_int64(s, 1, pairs[i][1]);
		sqlite3_bind_int64(s, 2, pairs[i][0]);
		if ((rc = pc_store__exec(st, s, err, "linking versions")) < 0)
			goto out;
	}
out:
	free(group);
	free(author);
	free(norm);
	free(change);
	free(co);
	free(topic);
	return rc;
}

/* Notes a patch's author who is not the series' sender (a colleague
 * re-posting it); *changed when it was new. */
static int note_co_author(struct pc_store *st, int64_t sid, const char *addr,
			  int *changed, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_CO_AUTHOR, err);
	int rc;

	*changed = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_text(s, 2, addr, -1, SQLITE_STATIC);
	if ((rc = pc_store__exec(st, s, err, "noting a series' author")) < 0)
		return rc;
	*changed = sqlite3_changes(st->db) > 0;
	return 0;
}

int pc_series__place(struct pc_store *st, int64_t mid, int *created,
		     struct pc_err *err)
{
	struct row m = { 0 }, cover = { 0 };
	struct place_walk w = { .st = st, .err = err };
	int64_t sid = 0;
	int rc, renamed = 0, merged = 0, is_new = 0, co_author = 0;

	*created = 0;
	if ((rc = load_row(st, mid, &m, err)) <= 0)
		return rc;
	w.m = &m;
	if ((rc = walk_up(st, &m, place_fn, &w, err)) < 0 || (rc = w.rc) < 0)
		goto out;
	sid = w.join;
	if (!sid && w.naked) {
		if ((rc = promote_naked(st, w.naked, &m, &cover, err)) < 0 ||
		    (rc = new_series(st, &cover, &sid, err)) < 0 ||
		    (rc = set_series(st, cover.id, sid, err)) < 0)
			goto out;
		is_new = 1;
	}
	if (!sid && m.numbered && m.has_date &&
	    (rc = fuzzy_join(st, &m, &sid, err)) < 0)
		goto out;
	if (!sid) {
		if ((rc = new_series(st, &m, &sid, err)) < 0)
			goto out;
		is_new = 1;
	}
	if ((rc = set_series(st, mid, sid, err)) < 0 ||
	    (rc = adopt_children(st, &m, sid, &merged, err)) < 0)
		goto out;
	/* A fresh series already holds m's fields; a join updates what m
	 * changes; merges and naked covers recompute everything. */
	if (merged || w.naked)
		rc = refresh(st, sid, &renamed, err);
	else if (!is_new)
		rc = join_update(st, sid, &m, &renamed, err);
	if (rc < 0)
		goto out;
	if (is_kind(&m, "patch") && m.author_addr &&
	    (rc = note_co_author(st, sid, m.author_addr, &co_author, err)) < 0)
		goto out;
	if ((is_new || renamed || merged || co_author) &&
	    (rc = relink_versions(st, sid, err)) < 0)
		goto out;
	*created = is_new - merged;
	rc = 0;
out:
	row_release(&m);
	row_release(&cover);
	return rc;
}
