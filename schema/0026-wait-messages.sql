-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 26: the messages a verdict turned on.
--
-- series_status.wait_msgid: the reply the wait on the maintainers began
-- at (NULL: the posting); series_status.ping_msgid: the author's last
-- ping. Every mail says why with them (outbox.why, "waiting on the
-- maintainers since <msgid>") without walking the thread again at each
-- planning pass. Every series is judged again to fill them.
ALTER TABLE series_status ADD COLUMN wait_msgid TEXT;
ALTER TABLE series_status ADD COLUMN ping_msgid TEXT;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 26;
