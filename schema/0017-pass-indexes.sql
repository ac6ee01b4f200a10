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

PRAGMA user_version = 17;
