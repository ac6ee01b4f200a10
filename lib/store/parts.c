// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parts of a series that other MAINTAINERS entries hold. See
 * parts.h.
 */
#include <stdlib.h>
#include <string.h>

#include "store/parts.h"
#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* The series' patches that map to neither the governing entry ?2 nor
 * an entry sharing an M: person with it, each with its narrowest entry
 * that has an M: person (the fewest of the series' files: the SoC's
 * for a dts file, not the device tree's, which matches every binding
 * and dts file; then one with a tree matched at most a level above the
 * deepest: the regulator framework's for a regulator binding, not the
 * driver's own entry, but KEYS-ENCRYPTED's for its document, not
 * DOCUMENTATION's), and its first file; by entry, then patch. */
static const char SQL_OTHER_PARTS[] =
	"WITH pat(id, n) AS (SELECT id, idx FROM messages "
	" WHERE series_id = ?1 AND kind = 'patch' AND idx IS NOT NULL), "
	"kin(entry) AS (SELECT ?2 UNION SELECT a.entry FROM maint_people a "
	" JOIN maint_people g ON g.addr = a.addr AND g.role = 'M' "
	" AND g.entry = ?2 WHERE a.role = 'M'), "
	/* each patch's entries with an M: (THE REST aside) */
	"cand(id, entry, files, depth, dmax, pos, tree) AS (SELECT "
	" pe.message_id, pe.entry, se.files, se.depth, max(se.depth) OVER "
	" (PARTITION BY pe.message_id), se.pos, EXISTS (SELECT 1 "
	" FROM maint_entries me WHERE me.name = pe.entry "
	" AND me.tree IS NOT NULL) FROM patch_entries pe "
	" JOIN pat ON pat.id = pe.message_id JOIN series_entries se "
	" ON se.series_id = ?1 AND se.entry = pe.entry "
	" WHERE pe.entry != 'THE REST' AND EXISTS (SELECT 1 "
	" FROM maint_people p WHERE p.entry = pe.entry AND p.role = 'M')), "
	"other(id, n, entry) AS (SELECT pat.id, pat.n, (SELECT c.entry "
	" FROM cand c WHERE c.id = pat.id ORDER BY c.files, "
	" c.tree AND c.depth + 1 >= c.dmax DESC, c.depth DESC, c.pos "
	" LIMIT 1) FROM pat "
	" WHERE NOT EXISTS (SELECT 1 FROM patch_entries pe "
	" WHERE pe.message_id = pat.id AND pe.entry IN kin)) "
	"SELECT entry, n, (SELECT coalesce(f.new_path, f.old_path) "
	" FROM patch_files f WHERE f.message_id = other.id ORDER BY f.pos "
	" LIMIT 1) FROM other WHERE entry IS NOT NULL "
	/* none, when no patch is the governing entry's (a lone patch the
	 * entry governs through another version's files) */
	" AND EXISTS (SELECT 1 FROM pat JOIN patch_entries pe "
	" ON pe.message_id = pat.id WHERE pe.entry IN kin) "
	"ORDER BY min(n) OVER (PARTITION BY entry), entry, n";

int pc_store_other_parts(struct pc_store *st, int64_t sid, const char *entry,
			 int (*fn)(const struct pc_store_part *part, void *arg),
			 void *arg, struct pc_err *err)
{
	sqlite3_stmt *s;
	struct pc_store_part part;
	char *cur = NULL, *path = NULL;
	int *n = NULL, rc, stop = 0;
	size_t nn = 0, an = 0;

	if (!entry)
		return 0;
	if (!(s = pc_store__stmt(st, SQL_OTHER_PARTS, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_text(s, 2, entry, -1, SQLITE_STATIC);
	for (;;) {
		const char *e = NULL;

		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			e = pc_store__col(s, 0);
		/* a part ends where the next entry's patches begin */
		if (cur && (!e || strcmp(e, cur))) {
			part.entry = cur;
			part.path = path;
			part.patches = n;
			part.npatches = nn;
			stop = fn(&part, arg);
			free(cur);
			free(path);
			cur = path = NULL;
			nn = 0;
			if (stop)
				break;
		}
		if (rc != SQLITE_ROW)
			break;
		if (!cur) {
			cur = xstrdup(e);
			path = pc_store__col_dup(s, 2);
		}
		PC_ALLOC_GROW(n, nn + 1, an);
		n[nn++] = sqlite3_column_int(s, 1);
	}
	free(cur);
	free(path);
	free(n);
	if (stop) {
		sqlite3_reset(s);
		return stop;
	}
	return pc_store__step_done(st, s, rc, "reading a series' parts", err);
}
