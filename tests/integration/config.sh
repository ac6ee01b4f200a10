#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One configuration: the CLI reads patchclockd's file ($PATCHCLOCK_CONFIG
# here; /etc/patchclock/patchclockd.conf or $XDG_CONFIG_HOME's otherwise)
# for its database, tree and policy, so `patchclock status` on the
# daemon's database maps series with the daemon's tree; options still
# win. Listing commands write nothing; only ingest makes a database: a
# typo in --db is an error that creates no file. A configuration with an
# error is named and ignored.
#
# usage: config.sh PATCHCLOCK
set -euo pipefail

pc=$1
for tool in sqlite3 jq; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-config.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset PATCHCLOCK_DB PC_KERNEL_TREE
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

mkdir -p "$tmp/tree/drivers/widget" "$tmp/work"
printf '%s\n' "WIDGET DRIVER" "M:	May Tainer <may@example.org>" \
	"S:	Maintained" "F:	drivers/widget/" >"$tmp/tree/MAINTAINERS"
: >"$tmp/tree/drivers/widget/w.c"
cat >"$tmp/p.eml" <<'MAIL'
From: A U Thor <author@example.com>
Subject: [PATCH] widget: spin
Date: Mon, 01 Jan 2024 10:00:00 +0000
Message-ID: <p1@example.com>

Spin.

Signed-off-by: A U Thor <author@example.com>
---
diff --git a/drivers/widget/w.c b/drivers/widget/w.c
--- a/drivers/widget/w.c
+++ b/drivers/widget/w.c
@@ -1 +1,2 @@
 a
+b
MAIL
cat >"$tmp/patchclockd.conf" <<CONF
[general]
database = $tmp/daemon.db
tree = $tmp/tree
CONF
export PATCHCLOCK_CONFIG=$tmp/patchclockd.conf
cd "$tmp/work"

# No --db, no --tree: the configuration's.
"$pc" ingest -q "$tmp/p.eml" >/dev/null
check "ingest made the configuration's database" \
	"$(sqlite3 "$tmp/daemon.db" 'SELECT count(*) FROM messages')" 1
check "no database in the current directory" \
	"$([[ -e patchclock.db ]] && echo made || echo none)" none
out=$("$pc" status --now 2024-01-15 --json)
check "status maps with the configuration's tree" \
	"$(jq -r '.series[0].governing_entry' <<<"$out")" "WIDGET DRIVER"
# An option still wins: another tree, another entry.
mkdir -p "$tmp/other/drivers/widget"
printf '%s\n' "OTHER WIDGET" "M:	O Ther <o@example.org>" "S:	Maintained" \
	"F:	drivers/widget/" >"$tmp/other/MAINTAINERS"
: >"$tmp/other/drivers/widget/w.c"
out=$("$pc" status --now 2024-01-15 --json --tree "$tmp/other")
check "--tree wins" "$(jq -r '.series[0].governing_entry' <<<"$out")" \
	"OTHER WIDGET"

# Listings write nothing.
before=$(sqlite3 "$tmp/daemon.db" 'SELECT count(*) FROM series_status;
	SELECT count(*) FROM status_state' | tr '\n' ' ')
for cmd in "status --now 2024-01-15" "series" "outbox --all" "show 1"; do
	# shellcheck disable=SC2086 # the command's words
	"$pc" $cmd >/dev/null
done
check "listings wrote nothing" "$(sqlite3 "$tmp/daemon.db" 'SELECT count(*)
	FROM series_status; SELECT count(*) FROM status_state' | tr '\n' ' ')" \
	"$before"

# A typo in --db: an error, and no file.
for cmd in status series outbox "show 1" "digest --from pc@x.test"; do
	set +e
	# shellcheck disable=SC2086 # the command's words
	"$pc" $cmd --db "$tmp/typo.db" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	check "$cmd on a missing database: status" "$rc" 1
	contains "$cmd on a missing database: says so" "$(cat "$tmp/err")" \
		"no database at '$tmp/typo.db'"
	check "$cmd on a missing database: no file" \
		"$([[ -e $tmp/typo.db ]] && echo made || echo none)" none
done

# A configuration with an error is named and ignored (the database is
# then ./patchclock.db, which is not there).
printf '[general]\nnonsense = 1\n' >"$tmp/bad.conf"
set +e
PATCHCLOCK_CONFIG=$tmp/bad.conf "$pc" series >/dev/null 2>"$tmp/err"
rc=$?
set -e
check "a bad configuration: status" "$rc" 1
contains "a bad configuration: named" "$(cat "$tmp/err")" \
	"ignoring that configuration"
contains "a bad configuration: then the default database" \
	"$(cat "$tmp/err")" "no database at 'patchclock.db'"
exit $((fails > 0))
