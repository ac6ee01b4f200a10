-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 20: patches found by a key of their subject and of
-- their patch-id, not by the text.
--
-- Two indexes take an entry at a random place for every patch: its
-- folded subject (schema 9: the posting an unthreaded reply answers)
-- and its patch-id (the series a commit in a watched tree applies).
-- Their entries held the text, 70 and 40 bytes, so they outgrew the
-- page cache early and each new patch cost a page read and a page write
-- in each: at a million messages, half the ingest's page misses. The
-- entries are now pc_text_key() of the text, 8 bytes: a 64-bit FNV-1a
-- of the text folded as lower() folds it, a function each patchclock
-- connection registers (lib/store/store.c). Lookups compare the text
-- as well. Replies and other mail stored before this keep no key.
ALTER TABLE messages ADD COLUMN subject_key INTEGER;
ALTER TABLE messages ADD COLUMN patch_key INTEGER;
UPDATE messages SET subject_key = pc_text_key(subject),
	patch_key = pc_text_key(patch_id)
	WHERE kind = 'patch' OR kind = 'cover' OR patch_id IS NOT NULL;
DROP INDEX messages_post_subject;
CREATE INDEX messages_post_subject ON messages(subject_key)
	WHERE kind = 'patch' OR kind = 'cover';
DROP INDEX messages_patch_id;
CREATE INDEX messages_patch_id ON messages(patch_key)
	WHERE patch_key IS NOT NULL;

PRAGMA user_version = 20;
