-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 34: a cover letter carries a new bit
-- (PC_INTENT_SPLIT, lib/patch/split.h): its author asks the maintainers
-- of each part to apply it through their own trees, so the part of a
-- tree-wide series that reached a list is a submission to that list.
-- The cover letters of the last 180 days before the newest message are
-- read again (a C step), and every series is judged again.
UPDATE messages SET intent = NULL
WHERE kind = 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 34;
