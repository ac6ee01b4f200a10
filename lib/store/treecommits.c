// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tree's branch commits in SQLite. See treecommits.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_internal.h"
#include "store/treecommits.h"
#include "util/xalloc.h"
#include "util/banned.h"

void pc_tree_tips_free(struct pc_tree_tip *tips, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(tips[i].ref);
	free(tips);
}

static const char SQL_ADD[] =
	"INSERT OR IGNORE INTO tree_commits (patch_id, commit_id, "
	"committed_at) VALUES (?, ?, ?)";
static const char SQL_DIRTY[] =
	"UPDATE series SET status_dirty = 1 WHERE status_dirty = 0 AND id IN "
	"(SELECT series_id FROM messages WHERE patch_key = pc_text_key(?1) "
	" AND patch_id = ?1 "
	" AND series_id IS NOT NULL)";
static const char SQL_TIPS[] =
	"SELECT ref, oid FROM tree_tips WHERE tree = ? ORDER BY ref";
static const char SQL_CLEAR_TIPS[] = "DELETE FROM tree_tips WHERE tree = ?";
static const char SQL_ADD_TIP[] =
	"INSERT INTO tree_tips (tree, ref, oid, read_at) VALUES (?, ?, ?, ?)";

int pc_tree_commit_add(struct pc_store *st, const char *patch_id,
		       const char *commit, int64_t committed_at,
		       struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ADD, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, patch_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, commit, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, committed_at);
	if ((rc = pc_store__exec(st, s, err, "storing a tree commit")) < 0)
		return rc;
	if (!sqlite3_changes(st->db))
		return 0;
	if (!(s = pc_store__stmt(st, SQL_DIRTY, err)))
		return PC_EDB;
	sqlite3_bind_text(s, 1, patch_id, -1, SQLITE_STATIC);
	return pc_store__exec(st, s, err, "marking series of a tree commit");
}

int pc_tree_tips_get(struct pc_store *st, const char *tree,
		     struct pc_tree_tip **out, size_t *n, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_TIPS, err);
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, tree, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *oid = (const char *)sqlite3_column_text(s, 1);

		PC_ALLOC_GROW(*out, *n + 1, alloc);
		(*out)[*n].ref = pc_store__col_dup(s, 0);
		snprintf((*out)[*n].oid, sizeof((*out)[*n].oid), "%s",
			 oid ? oid : "");
		(*n)++;
	}
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		pc_tree_tips_free(*out, *n);
		*out = NULL;
		*n = 0;
		return pc_store__fail(st, err, "reading the tree's tips");
	}
	return 0;
}

int pc_tree_tips_set(struct pc_store *st, const char *tree,
		     const struct pc_tree_tip *tips, size_t n, int64_t now,
		     struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_CLEAR_TIPS, err);
	size_t i;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, tree, -1, SQLITE_STATIC);
	if ((rc = pc_store__exec(st, s, err, "clearing the tree's tips")) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		if (!(s = pc_store__stmt(st, SQL_ADD_TIP, err)))
			return PC_EDB;
		sqlite3_bind_text(s, 1, tree, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, tips[i].ref, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, tips[i].oid, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 4, now);
		if ((rc = pc_store__exec(st, s, err, "storing a tree tip")) < 0)
			return rc;
	}
	return 0;
}
