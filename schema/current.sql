-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 38, as a new database has it after every migration.
-- Generated (contrib/schema-snapshot); unit.schema fails when it is stale.
-- Read it; change the schema with a new migration in schema/.
-- A new database is made from this file at once (lib/store/store.c).

CREATE TABLE applies (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	version INTEGER NOT NULL,
	tree TEXT NOT NULL,             -- the git repository
	base TEXT,                      -- the commit it was applied onto
	branch TEXT,                    -- made only when every patch applied
	commits TEXT,                   -- hex ids, space-separated, in order
	outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'failed')),
	failed_patch INTEGER,           -- 1-based, when failed
	file TEXT,                      -- the file and hunk that failed
	hunk TEXT,
	reason TEXT,
	at INTEGER NOT NULL             -- the "now" of the apply
);

CREATE TABLE boot_tests (
	id INTEGER PRIMARY KEY,
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	apply_id INTEGER REFERENCES applies(id) ON DELETE SET NULL,
	commit_id TEXT,                 -- the commit that was built
	verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'fail')),
	reason TEXT,
	checks TEXT,
	summary TEXT,
	timings TEXT,
	console TEXT,
	at INTEGER NOT NULL
);

CREATE TABLE commands (
	id INTEGER PRIMARY KEY,
	message_id INTEGER NOT NULL REFERENCES messages(id),
	lineno INTEGER NOT NULL,        -- the line of the body
	series_id INTEGER REFERENCES series(id),  -- NULL: none found
	verb TEXT NOT NULL,             -- applied, snooze, ... unknown
	text TEXT NOT NULL,             -- the line after "patchclock:"
	from_addr TEXT NOT NULL,        -- the From addr-spec, lower-case
	given_at INTEGER,               -- the mail's Date
	decided_at INTEGER NOT NULL,
	outcome TEXT NOT NULL
		CHECK (outcome = 'obeyed' OR outcome = 'refused' OR outcome = 'invalid'),
	reason TEXT NOT NULL,
	first INTEGER, last INTEGER, tree TEXT,  -- applied
	until_at INTEGER,               -- snooze, deferred until a date
	release TEXT,                   -- deferred until a release
	UNIQUE (message_id, lineno)
);

CREATE TABLE digest_items (
	addr TEXT NOT NULL,
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	version INTEGER NOT NULL,
	listed_at INTEGER NOT NULL,
	PRIMARY KEY (addr, series_id, version)
) WITHOUT ROWID;

CREATE TABLE imap_cursor (
	source TEXT PRIMARY KEY,        -- the section name
	folder TEXT NOT NULL,
	uidvalidity INTEGER NOT NULL,
	last_uid INTEGER NOT NULL,
	resyncs INTEGER NOT NULL DEFAULT 0, -- UIDVALIDITY changes seen
	updated_at INTEGER NOT NULL     -- Unix time of the last move
);

CREATE TABLE ingest_errors (
	id INTEGER PRIMARY KEY,
	raw_id INTEGER REFERENCES raw(id),
	msgid TEXT,
	source TEXT NOT NULL,
	reason TEXT NOT NULL
);

CREATE TABLE mail_kinds (
	name TEXT PRIMARY KEY,          -- the outbox action, X-Patchclock-Action
	about TEXT NOT NULL             -- what the mail is, for people
) WITHOUT ROWID;

CREATE TABLE maint_entries (
	name TEXT PRIMARY KEY,          -- "LIBNVDIMM PMEM AND CORE"
	idx INTEGER NOT NULL,           -- 0-based order in MAINTAINERS
	status TEXT,                    -- S:
	profile TEXT                    -- the first P: value, as written
, tree TEXT) WITHOUT ROWID;

CREATE TABLE maint_people (
	entry TEXT NOT NULL REFERENCES maint_entries(name) ON DELETE CASCADE,
	pos INTEGER NOT NULL,
	role TEXT NOT NULL CHECK (role = 'M' OR role = 'R' OR role = 'L'),
	name TEXT NOT NULL DEFAULT '',
	addr TEXT NOT NULL, base TEXT,
	PRIMARY KEY (entry, pos)
) WITHOUT ROWID;

