// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The facts of a series, from the store. See status_facts.h.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patch/intent.h"
#include "store/repost.h"
#include "store/status.h"
#include "store/status_facts.h"
#include "store/store_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

static const char SQL_SERIES[] =
	"SELECT s.author_addr, s.first_posted, s.is_rfc, s.total, s.name, "
	"(SELECT count(DISTINCT idx) FROM messages WHERE series_id = s.id "
	" AND kind = 'patch'), "
	"(SELECT n.first_posted FROM series n WHERE n.id = s.superseded_by), "
	"(SELECT max(p.first_posted) FROM series p WHERE p.superseded_by = s.id "
	" AND p.first_posted <= s.first_posted), "
	"(SELECT accepted_at FROM series_accept WHERE series_id = s.id), "
	"coalesce(s.cover_id, 0), "
	"(SELECT count(*) FROM trailers t JOIN messages m ON m.id = t.message_id "
	" WHERE m.series_id = s.id AND t.origin = 'patch' AND (t.name = 'Fixes' "
	" OR (t.name = 'Cc' AND t.value LIKE '%stable@%'))), "
	"(SELECT min(at) FROM applies WHERE series_id = s.id "
	" AND outcome = 'applied'), "
	"(SELECT CASE verdict WHEN 'pass' THEN 1 ELSE -1 END FROM boot_tests "
	" WHERE series_id = s.id ORDER BY id DESC LIMIT 1), "
	"coalesce(s.tree_files, 0), coalesce(s.tree_missing, 0), s.topic, "
	"s.list_id, "
	"EXISTS (SELECT 1 FROM messages i WHERE i.series_id = s.id "
	" AND (i.pw_hint LIKE 'ignore%' OR ' ' || i.topic || ' ' LIKE "
	" '% AUTOSEL %')), "
	/* The first pull request, sent after the posting, whose shortlog
	 * carries at least half of the series' patches (one that carries
	 * a few re-posted ones applied before says nothing of the rest). */
	"(SELECT min(d) FROM (SELECT pm.date AS d FROM messages p "
	" JOIN pull_titles pt ON pt.title = lower(p.name) "
	" JOIN messages pm ON pm.id = pt.message_id "
	" WHERE p.series_id = s.id AND p.kind = 'patch' "
	" AND pm.date >= s.first_posted GROUP BY pm.id "
	" HAVING 2 * count(DISTINCT p.id) >= (SELECT count(*) FROM messages q "
	"  WHERE q.series_id = s.id AND q.kind = 'patch'))), "
	"(SELECT n.topic FROM series n WHERE n.id = s.superseded_by), "
	"(SELECT coalesce(n.tree_files, 0) > 0 AND 2 * n.tree_missing > "
	" n.tree_files FROM series n WHERE n.id = s.superseded_by), "
	/* An unnumbered patch posted in reply to another series of the
	 * author's, as no new version of it (the test program sent with
	 * "[PATCH v4 0/6] badblocks"): part of that posting. */
	"EXISTS (SELECT 1 FROM messages a JOIN messages p "
	" ON p.msgid = a.in_reply_to JOIN series o ON o.id = p.series_id "
	" WHERE a.id = s.anchor_id AND a.numbered = 0 AND o.id != s.id "
	" AND o.author_addr = s.author_addr AND o.version >= s.version "
	/* unless the author withdrew that one: a replacement posted in
	 * its thread is a submission of its own */
	" AND NOT EXISTS (SELECT 1 FROM messages w "
	"  WHERE w.in_reply_to = p.msgid AND w.from_addr = s.author_addr "
	"  AND (w.intent & 33554432) != 0 AND w.date <= a.date)), "
	/* A bug report with a fix in it: its anchor carries no [PATCH] or
	 * [RFC] tag, and no patch of it is signed off. */
	"(SELECT a.subject NOT LIKE '%[%patch%]%' AND a.subject NOT LIKE "
	" '%[%rfc%]%' FROM messages a WHERE a.id = s.anchor_id) "
	" AND NOT EXISTS (SELECT 1 FROM messages m JOIN trailers t "
	" ON t.message_id = m.id WHERE m.series_id = s.id "
	" AND t.origin = 'patch' AND t.name = 'Signed-off-by' COLLATE NOCASE), "
	/* The "newer version" changes none of this one's files though both
	 * change some: a different patch with a similar title by the same
	 * author ("dt-bindings: pwm: renesas,tpu: Add r8a779g0 support"
	 * beside "...renesas,pwm-rcar: Add r8a779g0 support"), no version. */
	"s.superseded_by IS NOT NULL AND EXISTS (SELECT 1 FROM messages om "
	" JOIN patch_files fo ON fo.message_id = om.id "
	" WHERE om.series_id = s.superseded_by) AND EXISTS (SELECT 1 "
	" FROM messages sm JOIN patch_files fs ON fs.message_id = sm.id "
	" WHERE sm.series_id = s.id) AND NOT EXISTS (SELECT 1 FROM messages sm "
	" JOIN patch_files fs ON fs.message_id = sm.id "
	" JOIN messages om ON om.series_id = s.superseded_by "
	" JOIN patch_files fo ON fo.message_id = om.id "
	" AND fo.new_path = fs.new_path WHERE sm.series_id = s.id), "
	"s.author_name, "
	/* A RESEND of the same version: the author's ping of it, when it
	 * carries the same patches (at least half of its patches with a
	 * patch-id of that posting's, or none with a patch-id to tell).
	 * Rebased, split or changed ("[RESEND PATCH v8]" with nine patches
	 * for eight, lore nvdimm 2021-12-02) it is a new posting, waiting
	 * from its own date. */
	"coalesce((SELECT a.is_resend FROM messages a WHERE a.id = s.anchor_id) "
	" AND EXISTS (SELECT 1 FROM series p WHERE p.superseded_by = s.id "
	" AND p.version = s.version AND (SELECT 2 * count(o.id) >= count(*) "
	"  FROM messages m LEFT JOIN messages o ON o.series_id = p.id "
	"  AND o.kind = 'patch' AND o.patch_key = m.patch_key "
	"  AND o.patch_id = m.patch_id "
	"  WHERE m.series_id = s.id AND m.kind = 'patch' "
	"  AND m.patch_id IS NOT NULL)), 0), "
	/* Its author says it implements a draft specification. */
	"EXISTS (SELECT 1 FROM messages d WHERE d.series_id = s.id "
	" AND d.kind IN ('patch', 'cover') AND (d.intent & 536870912) != 0), "
	/* Its cover letter asks each subsystem to apply its own part. */
	"EXISTS (SELECT 1 FROM messages c WHERE c.series_id = s.id "
	" AND c.kind = 'cover' AND (c.intent & 1073741824) != 0) "
	"FROM series s WHERE s.id = ?";
/* A later posting by the same author that replaces series ?1 though no
 * version link says so (the title changed between versions, a series
 * split in two): one that carries one of its patches (same patch-id)
 * and touches at least half of its files, a higher version whose
 * files are mostly the same (Jaccard above 1/2: another series of
 * the author's that shares a file or two is not a new version), or one
 * of the same version that carries every one of its patches by title
 * (reworked, under a new cover letter, with patches added). The
 * first such posting's date, or NULL. (More than half: a v2 of one of
 * two patches, posted in the review's thread, leaves the other one
 * waiting.) */
/* (+f.new_path: through the other series' own messages, not the path
 * index, whose rows for a common file grow with the archive: that made
 * judging every series quadratic.) */
