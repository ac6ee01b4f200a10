-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 23: every mail says why.
--
-- outbox.reason says why a mail was held back or failed; outbox.why says,
-- for every mail queued or held, the rule that asked for it and the
-- message that decided it: "waiting on the maintainers since <msgid>
-- (2022-11-04 14:07 UTC), due 2022-11-11 14:07 UTC", one line per item
-- of a digest. `patchclock outbox` prints it. Rows queued before this
-- schema have none.
ALTER TABLE outbox ADD COLUMN why TEXT;

PRAGMA user_version = 23;