CREATE TABLE maintainers_state (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	hash TEXT NOT NULL,
	tree TEXT,                      -- the tree it was read from
	loaded_at INTEGER NOT NULL,     -- when (seconds since the epoch)
	entries INTEGER NOT NULL
);

CREATE TABLE messages (
	id INTEGER PRIMARY KEY,
	msgid TEXT NOT NULL UNIQUE,     -- without <>
	msgid_generated INTEGER NOT NULL DEFAULT 0,
	raw_id INTEGER NOT NULL REFERENCES raw(id),
	source TEXT,                    -- where it was first read
	list_id TEXT,
	kind TEXT NOT NULL CHECK (kind = 'patch' OR kind = 'cover' OR kind = 'reply' OR
		kind = 'pull' OR kind = 'other' OR kind = 'error'),
	subject TEXT NOT NULL DEFAULT '',  -- decoded
	name TEXT NOT NULL DEFAULT '',     -- subject without prefixes and tags
	from_name TEXT NOT NULL DEFAULT '',
	from_addr TEXT NOT NULL DEFAULT '',
	author_name TEXT NOT NULL DEFAULT '',  -- git-am view (in-body From)
	author_addr TEXT NOT NULL DEFAULT '',
	date INTEGER,                   -- NULL when the Date: is unreadable
	date_tz INTEGER,                -- minutes east of UTC as written
	in_reply_to TEXT,
	refs TEXT,                      -- References, space-separated, oldest first
	version INTEGER,                -- patch tag fields, NULL without a tag
	idx INTEGER,
	total INTEGER,
	numbered INTEGER NOT NULL DEFAULT 0,
	is_rfc INTEGER NOT NULL DEFAULT 0,
	is_resend INTEGER NOT NULL DEFAULT 0,
	topic TEXT,
	has_diff INTEGER NOT NULL DEFAULT 0,
	patch_id TEXT,                  -- git patch-id --stable
	base_commit TEXT,
	files_changed INTEGER,
	insertions INTEGER,
	deletions INTEGER,
	pull_url TEXT,
	pull_ref TEXT,
	change_id TEXT,
	supersedes TEXT,                -- a Message-ID this mail says it replaces
	auto_submitted TEXT,
	precedence TEXT,
	user_agent TEXT,
	charset_fallback INTEGER NOT NULL DEFAULT 0,
	is_bot INTEGER NOT NULL DEFAULT 0,
	parse_error TEXT,
	series_id INTEGER REFERENCES series(id)
, intent INTEGER, pw_hint TEXT, commands INTEGER NOT NULL DEFAULT 0, to_bot INTEGER NOT NULL DEFAULT 0, dkim TEXT
	CHECK (dkim IS NULL OR dkim = 'none' OR dkim = 'pass' OR dkim = 'fail'), dkim_why TEXT, attest INTEGER NOT NULL DEFAULT 0, subject_key INTEGER, patch_key INTEGER);

CREATE TABLE opt_out (
	addr TEXT PRIMARY KEY,          -- lower-case
	source TEXT NOT NULL,
	since INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE outbox (
	id INTEGER PRIMARY KEY,
	key TEXT NOT NULL UNIQUE,
	action TEXT NOT NULL REFERENCES mail_kinds(name),
	series_id INTEGER REFERENCES series(id) ON DELETE SET NULL,
	recipients TEXT NOT NULL,       -- envelope recipients, space-separated
	message_id TEXT NOT NULL UNIQUE,
	subject TEXT NOT NULL,
	created_at INTEGER NOT NULL,    -- the "now" of the verdict
	send_after INTEGER NOT NULL,    -- the office-hours opening
	status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
		('pending', 'sent', 'failed', 'suppressed')),
	reason TEXT,                    -- why suppressed or failed
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt INTEGER,           -- after a temporary failure
	last_error TEXT,
	sent_at INTEGER,
	message BLOB NOT NULL
, claimed_by TEXT, claim_until INTEGER, why TEXT, sending_at INTEGER, server_reply TEXT);

CREATE TABLE patch_entries (
	message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
	entry TEXT NOT NULL,
	PRIMARY KEY (message_id, entry)
) WITHOUT ROWID;

