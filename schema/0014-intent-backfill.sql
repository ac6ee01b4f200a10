-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 14: every message outside a patch or a cover letter
-- has its intent (what it says: applied, changes requested, a question;
-- lib/patch/intent.h). Ingest stores it for replies since schema 3 and
-- for every such message since this one; a C step (lib/store/backfill.c)
-- reads the rest from their raw bytes once, here, so that judging never
-- parses a stored mail again.
PRAGMA user_version = 14;
