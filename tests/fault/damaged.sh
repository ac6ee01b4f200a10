#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A damaged gzip archive (cut short, or with corrupt bytes) keeps the
# messages read before the damage, records the damage as an ingest error
# with its offset, says so, and exits 3; the summary counts only what was
# stored. Reading it again stores nothing twice.
#
# usage: damaged.sh PATCHCLOCK
set -euo pipefail

pc=$1
for tool in sqlite3 gzip python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-damaged.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

# 400 messages with incompressible bodies, so the damage falls mid-way.
python3 - "$tmp/list.mbox" <<'PY'
import os, sys
with open(sys.argv[1], "w") as f:
    for i in range(400):
        f.write("From x@y Thu Jan  1 00:00:00 1970\n")
        f.write("From: A <a@example.com>\nSubject: note %d\n" % i)
        f.write("Date: Mon, 01 Jan 2024 10:00:00 +0000\n")
        f.write("Message-ID: <m%d@example.com>\n\n" % i)
        f.write(os.urandom(600).hex() + "\n\n")
PY
gzip -c "$tmp/list.mbox" >"$tmp/full.gz"
size=$(stat -c %s "$tmp/full.gz")
head -c $((size / 2)) "$tmp/full.gz" >"$tmp/cut.gz"

ingest() { # DB FILE
	set +e
	"$pc" ingest --db "$1" "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}
ingest "$tmp/cut.db" "$tmp/cut.gz"
check "cut: exit status" "$rc" 3
stored=$(sqlite3 "$tmp/cut.db" "SELECT count(*) FROM messages")
if ((stored < 150 || stored >= 400)); then
	check "cut: messages before the damage kept" "$stored" "150..399"
fi
contains "cut: says where" "$(cat "$tmp/err")" "is damaged at byte"
contains "cut: summary counts what was stored" "$(cat "$tmp/out")" "new $stored,"
check "cut: the damage is an ingest error" \
	"$(sqlite3 "$tmp/cut.db" "SELECT count(*) FROM ingest_errors WHERE reason LIKE '%ends in the middle%'")" 1
ingest "$tmp/cut.db" "$tmp/cut.gz"
check "cut again: nothing new" \
	"$(sqlite3 "$tmp/cut.db" "SELECT count(*) FROM messages")" "$stored"

# Corrupt bytes in the middle: the stream fails its check.
python3 - "$tmp/full.gz" "$tmp/bad.gz" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(d) // 2, len(d) // 2 + 64):
    d[i] ^= 0x5a
open(sys.argv[2], "wb").write(d)
PY
ingest "$tmp/bad.db" "$tmp/bad.gz"
check "corrupt: exit status" "$rc" 3
if (($(sqlite3 "$tmp/bad.db" "SELECT count(*) FROM messages") < 150)); then
	check "corrupt: messages before the damage kept" few many
fi
contains "corrupt: says where" "$(cat "$tmp/err")" "is damaged at byte"

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "damaged: all checks passed"