CREATE TABLE patch_files (
	message_id INTEGER NOT NULL REFERENCES messages(id),
	pos INTEGER NOT NULL,
	status TEXT NOT NULL CHECK (status = 'M' OR status = 'A' OR status = 'D' OR
		status = 'R' OR status = 'C'),
	old_path TEXT,
	new_path TEXT,
	added INTEGER NOT NULL,
	removed INTEGER NOT NULL,
	binary INTEGER NOT NULL,
	old_mode INTEGER,
	new_mode INTEGER,
	similarity INTEGER,
	PRIMARY KEY (message_id, pos)
) WITHOUT ROWID;

CREATE TABLE patch_status (
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	message_id INTEGER NOT NULL REFERENCES messages(id),
	idx INTEGER NOT NULL,
	reviewed INTEGER NOT NULL,
	reviewed_by TEXT,
	off_list INTEGER NOT NULL DEFAULT 0,
	own_domain INTEGER NOT NULL DEFAULT 0, accepted_at INTEGER, reviewed_by_addr TEXT,
	PRIMARY KEY (series_id, message_id)
) WITHOUT ROWID;

CREATE TABLE plan_state (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	first_run INTEGER NOT NULL
);

CREATE TABLE pull_titles (
	message_id INTEGER NOT NULL REFERENCES messages(id),
	title TEXT NOT NULL,
	PRIMARY KEY (message_id, title)
) WITHOUT ROWID;

CREATE TABLE raw (
	id INTEGER PRIMARY KEY,
	size INTEGER NOT NULL,          -- uncompressed length
	compression TEXT NOT NULL CHECK (compression = 'none' OR compression = 'zlib' OR compression = 'zstd'),
	bytes BLOB NOT NULL
, dict_id INTEGER REFERENCES raw_dicts(id));

CREATE TABLE raw_dicts (
	id INTEGER PRIMARY KEY,
	created INTEGER,                -- when trained (seconds), or NULL
	samples INTEGER NOT NULL,       -- messages it was trained on
	bytes BLOB NOT NULL
);

CREATE TABLE senders (
	addr TEXT PRIMARY KEY,
	first_at INTEGER NOT NULL,
	last_at INTEGER NOT NULL,
	messages INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE series (
	id INTEGER PRIMARY KEY,
	anchor_id INTEGER NOT NULL REFERENCES messages(id),
	cover_id INTEGER REFERENCES messages(id),
	name TEXT NOT NULL,
	norm_name TEXT NOT NULL,
	author_name TEXT NOT NULL,
	author_addr TEXT NOT NULL,
	version INTEGER NOT NULL,
	total INTEGER NOT NULL,         -- N of n/N; 0 when unknown
	is_rfc INTEGER NOT NULL DEFAULT 0,
	topic TEXT,
	list_id TEXT,
	change_id TEXT,
	first_posted INTEGER,
	last_posted INTEGER,
	superseded_by INTEGER REFERENCES series(id)
, mapped_hash TEXT, status_dirty INTEGER NOT NULL DEFAULT 1, tree_files INTEGER, tree_missing INTEGER, co_author TEXT);

CREATE TABLE series_accept (
	series_id INTEGER PRIMARY KEY REFERENCES series(id) ON DELETE CASCADE,
	accepted_at INTEGER NOT NULL,
	by_addr TEXT,
	note TEXT
);

CREATE TABLE series_entries (
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	entry TEXT NOT NULL,
	entry_idx INTEGER NOT NULL,
	pos INTEGER NOT NULL,           -- get_maintainer.pl's order
	depth INTEGER NOT NULL,         -- the match depth that placed it
	files INTEGER NOT NULL,         -- how many of the series' files match
	k_hit INTEGER NOT NULL DEFAULT 0,  -- a K: regex matched a patch
	k_only INTEGER NOT NULL DEFAULT 0, lines INTEGER NOT NULL DEFAULT 0, -- only K: matched
	PRIMARY KEY (series_id, entry)
) WITHOUT ROWID;

CREATE TABLE series_not_mine (
	series_id INTEGER NOT NULL REFERENCES series(id),
	entry TEXT NOT NULL,
	command_id INTEGER NOT NULL REFERENCES commands(id),
	PRIMARY KEY (series_id, entry)
);

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
, hold TEXT, hold_why TEXT, wait_from INTEGER, flag_bits INTEGER NOT NULL DEFAULT 0, pinged_at INTEGER, wait_msgid TEXT, ping_msgid TEXT);

