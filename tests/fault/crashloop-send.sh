#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Crash consistency of sending (issue 15, "the campaign"), through a real
# SMTP server (Exim on loopback, tests/integration/smtp-server): 61 mails
# queued (60 overdue series and a digest, as senders.sh builds them), then
# `patchclock send` run again and again, each run killed with SIGKILL at a
# random moment, until everything is sent. Between two runs the lease of
# a killed sender's claim runs out (claim_until is moved into the past, as
# if ten minutes had passed: the lease is taken on the real clock, not on
# --now). Then:
#   - no mail is lost: every outbox row is 'sent', and the server has
#     every queued mail (Message-ID and recipient) at least once;
#   - a mail is delivered twice only when a kill caught it in flight
#     (claimed and not yet marked sent): duplicates <= such kills, and
#     each duplicate is a mail that a kill caught in flight.
# The same again with the daemon: patchclockd, whose sender child sends
# the same outbox (queued anew), is killed at a random moment (its sender
# child with it, by SIGKILL or by the SIGTERM the child gets when its
# parent dies) and started again, until the outbox is empty.
# Prints the kills, which of them caught a mail in flight, and the
# duplicates (with the kill's time into the run).
#
# The kill times are drawn with $RANDOM from PC_CRASH_SEED (printed; set it
# to replay a failure). PC_CRASH_KILLS caps the kills of each part
# (default 15): the rest of the mail then goes in a run not killed.
#
# usage: crashloop-send.sh PATCHCLOCK
set -euo pipefail