static const char SQL_REPLACED[] =
	"WITH mine(path) AS (SELECT DISTINCT f.new_path FROM messages m "
	" JOIN patch_files f ON f.message_id = m.id WHERE m.series_id = ?1 "
	" AND f.new_path IS NOT NULL) "
	"SELECT min(o.first_posted) FROM series o, series s "
	"WHERE s.id = ?1 AND o.author_addr = s.author_addr AND o.id != s.id "
	"AND o.first_posted > s.first_posted "
	/* a stable tree's queue ("[PATCH 6.1 012/200]") is no new version */
	"AND NOT " PC_STORE__STABLE_COPY(
		"o") " "
		     "AND o.first_posted < s.first_posted + 180 * 86400 "
		     "AND (SELECT count(*) FROM mine) > 0 "
		     /* (a later series of a lower version that carries this one's
	 * patches unchanged builds on it: "[PATCH v2 0/3] Add support for
	 * linking gpt with poeg" carries "[PATCH v11] ... RZ/G2L GPT") */
		     "AND ((o.version >= s.version AND EXISTS (SELECT 1 FROM messages om "
		     /* By each series' own messages: the patch-id index (a patch
	 * re-sent in every version, a backport to every stable tree) may
	 * hold hundreds of rows per key. */
		     "  JOIN messages sm ON sm.patch_id = om.patch_id "
		     "  WHERE om.series_id = o.id AND sm.series_id = s.id) "
		     "  AND 2 * (SELECT count(DISTINCT f.new_path) FROM messages om "
		     "  JOIN patch_files f ON f.message_id = om.id "
		     "  WHERE om.series_id = o.id AND +f.new_path IN (SELECT path FROM mine)) "
		     "  >= (SELECT count(*) FROM mine)) "
		     " OR (o.version > s.version "
		     "  AND 3 * (SELECT count(DISTINCT f.new_path) FROM messages om "
		     "  JOIN patch_files f ON f.message_id = om.id "
		     "  WHERE om.series_id = o.id AND +f.new_path IN (SELECT path FROM mine)) "
		     "  > (SELECT count(*) FROM mine) + (SELECT count(DISTINCT f.new_path) "
		     "  FROM messages om JOIN patch_files f ON f.message_id = om.id "
		     "  WHERE om.series_id = o.id)) "
		     /* or of the same version, every patch of it again by its title,
	 * under a new cover ("[PATCH v2 0/3] erofs: iomap support for
	 * uncompressed cases" carries both patches of "[PATCH v2 0/2] erofs:
	 * dio/dax support for non-tailpacking cases", reworked, and a
	 * third: lore nvdimm 2021-07-30) */
		     " OR (o.version = s.version AND NOT EXISTS (SELECT 1 FROM messages sm "
		     "  WHERE sm.series_id = s.id AND sm.kind = 'patch' AND (sm.name = '' "
		     "  OR NOT EXISTS "
		     "  (SELECT 1 FROM messages om WHERE om.series_id = o.id "
		     "  AND om.kind = 'patch' AND lower(om.name) = lower(sm.name))))))";
/* Every patch of series ?1 posted again, the same diff (patch-id) in
 * another series, by the same person (the address, or the full name from
 * another address): the latest such date, or NULL. Uwe's "pwm: pca9685:
 * Convert to .probe_new()" re-posted as 537/606 of his i2c series, from
 * uwe@kleine-koenig.org. A stable queue's copy is no re-post. Each way
 * is one seek (schema 30: messages_patch_addr, messages_patch_name): a
 * patch-id re-sent in every version and backported to every stable tree
 * holds thousands of rows at a million messages, and reading each took
 * 6.6 ms a series. */
#define REPOST_OF                                                       \
	"(SELECT min(o.date) FROM messages o "                          \
	" JOIN series os ON os.id = o.series_id "                       \
	" WHERE o.patch_key = m.patch_key AND o.patch_id = m.patch_id " \
	" AND o.kind = 'patch' AND o.series_id != m.series_id "         \
	" AND o.date > m.date "                                         \
	" AND NOT " PC_STORE__STABLE_COPY("os") " "
static const char SQL_REPOSTED[] =
	"SELECT CASE WHEN count(*) > 0 AND count(rp) = count(*) THEN max(rp) "
	"END FROM (SELECT min(coalesce(ad, nd), coalesce(nd, ad)) AS rp "
	"FROM (SELECT " REPOST_OF " AND o.from_addr = m.from_addr) AS ad, "
	"CASE WHEN instr(trim(m.from_name), ' ') > 0 THEN " REPOST_OF
	" AND lower(trim(o.from_name)) = lower(trim(m.from_name))) END AS nd "
	" FROM messages m WHERE m.series_id = ?1 AND m.kind = 'patch' "
	" AND m.patch_id IS NOT NULL))";
/* When series ?1 re-sends an earlier posting of the same version by
 * the same sender, patch for patch (the same patch-ids), a day or more
 * after it, whatever its subject says ("[REPORT PATCH v2]", a plain
 * "[PATCH v2]" sent again): the first such posting's date, or NULL. A
 * re-send is the author's ping of what has waited since then (lore
 * nvdimm 2021-10-18); the same mail sent twice within minutes (to
 * more people, or with a patch that was missing) is no ping. */
static const char SQL_SAME_REPOST[] =
	"SELECT CASE WHEN count(*) > 0 AND count(rd) = count(*) THEN min(rd) "
	"END FROM (SELECT (SELECT min(o.date) FROM messages o "
	" JOIN series os ON os.id = o.series_id "
	" WHERE o.patch_key = m.patch_key AND o.patch_id = m.patch_id "
	" AND o.kind = 'patch' AND o.series_id != m.series_id "
	" AND o.date < m.date - 86400 AND o.from_addr = m.from_addr "
	" AND os.version = s.version) AS rd "
	" FROM messages m JOIN series s ON s.id = m.series_id "
	" WHERE m.series_id = ?1 AND m.kind = 'patch' "
	" AND m.patch_id IS NOT NULL)";
/* Each patch, when the tree holds it, and when a later patch on the
 * list (in another series, within 180 days) first named it in a Fixes:
 * tag: "Fixes: c6f40468657d ("fsdax: decouple zeroing from the iomap
 * buffered I/O code")" names a commit, so the patch of that title was
 * committed (in the tree that took it, which may not say so on the
 * list: Dan Williams applied the fsdax series silently, lore nvdimm
 * 2021-12). */
/* clang-format off */
static const char SQL_PATCHES[] =
	"SELECT m.id, m.idx, m.msgid, m.author_addr, "
	"(SELECT min(t.committed_at) FROM tree_commits t "
	" WHERE t.patch_id = m.patch_id), "
	"(SELECT min(fm.date) FROM trailers t "
	" JOIN messages fm ON fm.id = t.message_id "
	" WHERE " PC_STORE__FIXES_TITLE("t") " = lower(m.name) "
	" AND t.name = 'Fixes' AND t.origin = 'patch' AND fm.kind = 'patch' "
	" AND fm.date > m.date AND fm.date <= m.date + 180 * 86400 "
	" AND fm.series_id IS NOT m.series_id) FROM messages m "
	"WHERE m.series_id = ? AND m.kind = 'patch' ORDER BY m.idx, m.id";
/* clang-format on */
static const char SQL_TAGS[] =
	"SELECT t.name, t.addr, t.person, m.date, t.origin = 'reply', "
	"t.suggested, t.mismatch, m.dkim = 'pass' FROM trailers t "
	"JOIN messages m ON m.id = t.message_id "
	"WHERE ((t.message_id = ?1 AND t.origin = 'patch') "
	"OR (t.origin = 'reply' AND t.target_id IN (?1, ?2))) "
	"AND t.name IN ('Reviewed-by', 'Acked-by') COLLATE NOCASE "
	"ORDER BY m.date, t.id";
