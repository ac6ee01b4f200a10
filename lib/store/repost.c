// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A re-post under a new title. See repost.h.
 */
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "patch/analysis.h"
#include "patch/diff.h"
#include "store/raw.h"
#include "store/repost.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* More patches than this are a series, not a patch re-posted by hand;
 * and each is read from the raw store. */
#define MAX_PATCHES 8
/* Later series of the author's over the same files, read at most. */
#define MAX_CANDIDATES 4

/* The author's later series (within 180 days, not a stable queue's
 * copy, no lower version) whose patches touch exactly the files series
 * ?1 touches, first posted first. */
static const char SQL_CANDIDATES[] =
	"WITH mine(path) AS (SELECT DISTINCT f.new_path FROM messages m "
	" JOIN patch_files f ON f.message_id = m.id WHERE m.series_id = ?1 "
	" AND f.new_path IS NOT NULL) "
	"SELECT o.id, o.first_posted FROM series o, series s "
	"WHERE s.id = ?1 AND o.author_addr = s.author_addr AND o.id != s.id "
	"AND o.first_posted > s.first_posted "
	"AND o.first_posted < s.first_posted + 180 * 86400 "
	"AND o.version >= s.version "
	"AND NOT " PC_STORE__STABLE_COPY(
		"o") " "
		     "AND (SELECT count(*) FROM mine) > 0 "
		     "AND (SELECT count(*) FROM messages om WHERE om.series_id = o.id "
		     " AND om.kind = 'patch') BETWEEN 1 AND ?2 "
		     "AND (SELECT count(DISTINCT f.new_path) FROM messages om "
		     " JOIN patch_files f ON f.message_id = om.id "
		     " WHERE om.series_id = o.id) = (SELECT count(*) FROM mine) "
		     "AND (SELECT count(DISTINCT f.new_path) FROM messages om "
		     " JOIN patch_files f ON f.message_id = om.id "
		     " WHERE om.series_id = o.id AND +f.new_path IN (SELECT path FROM mine)) "
		     " = (SELECT count(*) FROM mine) "
		     "ORDER BY o.first_posted, o.id LIMIT ?3";

static const char SQL_PATCHES[] =
	"SELECT id FROM messages WHERE series_id = ?1 AND kind = 'patch' "
	"ORDER BY id LIMIT ?2";

/* Appends the changed lines of stored message id to (*v, *n). A
 * message that cannot be read or parsed adds nothing. */
static void add_changes(struct pc_store *st, int64_t id, uint64_t **v,
			size_t *n, size_t *alloc)
{
	struct pc_err ignored;
	struct pc_msg *m = NULL;
	char *raw = NULL;
	size_t len = 0, tlen, k, i;
	const char *text;
	uint64_t *c = NULL;

	if (pc_message_raw(&raw, &len, st, id, &ignored) == 0 &&
	    pc_msg_parse(&m, raw, len, NULL) == 0 &&
	    pc_analysis_diff_text(m, &text, &tlen)) {
		k = pc_diff_changes(text, tlen, &c);
		PC_ALLOC_GROW(*v, *n + k, *alloc);
		for (i = 0; i < k; i++)
			(*v)[(*n)++] = c[i];
	}
	free(c);
	pc_msg_free(m);
	free(raw);
}

/* The changed lines of series sid's patches, sorted, each once, in
 * (*out, *n); none when it has more than MAX_PATCHES patches. 0, or
 * PC_EDB. */
static int series_changes(struct pc_store *st, int64_t sid, uint64_t **out,
			  size_t *n, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PATCHES, err);
	int64_t ids[MAX_PATCHES + 1];
	size_t nid = 0, alloc = 0, i;
	uint64_t *v = NULL;
	int rc;

	*out = NULL;
	*n = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_int(s, 2, MAX_PATCHES + 1);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (nid <= MAX_PATCHES)
			ids[nid++] = sqlite3_column_int64(s, 0);
	if ((rc = pc_store__step_done(st, s, rc, "reading a series' patches",
				      err)) < 0 ||
	    nid > MAX_PATCHES)
		return rc;
	for (i = 0; i < nid; i++)
		add_changes(st, ids[i], &v, n, &alloc);
	*n = pc_diff_changes_unique(v, *n);
	*out = v;
	return 0;
}

int pc_store_reduced_repost(struct pc_store *st, int64_t sid, int64_t *at,
			    struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_CANDIDATES, err);
	int64_t cand[MAX_CANDIDATES], when[MAX_CANDIDATES];
	uint64_t *mine = NULL;
	size_t nc = 0, nmine = 0, i;
	int rc;

	*at = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_int(s, 2, MAX_PATCHES);
	sqlite3_bind_int(s, 3, MAX_CANDIDATES);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (nc < MAX_CANDIDATES) {
			cand[nc] = sqlite3_column_int64(s, 0);
			when[nc++] = sqlite3_column_int64(s, 1);
		}
	if ((rc = pc_store__step_done(
		     st, s, rc, "reading an author's later series", err)) < 0 ||
	    !nc)
		return rc;
	if ((rc = series_changes(st, sid, &mine, &nmine, err)) < 0)
		return rc;
	for (i = 0; i < nc && nmine && !*at && rc == 0; i++) {
		uint64_t *theirs = NULL;
		size_t n = 0;

		/* None of its lines new: the same change, or part of it. */
		rc = series_changes(st, cand[i], &theirs, &n, err);
		if (rc == 0 && n &&
		    pc_diff_changes_within(theirs, n, mine, nmine))
			*at = when[i];
		free(theirs);
	}
	free(mine);
	return rc;
}
