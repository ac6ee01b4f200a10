-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 1: messages as read from the list, patches, trailers,
-- series. Times are seconds since the epoch (UTC). Addresses are stored
-- lower-cased in *_addr columns; names as decoded UTF-8.

-- The raw bytes of every message ever read, LF line endings, without mbox
-- framing; zlib-compressed when that saves space. Nothing is ever lost:
-- even a message that cannot be parsed keeps its row here.
CREATE TABLE raw (
	id INTEGER PRIMARY KEY,
	size INTEGER NOT NULL,          -- uncompressed length
	compression TEXT NOT NULL CHECK (compression IN ('none', 'zlib')),
	bytes BLOB NOT NULL
);

-- One row per Message-ID, in the order first read (id). kind: patch, cover, reply, pull, other; or
-- error when the message could not be parsed (parse_error says why).
CREATE TABLE messages (
	id INTEGER PRIMARY KEY,
	msgid TEXT NOT NULL UNIQUE,     -- without <>
	msgid_generated INTEGER NOT NULL DEFAULT 0,
	raw_id INTEGER NOT NULL REFERENCES raw(id),
	source TEXT,                    -- where it was first read
	list_id TEXT,
	kind TEXT NOT NULL CHECK (kind IN
		('patch', 'cover', 'reply', 'pull', 'other', 'error')),
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
);
CREATE INDEX messages_in_reply_to ON messages(in_reply_to);
CREATE INDEX messages_series ON messages(series_id);
CREATE INDEX messages_supersedes ON messages(supersedes)
	WHERE supersedes IS NOT NULL;
CREATE INDEX messages_patch_id ON messages(patch_id) WHERE patch_id IS NOT NULL;

-- The files a patch touches, from its diff headers.
CREATE TABLE patch_files (
	message_id INTEGER NOT NULL REFERENCES messages(id),
	pos INTEGER NOT NULL,
	status TEXT NOT NULL CHECK (status IN ('M', 'A', 'D', 'R', 'C')),
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
CREATE INDEX patch_files_path ON patch_files(new_path);

-- Trailers as written: origin 'patch' (the commit message of the patch
-- itself) or 'reply' (given on the list). target_id is the patch or cover
-- letter the trailer applies to (a reply's nearest patch/cover ancestor),
-- NULL while that ancestor has not been seen.
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
CREATE INDEX trailers_target ON trailers(target_id);
CREATE INDEX trailers_unresolved ON trailers(message_id) WHERE target_id IS NULL;

-- A series: one posting of one version, anchored on its cover letter or
-- its first patch. superseded_by points at the next newer posting.
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
);
CREATE INDEX series_author ON series(author_addr, first_posted);
CREATE INDEX series_superseded_by ON series(superseded_by)
	WHERE superseded_by IS NOT NULL;
CREATE INDEX series_change_id ON series(change_id) WHERE change_id IS NOT NULL;

-- Messages that could not be read or parsed, with the reason.
CREATE TABLE ingest_errors (
	id INTEGER PRIMARY KEY,
	raw_id INTEGER REFERENCES raw(id),
	msgid TEXT,
	source TEXT NOT NULL,
	reason TEXT NOT NULL
);

-- A view for dashboards: patches and covers per series with the count
-- received against the count expected.
CREATE VIEW v_series AS
SELECT s.id, s.name, s.author_name, s.author_addr, s.version, s.total,
	s.is_rfc, s.first_posted, s.superseded_by,
	(SELECT count(DISTINCT m.idx) FROM messages m
	 WHERE m.series_id = s.id AND m.kind = 'patch') AS received,
	(SELECT msgid FROM messages WHERE id = s.anchor_id) AS anchor_msgid
FROM series s;

PRAGMA user_version = 1;
