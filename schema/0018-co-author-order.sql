-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 18: an author's latest series, read in index order.
--
-- Placing a patch reads the latest series sent by, or carrying patches
-- by, its author (lib/store/series.c, relink_versions). For a prolific
-- author whose patches others re-send (a stable maintainer's queue, a
-- colleague's repost), series_co_author found every such series and
-- sorted them all: at a million messages that one query was 60% of the
-- ingest's time, 250 page misses a patch. With first_posted in the
-- index, each side reads only the latest rows it needs.
CREATE INDEX series_co_author_posted ON series(co_author, first_posted)
	WHERE co_author IS NOT NULL;
DROP INDEX series_co_author;

PRAGMA user_version = 18;
