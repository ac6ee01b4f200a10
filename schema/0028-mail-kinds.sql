-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 28: the kinds of mail are rows, not a CHECK.
--
-- mail_kinds holds one row per kind (lib/mail/kinds.h, the one table in
-- the code); outbox.action refers to it. The outbox writes the row of a
-- kind the first time it queues one, so a new kind of mail needs no
-- migration. The CHECK is rewritten in place, as schemas 7 and 15 did
-- (the rows' format is unchanged); every action stored is a row below.
CREATE TABLE mail_kinds (
	name TEXT PRIMARY KEY,          -- the outbox action, X-Patchclock-Action
	about TEXT NOT NULL             -- what the mail is, for people
) WITHOUT ROWID;
INSERT INTO mail_kinds (name, about) VALUES
	('resend', 'a ''resend now'' reply to the author of a series overdue on its maintainers'),
	('too-soon', 'a note to an author who reposted before the profile''s minimum interval'),
	('digest', 'a maintainer''s digest of overdue, ready, late and tested series'),
	('boot-report', 'a boot test''s verdict, in the series'' thread'),
	('command-help', 'the one answer to a sender whose commands were not understood');

PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql,
	'action TEXT NOT NULL CHECK (action IN' || char(10) || char(9, 9) ||
	'(''resend'', ''too-soon'', ''digest'', ''boot-report'', ''command-help'')),',
	'action TEXT NOT NULL REFERENCES mail_kinds(name),')
WHERE type = 'table' AND name = 'outbox';
PRAGMA writable_schema = OFF;
PRAGMA writable_schema = RESET;
CREATE TABLE schema_28_cookie (x);
DROP TABLE schema_28_cookie;

PRAGMA user_version = 28;
