-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 4: the outbox (every mail patchclock means to send,
-- written in the same transaction as the verdict that caused it), and
-- the addresses that asked not to get any.

-- One row per action, unique by key: "resend:<series>:v<version>:<n>",
-- "too-soon:<series>:v<version>", "digest:<address>:<local date>". The
-- message (LF line ends) and its Message-ID are fixed when the row is
-- written, so a resend after a crash is the same mail with the same id.
-- status: pending (to send at send_after or next_attempt), sent (the
-- server said 250), failed (a 5xx reply: reported, not retried),
-- suppressed (a rule said no: reason says which).
CREATE TABLE outbox (
	id INTEGER PRIMARY KEY,
	key TEXT NOT NULL UNIQUE,
	action TEXT NOT NULL CHECK (action IN
		('resend', 'too-soon', 'digest', 'boot-report')),
	series_id INTEGER REFERENCES series(id) ON DELETE SET NULL,
	recipients TEXT NOT NULL,       -- envelope recipients, space-separated
	message_id TEXT NOT NULL UNIQUE,
	subject TEXT NOT NULL,
	created_at INTEGER NOT NULL,    -- the "now" of the verdict
	send_after INTEGER NOT NULL,    -- the office-hours opening
	status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
		('pending', 'sent', 'failed', 'suppressed')),
	reason TEXT,                    -- why suppressed or failed
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt INTEGER,           -- after a temporary failure
	last_error TEXT,
	sent_at INTEGER,
	message BLOB NOT NULL
);
CREATE INDEX outbox_pending ON outbox(send_after) WHERE status = 'pending';
CREATE INDEX outbox_recipient ON outbox(recipients, created_at);

-- Addresses (or whole domains, written "@example.com") that get no mail:
-- from the configuration, or from a reply with the line
-- "patchclock: opt-out" (source is then its Message-ID).
CREATE TABLE opt_out (
	addr TEXT PRIMARY KEY,          -- lower-case
	source TEXT NOT NULL,
	since INTEGER NOT NULL
) WITHOUT ROWID;

-- For dashboards: what is waiting, what went out, what was held back.
CREATE VIEW v_outbox AS
SELECT id, action, series_id, recipients, subject, status, reason,
	attempts, datetime(send_after, 'unixepoch') AS send_after_utc,
	datetime(sent_at, 'unixepoch') AS sent_at_utc, last_error, message_id
FROM outbox;

PRAGMA user_version = 4;
