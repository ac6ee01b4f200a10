#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# patchclockd with a live IMAP source: a real Dovecot (imap-server) on
# loopback with a self-signed certificate made by the test, over IMAPS
# with certificate verification (ca_file), and the real SMTP server (Exim,
# smtp-server) for what the daemon sends. On a simulated clock (two hours
# per second):
#   - a patch already in the folder is read when the daemon starts;
#   - mail appended over time (IMAP APPEND) is in the database within 2 s,
#     through IDLE (the latency of each is printed);
#   - Dovecot is killed and restarted in the middle of a burst of mail:
#     the daemon reconnects, nothing is lost, nothing is stored twice, and
#     the cursor ends at the folder's last UID;
#   - the folder is deleted and made again (a new UIDVALIDITY) with mail
#     the daemon already has: it resyncs and stores nothing twice;
#   - the unanswered patch gets its "resend now" reply at its due time
#     (the office-hours opening after a week of the profile's business
#     days), and the maintainer's digest arrives at the next office-hours
#     opening, both in simulated time;
#   - the wrong CA is refused with a message that says what to do;
#   - SIGTERM stops the daemon and its fetcher, exit status 0;
#   - imap:// with STARTTLS (certificate checked) and idle = no: the
#     folder is read, and new mail arrives on the next poll.
#
# usage: daemon-imap.sh PATCHCLOCK TEST_DATA_DIR (patchclockd is found next
# to the patchclock binary)
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
cli=$1
pcd=$(dirname "$1")/patchclockd
here=$(cd "$(dirname "$0")" && pwd)
imap=$here/imap-server
smtp=$here/smtp-server
for tool in dovecot exim4 openssl curl sqlite3 python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclockd-imap.XXXXXX")
mkdir "$tmp/imap" "$tmp/smtp"
daemon_pid=
cleanup() {
	[[ -z $daemon_pid ]] || kill "$daemon_pid" 2>/dev/null || true
	"$imap" stop "$tmp/imap" >/dev/null 2>&1 || true
	"$smtp" stop "$tmp/smtp" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# KEEP=1 keeps the temporary directory (and the servers) for debugging.
[[ -z ${KEEP:-} ]] || trap - EXIT
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
sql() { sqlite3 -cmd '.timeout 5000' "$tmp/pc.db" "$@"; }

IMAP_HOST='' IMAPS_PORT='' IMAP_USER='' IMAP_PASS='' IMAP_CA=''
"$imap" start "$tmp/imap" >/dev/null
# shellcheck source=/dev/null
. "$tmp/imap/env"
SMTP_PORT='' SMTP_CA=''
"$smtp" start "$tmp/smtp" >/dev/null
# shellcheck source=/dev/null
. "$tmp/smtp/env"
install -m 600 "$tmp/smtp/credentials" "$tmp/smtp-creds"
(umask 077 && printf '%s\n' "$IMAP_PASS" >"$tmp/imap-pass")
folder=lists/widget

# A tree whose entry has a profile: a week's cadence, office hours in
# Central European Time.
mkdir -p "$tmp/tree/Documentation/widget"
printf '%s\n' "WIDGET" "M:	May Tainer <may@example.org>" \
	"L:	widget@lists.example.org" "S:	Maintained" \
	"P:	Documentation/widget/profile.rst" "F:	drivers/widget/" \
	>"$tmp/tree/MAINTAINERS"
# The file the patches change: a patch whose files are not in the tree
# is not for this tree, and patchclock says nothing about it.
mkdir -p "$tmp/tree/drivers/widget"
: >"$tmp/tree/drivers/widget/w.c"
cat >"$tmp/tree/Documentation/widget/profile.rst" <<'RST'
Widget subsystem profile
========================

Short Answers
-------------

Resubmit Cadence
~~~~~~~~~~~~~~~~
1 week

Time Zone / Office Hours
~~~~~~~~~~~~~~~~~~~~~~~~
9:00am to 5:00pm Central European Time
RST

# mail MSGID SUBJECT DATE [BODY]: a mail with CRLF line ends on stdout.
mail() {
	printf 'From: A U Thor <author@example.com>\r\n'
	printf 'To: widget@lists.example.org\r\n'
	printf 'Subject: %s\r\n' "$2"
	printf 'Date: %s\r\n' "$3"
	printf 'Message-ID: <%s>\r\n\r\n' "$1"
	printf '%s\r\n' "${4:-A note about widgets.}"
}
# The patch: posted Mon 2024-01-01 10:00 UTC (11:00 in Berlin).
{
	mail p1@example.com "[PATCH] widget: spin" \
		"Mon, 01 Jan 2024 10:00:00 +0000" "Make it spin."
	printf -- '---\r\ndiff --git a/drivers/widget/w.c b/drivers/widget/w.c\r\n'
	printf 'index 1111111..2222222 100644\r\n'
	printf -- '--- a/drivers/widget/w.c\r\n+++ b/drivers/widget/w.c\r\n'
	printf '@@ -1,2 +1,3 @@\r\n a\r\n+b\r\n c\r\n'
} >"$tmp/p1.eml"
"$imap" append "$tmp/imap" "$folder" "$tmp/p1.eml" >/dev/null

conf=$tmp/patchclockd.conf
# write_conf CA_FILE
write_conf() {
	cat >"$conf" <<CONF
[general]
database = $tmp/pc.db
pidfile = $tmp/patchclockd.pid
tree = $tmp/tree
from = patchclock@patchclock.test
# The maintainer in Cc of the reminder, as well as in the digest.
cc_maintainers = yes

[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
from = bounces@patchclock.test
credentials = $tmp/smtp-creds
ca_file = $SMTP_CA
helo = patchclock.test

# Simulated time starts Mon 2024-01-08 07:00 UTC and runs two hours
# per second.
[clock]
start = 2024-01-08 07:00
speed = 7200

[source "widget"]
type = imap
url = imaps://$IMAP_HOST:$IMAPS_PORT
user = $IMAP_USER
password_file = $tmp/imap-pass
folder = $folder
ca_file = $1
CONF
}
write_conf "$IMAP_CA"
check "-n" "$("$pcd" -n -f "$conf")" "patchclockd: configuration OK ($conf)"

now() { date +%s.%N; }
# append FILE: IMAP APPEND to the folder; right after a restart
# Dovecot may refuse the first try, so the test's own client retries.
append() {
	local _try
	for _try in 1 2 3 4 5; do
		if "$imap" append "$tmp/imap" "$folder" "$1" >/dev/null 2>"$tmp/append.err"; then
			return 0
		fi
		sleep 0.3
	done
	cat "$tmp/append.err" >&2
	return 1
}
# wait_count N SECONDS: until the database holds N messages.
wait_count() {
	local deadline n
	deadline=$(python3 -c "import time; print(time.time() + $2)")
	while :; do
		n=$(sql "select count(*) from messages" 2>/dev/null || echo 0)
		[[ $n -ge $1 ]] && return 0
		if python3 -c "import sys, time; sys.exit(time.time() < $deadline)"; then
			return 1
		fi
		sleep 0.02
	done
}

"$pcd" -d -v -f "$conf" 2>"$tmp/daemon.log" &
daemon_pid=$!
wait_count 1 5 || check "the patch in the folder read at start" missing present

# Mail appended over time is in the database within 2 s.
worst=0
for i in $(seq 1 8); do
	mail "note$i@example.com" "widget note $i" \
		"Tue, 02 Jan 2024 1$i:00:00 +0000" >"$tmp/m$i.eml"
	t0=$(now)
	append "$tmp/m$i.eml"
	if wait_count $((1 + i)) 2; then
		lat=$(python3 -c "print(f'{$(now) - $t0:.3f}')")
		echo "append $i: in the database after $lat s"
		worst=$(python3 -c "print(max($worst, $lat))")
	else
		check "message $i in the database within 2 s" late in-time
	fi
	sleep 0.3
done
echo "worst APPEND-to-database latency: $worst s"

# Dovecot killed and restarted in the middle of a burst.
for i in $(seq 11 20); do
	mail "note$i@example.com" "widget note $i" \
		"Wed, 03 Jan 2024 10:$i:00 +0000" >"$tmp/m$i.eml"
	append "$tmp/m$i.eml"
	if [[ $i -eq 15 ]]; then
		"$imap" restart "$tmp/imap" >/dev/null
	fi
done
wait_count 19 20 || check "every message after the restart" \
	"$(sql "select count(*) from messages")" 19
check "messages after the restart" "$(sql "select count(*) from messages")" 19
check "distinct Message-IDs" \
	"$(sql "select count(distinct msgid) from messages")" 19
check "cursor at the last UID" "$(sql "select last_uid from imap_cursor")" 19
check "reconnected" \
	"$(grep -c 'source widget: connected' "$tmp/daemon.log")" 2

# A new UIDVALIDITY (the folder deleted and made again) with mail the
# daemon already has: a resync, nothing stored twice.
old_validity=$(sql "select uidvalidity from imap_cursor")
curl -s --cacert "$IMAP_CA" -u "$IMAP_USER:$IMAP_PASS" \
	--url "imaps://$IMAP_HOST:$IMAPS_PORT/" -X "DELETE \"$folder\"" \
	>/dev/null
for i in 1 2 3; do
	append "$tmp/m$i.eml"
done
mail "note21@example.com" "widget note 21" \
	"Thu, 04 Jan 2024 10:00:00 +0000" >"$tmp/m21.eml"
append "$tmp/m21.eml"
wait_count 20 20 || true
for _ in $(seq 100); do
	[[ $(sql "select last_uid from imap_cursor") == 4 ]] && break
	sleep 0.1
done
check "messages after the resync" "$(sql "select count(*) from messages")" 20
check "cursor after the resync" \
	"$(sql "select last_uid || ' ' || resyncs from imap_cursor")" "4 1"
[[ $(sql "select uidvalidity from imap_cursor") != "$old_validity" ]] ||
	check "new UIDVALIDITY recorded" old new

# The reply to the author (Cc the maintainer) and the digest: three
# copies in all. The patch is due at 11:00 Berlin on Mon 01-08 (five
# business days after it was posted); the digest goes out at the next
# office-hours opening with something to say: Tue 01-09 09:00 Berlin.
if ! "$smtp" wait "$tmp/smtp" 3 30 >/dev/null; then
	check "mail from the daemon" "$("$smtp" received "$tmp/smtp" | wc -l)" 3
fi
due=$(sql "select due from series_status")
check "due (UTC)" "$(date -u -d "@$due" '+%F %R')" "2024-01-08 10:00"
sent_ok() { # action expected-send-after
	local row
	row=$(sql "select send_after, sent_at from outbox where action = '$1' and status = 'sent' limit 1")
	check "$1 send_after" "$(date -u -d "@${row%%|*}" '+%F %R')" "$2"
	# Sent within two simulated hours of its time (one real second).
	if [[ -z $row ]] || ((${row##*|} - ${row%%|*} > 7200 ||
		${row##*|} < ${row%%|*})); then
		check "$1 sent on time" "$row" "within two hours"
	fi
}
sent_ok resend "2024-01-08 10:00"
sent_ok digest "2024-01-09 08:00"
mapfile -t got < <("$smtp" received "$tmp/smtp")
m=$(grep -l '^Envelope-to: author@example.com' "${got[@]}" /dev/null | head -n 1)
m=${m:-/dev/null}
hdr() { sed -n "/^$1: /{s/^$1: //p;q}" "$m"; }
check "reply subject" "$(hdr Subject)" "Re: [PATCH] widget: spin"
check "reply threading" "$(hdr In-Reply-To)" "<p1@example.com>"
# date_near WHAT EXPECTED-UTC: the Date header is within half a
# simulated hour after the expected time (the timer's and the fork's
# latency: a quarter of a real second at this speed, on a loaded
# machine).
date_near() {
	local t want
	t=$(date -u -d "$(hdr Date)" +%s 2>/dev/null || echo 0)
	want=$(date -u -d "$2 UTC" +%s)
	if ((t < want || t - want > 1800)); then
		check "$1" "$(hdr Date)" "$2 UTC (+30 min)"
	fi
}
date_near "reply date (simulated)" "2024-01-08 10:00"
m=$(grep -l 'X-Patchclock-Action: digest' "${got[@]}" /dev/null | head -n 1)
m=${m:-/dev/null}
check "digest to the maintainer" "$(hdr To)" "May Tainer <may@example.org>"
date_near "digest date (simulated)" "2024-01-09 08:00"

# The wrong CA: refused, and the log says what to do.
write_conf /etc/ssl/certs/ca-certificates.crt
kill -HUP "$daemon_pid"
for _ in $(seq 50); do
	grep -q 'certificate not trusted' "$tmp/daemon.log" && break
	sleep 0.1
done
grep -q "source widget: imap server '$IMAP_HOST': certificate not trusted (self-signed certificate); set ca_file to the CA that signed it" \
	"$tmp/daemon.log" || check "untrusted certificate refused" missing present

kill -TERM "$daemon_pid"
set +e
wait "$daemon_pid"
check "exit status on SIGTERM" "$?" 0
set -e
daemon_pid=
check "fetchers left behind" \
	"$(pgrep -f "patchclockd -d -v -f $conf" | wc -l | tr -d ' ')" 0
# The CLI sees the same state.
check "status via the CLI" \
	"$("$cli" series --db "$tmp/pc.db" --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["series"]))')" 1

# imap:// with STARTTLS (certificate checked) and no IDLE: the folder is
# read into a fresh database, and new mail arrives on the next poll.
# Two more mails first: one of 17 MiB, more than a fetch batch holds
# (16 MiB), then a small one. The first sync's batch then ends at the big
# mail, is stored, and the next batch brings the small one.
{
	mail "big@example.com" "widget trace" \
		"Thu, 04 Jan 2024 09:00:00 +0000" "The trace follows."
	python3 -c '
import sys
line = b"widget trace 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRS\r\n"
sys.stdout.buffer.write(line * (17 * 1024 * 1024 // len(line) + 1))'
} >"$tmp/big.eml"
append "$tmp/big.eml"
mail "after-big@example.com" "widget after the trace" \
	"Thu, 04 Jan 2024 09:30:00 +0000" >"$tmp/after-big.eml"
append "$tmp/after-big.eml"
IMAP_PORT=$(sed -n 's/^IMAP_PORT=//p' "$tmp/imap/env")
cat >"$tmp/poll.conf" <<CONF
[general]
database = $tmp/poll.db

[source "widget"]
type = imap
url = imap://$IMAP_HOST:$IMAP_PORT
user = $IMAP_USER
password_file = $tmp/imap-pass
folder = $folder
ca_file = $IMAP_CA
idle = no
poll = 1
CONF
"$pcd" -d -v -f "$tmp/poll.conf" 2>"$tmp/poll.log" &
daemon_pid=$!
count() { sqlite3 -cmd '.timeout 5000' "$tmp/poll.db" \
	"select count(*) from messages" 2>/dev/null || echo 0; }
for _ in $(seq 150); do
	[[ $(count) -ge 6 ]] && break
	sleep 0.1
done
check "starttls: folder read" "$(count)" 6
check "the 17 MiB mail stored whole (16.8 MiB with LF line ends)" "$(sqlite3 -cmd '.timeout 5000' \
	"$tmp/poll.db" "select r.size > 16 * 1024 * 1024 from messages m
		join raw r on r.id = m.raw_id where m.msgid = 'big@example.com'")" 1
# The folder made again holds UIDs 1-4, then the big mail and the one
# after it.
check "cursor at the last UID after two batches" "$(sqlite3 -cmd \
	'.timeout 5000' "$tmp/poll.db" "select last_uid from imap_cursor")" 6
grep -q "connected to imap://$IMAP_HOST:$IMAP_PORT, folder '$folder', polling" \
	"$tmp/poll.log" || check "starttls + polling logged" missing present
mail "note22@example.com" "widget note 22" \
	"Thu, 04 Jan 2024 11:00:00 +0000" >"$tmp/m22.eml"
append "$tmp/m22.eml"
for _ in $(seq 50); do
	[[ $(count) -ge 7 ]] && break
	sleep 0.1
done
check "polling: new mail within 5 s" "$(count)" 7
kill -TERM "$daemon_pid"
wait "$daemon_pid" || check "poll daemon exit" "$?" 0
daemon_pid=

if [[ $fails -ne 0 ]]; then
	cat "$tmp/daemon.log" >&2
	[[ ! -f $tmp/poll.log ]] || cat "$tmp/poll.log" >&2
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "daemon-imap: all checks passed"
