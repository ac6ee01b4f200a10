#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No SMTP password in clear text to a remote server: `patchclock send
# --no-starttls` and `starttls = no` in patchclockd.conf are refused for
# a host that is not loopback (as IMAP's are), and allowed on loopback.
#
# usage: cleartext.sh PATCHCLOCK
set -euo pipefail

pc=$1
pcd=$(dirname "$pc")/patchclockd
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-cleartext.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

printf 'user:secret\n' >"$tmp/creds"
chmod 600 "$tmp/creds"
"$pc" ingest --db "$tmp/pc.db" /dev/null >/dev/null 2>&1 || true
send() { # URL
	"$pc" send --db "$tmp/pc.db" --smtp "$1" --from a@example.org \
		--credentials "$tmp/creds" --no-starttls --dry-run
}
for url in smtp://mail.example.org smtp://mail.example.org:587 \
	smtp://192.0.2.1:25 "smtp://[2001:db8::1]:25"; do
	set +e
	send "$url" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	check "$url refused" "$rc" 64
	contains "$url says why" "$(cat "$tmp/err")" "password in clear text"
done
for url in smtp://127.0.0.1:25 smtp://localhost:25 "smtp://[::1]:25"; do
	set +e
	send "$url" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	check "$url allowed" "$rc" 0
done
conf() { # URL
	printf '[general]\ndatabase = %s\n\n[smtp]\nurl = %s\nfrom = a@example.org\ncredentials = %s\nstarttls = no\n' \
		"$tmp/pc.db" "$1" "$tmp/creds" >"$tmp/d.conf"
}
conf smtp://mail.example.org
set +e
"$pcd" -n -f "$tmp/d.conf" >/dev/null 2>"$tmp/err"
rc=$?
set -e
check "daemon refuses starttls = no" "$rc" 1
contains "names the line" "$(cat "$tmp/err")" "d.conf:8: refusing to send the SMTP password"
conf smtp://127.0.0.1:2525
check "daemon allows loopback" "$("$pcd" -n -f "$tmp/d.conf" 2>/dev/null)" \
	"patchclockd: configuration OK ($tmp/d.conf)"

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "cleartext: all checks passed"
