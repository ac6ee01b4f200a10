#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.mail-judgement: is the mail patchclock sends justified, on four
# real lists, as their maintainers would judge it?
#
#   tests/kernel/mail-judgement.sh PATCHCLOCK [TEST_DATA_DIR] [LIST...]
#
# Replays each list through patchclockd with the shipped defaults (the
# Debian 6.1 tree's MAINTAINERS and profiles, data/profiles.ini,
# data/kernel-releases) on a stepped clock, from the eve of its first
# message to the end of the archive, and sends what it decides through a
# real SMTP server on loopback (tests/integration/smtp-server: Exim), so
# the sender's path and timing are what is judged, not only the queue:
#   nvdimm     nvdimm@lists.linux.dev, 2021-05-18 to 2021-12-31
#   hwmon      linux-hwmon@vger.kernel.org, 2022-10 to 2022-12
#   pwm        linux-pwm@vger.kernel.org, 2022-10 to 2022-12
#   integrity  linux-integrity@vger.kernel.org, 2022-10 to 2022-12
# Then tests/bench/mail-score judges every mail sent at the time it went
# out against the postings labelled by hand from the threads, by the
# rules of doc/mail-judgement.md, by people who had not read the code
# (tests/data/lists/README.md), and prints each list's figures. The bar
# (issue 34) is, on every list:
#   - 95% of mails justified;
#   - 90% of digest items right;
#   - 90% of the waits on the people who apply a posting, longer than
#     its cadence, caught by a justified mail no later than two business
#     days after they became due.
# It is not met yet (doc/mail-judgement.md, "Where we stand"): with
# PC_JUDGEMENT_MARKS=enforce the test fails below it; by default it
# prints the shortfall and fails only on what must always hold:
#   - every mail due before the end was sent, and every mail the outbox
#     says was sent reached the server, once per recipient;
#   - no mail went to a mailing list (an L: address), and no digest
#     told anyone of their own series;
#   - something was mailed on every list (an empty outbox is "right");
#   - a second replay of hwmon, without sending, and a third on a
#     running clock (a week per second, so wakes come late and in
#     bursts) queue exactly the same mails (keys, send times, bytes):
#     replays are deterministic, and sending changes nothing decided.
#
# The tree comes from $PC_KERNEL_TREE (kernel-test/prepare-tree) and is
# only read. Exit 77 (skip) when $PC_KERNEL_TREE is unset or Exim is not
# installed. About 7 minutes.
set -euo pipefail

cli=$1
shift
# ctest passes tests/data; this test finds its data from its own place.
if [ $# -gt 0 ] && [ -d "$1" ]; then
	shift
fi
pcd=$(dirname "$cli")/patchclockd
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
lists=$top/tests/data/lists
score=$top/tests/bench/mail-score
srv=$top/tests/integration/smtp-server
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-judgement.XXXXXX")
# shellcheck source=tests/support/checks.sh
. "$top/tests/support/checks.sh"
unset PATCHCLOCK_DB PATCHCLOCK_RELEASES PATCHCLOCK_PROFILES

smtp=$tmp/smtp
mkdir -p "$smtp"
trap '"$srv" stop "$smtp" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
rc=0
"$srv" start "$smtp" >/dev/null || rc=$?
if [ "$rc" -eq 77 ]; then
	echo "skip: no SMTP server (contrib/install-deps --tests installs Exim)"
	exit 77
elif [ "$rc" -ne 0 ]; then
	check "smtp-server start" failed 0
	exit 1
fi
SMTP_PORT='' SMTP_CA=''
# shellcheck source=/dev/null
. "$smtp/env"
install -m 600 "$smtp/credentials" "$tmp/creds"

# The list's archive, list id, first day and end.
archive_of() {
	case $1 in
	nvdimm)
		echo "$top/tests/data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz nvdimm.lists.linux.dev 2021-05-18 2022-01-01 $lists/nvdimm-2021-05_2021-12.labels.jsonl"
		;;
	hwmon | pwm | integrity)
		echo "$lists/linux-$1-2022-10_2022-12.mboxrd.gz linux-$1.vger.kernel.org 2022-10-01 2023-01-01 $lists/linux-$1-2022-10_2022-12.labels.jsonl"
		;;
	*)
		echo "mail-judgement: no list '$1'" >&2
		exit 64
		;;
	esac
}

