-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 27: a posting that says the specification it
-- implements is a draft (PC_INTENT_DRAFT_ISA, lib/patch/isa.h) is held
-- where the profile takes frozen or ratified extensions only (RISC-V's
-- patch-acceptance.rst; the profile field isa_extensions). Postings
-- stored no intent before (NULL): the patches and cover letters of the
-- last 180 days before the newest message are read again (a C step),
-- the older ones are left without the bit (0).
UPDATE messages SET intent = 0
WHERE kind IN ('patch', 'cover') AND intent IS NULL AND date <
	(SELECT max(date) FROM messages) - 180 * 86400;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 27;
