-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 19: an author's latest series, read from the index
-- alone.
--
-- Placing a patch reads up to 200 of its author's latest series, and of
-- those carrying patches by the author (lib/store/series.c,
-- relink_versions). Their rows lie one per posting across the whole
-- series table: at 300,000 messages the query cost 16 page misses and
-- 290 us a patch, the costliest statement of the ingest. With every
-- column it reads in the index, the rows are a few adjacent index
-- pages: 0.5 misses and about half the time. id follows first_posted in
-- the key so that ties come in the order the plain indexes gave them.
DROP INDEX series_author;
CREATE INDEX series_author ON series(author_addr, first_posted, id,
	version, norm_name, change_id, is_rfc, superseded_by, topic);
DROP INDEX series_co_author_posted;
CREATE INDEX series_co_author_posted ON series(co_author, first_posted, id,
	version, norm_name, change_id, is_rfc, superseded_by, topic)
	WHERE co_author IS NOT NULL;

PRAGMA user_version = 19;