/* The thread: the messages of the series and of its twins and every
 * reply below them that is not part of another series; and, flagged
 * and not descended into, the patches of another series its author
 * (?2) posted below them: a new
 * version of one patch posted in reply to the review that asked for it
 * ("[PATCH v2] dt-bindings: pwm: mediatek: Add compatible for MT7986"
 * below Krzysztof Kozlowski's review of 2/2, linux-pwm 2022-10-31),
 * found by the same lookups by in_reply_to that walk the thread. */
static const char SQL_THREAD[] =
	"WITH RECURSIVE " PC_STORE__TWINS ", "
	"th(id, msgid, repost) AS ("
	" SELECT id, msgid, 0 FROM messages WHERE series_id IN twins"
	/* A reply whose mailer dropped the threading headers joins by
	 * the exact subject it answers. */
	" UNION SELECT r.id, r.msgid, 0 FROM messages p JOIN messages r"
	" ON lower(r.subject) = 're: ' || lower(p.subject)"
	" AND r.in_reply_to IS NULL AND r.refs IS NULL AND r.kind = 'reply'"
	" WHERE p.series_id IN twins"
	" UNION SELECT m.id, m.msgid, m.series_id IS NOT NULL FROM messages m"
	" JOIN th ON m.in_reply_to = th.msgid AND th.repost = 0"
	/* "+": tested on the row the in_reply_to index gives; with an
	 * index for each term, the planner made the walk more than twice
	 * as long */
	" WHERE +m.series_id IS NULL OR (+m.kind = 'patch'"
	" AND +m.series_id NOT IN twins AND +m.from_addr = ?2)) "
	"SELECT m.id, m.date, m.from_addr, m.from_name, m.is_bot, m.intent, "
	"m.auto_submitted, EXISTS (SELECT 1 FROM maint_people p "
	" WHERE p.addr = m.from_addr AND p.role = 'M'), "
	"(SELECT p.idx FROM messages p WHERE p.msgid = m.in_reply_to "
	" AND p.series_id IN twins AND p.kind = 'patch'), m.msgid, "
	"m.in_reply_to, "
	/* a review tag of its sender's: approval */
	"EXISTS (SELECT 1 FROM trailers t WHERE t.message_id = m.id "
	" AND t.origin = 'reply' AND t.mismatch = 0 AND t.suggested = 0 "
	" AND t.name IN ('Reviewed-by', 'Acked-by', 'Tested-by') "
	" COLLATE NOCASE), "
	/* an M: of its entries by the full name MAINTAINERS gives, from
	 * another address ("Alex Deucher" from gmail.com applying radeon's
	 * patch): a word that withholds mail, never one that accepts */
	"instr(trim(m.from_name), ' ') > 0 AND EXISTS (SELECT 1 "
	" FROM series_entries se JOIN maint_people p ON p.entry = se.entry "
	" WHERE se.series_id = ?1 AND p.role = 'M' "
	" AND lower(p.name) = lower(trim(m.from_name))), th.repost "
	"FROM th JOIN messages m ON m.id = th.id "
	"WHERE (m.series_id IS NULL OR th.repost) AND m.date IS NOT NULL "
	"AND m.to_bot = 0 ORDER BY m.date, m.id";
/* Whether addr is an M: of the governing entry ?1, or of an entry that
 * shares an M: with it (one maintainer's subsystems). */
static const char SQL_GOVERNING[] =
	"SELECT EXISTS (SELECT 1 FROM maint_people a WHERE (a.addr = ?2 "
	" OR a.base = ?2) "
	" AND a.role = 'M' AND (a.entry = ?1 OR EXISTS (SELECT 1 "
	" FROM maint_people b JOIN maint_people g ON g.addr = b.addr "
	" AND g.role = 'M' AND g.entry = ?1 "
	" WHERE b.entry = a.entry AND b.role = 'M')))";
/* The patches (by n) whose files map to an entry addr is an M: of. */
static const char SQL_COVERS[] =
	"SELECT DISTINCT m.idx FROM messages m "
	"JOIN patch_entries pe ON pe.message_id = m.id "
	"JOIN maint_people p ON p.entry = pe.entry AND p.role = 'M' "
	"WHERE m.series_id = ?1 AND m.kind = 'patch' AND p.addr = ?2";
/* Whether entries ?1 and ?2 share an M: person. */
static const char SQL_KIN[] =
	"SELECT EXISTS (SELECT 1 FROM maint_people a JOIN maint_people b "
	" ON b.addr = a.addr AND b.role = 'M' AND b.entry = ?2 "
	" WHERE a.entry = ?1 AND a.role = 'M')";
/* The entries one patch's files map to (K:-only matches aside: they
 * are not in patch_entries). */
static const char SQL_PATCH_ENTRIES[] =
	"SELECT entry FROM patch_entries WHERE message_id = ?";
static const char SQL_ENTRIES[] =
	"SELECT entry FROM series_entries WHERE series_id = ? ORDER BY pos";
/* The entries of the series and of its other versions (before and after
 * it), K:-only matches aside, in the order that decides the governing
 * one: the most changed lines covered by the entry and the entries that
 * share an M: person with it (one maintainer's subsystems: LIBNVDIMM
 * and LIBNVDIMM PMEM), where each file's lines count for the one entry
 * whose tree takes its patches (lib/store/mapping.c: the subsystem on
 * the list, not the driver's own entry nor the SoC's); then one with a
 * T: line before one without, one whose L: is the list the series came
 * through, the entry's own lines, the broadest match, the most files.
 * First of all, when no entry takes most of the lines, an entry whose
 * tree takes every file of the series (a binding fix across every
 * subsystem's bindings is the device tree's); then an entry of the
 * list the series was sent to that takes a third of the lines the top
 * one takes (an EVM series that also changes security/security.c is
 * EVM's when sent to linux-integrity; the block layer's series that
 * touches drivers/nvdimm stays the block layer's). The governing entry
 * is the same for every version. */
