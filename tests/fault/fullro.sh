#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Disk full and read-only databases:
#   - an ingest that fills the disk (a 3 MiB tmpfs) rolls its batch back
#     and its summary counts nothing of it as new: what it says is stored
#     is what the database holds; it says what was not stored and what to
#     do; once there is room, a second ingest stores everything;
#   - a database on a read-only mount: every command says it is read-only
#     (not "unable to open database file"), and what to do.
# Needs root (it mounts tmpfs); exits 77 otherwise.
#
# usage: fullro.sh PATCHCLOCK
set -euo pipefail

pc=$1
here=$(cd "$(dirname "$0")" && pwd)
archive=$here/../data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
if ! command -v sqlite3 >/dev/null; then
	echo "SKIP: sqlite3 is not installed" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-fullro.XXXXXX")
mounted=()
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	local m
	for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$tmp/full" "$tmp/rw" "$tmp/ro"
if ! mount -t tmpfs -o size=3m tmpfs "$tmp/full" 2>/dev/null; then
	echo "SKIP: cannot mount a tmpfs (needs root)" >&2
	exit 77
fi
mounted+=("$tmp/full")
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
# shellcheck source=tests/support/checks.sh
. "$here/../support/checks.sh"

# Disk full.
db=$tmp/full/pc.db
set +e
"$pc" ingest --db "$db" "$archive" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
check "full: exit status" "$rc" 1
contains "full: the cause" "$(cat "$tmp/err")" "database or disk is full"
contains "full: what was not stored" "$(cat "$tmp/err")" \
	"were not stored (rolled back)"
stored=$(sqlite3 "$db" 'SELECT count(*) FROM messages' 2>/dev/null || echo 0)
contains "full: the summary counts what is stored" "$(cat "$tmp/out")" \
	"new $stored,"
check "full: integrity" "$(sqlite3 "$db" 'PRAGMA integrity_check' \
	2>/dev/null || echo ok)" ok
# Room again: everything is stored.
umount "$tmp/full"
mounted=()
mount -t tmpfs -o size=256m tmpfs "$tmp/full"
mounted+=("$tmp/full")
"$pc" ingest --db "$db" -q "$archive" >"$tmp/out" 2>/dev/null
check "room again: all stored" \
	"$(sqlite3 "$db" 'SELECT count(*) FROM messages')" 2309

# Read-only.
cp "$db" "$tmp/rw/pc.db"
mount --bind "$tmp/rw" "$tmp/ro"
mounted=("$tmp/ro" "${mounted[@]}")
mount -o remount,bind,ro "$tmp/ro"
for cmd in "series" "status --now 2021-12-31" "outbox" \
	"ingest $archive"; do
	set +e
	# shellcheck disable=SC2086 # the command's words
	"$pc" $cmd --db "$tmp/ro/pc.db" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	check "read-only: $cmd: exit status" "$rc" 1
	contains "read-only: $cmd: says so" "$(cat "$tmp/err")" \
		"is read-only (a read-only file system)"
done
exit $((fails > 0))
