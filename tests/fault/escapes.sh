#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Terminal escapes in a Subject or From (raw, or RFC 2047-encoded, C0 and
# C1 controls) never reach the terminal through series, status, show,
# outbox or who: they are printed as visible escapes. `show --raw` still
# prints the bytes as they came.
#
# usage: escapes.sh PATCHCLOCK
set -euo pipefail

pc=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-escapes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

# From: ESC ] 2 ; owned BEL (RFC 2047); Subject: a raw ESC [2J and OSC
# title, and two C1 CSI (U+009B) encoded.
printf '%s\n' \
	'From: =?UTF-8?B?G10yO293bmVkBw==?= <x@example.com>' \
	$'Subject: [PATCH] evil \e[2J\e]0;pwned\a =?UTF-8?B?wpvCmw==?=' \
	'Date: Fri, 05 Jan 2024 10:00:00 +0000' 'Message-ID: <evil@x>' '' \
	'x' '---' 'diff --git a/a.c b/a.c' '--- a/a.c' '+++ b/a.c' \
	'@@ -1 +1,2 @@' ' a' '+b' >"$tmp/evil.eml"
db=$tmp/pc.db
"$pc" ingest --db "$db" "$tmp/evil.eml" >/dev/null 2>&1
clean() { # WHAT FILE: no C0 control but LF/TAB, no DEL, no C1
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$2" ||
		LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$2"; then
		check "$1 prints no control characters" dirty clean
	fi
}
"$pc" series --db "$db" >"$tmp/series.txt"
clean series "$tmp/series.txt"
contains "series shows the escape" "$(cat "$tmp/series.txt")" '\x1b[2J'
"$pc" show --db "$db" evil@x >"$tmp/show.txt" 2>/dev/null
clean show "$tmp/show.txt"
contains "show shows the C1" "$(cat "$tmp/show.txt")" '\u009b'
"$pc" status --db "$db" --now 2024-02-01 >"$tmp/status.txt" 2>/dev/null
clean status "$tmp/status.txt"
"$pc" status --db "$db" --now 2024-02-01 --json >"$tmp/status.json" 2>/dev/null
clean "status --json" "$tmp/status.json"
check "JSON keeps the subject" \
	"$(jq -r '.series[0].subject' "$tmp/status.json" | od -An -c | grep -c '033')" 1
"$pc" show --db "$db" --raw evil@x >"$tmp/raw.eml" 2>/dev/null
check "show --raw is the bytes" "$(cmp -s "$tmp/raw.eml" "$tmp/evil.eml" && echo same)" same

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "escapes: all checks passed"