static const char SQL_ENTRIES_BY_FILES[] =
	/* the versions nearest it, 16 at most (a chain of hundreds read
	 * whole was most of judging a series at a million messages) */
	"WITH RECURSIVE chain(id) AS (SELECT ?1 UNION "
	" SELECT s.id FROM series s JOIN chain c ON s.superseded_by = c.id "
	" UNION SELECT s.superseded_by FROM series s JOIN chain c "
	" ON s.id = c.id WHERE s.superseded_by IS NOT NULL LIMIT 16), "
	"ents(entry, l, d, f, p) AS (SELECT entry, sum(lines), max(depth), "
	" sum(files), min(pos) FROM series_entries WHERE series_id IN chain "
	" AND k_only = 0 AND entry NOT IN (SELECT n.entry FROM "
	" series_not_mine n WHERE n.series_id IN chain) GROUP BY entry), "
	/* The list the series came through, as an L: address: list_id
	 * "linux-pwm.vger.kernel.org" is linux-pwm@vger.kernel.org. */
	"lst(addr) AS (SELECT lower(substr(list_id, 1, instr(list_id, '.') "
	" - 1) || '@' || substr(list_id, instr(list_id, '.') + 1)) "
	" FROM series WHERE id = ?1 AND instr(list_id, '.') > 1), "
	/* How many files the series changes: THE REST matches them all,
	 * else the entry that matches most. */
	"nf(n) AS (SELECT max(files) FROM series_entries WHERE series_id = ?1 "
	" AND k_only = 0), "
	/* the most lines one entry takes, and all lines */
	"ln(top, total) AS (SELECT max(l), sum(l) FROM ents), "
	/* each entry's family: itself and the entries that share an M:
	 * person with it, and the lines they take together (pairs by a
	 * join, not a test per pair: a tree-wide series maps to a hundred
	 * entries) */
	"mp(entry, addr) AS (SELECT a.entry, a.addr FROM maint_people a "
	" JOIN ents ON ents.entry = a.entry WHERE a.role = 'M'), "
	"kin(e1, e2) AS (SELECT m1.entry, m2.entry FROM mp m1 "
	" JOIN mp m2 ON m2.addr = m1.addr UNION SELECT entry, entry FROM ents), "
	"famsum(entry, l) AS (SELECT k.e1, sum(x.l) FROM kin k "
	" JOIN ents x ON x.entry = k.e2 GROUP BY k.e1) "
	"SELECT e.entry, e.l + e.f, (SELECT fs.l FROM famsum fs "
	" WHERE fs.entry = e.entry) AS fam, "
	"coalesce((SELECT me.tree IS NOT NULL AND me.name != 'THE REST' "
	" FROM maint_entries me WHERE me.name = e.entry), 0) AS has_tree, "
	"EXISTS (SELECT 1 FROM maint_people lp JOIN lst ON lst.addr = lp.addr "
	" WHERE lp.entry = e.entry AND lp.role = 'L') AS on_list, "
	/* by F: lines (an N: regex such as ARM/STM32's "stm32" matches
	 * every file of a driver without its tree taking it) */
	"e.d > 0 AND (SELECT se.files FROM series_entries se "
	" WHERE se.series_id = ?1 AND se.entry = e.entry) >= (SELECT n FROM nf) "
	" AS covers_all "
	"FROM ents e "
	"ORDER BY has_tree AND covers_all AND 2 * (SELECT top FROM ln) <= "
	" (SELECT total FROM ln) DESC, "
	"on_list AND 3 * e.l >= (SELECT top FROM ln) DESC, "
	"fam DESC, has_tree DESC, on_list DESC, e.l DESC, e.d, e.f DESC, e.p, "
	"e.entry";
/* For each patch of series ?1 whose Fixes: tag names a patch posted on
 * the list in the ten weeks before it, in another series: that series,
 * the newest first; and how many patches series ?1 has. */
/* clang-format off */
static const char SQL_FIXES_OF[] =
	"SELECT fm.id, p.series_id, (SELECT count(*) FROM messages x "
	" WHERE x.series_id = ?1 AND x.kind = 'patch') "
	"FROM messages fm JOIN trailers t ON t.message_id = fm.id "
	"JOIN messages p ON p.kind = 'patch' "
	" AND lower(p.name) = " PC_STORE__FIXES_TITLE("t") " "
	"WHERE fm.series_id = ?1 AND fm.kind = 'patch' AND t.name = 'Fixes' "
	"AND t.origin = 'patch' AND p.series_id != ?1 AND p.date < fm.date "
	"AND p.date >= fm.date - 70 * 86400 ORDER BY fm.id, p.date DESC";
/* clang-format on */
static const char SQL_PEOPLE[] =
	"SELECT DISTINCT p.addr, p.role FROM series_entries se "
	"JOIN maint_people p ON p.entry = se.entry "
	"WHERE se.series_id = ? AND p.role IN ('M', 'R')";
/* Everyone who gave a tag on the list for an earlier version (the 16
 * before it: tags older than that are carried in the patches, and a
 * chain of hundreds read whole cost 0.8 ms a series at a million
 * messages), and whether one of their tags came in mail that passed
 * DKIM (attested). */
static const char SQL_EARLIER_TAGGERS[] =
	"WITH RECURSIVE prev(id, depth) AS ("
	" SELECT id, 1 FROM series WHERE superseded_by = ?1"
	" UNION SELECT s.id, prev.depth + 1 FROM series s JOIN prev"
	" ON s.superseded_by = prev.id WHERE prev.depth < 16) "
	"SELECT t.addr, max(r.dkim IS 'pass') FROM prev CROSS JOIN messages m "
	"ON m.series_id = prev.id "
	"CROSS JOIN trailers t ON t.target_id = m.id "
	"JOIN messages r ON r.id = t.message_id WHERE t.origin = 'reply' "
	"AND t.mismatch = 0 AND t.addr IS NOT NULL GROUP BY t.addr";

const char *pc_status_facts_keep(struct pc_status_facts *f,
				 const unsigned char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = xstrdup((const char *)s);
	PC_ALLOC_GROW(f->strs, f->nstrs + 1, f->astrs);
	f->strs[f->nstrs++] = d;
	return d;
}

/* n zeroed bytes that live as long as f. */
static unsigned char *keep_zeroed(struct pc_status_facts *f, size_t n)
{
	char *d = xcalloc(n ? n : 1, 1);

	PC_ALLOC_GROW(f->strs, f->nstrs + 1, f->astrs);
	f->strs[f->nstrs++] = d;
	return (unsigned char *)d;
}

void pc_status_facts_release(struct pc_status_facts *f)
{
	size_t i;

	for (i = 0; i < f->nstrs; i++)
		free(f->strs[i]);
	free(f->strs);
	free(f->replies);
	free(f->patches);
	free(f->patch_ids);
	free(f->tags);
	free(f->tag_start);
	free(f->maint);
	free(f->rev);
	free(f->earlier);
	free(f->attested);
	free(f->entries);
	free(f->entry_files);
	free(f->name);
	memset(f, 0, sizeof(*f));
}

static void set_intent(struct pc_sla_reply *r, unsigned bits)
{
	r->applied = !!(bits & PC_INTENT_APPLIED);
	r->changes = !!(bits & PC_INTENT_CHANGES);
	r->respin = !!(bits & PC_INTENT_RESPIN);
	r->question = !!(bits & PC_INTENT_QUESTION);
	r->whole = !!(bits & PC_INTENT_SERIES);
	r->ping = !!(bits & PC_INTENT_PING);
	r->withdraw = !!(bits & PC_INTENT_WITHDRAW);
	r->approve = !!(bits & PC_INTENT_APPROVE);
	r->comment = !!(bits & PC_INTENT_COMMENT);
	r->request = !!(bits & PC_INTENT_REQUEST);
	r->needs_ack = !!(bits & PC_INTENT_NEEDS_ACK);
	r->first = (int)PC_INTENT_FIRST(bits);
	r->last = (int)PC_INTENT_LAST(bits);
}

static struct pc_sla_reply *insert_reply(struct pc_status_facts *f,
					 int64_t date);

/*
 * The author's new versions of single patches posted below reviews of
 * this series (SQL_THREAD's reposts) are replies of the author's that
 * answer the review (pc_sla_reply.repost), when the review is someone
 * else's and asks or remarks; the others go.
 */
static void keep_reposts_below_reviews(struct pc_status_facts *f)
{
	size_t i, j, n = 0;

	for (i = 0; i < f->s.nreplies; i++) {
		struct pc_sla_reply *r = &f->replies[i];
		int keep = !r->repost;

		for (j = 0; !keep && j < f->s.nreplies; j++) {
			const struct pc_sla_reply *q = &f->replies[j];

			keep = !q->repost && !q->bot && q->msgid &&
			       q->from_addr && r->in_reply_to &&
			       !strcmp(q->msgid, r->in_reply_to) &&
			       strcmp(q->from_addr, f->s.author_addr) &&
			       (q->comment || q->changes || q->question);
		}
		if (keep)
			f->replies[n++] = *r;
	}
	f->s.nreplies = n;
}

