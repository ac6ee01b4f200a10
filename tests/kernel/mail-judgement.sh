#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.mail-judgement: is the mail patchclock would send justified?
#
#   tests/kernel/mail-judgement.sh PATCHCLOCK [TEST_DATA_DIR]
#
# Replays the real nvdimm@lists.linux.dev slice of May-December 2021
# (tests/data/corpus/lore-nvdimm) through patchclockd on a stepped clock, from
# the eve of its first message to the end of January 2022, against the
# Debian 6.1 kernel tree (its MAINTAINERS, its real subsystem profiles:
# the LIBNVDIMM one asks for a week and a private reminder). Nothing is
# sent (no [smtp]): every mail stays queued. Then tests/bench/mail-score
# judges each queued mail at its send time against the hand-labelled
# postings of the slice (tests/data/corpus/lore-nvdimm/labels.jsonl, labelled
# by the rules of doc/mail-judgement.md: all 201 postings) and the test
# fails below
#   - 95% precision: justified mails / queued mails;
#   - 90% recall: series that waited on their maintainers longer than the
#     cadence and got one justified reminder or digest item.
# A second replay, on a running clock (a week per second, so wakes come
# late and in bursts) instead of a stepped one, must queue exactly the
# same mails (keys, send times, bytes): replays are deterministic.
#
# The tree comes from $PC_KERNEL_TREE (kernel-test/prepare-tree) and is
# only read. Exit 77 (skip) when $PC_KERNEL_TREE is unset. About 90 s.
set -euo pipefail

cli=$1
pcd=$(dirname "$cli")/patchclockd
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
data=$top/tests/data/corpus/lore-nvdimm
score=$top/tests/bench/mail-score
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-judgement.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/support/checks.sh
. "$top/tests/support/checks.sh"
unset PATCHCLOCK_DB PATCHCLOCK_RELEASES PATCHCLOCK_PROFILES

start="2021-05-18 00:00"
until="2022-01-31 00:00"

# replay N CLOCK: a fresh database replayed to the end with CLOCK ('step
# = yes' or 'speed = N') in [clock]; its outbox in out-N.
replay() {
	cat >"$tmp/$1.conf" <<CONF
[general]
database = $tmp/$1.db
tree = $PC_KERNEL_TREE
from = patchclock@patchclock.test
releases = $top/data/kernel-releases
digest = yes
replies = yes

[policy]
overrides = $top/data/profiles.ini

[clock]
start = $start
$2
until = $until

[source "nvdimm"]
type = mbox
path = $data/nvdimm-2021-05_2021-12.mboxrd.gz
list_id = nvdimm.lists.linux.dev
replay = yes
CONF
	if ! "$pcd" -d -f "$tmp/$1.conf" >"$tmp/$1.log" 2>&1; then
		tail -n 20 "$tmp/$1.log" >&2
		check "patchclockd replay $1 exit status" failed 0
	fi
	sqlite3 "$tmp/$1.db" "SELECT key, status, send_after,
		hex(sha3(message)) FROM outbox ORDER BY key" >"$tmp/out-$1"
}

replay 1 "step = yes"
"$score" --db "$tmp/1.db" --labels "$data/labels.jsonl" \
	--start "$start" --until "$until" --json >"$tmp/score.json"
"$score" --db "$tmp/1.db" --labels "$data/labels.jsonl" \
	--start "$start" --until "$until" | tail -n 40
mails=$(jq .mails "$tmp/score.json")
precision=$(jq .precision "$tmp/score.json")
recall=$(jq .recall "$tmp/score.json")
# Something must be mailed at all: an empty outbox is 100% precise.
if [ "$mails" -lt 10 ]; then
	check "mails queued" "$mails" "at least 10"
fi
if ! awk -v p="$precision" 'BEGIN { exit !(p >= 0.95) }'; then
	check "precision" "$precision" "at least 0.95"
fi
if ! awk -v r="$recall" 'BEGIN { exit !(r >= 0.90) }'; then
	check "recall" "$recall" "at least 0.90"
fi

replay 2 "speed = 604800"
if ! cmp -s "$tmp/out-1" "$tmp/out-2"; then
	diff "$tmp/out-1" "$tmp/out-2" | head -n 20 >&2
	check "a second replay queues the same mail" differs same
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "mail-judgement: precision $precision, recall $recall, $mails mails"
