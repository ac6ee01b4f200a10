-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 36: a maintainer who would apply a series given
-- another's ack ("I can take it but would need Acks from nvdimm folks")
-- has answered, and the series waits on the others from that word
-- (PC_INTENT_NEEDS_ACK, lib/patch/intent.c); the author's "can you take
-- it?" is the author's ping; and a suggestion ("converting that to yaml
-- would be a nice thing") is a comment, not praise. The scan's own marks
-- moved out of the bits it stores; no stored bit changes meaning.
-- The replies of the last 180 days before the newest are read again (a
-- C step), and every series is judged again.
UPDATE messages SET intent = NULL
WHERE kind != 'patch' AND kind != 'cover' AND date >=
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 36;
