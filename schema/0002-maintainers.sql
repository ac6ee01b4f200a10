-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 2: MAINTAINERS as last loaded, and each series mapped
-- to its entries the way scripts/get_maintainer.pl maps its files.

-- The MAINTAINERS file the entries below come from (one row). hash is the
-- SHA-256 of MAINTAINERS and .mailmap: when it changes, every series is
-- mapped again.
CREATE TABLE maintainers_state (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	hash TEXT NOT NULL,
	tree TEXT,                      -- the tree it was read from
	loaded_at INTEGER NOT NULL,     -- when (seconds since the epoch)
	entries INTEGER NOT NULL
);

-- Every MAINTAINERS entry, in file order.
CREATE TABLE maint_entries (
	name TEXT PRIMARY KEY,          -- "LIBNVDIMM PMEM AND CORE"
	idx INTEGER NOT NULL,           -- 0-based order in MAINTAINERS
	status TEXT,                    -- S:
	profile TEXT                    -- the first P: value, as written
) WITHOUT ROWID;

-- The people and lists of each entry: role M (maintainer), R (reviewer)
-- or L (list); name may be empty; addr is lower-cased.
CREATE TABLE maint_people (
	entry TEXT NOT NULL REFERENCES maint_entries(name) ON DELETE CASCADE,
	pos INTEGER NOT NULL,
	role TEXT NOT NULL CHECK (role IN ('M', 'R', 'L')),
	name TEXT NOT NULL DEFAULT '',
	addr TEXT NOT NULL,
	PRIMARY KEY (entry, pos)
) WITHOUT ROWID;
CREATE INDEX maint_people_addr ON maint_people(addr);

-- The entries a series maps to: the union over the files its patches
-- touch (depth: the deepest match of any file) and its K: hits.
CREATE TABLE series_entries (
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	entry TEXT NOT NULL,
	entry_idx INTEGER NOT NULL,
	pos INTEGER NOT NULL,           -- get_maintainer.pl's order
	depth INTEGER NOT NULL,         -- the match depth that placed it
	files INTEGER NOT NULL,         -- how many of the series' files match
	k_hit INTEGER NOT NULL DEFAULT 0,  -- a K: regex matched a patch
	k_only INTEGER NOT NULL DEFAULT 0, -- only K: matched
	PRIMARY KEY (series_id, entry)
) WITHOUT ROWID;
CREATE INDEX series_entries_entry ON series_entries(entry);

-- The MAINTAINERS hash a series was mapped with; NULL when it must be
-- mapped (again): new series, and series whose patches changed.
ALTER TABLE series ADD COLUMN mapped_hash TEXT;
CREATE TRIGGER messages_series_moved AFTER UPDATE OF series_id ON messages
BEGIN
	UPDATE series SET mapped_hash = NULL
	WHERE id IN (NEW.series_id, OLD.series_id) AND mapped_hash IS NOT NULL;
END;

-- For dashboards: each series' entries with their maintainers.
CREATE VIEW v_series_entries AS
SELECT se.series_id, se.entry, se.depth, se.files, se.k_hit, se.k_only,
	e.status, e.profile,
	(SELECT group_concat(p.addr, ' ') FROM maint_people p
	 WHERE p.entry = se.entry AND p.role = 'M') AS maintainers,
	(SELECT group_concat(p.addr, ' ') FROM maint_people p
	 WHERE p.entry = se.entry AND p.role = 'R') AS reviewers,
	(SELECT group_concat(p.addr, ' ') FROM maint_people p
	 WHERE p.entry = se.entry AND p.role = 'L') AS lists
FROM series_entries se
LEFT JOIN maint_entries e ON e.name = se.entry;

PRAGMA user_version = 2;