static int load_thread(struct pc_store *st, struct pc_status_facts *f,
		       int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (!(s = pc_store__stmt(st, SQL_THREAD, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	pc_store__bind_text(s, 2, f->s.author_addr);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_sla_reply *r;
		const unsigned char *as = sqlite3_column_text(s, 6);

		PC_ALLOC_GROW(f->replies, f->s.nreplies + 1, f->areplies);
		r = &f->replies[f->s.nreplies];
		memset(r, 0, sizeof(*r));
		r->date = sqlite3_column_int64(s, 1);
		if (sqlite3_column_int(s, 13)) {
			/* what a repost is read as: its date, where it is */
			r->from_addr = f->s.author_addr;
			r->msgid = pc_status_facts_keep(
				f, sqlite3_column_text(s, 9));
			r->in_reply_to = pc_status_facts_keep(
				f, sqlite3_column_text(s, 10));
			r->repost = 1;
			f->s.nreplies++;
			continue;
		}
		r->from_addr =
			pc_status_facts_keep(f, sqlite3_column_text(s, 2));
		r->from_name =
			pc_status_facts_keep(f, sqlite3_column_text(s, 3));
		r->bot = sqlite3_column_int(s, 4) ||
			 (as && strcasecmp((const char *)as, "no"));
		r->maintainer = sqlite3_column_int(s, 7) != 0;
		/* NULL only for a mail that could not be parsed: it says
		 * nothing (schema 14 filled every other). */
		set_intent(r, (unsigned)sqlite3_column_int(s, 5));
		r->answers = sqlite3_column_int(s, 8);
		r->msgid = pc_status_facts_keep(f, sqlite3_column_text(s, 9));
		r->in_reply_to =
			pc_status_facts_keep(f, sqlite3_column_text(s, 10));
		r->tagged = sqlite3_column_int(s, 11) != 0;
		r->named_maintainer = !r->maintainer &&
				      sqlite3_column_int(s, 12) != 0;
		f->s.nreplies++;
	}
	rc = pc_store__step_done(st, s, rc, "reading a thread", err);
	f->s.replies = f->replies;
	if (rc < 0)
		return rc;
	keep_reposts_below_reviews(f);
	return 0;
}

/* A zeroed reply slot at date, among the replies in date order (after
 * those of the same date): for what is read as a reply though it is
 * not one of the thread's (a command by mail, a ping elsewhere). */
static struct pc_sla_reply *insert_reply(struct pc_status_facts *f,
					 int64_t date)
{
	struct pc_sla_reply *r;
	size_t at;

	PC_ALLOC_GROW(f->replies, f->s.nreplies + 1, f->areplies);
	at = f->s.nreplies;
	while (at && f->replies[at - 1].date > date)
		at--;
	memmove(&f->replies[at + 1], &f->replies[at],
		(f->s.nreplies - at) * sizeof(*f->replies));
	r = &f->replies[at];
	memset(r, 0, sizeof(*r));
	r->date = date;
	f->s.nreplies++;
	f->s.replies = f->replies;
	return r;
}

/* The author's pings written in the threads of the series' earlier
 * versions (up to 8 back) after it was posted: "Just posted the final
 * v6 with your suggestions. Let me know if anything needs to be
 * changed", in v4's thread (linux-hwmon 2022-11-07). */
static const char SQL_PINGS_ELSEWHERE[] =
	"WITH RECURSIVE older(id, depth) AS ("
	" SELECT id, 1 FROM series WHERE superseded_by = ?1"
	" UNION SELECT p.id, o.depth + 1 FROM series p JOIN older o"
	" ON p.superseded_by = o.id WHERE o.depth < 8), "
	/* the author's pings since the posting (schema 31's index), then
	 * up each one's thread to the posting it answers */
	"up(ping, msgid, irt, sid, depth) AS ("
	" SELECT r.id, r.msgid, r.in_reply_to, r.series_id, 0"
	" FROM messages r JOIN series s ON s.id = ?1"
	" WHERE r.from_addr = s.author_addr AND r.date > s.first_posted"
	" AND (r.intent & 16777216) != 0 AND r.series_id IS NULL"
	" UNION ALL SELECT u.ping, p.msgid, p.in_reply_to, p.series_id,"
	" u.depth + 1 FROM up u JOIN messages p ON p.msgid = u.irt"
	" WHERE u.sid IS NULL AND u.depth < 64) "
	"SELECT r.date, r.msgid, r.from_addr FROM up "
	"JOIN older o ON o.id = up.sid JOIN messages r ON r.id = up.ping "
	"GROUP BY r.id ORDER BY r.date";

/* Adds the pings of SQL_PINGS_ELSEWHERE as the author's replies, in
 * date order: a ping of the newest version wherever it was written. */
static int load_pings_elsewhere(struct pc_store *st, struct pc_status_facts *f,
				int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PINGS_ELSEWHERE, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pc_sla_reply *r =
			insert_reply(f, sqlite3_column_int64(s, 0));

		r->msgid = pc_status_facts_keep(f, sqlite3_column_text(s, 1));
		r->from_addr =
			pc_status_facts_keep(f, sqlite3_column_text(s, 2));
		r->ping = 1;
	}
	return pc_store__step_done(st, s, rc, "reading pings elsewhere", err);
}

static const char SQL_STEER[] =
	"SELECT verb, from_addr, given_at, first, last, until_at, release, "
	"text FROM commands WHERE series_id = ?1 AND outcome = 'obeyed' "
	"ORDER BY given_at, id";

/* A maintainer's command read as a reply that says it: "applied" (what
 * it names) or "changes-requested", in date order among the replies. */
static void steer_reply(struct pc_status_facts *f, sqlite3_stmt *s, int applied)
{
	struct pc_sla_reply *r = insert_reply(f, sqlite3_column_int64(s, 2));

	r->from_addr = pc_status_facts_keep(f, sqlite3_column_text(s, 1));
	r->maintainer = 1;
	r->applied = applied;
	r->changes = !applied;
	r->first = sqlite3_column_int(s, 3);
	r->last = sqlite3_column_int(s, 4);
	r->whole = applied && !r->first;
}

/* The obeyed commands by mail, folded in order (lib/patch/command.h):
 * holds, and "applied" / "changes-requested" as replies. */
static int load_steer(struct pc_store *st, struct pc_status_facts *f,
		      int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_STEER, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *verb = (const char *)sqlite3_column_text(s, 0);
		char *why;

		if (!strcmp(verb, "applied") ||
		    !strcmp(verb, "changes-requested")) {
			steer_reply(f, s, verb[0] == 'a');
			continue;
		}
		if (!strcmp(verb, "resend-ok")) {
			f->s.steer_rejected = 0;
			f->s.steer_until = 0;
			f->s.steer_release = NULL;
			f->s.steer_why = NULL;
			continue;
		}
		if (strcmp(verb, "rejected") && strcmp(verb, "snooze") &&
		    strcmp(verb, "deferred"))
			continue; /* not-mine acts on the mapping */
		why = xasprintf("%s said \"patchclock: %s\"",
				(const char *)sqlite3_column_text(s, 1),
				(const char *)sqlite3_column_text(s, 7));
		f->s.steer_why =
			pc_status_facts_keep(f, (const unsigned char *)why);
		free(why);
		if (!strcmp(verb, "rejected"))
			f->s.steer_rejected = 1;
		else if (sqlite3_column_type(s, 6) != SQLITE_NULL)
			f->s.steer_release = pc_status_facts_keep(
				f, sqlite3_column_text(s, 6));
		else
			f->s.steer_until = sqlite3_column_int64(s, 5);
	}
	return pc_store__step_done(st, s, rc, "reading commands", err);
}

