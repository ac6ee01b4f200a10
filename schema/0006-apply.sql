-- SPDX-License-Identifier: GPL-2.0-or-later
-- patchclock schema 6: series applied to the kernel tree, and their boot
-- tests in QEMU (kernel-test/run).

-- One row per `patchclock apply` (or the daemon's): where the series
-- went, or why it did not apply.
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
CREATE INDEX applies_series ON applies(series_id, id);

-- One row per boot test of an applied series: kernel-test/run's verdict,
-- its checks (JSON array of {name, result, detail}) and the same as text
-- (one "result  name  detail" line each, for mail), its timings (JSON
-- object, seconds) and the guest's console log.
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
CREATE INDEX boot_tests_series ON boot_tests(series_id, id);

-- Each series' latest test verdict: a failed apply counts as a failed
-- test (the series cannot be booted), a boot test as itself; the later
-- of the two wins. For dashboards and the digest.
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

PRAGMA user_version = 6;
