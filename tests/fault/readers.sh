#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Readers never fail while a bulk ingest runs: `series`, `status`,
# `outbox` and `show`, started again and again while `ingest` loads a
# large archive into the same database, each exit 0 and print what was
# committed so far. The database stays in WAL mode all along (a rollback
# journal would lock every reader out for the length of a batch).
#
# usage: readers.sh PATCHCLOCK
set -euo pipefail

pc=$1
here=$(cd "$(dirname "$0")" && pwd)
archive=$here/../data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
for tool in sqlite3 python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-readers.XXXXXX")
ingest_pid=
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -n "$ingest_pid" ] && kill -9 "$ingest_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
# shellcheck source=tests/support/checks.sh
. "$here/../support/checks.sh"

# The real archive sixteen times over, each copy with its own Message-IDs,
# so the ingest lasts long enough, even on a loaded machine (about 37,000
# messages, ten batches).
python3 - "$archive" "$tmp/big.mbox" <<'PY'
import gzip, re, sys
raw = gzip.open(sys.argv[1], "rb").read()
with open(sys.argv[2], "wb") as out:
    for copy in range(16):
        tag = b"<c%d." % copy
        out.write(re.sub(rb"<(?=[^<>\s]+@)", tag, raw))
PY

db=$tmp/pc.db
# A database that readers can open from the start, with one message.
cat >"$tmp/one.eml" <<'MAIL'
From: A <a@example.com>
Subject: [PATCH] nvdimm: one
Date: Mon, 01 Jan 2024 10:00:00 +0000
Message-ID: <one@example.com>

One.
MAIL
"$pc" ingest --db "$db" --quiet "$tmp/one.eml" >/dev/null
"$pc" ingest --db "$db" --quiet "$tmp/big.mbox" >"$tmp/ingest.out" \
	2>"$tmp/ingest.err" &
ingest_pid=$!

runs=0
failed=0
reader() { # NAME ARGS...
	local name=$1
	shift
	local t0 t1 ms
	runs=$((runs + 1))
	t0=$(date +%s%N)
	if ! "$pc" "$@" --db "$db" >/dev/null 2>"$tmp/reader.err"; then
		failed=$((failed + 1))
		echo "reader $name failed: $(cat "$tmp/reader.err")" >&2
	fi
	t1=$(date +%s%N)
	kill -0 "$ingest_pid" 2>/dev/null && overlapped=$((overlapped + 1))
	ms=$(((t1 - t0) / 1000000))
	((ms > slowest)) && slowest=$ms && slowest_name=$name
	return 0
}
slowest=0 slowest_name='' overlapped=0
during=0
while kill -0 "$ingest_pid" 2>/dev/null; do
	reader series series --json
	reader status status --json --now 2021-12-31
	reader outbox outbox
	reader show show '<one@example.com>'
	during=$((during + 1))
done
wait "$ingest_pid" && irc=0 || irc=$?
ingest_pid=
if [ "$irc" -ne 0 ]; then
	tail -n 5 "$tmp/ingest.err" >&2
fi
check "ingest exit status" "$irc" 0
# Readers that ran (started and ended) while the ingest did.
if ((overlapped < 2)); then
	check "readers that ran during the ingest" "$overlapped" ">= 2"
fi
echo "readers: $runs runs in $during rounds, $overlapped of them within the ingest, $failed failed, slowest $slowest ms ($slowest_name)"
check "readers that failed during the ingest" "$failed" 0
check "journal mode after the ingest" \
	"$(sqlite3 "$db" 'PRAGMA journal_mode')" wal
check "all stored" "$(sqlite3 "$db" 'SELECT count(*) FROM messages')" \
	"$((1 + $(grep -o 'new [0-9]*' "$tmp/ingest.out" | cut -d' ' -f2)))"
exit $((fails > 0))
