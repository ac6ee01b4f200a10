-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 8: what decides whether a mail about a series is
-- justified (lib/sla/state.h, "Holds"): the list's own hints, whether a
-- series is for the kernel tree at all, which entry governs it by the
-- lines it changes, and why the clock holds mail back.

-- X-Patchwork-Hint as written ("ignore" on AUTOSEL and bot mail).
ALTER TABLE messages ADD COLUMN pw_hint TEXT;

-- Whether a series' files exist in the kernel tree it was mapped with:
-- how many of its patches' pre-image paths were looked up (a new file:
-- its directory) and how many were missing. NULL: not looked up.
ALTER TABLE series ADD COLUMN tree_files INTEGER;
ALTER TABLE series ADD COLUMN tree_missing INTEGER;

-- The lines (added + removed) of the series' files an entry covers.
ALTER TABLE series_entries ADD COLUMN lines INTEGER NOT NULL DEFAULT 0;

-- Why no mail goes out about a series, in the order of MAIL-JUDGEMENT:
-- not-kernel, not-a-submission, already-applied, already-answered,
-- profile-forbids, stale; NULL when mail may go. hold_why says more.
ALTER TABLE series_status ADD COLUMN hold TEXT;
ALTER TABLE series_status ADD COLUMN hold_why TEXT;
-- When this wait on the maintainers began: the posting, or the
-- author's answer that gave the turn back to them.
ALTER TABLE series_status ADD COLUMN wait_from INTEGER;

-- When mail was first planned on this database: a first run over an
-- existing archive says nothing about what was already due before it.
CREATE TABLE plan_state (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	first_run INTEGER NOT NULL
);

-- Replies without In-Reply-To or References, by their lower-cased
-- subject: such a reply joins the thread of the patch whose subject it
-- answers exactly ("Re: [PATCH v2 1/3] x").
CREATE INDEX messages_unthreaded ON messages(lower(subject))
	WHERE in_reply_to IS NULL AND refs IS NULL AND kind = 'reply';

-- The commit titles of each pull request's shortlog, lower-cased: a
-- series whose patch a pull request carries was applied (pull requests
-- stored before schema 8 have none).
CREATE TABLE pull_titles (
	message_id INTEGER NOT NULL REFERENCES messages(id),
	title TEXT NOT NULL,
	PRIMARY KEY (message_id, title)
) WITHOUT ROWID;
CREATE INDEX pull_titles_title ON pull_titles(title);

-- The series each maintainer's digests have listed: a new digest goes
-- out only when it has a series to list that no earlier one did.
CREATE TABLE digest_items (
	addr TEXT NOT NULL,
	series_id INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE,
	version INTEGER NOT NULL,
	listed_at INTEGER NOT NULL,
	PRIMARY KEY (addr, series_id, version)
) WITHOUT ROWID;

-- Every series must be mapped and judged again with the new columns.
UPDATE series SET mapped_hash = NULL WHERE mapped_hash IS NOT NULL;
UPDATE series SET status_dirty = 1 WHERE status_dirty = 0;

PRAGMA user_version = 8;
