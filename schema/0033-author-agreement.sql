-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 33: the rules of this schema read replies anew
-- (lib/patch/intent.c): an author's agreement alone ("Yes, I agree.")
-- to a change a reviewer put as a question promises that change, so
-- the next step is the author's. The replies of the last 180 days
-- before the newest are read again (a C step), and every series is
-- judged again.
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 33;
