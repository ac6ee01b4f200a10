-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 31: the replies that ask for attention (PC_INTENT_PING,
-- 1 << 24) by sender and date, a small index (pings are few): an
-- author's ping written in an earlier version's thread pings the newest
-- version (lib/store/status_facts.c, SQL_PINGS_ELSEWHERE), found by
-- sender in a seek instead of a walk over the older versions' threads
-- (640 us a series at 100,000 messages). The rules of this schema read
-- replies anew: a question addressed by name to someone the reply does
-- not quote, words in double quotes, a quoted Outlook header, a change
-- the author says is already made, "let me know if anything needs to be
-- changed". The replies of the last 180 days before the newest are read
-- again (a C step), and every series is judged again.
CREATE INDEX messages_pings ON messages(from_addr, date)
	WHERE (intent & 16777216) != 0;
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 31;