static int load_patches(struct pc_store *st, struct pc_status_facts *f,
			int64_t sid, int64_t cover, struct pc_err *err)
{
	sqlite3_stmt *s;
	size_t i, j;
	int64_t fixed;
	int rc;

	if (!(s = pc_store__stmt(st, SQL_PATCHES, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		size_t n = f->s.npatches, old = f->apatches;
		struct pc_sla_patch *p;

		PC_ALLOC_GROW(f->patches, n + 1, f->apatches);
		if (f->apatches != old)
			f->patch_ids = xreallocarray(f->patch_ids, f->apatches,
						     sizeof(*f->patch_ids));
		p = &f->patches[n];
		memset(p, 0, sizeof(*p));
		f->patch_ids[n] = sqlite3_column_int64(s, 0);
		p->idx = sqlite3_column_int(s, 1);
		p->msgid = pc_status_facts_keep(f, sqlite3_column_text(s, 2));
		p->author_addr =
			pc_status_facts_keep(f, sqlite3_column_text(s, 3));
		p->in_tree_at = sqlite3_column_int64(s, 4);
		fixed = sqlite3_column_int64(s, 5);
		/* A series split by tree: the one patch is committed;
		 * else the series is (maintainers apply a series whole). */
		if (fixed && f->s.split_by_tree)
			p->in_tree_at = p->in_tree_at && p->in_tree_at < fixed ?
						p->in_tree_at :
						fixed;
		else if (fixed &&
			 (!f->s.committed_at || fixed < f->s.committed_at))
			f->s.committed_at = fixed;
		f->s.npatches++;
	}
	if ((rc = pc_store__step_done(st, s, rc, "reading a series' patches",
				      err)) < 0)
		return rc;
	f->tag_start = xcalloc(f->s.npatches + 1, sizeof(*f->tag_start));
	for (i = 0; i < f->s.npatches; i++) {
		f->tag_start[i] = f->ntags;
		if (!(s = pc_store__stmt(st, SQL_TAGS, err)))
			return PC_EDB;
		sqlite3_bind_int64(s, 1, f->patch_ids[i]);
		sqlite3_bind_int64(s, 2, cover);
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			struct pc_sla_tag *t;

			PC_ALLOC_GROW(f->tags, f->ntags + 1, f->atags);
			t = &f->tags[f->ntags++];
			memset(t, 0, sizeof(*t));
			t->name = pc_status_facts_keep(
				f, sqlite3_column_text(s, 0));
			t->addr = pc_status_facts_keep(
				f, sqlite3_column_text(s, 1));
			t->person = pc_status_facts_keep(
				f, sqlite3_column_text(s, 2));
			t->date = sqlite3_column_int64(s, 3);
			t->from_reply = sqlite3_column_int(s, 4) != 0;
			t->suggested = sqlite3_column_int(s, 5) != 0;
			t->mismatch = sqlite3_column_int(s, 6) != 0;
			t->attested = t->from_reply &&
				      sqlite3_column_int(s, 7) != 0;
		}
		if ((rc = pc_store__step_done(st, s, rc, "reading tags", err)) <
		    0)
			return rc;
	}
	f->tag_start[f->s.npatches] = f->ntags;
	/* Tags were appended to one array: point the patches into it. */
	for (j = 0; j < f->s.npatches; j++) {
		f->patches[j].tags = f->tags ? f->tags + f->tag_start[j] : NULL;
		f->patches[j].ntags = f->tag_start[j + 1] - f->tag_start[j];
	}
	f->s.patches = f->patches;
	return 0;
}

/* Appends the text column 0 of each row to (*v, *n). */
static int load_strings(struct pc_store *st, struct pc_status_facts *f,
			const char *sql, int64_t sid, const char ***v,
			size_t *n, size_t *alloc, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		PC_ALLOC_GROW(*v, *n + 1, *alloc);
		(*v)[(*n)++] =
			pc_status_facts_keep(f, sqlite3_column_text(s, 0));
	}
	return pc_store__step_done(st, s, rc, "reading a series' people", err);
}

/* Who tagged an earlier version on the list, and who of them attested. */
static int load_earlier(struct pc_store *st, struct pc_status_facts *f,
			int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_EARLIER_TAGGERS, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *addr =
			pc_status_facts_keep(f, sqlite3_column_text(s, 0));

		PC_ALLOC_GROW(f->earlier, f->nearlier + 1, f->aearlier);
		f->earlier[f->nearlier++] = addr;
		if (!sqlite3_column_int(s, 1))
			continue;
		PC_ALLOC_GROW(f->attested, f->nattested + 1, f->aattested);
		f->attested[f->nattested++] = addr;
	}
	return pc_store__step_done(st, s, rc, "reading earlier reviewers", err);
}

/* Appends entry (kept in f) with its weight to the series' entries. */
static void add_entry(struct pc_status_facts *f, const char *entry, int files)
{
	size_t old = f->aentries;

	PC_ALLOC_GROW(f->entries, f->nentries + 1, f->aentries);
	if (old != f->aentries)
		f->entry_files = xreallocarray(f->entry_files, f->aentries,
					       sizeof(*f->entry_files));
	f->entry_files[f->nentries] = files;
	f->entries[f->nentries++] = entry;
}

/* Moves the entry at k to the front: the ones before it move up. */
static void entry_to_front(struct pc_status_facts *f, size_t k)
{
	const char *e = f->entries[k];
	int files = f->entry_files[k];

	memmove(f->entries + 1, f->entries, k * sizeof(*f->entries));
	memmove(f->entry_files + 1, f->entry_files,
		k * sizeof(*f->entry_files));
	f->entries[0] = e;
	f->entry_files[0] = files;
}

/* The series' entries, most changed lines covered first, with a weight
 * (lines and files) that orders them. */
static int load_entries(struct pc_store *st, struct pc_status_facts *f,
			int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_ENTRIES_BY_FILES, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		add_entry(f, pc_status_facts_keep(f, sqlite3_column_text(s, 0)),
			  sqlite3_column_int(s, 1));
	return pc_store__step_done(st, s, rc, "reading a series' entries", err);
}

/* How deep fixes of fixes are followed: a fix of a fix goes where the
 * first fix went (Dan Williams's compile fix of his own fix of the block
 * series, lore nvdimm 2021-06-09). */
#define FIX_DEPTH 2

static int fixed_entry(struct pc_store *st, struct pc_status_facts *f,
		       int64_t sid, int depth, const char **out,
		       struct pc_err *err);

/* The entry governing series sid by its files (SQL_ENTRIES_BY_FILES'
 * first), or by what it fixes; *out NULL for none or THE REST. */
static int governing_of(struct pc_store *st, struct pc_status_facts *f,
			int64_t sid, int depth, const char **out,
			struct pc_err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	if (depth > 0 && (rc = fixed_entry(st, f, sid, depth, out, err)) < 0)
		return rc;
	if (*out)
		return 0;
	if (!(s = pc_store__stmt(st, SQL_ENTRIES_BY_FILES, err)))
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	/* the first row is the governing entry: the rest are not read */
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *e = (const char *)sqlite3_column_text(s, 0);

		if (e && strcmp(e, "THE REST"))
			*out = pc_status_facts_keep(f,
						    (const unsigned char *)e);
	}
	sqlite3_reset(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ?
		       0 :
		       pc_store__fail(st, err,
				      "reading a fixed series' entries");
}

/*
 * *out: the entry that governs what series sid fixes, when every patch
 * of it names, in a Fixes: tag, a patch posted on the list in the ten
 * weeks before it (in other series, all governed by one entry); else
 * NULL. depth: how many fixes of fixes to follow.
 */
