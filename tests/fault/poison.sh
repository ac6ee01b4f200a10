#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One mail that cannot be composed never stops the others: overdue series
# whose author has no address ("From: Just A Name"), a UTF-8 address, a
# parenthesised address, or whose Message-ID holds a space, and a
# maintainer whose address is not ASCII. `digest` exits 0, queues the
# good mail and keeps each bad one suppressed with its reason.
#
# usage: poison.sh PATCHCLOCK
set -euo pipefail

pc=$1
for tool in jq sqlite3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-poison.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

mkdir -p "$tmp/tree/drivers/widget" "$tmp/tree/drivers/gadget"
# GADGET's maintainer has an address no mail can be written to.
cat >"$tmp/tree/MAINTAINERS" <<'END'
GADGET
M:	Gäd Get <gäd@exämple.org>
S:	Maintained
F:	drivers/gadget/

WIDGET
M:	May Tainer <may@example.org>
S:	Maintained
F:	drivers/widget/
END
n=0
mk() { # FROM NAME MSGID [DIR]
	local dir=${4:-widget}
	n=$((n + 1))
	touch "$tmp/tree/drivers/$dir/$2.c"
	cat >"$tmp/$n.eml" <<MAIL
From: $1
Subject: [PATCH] $dir: $2
Date: Fri, 05 Jan 2024 10:0$n:00 +0000
Message-ID: $3

Make it $2.

Signed-off-by: A U Thor <author@example.com>
---
diff --git a/drivers/$dir/$2.c b/drivers/$dir/$2.c
--- a/drivers/$dir/$2.c
+++ b/drivers/$dir/$2.c
@@ -1 +1,2 @@
 a
+b
MAIL
}
mk 'Good Author <good@example.com>' good '<good@x>'
mk 'Just A Name' noaddr '<noaddr@x>'
mk '=?UTF-8?B?w5x0Zg==?= <ütf@exämple.com>' utf '<utf@x>'
mk 'paren@example.com (Paren Name)' paren '<paren@x>'
mk 'Space <space@example.com>' space '<sp ace@x>'
mk 'Good Author <good@example.com>' gears '<gears@x>' gadget
db=$tmp/pc.db
"$pc" ingest --db "$db" --tree "$tmp/tree" "$tmp"/*.eml >/dev/null 2>&1
digest() {
	"$pc" digest --db "$db" --tree "$tmp/tree" --now "$1" \
		--from pc@patchclock.test --watching-since 2024-01-01 \
		>"$tmp/digest.out" 2>&1
}
set +e
digest 2024-01-15
rc=$?
set -e
check "digest exit status" "$rc" 0
sql() { sqlite3 "$db" "$1"; }
check "good mail queued" \
	"$(sql "SELECT group_concat(recipients, ',') FROM (SELECT recipients FROM outbox WHERE action = 'resend' AND status = 'pending' ORDER BY recipients)")" \
	"good@example.com,good@example.com,paren@example.com"
contains "summary counts them" "$(cat "$tmp/digest.out")" "4 could not be composed"
check "bad mail kept with a reason" \
	"$(sql "SELECT count(*) FROM outbox WHERE status = 'suppressed' AND reason LIKE 'cannot be composed: %'")" 4
contains "no address" \
	"$(sql "SELECT reason FROM outbox WHERE subject LIKE '%noaddr%'")" \
	"not a plain ascii address"
contains "space in Message-ID" \
	"$(sql "SELECT reason FROM outbox WHERE subject LIKE '%space%'")" \
	"not a valid message-id"
# WIDGET's digest goes out (its odd Message-ID linked encoded); GADGET's
# cannot be written and is kept with the reason.
check "digest queued" \
	"$(sql "SELECT recipients FROM outbox WHERE action = 'digest' AND status = 'pending'")" \
	may@example.org
digest_body=$(sql "SELECT message FROM outbox WHERE action = 'digest' AND status = 'pending'")
contains "digest lists the good series" "$digest_body" "widget: good"
contains "odd Message-ID linked encoded" "$digest_body" \
	"https://lore.kernel.org/r/sp%20ace@x"
contains "bad maintainer's digest kept" \
	"$(sql "SELECT reason FROM outbox WHERE action = 'digest' AND status = 'suppressed'")" \
	"cannot write to maintainer"
# Judging again changes nothing and fails nothing.
set +e
digest 2024-01-16
rc=$?
set -e
check "second digest exit status" "$rc" 0
check "nothing queued twice" \
	"$(sql "SELECT count(*) FROM outbox WHERE status = 'pending'")" 4

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "poison: all checks passed"
