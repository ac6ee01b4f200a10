-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 9: acceptance per patch. "Top 6 patches applied",
-- "Applied" in reply to one patch, or an "Applied" from the maintainer
-- of another subsystem (who takes the patches their own entries cover)
-- accept some patches of a series, not all of it.

-- The entries each patch's files map to (K: matches aside), written with
-- series_entries when a series is mapped.
CREATE TABLE patch_entries (
	message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
	entry TEXT NOT NULL,
	PRIMARY KEY (message_id, entry)
) WITHOUT ROWID;

-- When the patch was accepted (a maintainer's or bot's "applied", by
-- hand, or a pull request); NULL when it was not.
ALTER TABLE patch_status ADD COLUMN accepted_at INTEGER;

-- The commits on the kernel tree's branches, by stable patch-id: a patch
-- whose patch-id is there was applied, whatever its thread says.
CREATE TABLE tree_commits (
	patch_id TEXT NOT NULL,
	commit_id TEXT NOT NULL,
	committed_at INTEGER NOT NULL,
	PRIMARY KEY (patch_id, commit_id)
) WITHOUT ROWID;
-- The branch tips read so far (their history is not read again), per
-- tree directory.
CREATE TABLE tree_tips (
	tree TEXT NOT NULL,
	ref TEXT NOT NULL,
	oid TEXT NOT NULL,
	read_at INTEGER NOT NULL,
	PRIMARY KEY (tree, ref)
) WITHOUT ROWID;

-- A series' patch author when it is not the sender (a colleague re-posts
-- the patch with the author's in-body From:): its versions are linked
-- across both addresses.
ALTER TABLE series ADD COLUMN co_author TEXT;
CREATE INDEX series_co_author ON series(co_author) WHERE co_author IS NOT NULL;
UPDATE series SET co_author = (SELECT m.author_addr FROM messages m
	WHERE m.series_id = series.id AND m.kind = 'patch'
	AND m.author_addr IS NOT NULL AND m.author_addr != series.author_addr
	ORDER BY m.idx LIMIT 1);

-- A reply whose mailer dropped the threading headers finds the posting
-- it answers ("Re: [PATCH v2 1/3] x") by this index, not by a scan.
CREATE INDEX messages_post_subject ON messages(lower(subject))
	WHERE kind = 'patch' OR kind = 'cover';

-- Replies read before schema 9 keep no range: read their intent again,
-- and map every series again so that patch_entries is filled.
UPDATE messages SET intent = NULL WHERE intent IS NOT NULL AND intent & 1;
UPDATE series SET mapped_hash = NULL WHERE mapped_hash IS NOT NULL;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 9;