CREATE TABLE status_state (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	last_message INTEGER NOT NULL,
	last_now INTEGER NOT NULL,
	policy_id TEXT NOT NULL
);

CREATE TABLE trailers (
	id INTEGER PRIMARY KEY,
	message_id INTEGER NOT NULL REFERENCES messages(id),
	pos INTEGER NOT NULL,
	origin TEXT NOT NULL CHECK (origin IN ('patch', 'reply')),
	name TEXT NOT NULL,
	value TEXT NOT NULL,
	person TEXT,
	addr TEXT,
	suggested INTEGER NOT NULL DEFAULT 0,
	-- A person tag given in a reply whose sender is neither its address
	-- nor its name (b4 does not apply such tags): kept, never a review.
	mismatch INTEGER NOT NULL DEFAULT 0,
	target_id INTEGER REFERENCES messages(id),
	UNIQUE (message_id, pos)
);

CREATE TABLE tree_commits (
	patch_id TEXT NOT NULL,
	commit_id TEXT NOT NULL,
	committed_at INTEGER NOT NULL,
	PRIMARY KEY (patch_id, commit_id)
) WITHOUT ROWID;

CREATE TABLE tree_tips (
	tree TEXT NOT NULL,
	ref TEXT NOT NULL,
	oid TEXT NOT NULL,
	read_at INTEGER NOT NULL,
	PRIMARY KEY (tree, ref)
) WITHOUT ROWID;

CREATE INDEX applies_series ON applies(series_id, id);

CREATE INDEX boot_tests_series ON boot_tests(series_id, id);

CREATE INDEX commands_series ON commands (series_id, given_at);

CREATE INDEX maint_people_addr ON maint_people(addr);

CREATE INDEX maint_people_base ON maint_people(base) WHERE base IS NOT NULL;

CREATE INDEX messages_announcements ON messages(date)
	WHERE from_addr = 'torvalds@linux-foundation.org'
	AND in_reply_to IS NULL;

CREATE INDEX messages_applied ON messages(from_addr, date)
	WHERE (intent & 1) = 1;

CREATE INDEX messages_attest_due ON messages (id) WHERE attest = 1;

CREATE INDEX messages_commands_unread ON messages (id) WHERE commands = 1;

CREATE INDEX messages_in_reply_to ON messages(in_reply_to);

CREATE INDEX messages_opt_out_replies ON messages(lower(from_addr))
	WHERE kind = 'reply' AND intent & 4;

CREATE INDEX messages_patch_addr ON messages(patch_key, from_addr, date)
	WHERE patch_key IS NOT NULL;

CREATE INDEX messages_patch_name
	ON messages(patch_key, lower(trim(from_name)), date)
	WHERE patch_key IS NOT NULL;

CREATE INDEX messages_patch_title ON messages(lower(name))
	WHERE kind = 'patch';

CREATE INDEX messages_pings ON messages(from_addr, date)
	WHERE (intent & 16777216) != 0;

CREATE INDEX messages_post_subject ON messages(subject_key)
	WHERE kind = 'patch' OR kind = 'cover';

CREATE INDEX messages_series ON messages(series_id);

CREATE INDEX messages_supersedes ON messages(supersedes)
	WHERE supersedes IS NOT NULL;

CREATE INDEX messages_unthreaded ON messages(lower(subject))
	WHERE in_reply_to IS NULL AND refs IS NULL AND kind = 'reply';

CREATE INDEX outbox_pending ON outbox(send_after) WHERE status = 'pending';

CREATE INDEX outbox_recipient ON outbox(recipients, created_at);

CREATE INDEX pull_titles_title ON pull_titles(title);

CREATE INDEX series_author ON series(author_addr, first_posted, id,
	version, norm_name, change_id, is_rfc, superseded_by, topic);

