-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 11: the address of the person whose tag met the
-- review rule, beside the name (reviewed_by): listings give people as
-- name and address (doc/json.md). Filled when the series is judged next.
ALTER TABLE patch_status ADD COLUMN reviewed_by_addr TEXT;

PRAGMA user_version = 11;
