-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 35: the rules of this schema read replies anew
-- (lib/patch/intent.c): a question put by name to someone other than
-- the author ("Thierry, what's your take here?") right after a
-- suggestion asked as a question ("... but would be nice for
-- consistency?") passes that suggestion on: it asks the author nothing;
-- "Please take a look at patch 4 in the series" (where an answer is) is
-- no ping; and a question about the posting ("You resending your v5
-- series? Is there any news since your submission?") asks nothing of
-- the patches.
-- The replies of the last 180 days before the newest are read again (a
-- C step), and every series is judged again.
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 35;
