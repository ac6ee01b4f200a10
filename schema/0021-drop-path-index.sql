-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 21: the index of the paths patches touch is dropped.
--
-- patch_files_path (schema 1) has had no reader since judging compares
-- a series' files through each series' own messages (schema 17 and the
-- "+f.new_path" in lib/store/status.c: the index's rows for a common
-- file grow with the archive, which made judging quadratic). Yet every
-- file of every patch took an entry in it at its path's place: 42 MB
-- at a million messages, an index that outgrew the page cache early,
-- and then a page read and a page write for most patches. Without it,
-- storing a patch's files costs about 2 us instead of 11 us and the
-- ingest rate at a million messages rises by about a tenth. A query by
-- path (none today) can use a covering index built for it, or scan
-- patch_files (90 MB at a million messages, about a second).
DROP INDEX IF EXISTS patch_files_path;

PRAGMA user_version = 21;
