-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 30: whether a patch was posted again by the same
-- person (lib/store/status_facts.c, SQL_REPOSTED) is two seeks, by the
-- sender's address and by the full name, instead of a walk over every
-- message of the same patch-id: at a million messages a patch re-sent in
-- every version and every stable tree holds thousands, and the walk was
-- most of a first judging pass (6.6 ms a series). The patch-id index
-- keeps patch_key first, so lookups by it alone still use it.
DROP INDEX IF EXISTS messages_patch_id;
CREATE INDEX messages_patch_addr ON messages(patch_key, from_addr, date)
	WHERE patch_key IS NOT NULL;
CREATE INDEX messages_patch_name
	ON messages(patch_key, lower(trim(from_name)), date)
	WHERE patch_key IS NOT NULL;

PRAGMA user_version = 30;
