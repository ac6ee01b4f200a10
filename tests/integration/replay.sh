#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# patchclockd replaying mail on a simulated clock (what contrib/demo
# does with the bundled mail): a "files" source with replay = yes, mixing
# an mbox and a single message file. Each message arrives when the clock
# reaches its Date; mail dated after [clock] until never arrives; the
# daemon exits 0 by itself at until, having queued the "resend now"
# reply at the series' due time and nothing else (no [smtp]: nothing is
# sent).
#
# usage: replay.sh PATCHCLOCK TEST_DATA_DIR (patchclockd is found next to
# the patchclock binary)
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
pcd=$(dirname "$1")/patchclockd
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclockd-replay.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
sql() { sqlite3 "$tmp/pc.db" "$@"; }

mkdir -p "$tmp/tree"
printf '%s\n' "WIDGET" "M:	May Tainer <may@example.org>" \
	"S:	Maintained" "F:	drivers/widget/" >"$tmp/tree/MAINTAINERS"
# The file the patches change: a patch whose files are not in the tree
# is not for this tree, and patchclock says nothing about it.
mkdir -p "$tmp/tree/drivers/widget"
: >"$tmp/tree/drivers/widget/w.c"
# msg ID SUBJECT DATE BODY
msg() {
	printf 'From: A U Thor <author@example.com>\nSubject: %s\n' "$2"
	printf 'Date: %s\nMessage-ID: <%s>\n\n%s\n' "$3" "$1" "$4"
}
{
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	msg p1@example.com "[PATCH] widget: spin" \
		"Mon, 01 Jan 2024 10:00:00 +0000" "Make it spin.

---
diff --git a/drivers/widget/w.c b/drivers/widget/w.c
index 1111111..2222222 100644
--- a/drivers/widget/w.c
+++ b/drivers/widget/w.c
@@ -1,2 +1,3 @@
 a
+b
 c"
	echo
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	msg late@example.com "widget: after the end" \
		"Mon, 15 Jan 2024 10:00:00 +0000" "Too late for the replay."
} >"$tmp/list.mbox"
# The maintainer's own mail from before the start: read at once, and
# the reminder names someone seen on the list (one who never posts is
# named by nobody, and no reminder goes out: doc/design.md, "Who applies
# it").
msg old@example.com "widget: history" "Fri, 01 Dec 2023 10:00:00 +0000" \
	"Before the start: read at once." |
	sed '1s/.*/From: May Tainer <may@example.org>/' >"$tmp/old.eml"

cat >"$tmp/replay.conf" <<CONF
[general]
database = $tmp/pc.db
tree = $tmp/tree
from = patchclock@patchclock.test

[clock]
start = 2023-12-31 00:00
speed = 345600
until = 2024-01-10 00:00

[source "replay"]
type = files
replay = yes
path = $tmp/list.mbox
path = $tmp/old.eml
CONF

SECONDS=0
set +e
timeout 60 "$pcd" -d -f "$tmp/replay.conf" 2>"$tmp/daemon.log"
check "exit status at 'until'" "$?" 0
set -e
((SECONDS <= 10)) || check "ten days at four days per second" "${SECONDS}s" "about 3 s"
check "arrived" "$(sql "select group_concat(msgid, ' ') from
	(select msgid from messages order by msgid)")" \
	"old@example.com p1@example.com"
# Due a week after posting (the handbook's default), at 2024-01-08 10:00.
check "the reply, queued for its due time" \
	"$(sql "select action || ' ' || datetime(send_after, 'unixepoch') ||
		' ' || status from outbox where action = 'resend'")" \
	"resend 2024-01-08 10:00:00 pending"
# To the author alone (cc_maintainers is off), naming the maintainer.
check "the reply's recipients" \
	"$(sql "select recipients from outbox where action = 'resend'")" \
	author@example.com
sql "select message from outbox where action = 'resend'" |
	grep -q 'May Tainer' || check "the reply names the maintainer" no yes
grep -q 'reached the configured end of the replay' "$tmp/daemon.log" ||
	check "end logged" missing present

# Started after the reply fell due, on a new database: no mail about the
# past, and the log says so once, with the setting that changes it.
sed -e "s|$tmp/pc.db|$tmp/late.db|" -e 's/^start = .*/start = 2024-01-09 12:00/' \
	"$tmp/replay.conf" >"$tmp/late.conf"
set +e
timeout 60 "$pcd" -d -f "$tmp/late.conf" 2>"$tmp/late.log"
check "late start: exit status" "$?" 0
set -e
check "late start: no reply" "$(sqlite3 "$tmp/late.db" \
	"select count(*) from outbox where action = 'resend' and status = 'pending'")" 0
check "late start: said why" "$(grep -c 'overdue series were due before mail was first planned here.*watching_since' "$tmp/late.log")" 1

if [[ $fails -ne 0 ]]; then
	cat "$tmp/daemon.log" >&2
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "replay: all checks passed"
