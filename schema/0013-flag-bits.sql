-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 13: a verdict's flags as the integer the clock
-- computes (PC_SLA_* bits, lib/sla/state.h), read by the programs with
-- bit tests; the words in `flags` stay for the views and for people.
-- Verdicts judged before are filled from their words.
ALTER TABLE series_status ADD COLUMN flag_bits INTEGER NOT NULL DEFAULT 0;
UPDATE series_status SET flag_bits =
	(' ' || flags || ' ' LIKE '% overdue %') * 1 +
	(' ' || flags || ' ' LIKE '% too-soon %') * 2 +
	(' ' || flags || ' ' LIKE '% late-for-cycle %') * 4 +
	(' ' || flags || ' ' LIKE '% needs-review %') * 8 +
	(' ' || flags || ' ' LIKE '% off-list-review %') * 16 +
	(' ' || flags || ' ' LIKE '% incomplete %') * 32 +
	(' ' || flags || ' ' LIKE '% boot-test-failed %') * 64 +
	(' ' || flags || ' ' LIKE '% partly-accepted %') * 128;

PRAGMA user_version = 13;
