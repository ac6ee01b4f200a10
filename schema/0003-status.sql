-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 3: the clock's verdict on every series, and the views
-- dashboards read. Times are seconds since the epoch (UTC).

-- What a reply says (lib/patch/intent.h): 1 applied/queued, 2 changes
-- wanted (NAK, "please respin"), 4 opt-out. NULL: not computed yet (mail
-- ingested before schema 3; computed from the raw mail when needed).
ALTER TABLE messages ADD COLUMN intent INTEGER;

-- `patchclock accept ID`: a maintainer accepted the series by hand.
CREATE TABLE series_accept (
	series_id INTEGER PRIMARY KEY REFERENCES series(id) ON DELETE CASCADE,
	accepted_at INTEGER NOT NULL,
	by_addr TEXT,
	note TEXT
);

-- The verdict on each series at the "now" it was last evaluated for.
-- state: new, acknowledged, changes-requested, reviewed, accepted,
-- applied, tested, superseded. turn: author, maintainers, or NULL.
CREATE TABLE series_status (
	series_id INTEGER PRIMARY KEY REFERENCES series(id) ON DELETE CASCADE,
	evaluated_at INTEGER NOT NULL,  -- the "now" of the verdict
	state TEXT NOT NULL,
	flags TEXT NOT NULL DEFAULT '', -- words: overdue too-soon ...
	overdue INTEGER NOT NULL DEFAULT 0,
	too_soon INTEGER NOT NULL DEFAULT 0,
	late INTEGER NOT NULL DEFAULT 0,
	needs_review INTEGER NOT NULL DEFAULT 0,
	turn TEXT,
	entry TEXT,                     -- the entry whose profile governs
	profile TEXT,                   -- that profile's document, or NULL
	zone TEXT,                      -- the maintainers' IANA zone
	posted INTEGER,
	due INTEGER,                    -- posted + ping-after
	act_at INTEGER,                 -- next office-hours opening at due
	first_response INTEGER,
	overdue_days REAL,              -- business days past due
	patches INTEGER NOT NULL DEFAULT 0,
	reviewed INTEGER NOT NULL DEFAULT 0,   -- patches meeting the rule
	lands TEXT,                     -- the release whose merge window takes it
	deadline INTEGER,               -- the profile's new-feature deadline
	next_check INTEGER              -- changes by itself then (no new mail)
);
CREATE INDEX series_status_next ON series_status(next_check)
	WHERE next_check IS NOT NULL;
CREATE INDEX series_status_state ON series_status(state);

-- Each patch's review status in its series' verdict.
CREATE TABLE patch_status (
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	message_id INTEGER NOT NULL REFERENCES messages(id),
	idx INTEGER NOT NULL,
	reviewed INTEGER NOT NULL,
	reviewed_by TEXT,
	off_list INTEGER NOT NULL DEFAULT 0,
	own_domain INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (series_id, message_id)
) WITHOUT ROWID;

-- The evaluation's bookkeeping (one row): the newest message whose effect
-- on its thread's series is accounted for, the "now" and the policies
-- (id of MAINTAINERS, profiles and overrides) of the last evaluation.
CREATE TABLE status_state (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	last_message INTEGER NOT NULL,
	last_now INTEGER NOT NULL,
	policy_id TEXT NOT NULL
);

-- Series to evaluate again: new ones, and those whose messages, mapping,
-- versions or acceptance changed.
ALTER TABLE series ADD COLUMN status_dirty INTEGER NOT NULL DEFAULT 1;
CREATE TRIGGER series_status_inputs AFTER UPDATE OF superseded_by,
	mapped_hash, total, first_posted ON series
BEGIN
	UPDATE series SET status_dirty = 1
	WHERE id IN (NEW.id, NEW.superseded_by, OLD.superseded_by)
		AND status_dirty = 0;
END;
CREATE TRIGGER messages_status_moved AFTER UPDATE OF series_id ON messages
BEGIN
	UPDATE series SET status_dirty = 1
	WHERE id IN (NEW.series_id, OLD.series_id) AND status_dirty = 0;
END;
CREATE TRIGGER series_accept_added AFTER INSERT ON series_accept
BEGIN
	UPDATE series SET status_dirty = 1 WHERE id = NEW.series_id;
END;

-- Dashboards ------------------------------------------------------------

-- Every series with its verdict, newest version state included.
CREATE VIEW v_series_status AS
SELECT s.id, s.name, s.author_name, s.author_addr, s.version, s.is_rfc,
	st.state, st.flags, st.turn, st.entry, st.profile, st.zone,
	st.posted, st.due, st.act_at, st.first_response, st.overdue_days,
	st.patches, st.reviewed, st.lands, st.evaluated_at, s.superseded_by
FROM series s JOIN series_status st ON st.series_id = s.id;

-- Overdue series, the longest overdue first.
CREATE VIEW v_overdue AS
SELECT id, name, author_name, author_addr, version, entry, zone, posted,
	due, act_at, overdue_days, evaluated_at
FROM v_series_status WHERE state = 'new' AND flags LIKE '%overdue%'
ORDER BY overdue_days DESC;

-- Series waiting for a review their profile asks for.
CREATE VIEW v_awaiting_review AS
SELECT id, name, author_name, author_addr, version, entry, posted,
	patches, reviewed, turn, state
FROM v_series_status
WHERE state IN ('new', 'acknowledged', 'changes-requested')
	AND flags LIKE '%needs-review%' AND superseded_by IS NULL;

-- Reviewed and complete: ready for a maintainer to apply.
CREATE VIEW v_ready_to_apply AS
SELECT id, name, author_name, author_addr, version, entry, posted,
	patches, reviewed
FROM v_series_status
WHERE state = 'reviewed' AND flags NOT LIKE '%incomplete%'
	AND superseded_by IS NULL;

-- Per entry and month of posting: series posted, how many got a first
-- response, the median hours to it, and the share answered by their due
-- time (the profile's cadence).
CREATE VIEW v_sla_by_entry AS
WITH r AS (
	SELECT entry, strftime('%Y-%m', posted, 'unixepoch') AS month,
		first_response, due,
		(first_response - posted) / 3600.0 AS hours
	FROM series_status WHERE entry IS NOT NULL AND posted IS NOT NULL
), ranked AS (
	SELECT entry, month, hours,
		row_number() OVER (PARTITION BY entry, month ORDER BY hours)
			AS rn,
		count(hours) OVER (PARTITION BY entry, month) AS cnt
	FROM r WHERE hours IS NOT NULL
)
SELECT r.entry, r.month, count(*) AS series,
	count(r.first_response) AS answered,
	(SELECT avg(hours) FROM ranked k
	 WHERE k.entry = r.entry AND k.month = r.month
		AND k.rn IN ((k.cnt + 1) / 2, (k.cnt + 2) / 2))
		AS median_hours_to_response,
	round(1.0 * sum(r.first_response IS NOT NULL
			AND (r.due IS NULL OR r.first_response <= r.due))
		/ count(*), 3) AS share_within_cadence
FROM r GROUP BY r.entry, r.month;

PRAGMA user_version = 3;