CREATE INDEX series_change_id ON series(change_id) WHERE change_id IS NOT NULL;

CREATE INDEX series_co_author_posted ON series(co_author, first_posted, id,
	version, norm_name, change_id, is_rfc, superseded_by, topic)
	WHERE co_author IS NOT NULL;

CREATE INDEX series_dirty ON series(id) WHERE status_dirty = 1;

CREATE INDEX series_entries_entry ON series_entries(entry);

CREATE INDEX series_first_posted ON series(first_posted);

CREATE INDEX series_mapped_hash ON series(mapped_hash);

CREATE INDEX series_status_next ON series_status(next_check)
	WHERE next_check IS NOT NULL;

CREATE INDEX series_status_posted ON series_status(posted);

CREATE INDEX series_status_state ON series_status(state);

CREATE INDEX series_superseded_by ON series(superseded_by)
	WHERE superseded_by IS NOT NULL;

CREATE INDEX trailers_fixes_title ON trailers(lower(substr(rtrim(value),
	instr(value, '("') + 2,
	length(rtrim(value)) - instr(value, '("') - 3)))
	WHERE name = 'Fixes' AND origin = 'patch';

CREATE INDEX trailers_target ON trailers(target_id);

CREATE INDEX trailers_unresolved ON trailers(message_id) WHERE target_id IS NULL;

CREATE VIEW v_awaiting_review AS
SELECT id, name, author_name, author_addr, version, entry, posted,
	patches, reviewed, turn, state
FROM v_series_status
WHERE state IN ('new', 'acknowledged', 'changes-requested')
	AND flags LIKE '%needs-review%' AND superseded_by IS NULL;

CREATE VIEW v_commands AS
SELECT c.id, m.msgid AS message_id, c.series_id, s.name AS series,
	c.verb, c.text, c.from_addr,
	strftime('%Y-%m-%dT%H:%M:%SZ', c.given_at, 'unixepoch') AS given_at,
	strftime('%Y-%m-%dT%H:%M:%SZ', c.decided_at, 'unixepoch') AS decided_at,
	c.outcome, c.reason, m.dkim, m.dkim_why
FROM commands c JOIN messages m ON m.id = c.message_id
LEFT JOIN series s ON s.id = c.series_id;

CREATE VIEW v_entry_people AS
SELECT entry, pos,
	CASE role WHEN 'M' THEN 'maintainer' WHEN 'R' THEN 'reviewer'
		ELSE 'list' END AS role,
	nullif(name, '') AS name, addr
FROM maint_people;

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

CREATE VIEW v_outbox AS
SELECT id, action, series_id, recipients, subject, status, reason,
	attempts, datetime(send_after, 'unixepoch') AS send_after_utc,
	datetime(sent_at, 'unixepoch') AS sent_at_utc, last_error, message_id
FROM outbox;

CREATE VIEW v_overdue AS
SELECT id, name, author_name, author_addr, version, entry, zone, posted,
	due, act_at, overdue_days, evaluated_at
FROM v_series_status WHERE state = 'new' AND flags LIKE '%overdue%'
ORDER BY overdue_days DESC;

CREATE VIEW v_ready_to_apply AS
SELECT id, name, author_name, author_addr, version, entry, posted,
	patches, reviewed
FROM v_series_status
WHERE state = 'reviewed' AND flags NOT LIKE '%incomplete%'
	AND superseded_by IS NULL;

CREATE VIEW v_series AS
SELECT s.id, s.name, s.author_name, s.author_addr, s.version, s.total,
	s.is_rfc, s.first_posted, s.superseded_by,
	(SELECT count(DISTINCT m.idx) FROM messages m
	 WHERE m.series_id = s.id AND m.kind = 'patch') AS received,
	(SELECT msgid FROM messages WHERE id = s.anchor_id) AS anchor_msgid
FROM series s;

CREATE VIEW v_series_entries AS
SELECT se.series_id, se.entry, se.depth, se.files, se.k_hit, se.k_only,
	e.status, e.profile,
	(SELECT group_concat(p.addr, ' ') FROM maint_people p
	 WHERE p.entry = se.entry AND p.role = 'M') AS maintainers,
	(SELECT group_concat(p.addr, ' ') FROM maint_people p
	 WHERE p.entry = se.entry AND p.role = 'R') AS reviewers,
	(SELECT group_concat(p.addr, ' ') FROM maint_people p
	 WHERE p.entry = se.entry AND p.role = 'L') AS lists
