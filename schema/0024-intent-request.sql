-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 24: a review comment that asks the author for
-- something (PC_INTENT_REQUEST, lib/patch/intent.h: a remark below a
-- quoted line of the diff, or "please", "nit:", "could you") is told
-- from one that explains; with its sender's own tag, an explanation is
-- the tag's reason, not feedback. "OK for me" now agrees. The replies
-- of the last 180 days before the newest are read again (a C step), and
-- every series is judged again.
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 24;
