-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 16: raw mail compressed with zstd and a dictionary
-- trained on the list's own mail (issue 20). Kernel mail is half headers
-- that repeat from one message to the next (Received chains, lore's
-- List-* headers, the same Cc lists); a dictionary of them lets each
-- message be compressed on its own and still read back alone.

-- Dictionaries, never changed once stored: a raw row names the one it
-- was compressed with, so an older dictionary stays readable.
CREATE TABLE raw_dicts (
	id INTEGER PRIMARY KEY,
	created INTEGER,                -- when trained (seconds), or NULL
	samples INTEGER NOT NULL,       -- messages it was trained on
	bytes BLOB NOT NULL
);

ALTER TABLE raw ADD COLUMN dict_id INTEGER REFERENCES raw_dicts(id);

-- 'zstd' joins the codecs. The CHECK is rewritten in place, as schema 7
-- does (the rows' format is unchanged), and as an OR chain: SQLite 3.40
-- builds a temporary b-tree for every IN list it checks.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql,
	'CHECK (compression IN (''none'', ''zlib''))',
	'CHECK (compression = ''none'' OR compression = ''zlib'' OR ' ||
	'compression = ''zstd'')')
WHERE type = 'table' AND name = 'raw';
PRAGMA writable_schema = OFF;
PRAGMA writable_schema = RESET;
CREATE TABLE schema_16_cookie (x);
DROP TABLE schema_16_cookie;

PRAGMA user_version = 16;
