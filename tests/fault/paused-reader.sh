#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A person reading `patchclock status` in the pager does not hold up the
# daemon: status judges inside a write transaction and prints its rows
# from inside it; a pager that stops reading at its first screen used
# to leave the listing blocked on the pipe with the write lock held, and
# an ingest beside it waited for as long as the person read. Here the
# pager reads nothing until the test lets it: an ingest (a writer) must
# finish while the pager still waits, and the pager must then get the
# whole listing, the same as without a pager.
#
# usage: paused-reader.sh PATCHCLOCK
set -euo pipefail

pc=$1
here=$(cd "$(dirname "$0")" && pwd)
archive=$here/../data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
if ! command -v script >/dev/null; then
	echo "SKIP: script (bsdutils) is not installed" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-paused.XXXXXX")
lister=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	touch "$tmp/go"
	[ -n "$lister" ] && kill "$lister" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
export NO_COLOR=1

db=$tmp/pc.db
"$pc" ingest --db "$db" --quiet "$archive" >/dev/null
now='2021-12-01 00:00'
"$pc" status --db "$db" --now "$now" --all --long --no-pager \
	>"$tmp/plain.txt" 2>/dev/null
bytes=$(wc -c <"$tmp/plain.txt")
# More than a pipe holds (64 KiB) and stdio buffers: the listing cannot
# finish into it.
if [ "$bytes" -lt 81920 ]; then
	echo "FAIL: the listing is only $bytes bytes; the test needs more" \
		"than a pipe holds" >&2
	exit 1
fi

# The pager: reads the first line (status prints its rows from inside
# the judging transaction, so it has begun), says so, then reads nothing
# more until $tmp/go exists, then everything.
cat >"$tmp/pager" <<PAGER
IFS= read -r first
touch '$tmp/started'
while [ ! -e '$tmp/go' ]; do sleep 0.1; done
{ printf '%s\n' "\$first"; cat; } >'$tmp/paged.txt'
PAGER
export PATCHCLOCK_PAGER="sh '$tmp/pager'"
script -qec "'$pc' status --db '$db' --now '$now' --all --long" /dev/null \
	>/dev/null 2>&1 &
lister=$!
for _ in $(seq 600); do
	[ -e "$tmp/started" ] && break
	sleep 0.1
done
if [ ! -e "$tmp/started" ]; then
	echo "FAIL: status printed nothing to the pager in 60 s" >&2
	exit 1
fi

# A writer beside it: one new message.
cat >"$tmp/one.eml" <<'MAIL'
From: A <a@example.com>
Subject: [PATCH] nvdimm: one more
Date: Mon, 01 Nov 2021 10:00:00 +0000
Message-ID: <one-more@example.com>

One more.
MAIL
t0=$(date +%s)
if ! timeout 300 "$pc" ingest --db "$db" --quiet "$tmp/one.eml" \
	>/dev/null 2>"$tmp/ingest.err"; then
	echo "FAIL: the ingest beside a paused pager did not finish:" \
		"$(tail -3 "$tmp/ingest.err")" >&2
	exit 1
fi
waited=$(($(date +%s) - t0))
if ! kill -0 "$lister" 2>/dev/null; then
	echo "FAIL: the listing ended before the pager read anything" >&2
	exit 1
fi
touch "$tmp/go"
rc=0
wait "$lister" || rc=$?
lister=
if [ "$rc" -ne 0 ]; then
	echo "FAIL: status under the pager exited $rc" >&2
	exit 1
fi
if ! cmp -s "$tmp/plain.txt" "$tmp/paged.txt"; then
	echo "FAIL: the pager got a listing other than the plain one:" >&2
	diff "$tmp/plain.txt" "$tmp/paged.txt" | head -5 >&2
	exit 1
fi
echo "ok: a writer finished in ${waited} s while the pager held" \
	"$bytes bytes unread; the pager then got them all"
