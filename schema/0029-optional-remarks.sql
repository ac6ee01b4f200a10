-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 29: a reviewer's remark that their own tag does not
-- wait on ("With or without that, Acked-by: ...", "Either way:
-- Reviewed-by", "Entirely up to you") asks the author for nothing
-- (PC_INTENT_REQUEST is not set, lib/patch/intent.c): the tag is the
-- verdict and the series waits on whoever applies it. An applier's
-- "any concerns with me taking this through the dax tree?" is a
-- question of routing (PC_INTENT_PING), not one to the author. The
-- replies of the last 180 days before the newest are read again (a C
-- step), and every series is judged again.
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 29;
