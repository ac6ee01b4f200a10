-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 7: the same CHECK constraints, written as OR chains.
-- SQLite 3.40 builds a temporary b-tree for a "col IN (a, b, c)" list on
-- every row it checks; on messages and patch_files that cost ingest about
-- a tenth of its CPU. "col = a OR col = b OR ..." allows exactly the same
-- values and is checked in place.
--
-- A CHECK constraint cannot be changed with ALTER TABLE. SQLite's own
-- documented procedure ("Making Other Kinds Of Table Schema Changes" in
-- its ALTER TABLE page) is used instead: the table's SQL text in
-- sqlite_schema is rewritten, which is safe because the stored format of
-- the rows does not change. Each replace() matches the whole constraint
-- as schema 1 and 2 wrote it, or nothing. Creating and dropping a table
-- then moves the schema cookie, so every open connection reads the new
-- text; patchclock reopens its own connection after migrating.
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
CREATE TABLE schema_7_cookie (x);
DROP TABLE schema_7_cookie;

PRAGMA user_version = 7;
