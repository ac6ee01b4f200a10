-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 7: the same constraints and triggers, written so that
-- SQLite does not build a temporary b-tree each time it runs them.
--
-- SQLite 3.40 builds an ephemeral b-tree for "col IN (a, b, c)" on every
-- row it checks or updates. For the CHECK constraints of messages and
-- patch_files that was about a tenth of ingest's instructions, and the
-- triggers that mark a series for mapping and evaluation again, which run
-- for every patch, another 6%.
--
-- CHECK: "col = a OR col = b OR ..." allows exactly the same values and
-- is checked in place. A CHECK constraint cannot be changed with ALTER
-- TABLE; SQLite's own documented procedure ("Making Other Kinds Of Table
-- Schema Changes" in its ALTER TABLE page) is used instead: the table's
-- SQL text in sqlite_schema is rewritten, which is safe because the stored
-- format of the rows does not change. Each replace() matches the whole
-- constraint as schema 1 and 2 wrote it, or nothing. Creating and dropping
-- a table then moves the schema cookie, so every open connection reads the
-- new text; patchclock reopens its own connection after migrating.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql,
	'CHECK (kind IN
		(''patch'', ''cover'', ''reply'', ''pull'', ''other'', ''error''))',
	'CHECK (kind = ''patch'' OR kind = ''cover'' OR kind = ''reply'' OR
		kind = ''pull'' OR kind = ''other'' OR kind = ''error'')')
WHERE type = 'table' AND name = 'messages';
UPDATE sqlite_schema SET sql = replace(sql,
	'CHECK (status IN (''M'', ''A'', ''D'', ''R'', ''C''))',
	'CHECK (status = ''M'' OR status = ''A'' OR status = ''D'' OR
		status = ''R'' OR status = ''C'')')
WHERE type = 'table' AND name = 'patch_files';
UPDATE sqlite_schema SET sql = replace(sql,
	'CHECK (role IN (''M'', ''R'', ''L''))',
	'CHECK (role = ''M'' OR role = ''R'' OR role = ''L'')')
WHERE type = 'table' AND name = 'maint_people';
PRAGMA writable_schema = OFF;
-- The connection that ran this keeps its parse of the old text (ALTER
-- TABLE ADD COLUMN in a later migration would splice the new column in
-- at the old text's offsets): make it parse the schema again.
PRAGMA writable_schema = RESET;
CREATE TABLE schema_7_cookie (x);
DROP TABLE schema_7_cookie;

-- Triggers: one UPDATE per id, each a single rowid lookup, instead of
-- "id IN (...)". The effect is the same: a row already marked is left as
-- it is, so an id named twice changes nothing the second time.
DROP TRIGGER messages_series_moved;
CREATE TRIGGER messages_series_moved AFTER UPDATE OF series_id ON messages
BEGIN
	UPDATE series SET mapped_hash = NULL
	WHERE id = NEW.series_id AND mapped_hash IS NOT NULL;
	UPDATE series SET mapped_hash = NULL
	WHERE id = OLD.series_id AND mapped_hash IS NOT NULL;
END;
DROP TRIGGER series_status_inputs;
CREATE TRIGGER series_status_inputs AFTER UPDATE OF superseded_by,
	mapped_hash, total, first_posted ON series
BEGIN
	UPDATE series SET status_dirty = 1
	WHERE id = NEW.id AND status_dirty = 0;
	UPDATE series SET status_dirty = 1
	WHERE id = NEW.superseded_by AND status_dirty = 0;
	UPDATE series SET status_dirty = 1
	WHERE id = OLD.superseded_by AND status_dirty = 0;
END;
DROP TRIGGER messages_status_moved;
CREATE TRIGGER messages_status_moved AFTER UPDATE OF series_id ON messages
BEGIN
	UPDATE series SET status_dirty = 1
	WHERE id = NEW.series_id AND status_dirty = 0;
	UPDATE series SET status_dirty = 1
	WHERE id = OLD.series_id AND status_dirty = 0;
END;

PRAGMA user_version = 7;
