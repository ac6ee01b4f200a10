#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The clock through the command line, without a kernel tree (the default
# policy: one week, UTC, Monday to Friday all day): status at several
# --now values, incremental runs, --bot, --holidays, accept, --json, and
# bad arguments. The mail is built here; the times are worked out by
# hand in the comments.
#
# usage: status.sh PATCHCLOCK TEST_DATA_DIR
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
pc=$1
if ! command -v jq >/dev/null; then
	echo "SKIP: jq is not installed (contrib/install-deps installs it)" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-status.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
db=$tmp/pc.db
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

# A patch posted Fri 2024-01-05 10:00 UTC; due a week later, Fri
# 2024-01-12 10:00 UTC (inside "office hours": all day, weekdays).
cat >"$tmp/patch.eml" <<'MAIL'
From: A U Thor <author@example.com>
Subject: [PATCH] widget: spin
Date: Fri, 05 Jan 2024 10:00:00 +0000
Message-ID: <p1@example.com>

Make it spin.

Signed-off-by: A U Thor <author@example.com>
---
diff --git a/drivers/widget/w.c b/drivers/widget/w.c
index 1111111..2222222 100644
--- a/drivers/widget/w.c
+++ b/drivers/widget/w.c
@@ -1,2 +1,3 @@
 a
+b
 c
MAIL
# A CI bot answers on Mon 01-15; a human on Tue 01-16.
cat >"$tmp/bot.eml" <<'MAIL'
From: Build Bot <ci@bots.example.org>
Subject: Re: [PATCH] widget: spin
Date: Mon, 15 Jan 2024 09:00:00 +0000
Message-ID: <b1@example.com>
In-Reply-To: <p1@example.com>
References: <p1@example.com>

Build OK.
MAIL
cat >"$tmp/human.eml" <<'MAIL'
From: Rita Viewer <rita@example.com>
Subject: Re: [PATCH] widget: spin
Date: Tue, 16 Jan 2024 09:00:00 +0000
Message-ID: <r1@example.com>
In-Reply-To: <p1@example.com>
References: <p1@example.com>

Reviewed-by: Rita Viewer <rita@example.com>
MAIL
"$pc" ingest -q --db "$db" "$tmp/patch.eml" "$tmp/bot.eml" "$tmp/human.eml"

js() { "$pc" status --db "$db" --json "$@"; }

# Before due: new, the maintainers' turn, due and act_at as computed.
out=$(js --now "2024-01-08 12:00")
check "state at 01-08" "$(jq -r '.series[0].state' <<<"$out")" new
check "turn at 01-08" "$(jq -r '.series[0].turn' <<<"$out")" maintainers
check "due" "$(jq -r '.series[0].due_at' <<<"$out")" 2024-01-12T10:00:00Z
check "act_at" "$(jq -r '.series[0].act_at' <<<"$out")" 2024-01-12T10:00:00Z
check "flags at 01-08" "$(jq -c '.series[0].flags' <<<"$out")" '["needs-review"]'