# replay NAME LIST CLOCK SMTP: a fresh database replayed to the end with
# CLOCK ('step = yes' or 'speed = N') in [clock], sending through the
# server when SMTP is yes; its outbox in out-NAME.
replay() {
	local name=$1 list=$2 clock=$3 send=$4 mbox lid start until labels
	read -r mbox lid start until labels <<<"$(archive_of "$list")"
	{
		cat <<CONF
[general]
database = $tmp/$name.db
tree = $PC_KERNEL_TREE
from = patchclock@patchclock.test
releases = $top/data/kernel-releases

[policy]
overrides = $top/data/profiles.ini

[clock]
start = $start 00:00
$clock
until = $until 00:00

[source "$list"]
type = mbox
path = $mbox
list_id = $lid
replay = yes
CONF
		if [ "$send" = yes ]; then
			cat <<CONF

[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
from = bounces@patchclock.test
credentials = $tmp/creds
ca_file = $SMTP_CA
helo = patchclock.test
CONF
		fi
	} >"$tmp/$name.conf"
	if ! "$pcd" -d -f "$tmp/$name.conf" >"$tmp/$name.log" 2>&1; then
		tail -n 20 "$tmp/$name.log" >&2
		check "patchclockd replay $name exit status" failed 0
		return 1
	fi
	sqlite3 "$tmp/$name.db" "SELECT key, send_after, coalesce(sent_at, ''),
		hex(sha3(message)) FROM outbox WHERE status IN ('pending', 'sent')
		ORDER BY key" >"$tmp/out-$name"
}

[ $# -gt 0 ] || set -- nvdimm hwmon pwm integrity
summary='' short=''
delivered=0
for list in "$@"; do
	read -r _ _ start until labels <<<"$(archive_of "$list")"
	echo "== $list"
	replay "$list" "$list" "step = yes" yes || continue
	"$score" --db "$tmp/$list.db" --labels "$labels" \
		--start "$start 00:00" --until "$until 00:00" \
		--json >"$tmp/$list.score"
	"$score" --db "$tmp/$list.db" --labels "$labels" \
		--start "$start 00:00" --until "$until 00:00" | tail -n 25
	mails=$(jq .mails "$tmp/$list.score")
	precision=$(jq .precision "$tmp/$list.score")
	items=$(jq .item_precision "$tmp/$list.score")
	recall=$(jq .recall "$tmp/$list.score")
	summary="$summary$list: mails $precision ($mails), items $items, recall $recall; "
	# Something must be mailed at all: an empty outbox is 100% precise.
	if [ "$mails" -lt 10 ]; then
		check "$list: mails sent" "$mails" "at least 10"
	fi
	for mark in "justified mails:$precision:0.95" \
		"right digest items:$items:0.90" "recall:$recall:0.90"; do
		IFS=: read -r what got want <<<"$mark"
		if awk -v g="$got" -v w="$want" 'BEGIN { exit !(g >= w) }'; then
			continue
		fi
		if [ "${PC_JUDGEMENT_MARKS:-}" = enforce ]; then
			check "$list: $what" "$got" "at least $want"
		else
			short="$short$list: $what $got, the bar $want; "
		fi
	done
	# Never to a list, never a digest item to its own author.
	check "$list: mails to a mailing list" \
		"$(jq .to_lists "$tmp/$list.score")" 0
	check "$list: digests telling of the addressee's own series" \
		"$(jq .own_items "$tmp/$list.score")" 0
	# What the outbox says was sent reached the server: once per
	# recipient, each.
	sent=$(sqlite3 "$tmp/$list.db" "SELECT count(*) FROM outbox
		WHERE status = 'sent'")
	pending=$(sqlite3 "$tmp/$list.db" "SELECT count(*) FROM outbox
		WHERE status = 'pending' AND send_after < strftime('%s',
		'$until 00:00')")
	check "$list: mail due and not sent" "$pending" 0
	rcpts=$(sqlite3 "$tmp/$list.db" "SELECT coalesce(sum(length(recipients)
		- length(replace(recipients, ' ', '')) + 1), 0) FROM outbox
		WHERE status = 'sent'")
	delivered=$((delivered + rcpts))
	if [ "$sent" -gt 0 ] && ! "$srv" wait "$smtp" "$delivered" 60 >/dev/null; then
		check "$list: mails delivered" \
			"$("$srv" received "$smtp" | wc -l)" "$delivered"
	fi
done

# Replays are deterministic: hwmon (the shortest) again without sending
# and on a running clock (the send times are the outbox's either way).
if [[ " $* " == *" hwmon "* ]]; then
	replay hwmon-q hwmon "step = yes" no
	replay hwmon-run hwmon "speed = 604800" no
	if ! cmp -s "$tmp/out-hwmon-q" "$tmp/out-hwmon-run"; then
		diff "$tmp/out-hwmon-q" "$tmp/out-hwmon-run" | head -n 20 >&2
		check "a second replay queues the same mail" differs same
	fi
	# Sending changes nothing of what is decided, nor when.
	cut -d'|' -f1,2,4 "$tmp/out-hwmon" >"$tmp/sent-keys"
	cut -d'|' -f1,2,4 "$tmp/out-hwmon-q" >"$tmp/queued-keys"
	if ! cmp -s "$tmp/sent-keys" "$tmp/queued-keys"; then
		diff "$tmp/sent-keys" "$tmp/queued-keys" | head -n 20 >&2
		check "sending changes what is decided" differs same
	fi
fi

echo "mail-judgement: $summary"
if [ -n "$short" ]; then
	echo "mail-judgement: below issue 34's bar (not enforced; set" \
		"PC_JUDGEMENT_MARKS=enforce): $short"
fi
if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
