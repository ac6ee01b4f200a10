#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Terminal escapes in a Subject or From (raw, or RFC 2047-encoded, C0 and
# C1 controls, Unicode bidi controls) never reach the terminal through
# series, status, show, outbox or who: they are printed as visible
# escapes. `show --raw` still prints the bytes as they came. In the HTML
# report a bidi control is isolated (<bdi>) or, in <title>, replaced.
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

# Unicode bidi controls (issue 36, item 5): a Subject with U+202E (RLO)
# and U+2066 (LRI) reverses the rest of a terminal line and of a page.
# On the terminal they are escapes; in the report's text they sit inside
# <bdi>, and in <title> (where no element can) they are U+FFFD.
printf '%s\n' \
	'From: Bidi <b@example.com>' \
	$'Subject: [PATCH] txt.exe\xe2\x80\xae\xe2\x81\xa6gnp.js' \
	'Date: Fri, 05 Jan 2024 11:00:00 +0000' 'Message-ID: <bidi@x>' '' \
	'x' '---' 'diff --git a/b.c b/b.c' '--- a/b.c' '+++ b/b.c' \
	'@@ -1 +1,2 @@' ' a' '+b' >"$tmp/bidi.eml"
"$pc" ingest --db "$db" "$tmp/bidi.eml" >/dev/null 2>&1
bidi() { LC_ALL=C grep -c $'\xe2\x80\xae\|\xe2\x81\xa6' "$1" || true; }
"$pc" series --db "$db" >"$tmp/series2.txt"
check "series prints no bidi control" "$(bidi "$tmp/series2.txt")" 0
contains "series shows it escaped" "$(cat "$tmp/series2.txt")" '\u202e\u2066'
"$pc" show --db "$db" bidi@x >"$tmp/show2.txt" 2>/dev/null
check "show prints no bidi control" "$(bidi "$tmp/show2.txt")" 0
"$pc" report --db "$db" --now 2024-02-01 --html "$tmp/site" >/dev/null 2>&1
page=$(grep -l 'gnp.js' "$tmp"/site/series/*.html | head -1)
check "the series has a page" "$([[ -n $page ]] && echo yes)" yes
check "its <title> holds no bidi control" \
	"$(sed -n 's:.*<title>\(.*\)</title>.*:\1:p' "$page" | bidi /dev/stdin)" 0
contains "its text isolates it" "$(cat "$page")" $'<bdi>[PATCH] txt.exe\xe2\x80\xae\xe2\x81\xa6gnp.js</bdi>'

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "escapes: all checks passed"
