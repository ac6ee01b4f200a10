-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 22: who applies a patch, who is active on the list,
-- and what the author said.
--
-- Mail about waiting work goes to the people who apply it: the entry
-- whose tree takes a patch (its T: line; lib/store/status.c prefers it
-- when choosing the governing entry) and, of its M: people, those who
-- were seen on the list in the last months or were seen applying. Three
-- facts make that possible:
--  - maint_entries.tree: an entry's first T: value, and maint_people.base,
--    an address without its "+detail". MAINTAINERS is read again at the
--    next pass (the state row is dropped) to fill them.
--  - senders: per From address, the first and last Date seen and how
--    many messages: "active on the list" without an index on the whole
--    messages table. A trigger keeps it, so every ingest path does.
--  - messages_applied: the replies that say "applied"/"queued", by sender
--    and date, from which the appliers of an entry are learned.
-- series_status.pinged_at: the author's last "gentle ping" on the
-- thread (the reminder a bot would have sent).
-- New reply intents (ping, withdrawal, approval: lib/patch/intent.h)
-- are read again for the messages of the last 180 days before the
-- newest, the only ones that can still decide mail (a C step).
ALTER TABLE maint_entries ADD COLUMN tree TEXT;
-- An M:/R: address without its "+detail": krzysztof.kozlowski+dt@linaro.org
-- writes from krzysztof.kozlowski@linaro.org.
ALTER TABLE maint_people ADD COLUMN base TEXT;
CREATE INDEX maint_people_base ON maint_people(base) WHERE base IS NOT NULL;
DELETE FROM maintainers_state;

CREATE TABLE senders (
	addr TEXT PRIMARY KEY,
	first_at INTEGER NOT NULL,
	last_at INTEGER NOT NULL,
	messages INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO senders (addr, first_at, last_at, messages)
	SELECT from_addr, min(date), max(date), count(*) FROM messages
	WHERE from_addr IS NOT NULL AND from_addr != '' AND date IS NOT NULL
	GROUP BY from_addr;
CREATE TRIGGER senders_seen AFTER INSERT ON messages
WHEN NEW.from_addr IS NOT NULL AND NEW.from_addr != ''
	AND NEW.date IS NOT NULL
BEGIN
	INSERT INTO senders (addr, first_at, last_at, messages)
	VALUES (NEW.from_addr, NEW.date, NEW.date, 1)
	ON CONFLICT (addr) DO UPDATE SET
		first_at = min(first_at, excluded.first_at),
		last_at = max(last_at, excluded.last_at),
		messages = messages + 1;
END;

CREATE INDEX messages_applied ON messages(from_addr, date)
	WHERE (intent & 1) = 1;

ALTER TABLE series_status ADD COLUMN pinged_at INTEGER;

UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;

PRAGMA user_version = 22;
