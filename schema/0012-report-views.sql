-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 12: views for dashboards, with what the HTML report
-- (`patchclock report`) shows, so a dashboard of one's own reads the
-- same figures: ISO 8601 times, archive links, one row per person.

-- Every judged series: its verdict with ISO 8601 UTC times, open or
-- not, ready to apply, and the lore link of its anchor (the Message-ID
-- percent-encoded where a URL path needs it, as patchclock writes links;
-- a configured archive pattern applies to the report and mail only).
CREATE VIEW v_series_report AS
SELECT s.id, s.name AS subject, s.author_name, s.author_addr,
	s.version AS revision, s.is_rfc, st.state, st.flags, st.turn,
	st.entry, st.profile, st.zone,
	strftime('%Y-%m-%dT%H:%M:%SZ', st.posted, 'unixepoch') AS posted_at,
	strftime('%Y-%m-%dT%H:%M:%SZ', st.due, 'unixepoch') AS due_at,
	strftime('%Y-%m-%dT%H:%M:%SZ', st.act_at, 'unixepoch') AS act_at,
	strftime('%Y-%m-%dT%H:%M:%SZ', st.first_response, 'unixepoch')
		AS first_response_at,
	strftime('%Y-%m-%dT%H:%M:%SZ', st.evaluated_at, 'unixepoch')
		AS evaluated_at,
	st.overdue_days, st.patches, st.reviewed,
	st.state NOT IN ('superseded', 'accepted', 'applied', 'tested')
		AS open,
	st.state = 'reviewed' AND st.flags NOT LIKE '%incomplete%'
		AS ready,
	a.msgid AS anchor_message_id,
	'https://lore.kernel.org/r/' || replace(replace(replace(replace(
		a.msgid, '%', '%25'), '/', '%2F'), '?', '%3F'), '#', '%23')
		AS url
FROM series s JOIN series_status st ON st.series_id = s.id
JOIN messages a ON a.id = s.anchor_id;

-- One row per maintainer (M:), reviewer (R:) and list (L:) of each
-- MAINTAINERS entry, in the file's order.
CREATE VIEW v_entry_people AS
SELECT entry, pos,
	CASE role WHEN 'M' THEN 'maintainer' WHEN 'R' THEN 'reviewer'
		ELSE 'list' END AS role,
	nullif(name, '') AS name, addr
FROM maint_people;

-- Per governing entry, the front page's figures: open, overdue, ready
-- to apply and needs-review series, and of the series due by their
-- verdict's now or answered, how many were answered by the due time.
CREATE VIEW v_entry_report AS
SELECT entry,
	sum(open) AS open,
	sum(open AND flags LIKE '%overdue%') AS overdue,
	sum(open AND ready) AS ready,
	sum(open AND flags LIKE '%needs-review%') AS needs_review,
	sum(first_response_at IS NOT NULL OR due_at <= evaluated_at)
		AS due_or_answered,
	sum(first_response_at IS NOT NULL AND first_response_at <= due_at)
		AS answered_in_time
FROM v_series_report WHERE entry IS NOT NULL GROUP BY entry;

PRAGMA user_version = 12;