# status is a listing: it judges, and writes nothing to the database.
before=$(sqlite3 "$db" 'SELECT count(*) FROM series_status;
	SELECT count(*) FROM status_state')
"$pc" status --db "$db" --now "2024-01-08 12:00" >/dev/null
check "status writes nothing" "$(sqlite3 "$db" 'SELECT count(*) FROM
	series_status; SELECT count(*) FROM status_state')" "$before"

# Mon 01-15 12:00: the build bot answered, but the bot is not a person
# (Auto-Submitted is missing: only --bot says so): with --bot still
# overdue, from Fri 10:00 to Mon 12:00: 14/24 of Friday and 12/24 of
# Monday (the weekend is no business day) = 1.083 business days.
out=$(js --now "2024-01-15 12:00" --bot CI@bots.example.org)
check "state with --bot" "$(jq -r '.series[0].state' <<<"$out")" new
check "overdue with --bot" \
	"$(jq -c '.series[0].flags | index("overdue") != null' <<<"$out")" true
check "overdue by" \
	"$(jq -r '.series[0].overdue_business_days * 100 | round' <<<"$out")" 108
# Without --bot the CI mail is a response: acknowledged. But it asks
# the author for nothing, so the next move is still the maintainers'.
out=$(js --now "2024-01-15 12:00")
check "state without --bot" "$(jq -r '.series[0].state' <<<"$out")" acknowledged
check "turn without --bot" "$(jq -r '.series[0].turn' <<<"$out")" maintainers

# Tue 01-16 12:00: Rita's Reviewed-by: reviewed.
out=$(js --now "2024-01-16 12:00" --bot ci@bots.example.org)
check "state at 01-16" "$(jq -r '.series[0].state' <<<"$out")" reviewed
check "reviewed by" "$(jq -r '.series[0].patches[0].reviewed_by.name' <<<"$out")" \
	"Rita Viewer"

# Holidays: with Fri 01-12 a holiday, the due time (calendar days) stays
# Fri 10:00 but the action waits for the next business day, Mon 01-15
# 00:00 UTC.
printf '# test holidays\n2024-01-12\n' >"$tmp/holidays"
out=$(js --now "2024-01-08 12:00" --holidays "$tmp/holidays")
check "due with holiday" "$(jq -r '.series[0].due_at' <<<"$out")" 2024-01-12T10:00:00Z
check "act_at with holiday" "$(jq -r '.series[0].act_at' <<<"$out")" \
	2024-01-15T00:00:00Z
printf 'not-a-date\n' >"$tmp/bad-holidays"
if "$pc" status --db "$db" --holidays "$tmp/bad-holidays" \
	>/dev/null 2>"$tmp/err"; then
	check "bad holidays file" ok fail
fi
grep -q 'bad-holidays:1: expected a date YYYY-MM-DD' "$tmp/err" ||
	check "bad holidays message" "$(cat "$tmp/err")" "names file and line"

# Accepted by hand at 01-09: accepted from then on, out of the open list.
# The series is named by its archive link, as a maintainer copies it.
id=$(jq -r '.series[0].id' <<<"$out")
url=$(jq -r '.series[0].url' <<<"$out")
check "accept by link" "$("$pc" accept --db "$db" --at "2024-01-09 08:00" \
	--by may@example.org "$url")" "accept: series $id accepted"
out=$(js --now "2024-01-10 12:00")
check "open after accept" "$(jq -r '.series | length' <<<"$out")" 0
out=$(js --now "2024-01-10 12:00" --all)
check "state after accept" "$(jq -r '.series[0].state' <<<"$out")" accepted
check "turn after accept" "$(jq -r '.series[0].turn' <<<"$out")" null

# Dashboards: the views answer, with the verdicts of the last judging
# pass that stored them (the daemon's, or a digest's).
"$pc" digest --db "$db" --now "2024-01-10 12:00" --no-replies \
	--from pc@patchclock.test >/dev/null
check "v_series_status" "$(sqlite3 "$db" 'select state from v_series_status')" \
	accepted

# Bad arguments: usage errors (64) that say what to do.
set +e
"$pc" status --db "$db" --now yesterday >/dev/null 2>"$tmp/err"
check "bad --now status" $? 64
"$pc" accept --db "$db" 999 >/dev/null 2>"$tmp/err"
check "unknown series" $? 1
set -e
grep -q "no series 999" "$tmp/err" ||
	check "unknown series message" "$(cat "$tmp/err")" "no series 999"
set +e
"$pc" accept --db "$db" "<no-such@example.org>" >/dev/null 2>"$tmp/err"
check "unknown Message-ID" $? 64
set -e
grep -q "neither a series ID nor the Message-ID" "$tmp/err" ||
	check "unknown Message-ID message" "$(cat "$tmp/err")" "neither a series ID.."
# (Not piped into grep -q: with pipefail, grep's early exit would fail
# the pipeline whenever the help is still being written.)
grep -q -- '--holidays FILE' <<<"$("$pc" status --help)" ||
	check "help" missing "--holidays in --help"

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "status: all checks passed"
