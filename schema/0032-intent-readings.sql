-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 32: the rules of this schema read replies anew
-- (lib/patch/intent.c): the reviewer's own reading below a hunk ("I
-- assume the change above is safe because of the one below.") asks
-- nothing unless it names a problem or asks, and a question about the
-- author's work after this series ("what else you have in the pipe for
-- the next steps?") is no question the series waits on. The replies of
-- the last 180 days before the newest are read again (a C step), and
-- every series is judged again.
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 32;