static int fixed_entry(struct pc_store *st, struct pc_status_facts *f,
		       int64_t sid, int depth, const char **out,
		       struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_FIXES_OF, err);
	int64_t *fixed = NULL, last = 0, id;
	size_t n = 0, a = 0, patches = 0, i;
	const char *e;
	int rc;

	*out = NULL;
	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	/* the newest patch each patch fixes decides: its series */
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		patches = (size_t)sqlite3_column_int64(s, 2);
		if ((id = sqlite3_column_int64(s, 0)) == last)
			continue;
		last = id;
		PC_ALLOC_GROW(fixed, n + 1, a);
		fixed[n++] = sqlite3_column_int64(s, 1);
	}
	rc = pc_store__step_done(st, s, rc, "reading what a fix fixes", err);
	/* (the statement is reset: governing_of() may use it again) */
	for (i = 0; rc >= 0 && n && n == patches && i < n; i++) {
		if (i && fixed[i] == fixed[i - 1])
			continue;
		if ((rc = governing_of(st, f, fixed[i], depth - 1, &e, err)) <
		    0)
			break;
		if (!e || (*out && strcmp(*out, e))) {
			*out = NULL;
			break;
		}
		*out = e;
	}
	free(fixed);
	return rc < 0 ? rc : 0;
}

/*
 * A fix of a commit posted on this list in the last ten weeks goes
 * through the tree that took that commit: when every patch of the
 * series names, in a Fixes: tag, a patch of other series governed by
 * one entry, that entry governs this one too (moved to the front of its
 * entries, or put there). Matthew Wilcox's "iomap: Fix error handling
 * in iomap_zero_iter()" fixes a commit of Christoph Hellwig's fsdax
 * series, which Dan Williams had taken into nvdimm.git: Dan takes the
 * fix, though fs/iomap maps to the iomap maintainers (lore nvdimm
 * 2021-12-21). Ten weeks: about one release cycle, while the commit is
 * in that tree and not long in a release. The other series' entry is
 * found from its files (as its own verdict's is), not read from its
 * verdict, which a lazy listing may not have made yet.
 */
static int fix_governs(struct pc_store *st, struct pc_status_facts *f,
		       int64_t sid, struct pc_err *err)
{
	const char *entry;
	size_t k;
	int rc;

	if ((rc = fixed_entry(st, f, sid, FIX_DEPTH, &entry, err)) < 0 ||
	    !entry)
		return rc;
	for (k = 0; k < f->nentries && strcmp(f->entries[k], entry); k++)
		;
	if (k == f->nentries)
		add_entry(f, entry, 0);
	entry_to_front(f, k);
	return 0;
}

/* *out: what sql, an EXISTS of two texts (?1, ?2), answers. */
static int exists2(struct pc_store *st, const char *sql, const char *a,
		   const char *b, int *out, const char *what,
		   struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, sql, err);
	int rc;

	*out = 0;
	if (!s)
		return PC_EDB;
	sqlite3_bind_text(s, 1, a, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, b, -1, SQLITE_STATIC);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0) != 0;
	sqlite3_reset(s);
	return rc == SQLITE_ROW ? 0 : pc_store__fail(st, err, what);
}

/* *out: whether addr is an M: of the governing entry's family. */
static int is_governing(struct pc_store *st, const char *entry,
			const char *addr, int *out, struct pc_err *err)
{
	return exists2(st, SQL_GOVERNING, entry, addr, out,
		       "reading a maintainer", err);
}

/*
 * For each human reply: whether its sender applies the series (an M: of
 * the governing entry's family: lib/sla/state.h, the wait); for each
 * maintainer's applied reply from someone else, which patches the
 * sender's entries cover ("Acceptance"). Rare: most threads hold one
 * "Applied", if any.
 */
static int load_acceptors(struct pc_store *st, struct pc_status_facts *f,
			  int64_t sid, struct pc_err *err)
{
	size_t i, k;
	int rc;

	if (f->nentries && f->s.author_addr &&
	    (rc = is_governing(st, f->entries[0], f->s.author_addr,
			       &f->s.author_governs, err)) < 0)
		return rc;
	for (i = 0; i < f->s.nreplies; i++) {
		struct pc_sla_reply *r = &f->replies[i];
		unsigned char *covers;
		sqlite3_stmt *s;
		int gov = 0, any;

		if (r->bot || !r->from_addr)
			continue;
		if (f->nentries) {
			/* The same people write most replies of a thread. */
			for (k = 0; k < i; k++)
				if (f->replies[k].from_addr &&
				    !f->replies[k].bot &&
				    !strcmp(f->replies[k].from_addr,
					    r->from_addr))
					break;
			rc = 0;
			if (k < i)
				gov = f->replies[k].applier;
			else
				rc = is_governing(st, f->entries[0],
						  r->from_addr, &gov, err);
			if (rc < 0)
				return rc;
			r->applier = (unsigned)gov;
		}
		if (!r->applied || gov || !f->s.npatches)
			continue;
		if (!(s = pc_store__stmt(st, SQL_COVERS, err)))
			return PC_EDB;
		covers = keep_zeroed(f, f->s.npatches);
		sqlite3_bind_int64(s, 1, sid);
		sqlite3_bind_text(s, 2, r->from_addr, -1, SQLITE_STATIC);
		any = 0;
		while ((rc = sqlite3_step(s)) == SQLITE_ROW)
			for (k = 0; k < f->s.npatches; k++)
				if (f->s.patches[k].idx ==
				    sqlite3_column_int(s, 0))
					any = covers[k] = 1;
		if ((rc = pc_store__step_done(st, s, rc,
					      "reading a maintainer's patches",
					      err)) < 0)
			return rc;
		/* Entries that cover none of it: a neighbouring tree taking
		 * it whole (NULL). */
		r->covers = any ? covers : NULL;
	}
	return 0;
}

/* The M: and R: people of the series' entries, in one query. */
static int load_people(struct pc_store *st, struct pc_status_facts *f,
		       int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PEOPLE, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *role = sqlite3_column_text(s, 1);

		if (role && role[0] == 'M') {
			PC_ALLOC_GROW(f->maint, f->nmaint + 1, f->amaint);
			f->maint[f->nmaint++] = pc_status_facts_keep(
				f, sqlite3_column_text(s, 0));
		} else {
			PC_ALLOC_GROW(f->rev, f->nrev + 1, f->arev);
			f->rev[f->nrev++] = pc_status_facts_keep(
				f, sqlite3_column_text(s, 0));
		}
	}
	return pc_store__step_done(st, s, rc, "reading a series' people", err);
}

static int name_says_fix(const char *name)
{
	const char *p = name;

	while (p && (p = pc_memimem(p, strlen(p), "fix"))) {
		if (p == name || !pc_isalnum((unsigned char)p[-1]))
			return 1;
		p += 3;
	}
	return 0;
}

/* Whether entry is one of the n in set. */
static int has_entry(const char *const *set, size_t n, const char *entry)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(set[i], entry))
			return 1;
	return 0;
}

/* Adds the entries patch message id maps to onto *set (kept in f). */
static int patch_entries(struct pc_store *st, struct pc_status_facts *f,
			 int64_t id, const char ***set, size_t *n, size_t *a,
			 struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_PATCH_ENTRIES, err);
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *e = (const char *)sqlite3_column_text(s, 0);

		if (!e || has_entry(*set, *n, e))
			continue;
		PC_ALLOC_GROW(*set, *n + 1, *a);
		(*set)[(*n)++] =
			pc_status_facts_keep(f, (const unsigned char *)e);
	}
	return pc_store__step_done(st, s, rc, "reading a patch's entries", err);
}

