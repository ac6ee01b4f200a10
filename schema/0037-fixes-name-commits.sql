-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 37: a patch's "Fixes: c6f40468657d ("fsdax:
-- decouple zeroing from the iomap buffered I/O code")" names a commit,
-- so the patch of that title posted on the list was committed: its
-- series is applied from the fix's posting (lib/store/status_facts.c,
-- committed_at), and a fix of a commit posted on the list in the last
-- ten weeks goes through the tree that took it (its series' governing
-- entry: Dan Williams took the fsdax series into nvdimm.git, so he
-- takes the iomap fix of it, whatever entry fs/iomap maps to).
-- Two indexes: the title a Fixes: trailer names (the text between
-- '("' and the last '")'), and the titles of patches. Every series is
-- judged again.
CREATE INDEX trailers_fixes_title ON trailers(lower(substr(rtrim(value),
	instr(value, '("') + 2,
	length(rtrim(value)) - instr(value, '("') - 3)))
	WHERE name = 'Fixes' AND origin = 'patch';
CREATE INDEX messages_patch_title ON messages(lower(name))
	WHERE kind = 'patch';
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 37;
