-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 15: commands given by mail ("patchclock: snooze 2w",
-- lib/patch/command.h), who gave them, whether they were obeyed and why,
-- and what DKIM said of the mail that carried them.

-- 0: the mail holds no command line; 1: it does, not yet read; 2: read.
-- Mail stored before this schema is not read for commands.
ALTER TABLE messages ADD COLUMN commands INTEGER NOT NULL DEFAULT 0;
CREATE INDEX messages_commands_unread ON messages (id) WHERE commands = 1;
-- 1: the mail says nothing but commands: it talks to patchclock, and is
-- no answer on the thread (lib/patch/command.h, pc_cmds_only()).
ALTER TABLE messages ADD COLUMN to_bot INTEGER NOT NULL DEFAULT 0;
-- DKIM of the mail, once checked: 'none' (not signed), 'pass' (a
-- signature by the From domain verifies), 'fail'; NULL until checked.
-- (CHECKs written with OR, not IN: schema 7 says why.)
ALTER TABLE messages ADD COLUMN dkim TEXT
	CHECK (dkim IS NULL OR dkim = 'none' OR dkim = 'pass' OR dkim = 'fail');
ALTER TABLE messages ADD COLUMN dkim_why TEXT;
-- 1: a reply giving Reviewed-by or Acked-by, its DKIM not yet checked
-- (pc_attest_tags()); 2: checked, or too old to check.
ALTER TABLE messages ADD COLUMN attest INTEGER NOT NULL DEFAULT 0;
CREATE INDEX messages_attest_due ON messages (id) WHERE attest = 1;

CREATE TABLE commands (
	id INTEGER PRIMARY KEY,
	message_id INTEGER NOT NULL REFERENCES messages(id),
	lineno INTEGER NOT NULL,        -- the line of the body
	series_id INTEGER REFERENCES series(id),  -- NULL: none found
	verb TEXT NOT NULL,             -- applied, snooze, ... unknown
	text TEXT NOT NULL,             -- the line after "patchclock:"
	from_addr TEXT NOT NULL,        -- the From addr-spec, lower-case
	given_at INTEGER,               -- the mail's Date
	decided_at INTEGER NOT NULL,
	outcome TEXT NOT NULL
		CHECK (outcome = 'obeyed' OR outcome = 'refused' OR outcome = 'invalid'),
	reason TEXT NOT NULL,
	first INTEGER, last INTEGER, tree TEXT,  -- applied
	until_at INTEGER,               -- snooze, deferred until a date
	release TEXT,                   -- deferred until a release
	UNIQUE (message_id, lineno)
);
CREATE INDEX commands_series ON commands (series_id, given_at);

-- not-mine: the entry a maintainer disowned is left out of the series'
-- mapping (every version of it), so the next entry governs.
CREATE TABLE series_not_mine (
	series_id INTEGER NOT NULL REFERENCES series(id),
	entry TEXT NOT NULL,
	command_id INTEGER NOT NULL REFERENCES commands(id),
	PRIMARY KEY (series_id, entry)
);

CREATE VIEW v_commands AS
SELECT c.id, m.msgid AS message_id, c.series_id, s.name AS series,
	c.verb, c.text, c.from_addr,
	strftime('%Y-%m-%dT%H:%M:%SZ', c.given_at, 'unixepoch') AS given_at,
	strftime('%Y-%m-%dT%H:%M:%SZ', c.decided_at, 'unixepoch') AS decided_at,
	c.outcome, c.reason, m.dkim, m.dkim_why
FROM commands c JOIN messages m ON m.id = c.message_id
LEFT JOIN series s ON s.id = c.series_id;

-- A command patchclock did not understand gets one short answer listing
-- the commands, once per sender: a new outbox action. Its CHECK is
-- rewritten in place, as schema 7 does (the rows' format is unchanged).
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql,
	'''boot-report''))',
	'''boot-report'', ''command-help''))')
WHERE type = 'table' AND name = 'outbox';
PRAGMA writable_schema = OFF;
PRAGMA writable_schema = RESET;
CREATE TABLE schema_15_cookie (x);
DROP TABLE schema_15_cookie;

PRAGMA user_version = 15;
