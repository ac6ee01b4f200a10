#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A message over the 64 MiB limit, between two ordinary ones in an mbox:
# the two are stored; of the big one its first MiB is kept as raw mail
# (kind 'error', with the reason) and one ingest error is recorded.
# Reading the mbox again stores nothing and records no second error.
# The same for a maildir, which the daemon reads again and again.
#
# usage: oversized.sh PATCHCLOCK
set -euo pipefail

pc=$1
for tool in sqlite3 python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-oversized.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

mkdir -p "$tmp/md/cur" "$tmp/md/new" "$tmp/md/tmp"
python3 - "$tmp/list.mbox" "$tmp/md/new" <<'PY'
import sys
def msg(i, body):
    return ("From: A <a@example.com>\nSubject: note %d\n"
            "Date: Mon, 01 Jan 2024 10:00:00 +0000\n"
            "Message-ID: <m%d@example.com>\n\n" % (i, i)) + body
line = "x" * 99 + "\n"
big = msg(2, line * (65 * 1024 * 1024 // 100 + 1))
with open(sys.argv[1], "w") as f:
    for i, m in enumerate([msg(1, "one\n"), big, msg(3, "three\n")], 1):
        f.write("From a@example.com Mon Jan  1 10:00:00 2024\n")
        f.write(m + "\n")
for i, m in enumerate([msg(1, "one\n"), big], 1):
    with open("%s/%d.eml" % (sys.argv[2], i), "w") as f:
        f.write(m)
PY

ingest() { # DB SOURCE
	set +e
	"$pc" ingest --db "$1" "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}
q() { sqlite3 "$1" "$2"; }
for kind in mbox maildir; do
	db=$tmp/$kind.db
	src=$tmp/list.mbox
	want=3
	[[ $kind == maildir ]] && src=$tmp/md && want=2
	ingest "$db" "$src"
	check "$kind: exit status" "$rc" 3
	contains "$kind: says why" "$(cat "$tmp/err")" "is larger than"
	check "$kind: messages" "$(q "$db" 'SELECT count(*) FROM messages')" \
		"$want"
	check "$kind: the big one kept as an error" \
		"$(q "$db" "SELECT count(*) FROM messages WHERE kind = 'error'
			AND parse_error LIKE '%larger than%'")" 1
	check "$kind: its first MiB kept" \
		"$(q "$db" "SELECT r.size FROM messages m JOIN raw r
			ON r.id = m.raw_id WHERE m.kind = 'error'")" \
		"$((1 << 20))"
	check "$kind: one ingest error" \
		"$(q "$db" 'SELECT count(*) FROM ingest_errors')" 1
	ingest "$db" "$src"
	check "$kind: again, exit status" "$rc" 0
	contains "$kind: again, nothing new" "$(cat "$tmp/out")" "new 0,"
	check "$kind: again, no second row" \
		"$(q "$db" 'SELECT count(*) FROM messages')" "$want"
	check "$kind: again, no second error" \
		"$(q "$db" 'SELECT count(*) FROM ingest_errors')" 1
done
exit $((fails > 0))
