-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 5: where each IMAP source stands. One row per
-- [source "NAME"] of the daemon's configuration: the folder's
-- UIDVALIDITY and the highest UID whose message is in the database. The
-- row moves in the same transaction as the messages it covers, so a
-- crash never skips mail; a new UIDVALIDITY restarts from UID 1, and the
-- Message-ID keeps that resync from storing anything twice.
CREATE TABLE imap_cursor (
	source TEXT PRIMARY KEY,        -- the section name
	folder TEXT NOT NULL,
	uidvalidity INTEGER NOT NULL,
	last_uid INTEGER NOT NULL,
	resyncs INTEGER NOT NULL DEFAULT 0, -- UIDVALIDITY changes seen
	updated_at INTEGER NOT NULL     -- Unix time of the last move
);

PRAGMA user_version = 5;
