#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# patchclockd end to end, on a simulated clock (an hour per second) with a
# maildir spool and the real SMTP server (Exim) on loopback: -n checks
# the configuration (and names file and line of an error); the daemon
# reads the spool, sees the series become overdue at the simulated due
# time, and its sender child delivers the "resend now" reply and the
# maintainer's digest; new mail in the spool is read on the next poll; a
# SIGHUP with a broken configuration is refused while the daemon runs
# on; SIGTERM exits 0 and removes the pidfile.
#
# usage: daemon.sh PATCHCLOCK TEST_DATA_DIR (patchclockd is found next to
# the patchclock binary)
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
pcd=$(dirname "$1")/patchclockd
here=$(cd "$(dirname "$0")" && pwd)
srv=$here/smtp-server
for tool in exim4 openssl curl sqlite3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclockd-test.XXXXXX")
dir=$tmp/server
mkdir "$dir"
daemon_pid=
cleanup() {
	[[ -z $daemon_pid ]] || kill "$daemon_pid" 2>/dev/null || true
	"$srv" stop "$dir" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# KEEP=1 keeps the temporary directory (and the server) for debugging.
[[ -z ${KEEP:-} ]] || trap - EXIT
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

# The daemon writes while the test reads: wait for its locks, as it does.
sql() { sqlite3 -cmd '.timeout 5000' "$tmp/pc.db" "$@"; }
# logged TEXT: until the daemon's log holds TEXT (10 s at most); a
# loaded machine may take longer than a fixed pause to handle a signal.
logged() {
	local _
	for _ in $(seq 100); do
		grep -qF -- "$1" "$tmp/daemon.log" && return 0
		sleep 0.1
	done
	return 1
}

SMTP_PORT='' SMTP_CA=''
"$srv" start "$dir" >/dev/null
# shellcheck source=/dev/null
. "$dir/env"
install -m 600 "$dir/credentials" "$tmp/creds"

mkdir -p "$tmp/tree" "$tmp/spool/cur" "$tmp/spool/new" "$tmp/spool/tmp"
printf '%s\n' "WIDGET" "M:	May Tainer <may@example.org>" \
	"S:	Maintained" "F:	drivers/widget/" >"$tmp/tree/MAINTAINERS"
# The file the patches change: a patch whose files are not in the tree
# is not for this tree, and patchclock says nothing about it.
mkdir -p "$tmp/tree/drivers/widget"
: >"$tmp/tree/drivers/widget/w.c"
# A patch posted Mon 2024-01-01 10:00 UTC: due a week later, 01-08 10:00.
cat >"$tmp/spool/new/1.eml" <<'MAIL'
From: A U Thor <author@example.com>
Subject: [PATCH] widget: spin
Date: Mon, 01 Jan 2024 10:00:00 +0000
Message-ID: <p1@example.com>

Make it spin.

---
diff --git a/drivers/widget/w.c b/drivers/widget/w.c
index 1111111..2222222 100644
--- a/drivers/widget/w.c
+++ b/drivers/widget/w.c
@@ -1,2 +1,3 @@
 a
+b
 c
MAIL

conf=$tmp/patchclockd.conf
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
credentials = $tmp/creds
ca_file = $SMTP_CA
helo = patchclock.test

# The simulated clock: starts an hour before the series is due, and
# runs an hour per second.
[clock]
start = 2024-01-08 09:00
speed = 3600

[source "spool"]
type = maildir
path = $tmp/spool
poll = 1
CONF
}
write_conf
check "-n" "$("$pcd" -n -f "$conf")" "patchclockd: configuration OK ($conf)"
printf '[general]\ndatabase = x.db\nbogus = 1\n' >"$tmp/bad.conf"
set +e
"$pcd" -n -f "$tmp/bad.conf" 2>"$tmp/err"
check "-n on a bad file" "$?" 1
set -e
check "error names file and line" "$(cat "$tmp/err")" \
	"patchclockd: $tmp/bad.conf:3: unknown key 'bogus' in [general]"

"$pcd" -d -f "$conf" 2>"$tmp/daemon.log" &
daemon_pid=$!
# The reply (author, Cc the maintainer) and the digest: three copies.
if ! "$srv" wait "$dir" 3 20 >/dev/null; then
	check "mail from the daemon" "$("$srv" received "$dir" | wc -l)" 3
	cat "$tmp/daemon.log" >&2
fi
mapfile -t got < <("$srv" received "$dir")
if [[ ${#got[@]} -eq 0 ]]; then
	cat "$tmp/daemon.log" >&2
	exit 1
fi
m=$(grep -l '^Envelope-to: author@example.com' "${got[@]}" | head -n 1)
m=${m:-/dev/null}
hdr() { sed -n "/^$1: /{s/^$1: //p;q}" "$m"; }
check "reply subject" "$(hdr Subject)" "Re: [PATCH] widget: spin"
check "reply threading" "$(hdr In-Reply-To)" "<p1@example.com>"
# Written at the simulated time, on 2024-01-08 after 10:00.
check "simulated date" "$(hdr Date | cut -c1-16)" "Mon, 8 Jan 2024 "
check "digest" "$(grep -l 'X-Patchclock-Action: digest' "${got[@]}" |
	wc -l | tr -d ' ')" 1
check "pidfile" "$(cat "$tmp/patchclockd.pid")" "$daemon_pid"

# New mail in the spool is read on the next poll.
sed -e 's/<p1@example.com>/<p2@example.com>/' \
	-e 's/widget: spin/widget: turn/' "$tmp/spool/new/1.eml" \
	>"$tmp/spool/new/2.eml"
for _ in $(seq 50); do
	n=$(sql "select count(*) from messages" || echo 0)
	[[ $n == 2 ]] && break
	sleep 0.1
done
check "new spool mail read" "$n" 2

# The operator updates the tree: MAINTAINERS is read again by itself.
printf '%s\n' "R:	Rene Viewer <rene@example.org>" >>"$tmp/tree/MAINTAINERS"
logged 'MAINTAINERS changed' || check "MAINTAINERS re-read" missing present

# A broken configuration on SIGHUP is refused; the daemon runs on.
printf '[general]\nnonsense\n' >"$conf"
kill -HUP "$daemon_pid"
logged 'reload refused' || check "reload refused logged" missing present
kill -0 "$daemon_pid" 2>/dev/null || check "alive after a bad reload" dead alive
write_conf
kill -HUP "$daemon_pid"
logged "reloaded $conf" || check "reloaded" missing present

kill -TERM "$daemon_pid"
set +e
wait "$daemon_pid"
check "exit status on SIGTERM" "$?" 0
set -e
daemon_pid=
[[ ! -e $tmp/patchclockd.pid ]] || check "pidfile removed" present gone

if [[ $fails -ne 0 ]]; then
	cat "$tmp/daemon.log" >&2
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "daemon: all checks passed"
