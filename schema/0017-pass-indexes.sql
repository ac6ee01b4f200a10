-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 17: a judging pass reads what changed, not the
-- archive (issue 20: under 100 ms after one new message with 100,000
-- open series).

-- The planner reads only series posted within max_age (and those with
-- an apply or a boot test): older ones can get no mail.
CREATE INDEX series_status_posted ON series_status(posted);

-- Every pass adds the senders of opt-out replies to opt_out: the rare
-- replies that asked, not a scan of every message.
CREATE INDEX messages_opt_out_replies ON messages(lower(from_addr))
	WHERE kind = 'reply' AND intent & 4;

-- Linus's release announcements, read when policies load (every CLI
-- command that judges): the few he sent, not a scan of every message.
-- The address is PC_MAINT_CHIEF_ADDR (lib/maint/maintainers.h).
CREATE INDEX messages_announcements ON messages(date)
	WHERE from_addr = 'torvalds@linux-foundation.org'
	AND in_reply_to IS NULL;

-- The series to map again: those whose mapping is older than the
-- MAINTAINERS read, found by range, not by a scan of every series.
CREATE INDEX series_mapped_hash ON series(mapped_hash);

-- The series a pass judges: those marked dirty, those whose verdict
-- said when to look again, and those first posted since the last pass;
-- each found through an index (status_dirty is 1 for few rows), not by
-- a scan of every series.
CREATE INDEX series_dirty ON series(id) WHERE status_dirty = 1;
CREATE INDEX series_first_posted ON series(first_posted);

PRAGMA user_version = 17;