pc=$1
pcd=$(dirname "$pc")/patchclockd
here=$(cd "$(dirname "$0")" && pwd)
srv=$here/../integration/smtp-server
for tool in exim4 openssl curl sqlite3 pgrep; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-crashloop-send.XXXXXX")
dir=$tmp/server
mkdir "$dir"
victim=
cleanup() {
	local p
	[[ -z $victim ]] || kill -9 "$victim" 2>/dev/null || true
	# The daemon's children, should one outlive it.
	for p in $(pgrep -f -- "$tmp/d.conf" || true); do
		kill -9 "$p" 2>/dev/null || true
	done
	"$srv" stop "$dir" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$here/../support/checks.sh"

seed=${PC_CRASH_SEED:-$(((($$ << 15) ^ $(date +%s)) & 0x7fffffff))}
kills=${PC_CRASH_KILLS:-15}
echo "crashloop-send: PC_CRASH_SEED=$seed PC_CRASH_KILLS=$kills"
RANDOM=$seed

SMTP_PORT='' SMTP_CA='' SMTP_LOG=''
"$srv" start "$dir" >/dev/null
# shellcheck source=/dev/null
. "$dir/env"
creds=$tmp/creds
install -m 600 "$dir/credentials" "$creds"

# 60 series by 60 authors, all overdue on Mon 2024-01-15.
mkdir -p "$tmp/tree/drivers/widget" "$tmp/mail"
printf '%s\n' "WIDGET" "M:	May Tainer <may@example.org>" "S:	Maintained" \
	"F:	drivers/widget/" >"$tmp/tree/MAINTAINERS"
for i in $(seq 60); do
	: >"$tmp/tree/drivers/widget/w$i.c"
	cat >"$tmp/mail/$i.eml" <<MAIL
From: Author $i <a$i@example.com>
Subject: [PATCH] widget: change $i
Date: Mon, 01 Jan 2024 10:00:00 +0000
Message-ID: <p$i@example.com>

Change $i.

Signed-off-by: Author $i <a$i@example.com>
---
diff --git a/drivers/widget/w$i.c b/drivers/widget/w$i.c
--- a/drivers/widget/w$i.c
+++ b/drivers/widget/w$i.c
@@ -1 +1,2 @@
 a
+b
MAIL
done
db=$tmp/pc.db
"$pc" ingest --db "$db" --tree "$tmp/tree" "$tmp"/mail/*.eml >/dev/null 2>&1
"$pc" digest --db "$db" --tree "$tmp/tree" --now 2024-01-15 \
	--from pc@patchclock.test --watching-since 2024-01-01 >/dev/null 2>&1
sql() { sqlite3 -cmd '.timeout 5000' "$db" "$@"; }
queued=$(sql "SELECT count(*) FROM outbox WHERE status = 'pending'")
check "mail queued" "$queued" 61
# What the server must get: each mail's Message-ID and each recipient.
sql "SELECT message_id, recipients FROM outbox WHERE status = 'pending'" |
	while IFS='|' read -r id rcpts; do
		id=${id#<}
		for r in $rcpts; do
			echo "${id%>} $r"
		done
	done | tr '[:upper:]' '[:lower:]' | sort >"$tmp/want"
want=$(wc -l <"$tmp/want")

now_ms() { echo $(($(date +%s%N) / 1000000)); }
sleep_ms() { sleep "$(($1 / 1000)).$(printf '%03d' $(($1 % 1000)))"; }
pending() { sql "SELECT count(*) FROM outbox WHERE status != 'sent'"; }
# The claims a killed sender left run out.
expire() {
	sql "UPDATE outbox SET claim_until = strftime('%s', 'now') - 1
		WHERE claimed_by IS NOT NULL AND status = 'pending'"
}
# The mail a kill caught in flight: claimed (a live lease: expire moved
# the earlier ones into the past), not marked.
in_flight() {
	sql "SELECT message_id FROM outbox WHERE claimed_by IS NOT NULL
		AND status = 'pending' AND claim_until > strftime('%s', 'now')"
}
# Message-ID and recipient of each delivery in the maildir files FILE...
deliveries() {
	local f
	for f in "$@"; do
		printf '%s %s\n' \
			"$(grep -m1 -i '^Message-ID:' "$f" | sed 's/^[^:]*: *<*//; s/>.*//')" \
			"$(grep -m1 '^Envelope-to:' "$f" | sed 's/^[^:]*: *//')"
	done | tr '[:upper:]' '[:lower:]' | sort
}
# Lines in Exim's main log: it logs each message it accepts ("<= ...
# id=MESSAGE-ID") before its 250. starts[R] is the count before run R.
loglines() { if [[ -e $SMTP_LOG ]]; then wc -l <"$SMTP_LOG"; else echo 0; fi; }
declare -a starts=()
# Checks what the server got in the maildir files not in $2 (a count of
# files delivered before), against $tmp/want and the kills' catches in
# CAUGHT_FILE (lines "MESSAGE-ID RUN what"): was the mail caught in
# flight accepted by the server in that run (in its lines of the log)?
tally() { # PART BEFORE CAUGHT_FILE LAST_RUN
	local part=$1 before=$2 caught=$3 last=$4 extra missing bad id r what
	local acc accepted=0
	"$srv" wait "$dir" "$((before + want))" 30 >/dev/null 2>&1 || true
	sleep 1
	starts[last + 1]=$(loglines)
	"$srv" received "$dir" | tail -n +"$((before + 1))" >"$tmp/files"
	mapfile -t files <"$tmp/files"
	deliveries "${files[@]}" >"$tmp/got"
	missing=$(sort -u "$tmp/got" | comm -23 "$tmp/want" - | wc -l)
	extra=$((${#files[@]} - $(sort -u "$tmp/got" | wc -l)))
	check "$part: no mail lost (queued, not delivered)" "$missing" 0
	check "$part: every row sent" "$(pending)" 0
	check "$part: nothing delivered that was not queued" \
		"$(sort -u "$tmp/got" | comm -13 "$tmp/want" - | wc -l)" 0
	: >"$tmp/accepted"
	while read -r id r what; do
		id=${id#<}
		id=${id%>}
		acc=$(sed -n "$((starts[r] + 1)),$((starts[r + 1]))p" "$SMTP_LOG" |
			grep -F -- " <= " | grep -c -F -- "id=$id " || true)
		if ((acc > 0)); then
			accepted=$((accepted + 1))
			echo "$id" >>"$tmp/accepted"
			echo "$part:   $what: $id already accepted by the server"
		fi
	done <"$caught"
	echo "$part: ${#files[@]} deliveries of $want mails: $extra duplicates; $(wc -l <"$caught") kills caught a mail in flight, $accepted of them after the server had accepted it"
	uniq -c "$tmp/got" | awk '$1 > 1' | while read -r n id rcpt; do
		echo "$part:   duplicate: $id to $rcpt delivered $n times"
	done
	bad=$(uniq -d "$tmp/got" | cut -d' ' -f1 | while read -r id; do
		grep -qixF -- "$id" "$tmp/accepted" || echo "$id"
	done | wc -l)
	check "$part: each duplicate was accepted when a kill caught it" "$bad" 0
	if ((extra > $(wc -l <"$caught"))); then
		check "$part: duplicates <= kills with a mail in flight" \
			"$extra" "<= $(wc -l <"$caught")"
	fi
	check "$part: duplicates = kills after the server accepted" \
		"$extra" "$accepted"
}

# Part 1: patchclock send, killed.
send_bg() { # NOW
	"$pc" send --db "$db" --smtp "smtp://127.0.0.1:$SMTP_PORT" \
		--from bounces@patchclock.test --credentials "$creds" \
		--ca-file "$SMTP_CA" --helo patchclock.test --now "$1" \
		>/dev/null 2>"$tmp/send.err" &
	victim=$!
}
# Each run sends with a later --now, 7 hours on (past any retry's
# backoff, at most 6 hours): a temporary failure does not stall the test.
at() { date -u -d "2024-01-16 00:00 UTC + $((7 * $1)) hours" '+%Y-%m-%d %H:%M'; }

# Each kill is drawn over the time a few mails take (2 * 61 / kills, so
# that the kills spread over the whole outbox, and each falls anywhere in
# a mail's cycle: claim, SMTP, mark), at the rate seen so far (first
# guess 100 ms a mail).
per_mail=100
window=$(((2 * queued + kills - 1) / kills))
: >"$tmp/caught1"
tried=0 landed=0 caught=0 runs=0
t0=$(now_ms)
while (($(pending) > 0)); do
	left=$(pending)
	runs=$((runs + 1))
	expire
	starts[runs]=$(loglines)
	if ((tried < kills)); then
		d=$((RANDOM * (left < window ? left : window) * per_mail / 32768))
		s0=$(now_ms)
		send_bg "$(at "$runs")"
		sleep_ms "$d"
		kill -9 "$victim" 2>/dev/null || true
		tried=$((tried + 1))
		rc=0
		wait "$victim" 2>/dev/null || rc=$?
		victim=
		el=$(($(now_ms) - s0))
		# Exim logs what it accepted from a killed client before the
		# next run starts.
		sleep 0.2
		done_now=$((left - $(pending)))
		if ((done_now > 0 && el > 0)); then
			per_mail=$(((per_mail + el / done_now) / 2 + 1))
		fi
		if ((rc != 137)); then
			echo "send: run $runs: kill at $d ms too late: the run had ended ($rc), $done_now sent"
			check "send: run $runs, not killed, exit status" "$rc" 0
			continue
		fi
		landed=$((landed + 1))
		fl=$(in_flight)
		if [[ -n $fl ]]; then
			caught=$((caught + 1))
			echo "$fl $runs kill $tried at $d ms (run $runs, $done_now sent before it)" >>"$tmp/caught1"
		fi
		echo "send: run $runs: killed at $d ms after $done_now sent;" \
			"in flight: ${fl:-none}"
	else
		send_bg "$(at "$runs")"
		rc=0
		wait "$victim" || rc=$?
		victim=
		check "send: run $runs, not killed, exit status" "$rc" 0
		echo "send: run $runs, not killed: $((left - $(pending))) sent"
	fi
	((runs < 200)) || break
done
t1=$(now_ms)
echo "send: $tried kills tried, $landed landed, $caught with a mail in flight, $runs runs in $((t1 - t0)) ms (about $per_mail ms a mail)"
tally send 0 "$tmp/caught1" "$runs"
check "send: retries (a 4xx or a dropped connection)" \
	"$(sql "SELECT count(*) FROM outbox WHERE last_error IS NOT NULL
		AND last_error NOT LIKE 'a sender stopped while sending it%'")" 0
# Each mail a kill caught in flight (claimed, its pre-send mark set) was
# sent again by the next run, which recorded that it may arrive twice
# (issue 36, item 8).
while read -r fl _; do
	check "send: $fl, caught in flight, is recorded in doubt" \
		"$(sql "SELECT count(*) FROM outbox WHERE message_id = '$fl'
			AND last_error LIKE 'a sender stopped while sending it%'")" 1
done <"$tmp/caught1"
sent_before=$("$srv" received "$dir" | wc -l)
starts=()

# Part 2: the daemon, killed with its sender child, and started again.
# The same outbox, queued anew (the same Message-IDs: only what arrives
# from now on counts).
sql "UPDATE outbox SET status = 'pending', sent_at = NULL, attempts = 0,
	claimed_by = NULL, claim_until = NULL"
cat >"$tmp/d.conf" <<CONF
[general]
database = $db
pidfile = $tmp/d.pid
tree = $tmp/tree
from = pc@patchclock.test

[smtp]
url = smtp://127.0.0.1:$SMTP_PORT
from = bounces@patchclock.test
credentials = $creds
ca_file = $SMTP_CA
helo = patchclock.test

[clock]
start = 2024-01-16 10:00
speed = 1
CONF
if ! "$pcd" -n -f "$tmp/d.conf" >/dev/null 2>"$tmp/d.err"; then
	check "daemon: configuration" "$(cat "$tmp/d.err")" ok
fi
# Every process of the daemon: it and its children carry the config's
# path in their command line.
instance() { pgrep -f -- "$tmp/d.conf" || true; }
gone() {
	local _
	for _ in $(seq 100); do
		[[ -z $(instance) ]] && return 0
		sleep 0.05
	done
	return 1
}
: >"$tmp/caught2"
dtried=0 dlanded=0 dcaught=0 drounds=0 how=
t0=$(now_ms)
while (($(pending) > 0)); do
	left=$(pending)
	drounds=$((drounds + 1))
	expire
	starts[drounds]=$(loglines)
	"$pcd" -d -f "$tmp/d.conf" 2>>"$tmp/daemon.log" &
	victim=$!
	if ((dtried < kills)); then
		# The daemon judges before its sender starts: a little more.
		d=$((RANDOM * ((left < window ? left : window) * per_mail / 2 + 500) / 32768))
		sleep_ms "$d"
		child=$(pgrep -P "$victim" || true)
		# Every other kill SIGKILLs the sender child itself; else it
		# dies of the SIGTERM it gets when the daemon dies.
		how="the daemon"
		if ((dtried % 2)) && [[ -n $child ]]; then
			kill -9 "$child" 2>/dev/null || true
			how="sender child $child and the daemon"
		fi
		kill -9 "$victim" 2>/dev/null || true
		dtried=$((dtried + 1))
		wait "$victim" 2>/dev/null || true
		victim=
		sleep 0.2
		if ! gone; then
			check "daemon: its children die with it" "$(instance)" ""
			break
		fi
		dlanded=$((dlanded + 1))
		fl=$(in_flight)
		done_now=$((left - $(pending)))
		if [[ -n $fl ]]; then
			dcaught=$((dcaught + 1))
			echo "$fl $drounds kill $dtried at $d ms (round $drounds, $done_now sent before it)" >>"$tmp/caught2"
		fi
		echo "daemon: round $drounds: killed $how at $d ms after" \
			"$done_now sent; in flight: ${fl:-none}"
	else
		for _ in $(seq 300); do
			(($(pending) > 0)) || break
			sleep 0.1
		done
		kill -TERM "$victim"
		rc=0
		wait "$victim" || rc=$?
		victim=
		check "daemon: exit status on SIGTERM" "$rc" 0
		echo "daemon: round $drounds, not killed: $((left - $(pending))) sent"
	fi
	((drounds < 200)) || break
done
t1=$(now_ms)
echo "daemon: $dtried kills, $dlanded with the instance gone after it, $dcaught with a mail in flight, $drounds rounds in $((t1 - t0)) ms"
tally daemon "$sent_before" "$tmp/caught2" "$drounds"

if [[ $fails -ne 0 ]]; then
	[[ ! -s $tmp/daemon.log ]] || tail -n 20 "$tmp/daemon.log" >&2
	echo "$fails check(s) failed (PC_CRASH_SEED=$seed)" >&2
	exit 1
fi
echo "crashloop-send: all checks passed"