FROM series_entries se
LEFT JOIN maint_entries e ON e.name = se.entry;

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

CREATE VIEW v_series_status AS
SELECT s.id, s.name, s.author_name, s.author_addr, s.version, s.is_rfc,
	st.state, st.flags, st.turn, st.entry, st.profile, st.zone,
	st.posted, st.due, st.act_at, st.first_response, st.overdue_days,
	st.patches, st.reviewed, st.lands, st.evaluated_at, s.superseded_by
FROM series s JOIN series_status st ON st.series_id = s.id;

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

CREATE VIEW v_test_verdicts AS
SELECT series_id, verdict, reason, at, kind, summary FROM (
	SELECT series_id, verdict, reason, at, kind, summary,
		row_number() OVER (PARTITION BY series_id
			ORDER BY at DESC, kind DESC, id DESC) AS n
	FROM (
		SELECT series_id, 'fail' AS verdict, reason, at,
			'apply' AS kind, id, NULL AS summary FROM applies
			WHERE outcome = 'failed'
		UNION ALL
		SELECT series_id, NULL, NULL, at, 'apply', id, NULL FROM applies
			WHERE outcome = 'applied'
		UNION ALL
		SELECT series_id, verdict, reason, at, 'boot', id, summary
			FROM boot_tests
	)
) WHERE n = 1 AND verdict IS NOT NULL;

CREATE TRIGGER messages_series_moved AFTER UPDATE OF series_id ON messages
BEGIN
	UPDATE series SET mapped_hash = NULL
	WHERE id = NEW.series_id AND mapped_hash IS NOT NULL;
	UPDATE series SET mapped_hash = NULL
	WHERE id = OLD.series_id AND mapped_hash IS NOT NULL;
END;

CREATE TRIGGER messages_status_moved AFTER UPDATE OF series_id ON messages
BEGIN
	UPDATE series SET status_dirty = 1
	WHERE id = NEW.series_id AND status_dirty = 0;
	UPDATE series SET status_dirty = 1
	WHERE id = OLD.series_id AND status_dirty = 0;
END;

CREATE TRIGGER senders_seen AFTER INSERT ON messages
WHEN NEW.from_addr IS NOT NULL AND NEW.from_addr != ''
	AND NEW.date IS NOT NULL
BEGIN
	INSERT INTO senders (addr, first_at, last_at, messages)
	VALUES (NEW.from_addr, NEW.date, NEW.date, 1)
	ON CONFLICT (addr) DO UPDATE SET
		first_at = min(first_at, excluded.first_at),
		last_at = max(last_at, excluded.last_at),
		messages = messages + 1;
END;

CREATE TRIGGER series_accept_added AFTER INSERT ON series_accept
BEGIN
	UPDATE series SET status_dirty = 1 WHERE id = NEW.series_id;
END;

CREATE TRIGGER series_status_inputs AFTER UPDATE OF superseded_by,
	mapped_hash, total, first_posted ON series
BEGIN
	UPDATE series SET status_dirty = 1
	WHERE id = NEW.id AND status_dirty = 0;
	UPDATE series SET status_dirty = 1
	WHERE id = NEW.superseded_by AND status_dirty = 0;
	UPDATE series SET status_dirty = 1
	WHERE id = OLD.superseded_by AND status_dirty = 0;
END;

INSERT INTO mail_kinds VALUES ('boot-report', 'a boot test''s verdict, in the series'' thread');

INSERT INTO mail_kinds VALUES ('command-help', 'the one answer to a sender whose commands were not understood');

INSERT INTO mail_kinds VALUES ('digest', 'a maintainer''s digest of overdue, ready, late and tested series');

INSERT INTO mail_kinds VALUES ('resend', 'a ''resend now'' reply to the author of a series overdue on its maintainers');

INSERT INTO mail_kinds VALUES ('too-soon', 'a note to an author who reposted before the profile''s minimum interval');

