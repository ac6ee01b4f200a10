#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Exactly once with several senders, through a real SMTP server (Exim on
# loopback, tests/integration/smtp-server):
#   - two `patchclock send` at once deliver each queued mail once (each
#     outbox row is claimed in a transaction before it is sent);
#   - a sender killed with SIGKILL after claiming leaves the row to be
#     sent once its lease runs out, not twice, and not never;
#   - a second patchclockd on the same database refuses to start and
#     names the first; a pidfile naming a running process is not taken;
#   - the daemon's children die with it: after a SIGKILL of the daemon,
#     its child (here a fetch that hangs on a silent server) is gone, and
#     a new daemon starts on the database at once.
#
# usage: senders.sh PATCHCLOCK
set -euo pipefail

pc=$1
pcd=$(dirname "$pc")/patchclockd
here=$(cd "$(dirname "$0")" && pwd)
srv=$here/../integration/smtp-server
for tool in exim4 openssl curl sqlite3 git python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-senders.XXXXXX")
dir=$tmp/server
mkdir "$dir"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
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

SMTP_PORT='' SMTP_CA=''
"$srv" start "$dir" >/dev/null
# shellcheck source=/dev/null
. "$dir/env"
creds=$tmp/creds
cp "$dir/credentials" "$creds"
chmod 600 "$creds"

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
queued=$(sqlite3 "$db" "SELECT count(*) FROM outbox WHERE status = 'pending'")
check "mail queued" "$queued" 61
send() {
	"$pc" send --db "$db" --smtp "smtp://127.0.0.1:$SMTP_PORT" \
		--from bounces@patchclock.test --credentials "$creds" \
		--ca-file "$SMTP_CA" --helo patchclock.test --now 2024-01-16 \
		>/dev/null 2>&1
}

# Two senders at once.
send &
a=$!
send &
b=$!
wait "$a" || check "first sender" "$?" 0
wait "$b" || check "second sender" "$?" 0
# Exim hands mail to its spool on its own time: wait for N, then a
# moment more for any duplicate.
delivered() { # N
	"$srv" wait "$dir" "$1" 30 >/dev/null 2>&1 || true
	sleep 0.5
	"$srv" received "$dir" | wc -l | tr -d ' '
}
check "each mail delivered once" "$(delivered "$queued")" "$queued"
ids=$("$srv" received "$dir" | xargs -r grep -h -m1 '^Message-ID:' | sort)
check "no Message-ID twice" "$(uniq -d <<<"$ids" | wc -l | tr -d ' ')" 0
check "all sent" \
	"$(sqlite3 "$db" "SELECT count(*) FROM outbox WHERE status = 'sent'")" \
	"$queued"

# A sender that died holding a claim: the row waits for the lease, then
# the next sender sends it, once.
sqlite3 "$db" "UPDATE outbox SET status = 'pending', sent_at = NULL,
	claimed_by = 'dead:1', claim_until = strftime('%s', 'now') + 600
	WHERE id = (SELECT min(id) FROM outbox)"
before=$queued
send
check "claimed by a live lease: skipped" "$(delivered "$before")" "$before"
sqlite3 "$db" "UPDATE outbox SET claim_until = strftime('%s', 'now') - 1
	WHERE claimed_by = 'dead:1'"
send
check "lease ran out: sent once" "$(delivered $((before + 1)))" \
	"$((before + 1))"
send
check "and not again" "$(delivered $((before + 1)))" "$((before + 1))"

# One daemon per database. Its tree fetches from a server that accepts
# and never answers, so that its fetch child hangs.
port_file=$tmp/port
python3 - "$port_file" <<'PY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
conns = []
while True:
    c, _ = s.accept()
    conns.append(c)
PY
pids+=($!)
disown
for _ in $(seq 50); do [[ -s $port_file ]] && break; sleep 0.1; done
git init -q "$tmp/tree"
git -C "$tmp/tree" remote add origin "http://127.0.0.1:$(cat "$port_file")/linux.git"
conf() { # FILE PIDFILE
	cat >"$1" <<CONF
[general]
database = $db
pidfile = $2
tree = $tmp/tree
fetch = origin
fetch_every = 3600
CONF
}
conf "$tmp/a.conf" "$tmp/a.pid"
conf "$tmp/b.conf" "$tmp/b.pid"
"$pcd" -d -f "$tmp/a.conf" 2>"$tmp/a.log" &
da=$!
pids+=("$da")
fetch_child=
for _ in $(seq 100); do
	fetch_child=$(pgrep -P "$da" || true)
	[[ -n $fetch_child ]] && break
	sleep 0.1
done
check "fetch child running" "$([[ -n $fetch_child ]] && echo yes)" yes
set +e
"$pcd" -d -f "$tmp/b.conf" 2>"$tmp/b.log"
rc=$?
set -e
check "second daemon refused" "$rc" 1
contains "names the first" "$(cat "$tmp/b.log")" "another patchclockd (pid $da)"
# A pidfile that names a running process is not taken over.
echo "$da" >"$tmp/other.pid"
sqlite3 "$tmp/other.db" "SELECT 1" >/dev/null
sed -e "s|^database = .*|database = $tmp/other.db|" \
	-e "s|^pidfile = .*|pidfile = $tmp/other.pid|" "$tmp/a.conf" >"$tmp/c.conf"
set +e
"$pcd" -d -f "$tmp/c.conf" 2>"$tmp/c.log"
rc=$?
set -e
check "running pidfile refused" "$rc" 1
contains "pidfile named" "$(cat "$tmp/c.log")" "names process $da, which runs"
check "pidfile kept" "$(cat "$tmp/other.pid")" "$da"

# SIGKILL the daemon: its child goes with it, and a new daemon starts.
kill -9 "$da"
wait "$da" 2>/dev/null || true
gone=no
for _ in $(seq 50); do
	if ! kill -0 "$fetch_child" 2>/dev/null; then
		gone=yes
		break
	fi
	sleep 0.1
done
check "child died with the daemon" "$gone" yes
"$pcd" -d -f "$tmp/a.conf" 2>"$tmp/a2.log" &
dc=$!
pids+=("$dc")
sleep 1
check "a new daemon runs" "$(kill -0 "$dc" 2>/dev/null && echo yes)" yes
kill -TERM "$dc"
wait "$dc" || check "new daemon's exit status" "$?" 0

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "senders: all checks passed"