int pc_status_facts_rest(struct pc_store *st, struct pc_status_facts *f,
			 const struct pc_sla_verdict *v, struct pc_err *err)
{
	const char **done = NULL, **left = NULL, *rest = NULL;
	size_t ndone = 0, adone = 0, nleft = 0, aleft = 0, i, k;
	int rc = 0, kin;

	if (!(v->flags & PC_SLA_PARTLY_ACCEPTED) || f->s.rest_of_other ||
	    f->nentries < 2 || v->npatches != f->s.npatches)
		return 0;
	for (i = 0; i < f->s.npatches && rc >= 0; i++) {
		if (v->patches[i].accepted_at)
			rc = patch_entries(st, f, f->patch_ids[i], &done,
					   &ndone, &adone, err);
		else
			rc = patch_entries(st, f, f->patch_ids[i], &left,
					   &nleft, &aleft, err);
	}
	if (rc < 0)
		goto out;
	/* The governing entry took its part and has none of the rest: the
	 * first entry (in the governing order) of the rest that took
	 * nothing and whose maintainers are not the governing ones. */
	if (!has_entry(done, ndone, f->entries[0]) ||
	    has_entry(left, nleft, f->entries[0]))
		goto out;
	for (k = 1; k < f->nentries && !rest; k++) {
		const char *e = f->entries[k];

		if (!strcasecmp(e, "THE REST") || !has_entry(left, nleft, e) ||
		    has_entry(done, ndone, e))
			continue;
		if ((rc = exists2(st, SQL_KIN, f->entries[0], e, &kin,
				  "reading maintainers", err)) < 0)
			goto out;
		if (!kin)
			rest = e;
	}
	if (!rest)
		goto out;
	/* rest, at k, moves to the front */
	for (k = 1; f->entries[k] != rest; k++)
		;
	entry_to_front(f, k);
	f->s.rest_of_other = 1;
	for (i = 0; i < f->s.nreplies; i++) {
		f->replies[i].applier = 0;
		f->replies[i].covers = NULL;
	}
	f->s.author_governs = 0;
	rc = load_acceptors(st, f, f->s.id, err);
	if (rc >= 0)
		rc = 1;
out:
	free(done);
	free(left);
	return rc;
}

int pc_status_facts_gather(struct pc_store *st, struct pc_status_facts *f,
			   int64_t sid, struct pc_err *err)
{
	sqlite3_stmt *s = pc_store__stmt(st, SQL_SERIES, err);
	int64_t cover;
	int rc;

	if (!s)
		return PC_EDB;
	sqlite3_bind_int64(s, 1, sid);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW)
		return pc_store__step_done(st, s, rc, "reading a series", err) <
				       0 ?
			       PC_EDB :
			       pc_err_set(err, PC_ENOTFOUND, "no series %lld",
					  (long long)sid);
	f->s.id = sid;
	f->s.author_addr = pc_status_facts_keep(f, sqlite3_column_text(s, 0));
	f->s.posted = sqlite3_column_int64(s, 1);
	f->s.is_rfc = sqlite3_column_int(s, 2);
	f->s.total = sqlite3_column_int(s, 3);
	f->name = pc_store__col_dup(s, 4);
	f->s.received = sqlite3_column_int(s, 5);
	f->s.superseded_at = sqlite3_column_int64(s, 6);
	f->s.prev_posted = sqlite3_column_int64(s, 7);
	f->s.accepted_at = sqlite3_column_int64(s, 8);
	cover = sqlite3_column_int64(s, 9);
	f->s.has_cover = cover != 0;
	f->s.is_fix = sqlite3_column_int(s, 10) > 0 || name_says_fix(f->name);
	f->s.applied_at = sqlite3_column_int64(s, 11);
	f->s.boot = sqlite3_column_int(s, 12);
	/* Most of its pre-images missing: a userspace project's patch. */
	f->s.not_in_tree = sqlite3_column_int(s, 13) > 0 &&
			   2 * sqlite3_column_int(s, 14) >
				   sqlite3_column_int(s, 13);
	f->s.topic = pc_status_facts_keep(f, sqlite3_column_text(s, 15));
	f->s.list_id = pc_status_facts_keep(f, sqlite3_column_text(s, 16));
	f->s.ignored = sqlite3_column_int(s, 17);
	f->s.pulled_at = sqlite3_column_int64(s, 18);
	/* A "newer version" from another project is none: ndctl's
	 * "papr: Implement initial support for injecting smart errors"
	 * does not replace the kernel's same-titled patch. */
	if (f->s.superseded_at && !f->s.not_in_tree &&
	    !pc_sla_foreign_topic(f->s.topic, NULL, 0) &&
	    (sqlite3_column_int(s, 20) ||
	     pc_sla_foreign_topic((const char *)sqlite3_column_text(s, 19),
				  NULL, 0)))
		f->s.superseded_at = 0;
	f->s.inside_other = sqlite3_column_int(s, 21);
	f->s.bug_report = sqlite3_column_int(s, 22);
	if (sqlite3_column_int(s, 23))
		f->s.superseded_at = 0;
	f->s.author_name = pc_status_facts_keep(f, sqlite3_column_text(s, 24));
	f->s.resend = sqlite3_column_int(s, 25);
	f->s.draft_isa = sqlite3_column_int(s, 26);
	f->s.split_by_tree = sqlite3_column_int(s, 27);
	sqlite3_reset(s);
	if (!f->s.resend) {
		int64_t at = 0;

		if ((rc = pc_store_int(st, SQL_SAME_REPOST, sid, &at, err)) < 0)
			return rc;
		if (at && at < f->s.posted) {
			f->s.resend = 1;
			f->s.prev_posted = at;
		}
	}
	if (!f->s.superseded_at) {
		int64_t at = 0;

		if ((rc = pc_store_int(st, SQL_REPLACED, sid, &at, err)) < 0)
			return rc;
		if (!at &&
		    (rc = pc_store_int(st, SQL_REPOSTED, sid, &at, err)) < 0)
			return rc;
		if (!at &&
		    (rc = pc_store_reduced_repost(st, sid, &at, err)) < 0)
			return rc;
		f->s.superseded_at = at;
	}
	if ((rc = load_thread(st, f, sid, err)) < 0 ||
	    (rc = load_steer(st, f, sid, err)) < 0 ||
	    (rc = load_patches(st, f, sid, cover, err)) < 0 ||
	    (rc = load_people(st, f, sid, err)) < 0 ||
	    (rc = load_entries(st, f, sid, err)) < 0 ||
	    (f->s.is_fix && (rc = fix_governs(st, f, sid, err)) < 0) ||
	    (rc = load_acceptors(st, f, sid, err)) < 0)
		return rc;
	/* Tags given on the list for earlier versions, and the author's
	 * pings in their threads: only a series with an earlier version
	 * has any (most have none: skip the queries). */
	if (f->s.prev_posted &&
	    ((rc = load_earlier(st, f, sid, err)) < 0 ||
	     (rc = load_pings_elsewhere(st, f, sid, err)) < 0))
		return rc;
	f->s.maintainers = f->maint;
	f->s.nmaintainers = f->nmaint;
	f->s.reviewers = f->rev;
	f->s.nreviewers = f->nrev;
	f->s.earlier_taggers = f->earlier;
	f->s.nearlier_taggers = f->nearlier;
	f->s.attested_taggers = f->attested;
	f->s.nattested_taggers = f->nattested;
	return 0;
}

int pc_status_facts_entries(struct pc_store *st, struct pc_status_facts *f,
			    int64_t sid, struct pc_err *err)
{
	return load_strings(st, f, SQL_ENTRIES, sid, &f->entries, &f->nentries,
			    &f->aentries, err);
}
