-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 38: the reply rules read more (lib/patch/intent.c):
-- a decision handed to someone else by name ("I'd let Thierry decide",
-- "That's Thierry's call") and "Who volunteers?" ask the maintainers,
-- not the author, so they answer no question of the author's; a line
-- that opens with "@Thierry," is read (only "@@" opens a hunk), and
-- "this is stuck on" is the author's ping; and the apply notes of
-- schema 37's time ("I've just added the patch titled", "Applied (after
-- changing subject as requested)", "I picked this up"; "taken into
-- account" no longer).
-- No stored bit changes meaning. The replies of the last 180 days
-- before the newest are read again (a C step), and every series is
-- judged again.
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 38;
