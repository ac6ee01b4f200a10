#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Self-test of tests/integration/smtp-server, the real SMTP server (Exim)
# that the sending tests deliver through. Starts it in a temporary
# directory, sends three mails with the curl command line (libcurl's SMTP,
# as patchclock's sender uses it): over STARTTLS with AUTH PLAIN, over SMTPS
# with AUTH LOGIN to two domains, and one held in the queue. Checks that
# each copy arrives in the maildir with its headers and body intact
# (8-bit, a leading dot, CRLF stored as LF), that a wrong password is
# refused, that plain SMTP offers no AUTH before STARTTLS, that the
# defer-/reject- recipients fail with 451/550, and that a hard restart
# between sends keeps the ports and loses nothing, not even a message
# accepted but not yet delivered.
#
# usage: smtp-server-selftest.sh
# Exit status 77 (skipped) when exim4, openssl or curl is not installed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
srv=$here/smtp-server

for tool in exim4 openssl curl; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-smtp.XXXXXX")
dir=$tmp/server
mkdir "$dir"
cleanup() {
	"$srv" stop "$dir" || true
	rm -rf "$tmp"
}
trap cleanup EXIT

failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
ok() { echo "ok: $*"; }

# The variables the server's env file sets.
SMTP_PORT='' SMTPS_PORT='' SMTP_USER='' SMTP_PASS='' SMTP_CA=''
SMTP_MAILDIR='' SMTP_PID='' SMTP_LOG=''
load_env() {
	# shellcheck source=/dev/null
	. "$dir/env"
}

"$srv" start "$dir"
load_env
for v in SMTP_PORT SMTPS_PORT SMTP_USER SMTP_PASS SMTP_CA SMTP_MAILDIR \
	SMTP_PID SMTP_LOG; do
	if [[ -z ${!v} ]]; then
		fail "$dir/env does not set $v"
	fi
done
if [[ $SMTP_PORT == "$SMTPS_PORT" ]]; then
	fail "SMTP_PORT and SMTPS_PORT are the same: $SMTP_PORT"
fi
if [[ $(cat "$dir/credentials") != "$SMTP_USER:$SMTP_PASS" ]]; then
	fail "credentials file does not hold SMTP_USER:SMTP_PASS"
fi
ok "started: smtp $SMTP_PORT, smtps $SMTPS_PORT, pid $SMTP_PID"

# make_mail N TO: writes $tmp/mail-N.eml with CRLF line ends, an 8-bit
# body, a line starting with a dot and one starting with "From ".
make_mail() {
	local n=$1 to=$2
	printf '%s\r\n' \
		"From: Patchclock <patchclock@example.com>" \
		"To: $to" \
		"Subject: Re: [PATCH v$n 0/3] selftest mail $n" \
		"Date: Thu, 0$n Jan 2026 09:00:00 +0000" \
		"Message-ID: <selftest-$n@patchclock.example.com>" \
		"In-Reply-To: <cover-$n@example.org>" \
		"References: <cover-$n@example.org>" \
		"Auto-Submitted: auto-generated" \
		"X-Patchclock-Action: resend-now" \
		"MIME-Version: 1.0" \
		"Content-Type: text/plain; charset=utf-8" \
		"Content-Transfer-Encoding: 8bit" \
		"" \
		"Hello, this is mail $n." \
		".a line that starts with a dot" \
		"..and one with two" \
		"From the start of a line" \
		"Naïve café, Grüße, 日本語" \
		"" \
		"-- " \
		"patchclock" >"$tmp/mail-$n.eml"
}

# send URL FROM RCPT... [-- CURL-OPTION...]: sends $mail with curl and
# leaves curl's exit status in $status and its stderr in $tmp/curl.err.
status=0
mail=
send() {
	local url=$1 from=$2 args=()
	shift 2
	while [[ $# -gt 0 && $1 != -- ]]; do
		args+=(--mail-rcpt "$1")
		shift
	done
	if [[ $# -gt 0 ]]; then
		shift
	fi
	set +e
	curl -sS --max-time 20 --url "$url" --cacert "$SMTP_CA" \
		--mail-from "$from" "${args[@]}" --upload-file "$mail" "$@" \
		>"$tmp/curl.out" 2>"$tmp/curl.err"
	status=$?
	set -e
}

# The URL's path is the EHLO domain: without one the curl tool would use
# the upload file's name.
starttls=smtp://127.0.0.1:$SMTP_PORT/selftest.patchclock.example.com
smtps=smtps://127.0.0.1:$SMTPS_PORT/selftest.patchclock.example.com
auth=(--user "$SMTP_USER:$SMTP_PASS")

# check_copy N RCPT: the copy of mail N for RCPT arrived once, with the
# envelope in Return-path and Envelope-to and the mail as sent (its CRLFs
# stored as LF) after the server's trace headers.
check_copy() {
	local n=$1 rcpt=$2 f found=()
	while IFS= read -r f; do
		if grep -qx "Message-ID: <selftest-$n@patchclock.example.com>" "$f" &&
			grep -qx "Envelope-to: $rcpt" "$f"; then
			found+=("$f")
		fi
	done < <("$srv" received "$dir")
	if [[ ${#found[@]} -ne 1 ]]; then
		fail "mail $n to $rcpt: ${#found[@]} copies delivered, not 1"
		return 0
	fi
	f=${found[0]}
	if [[ $f != "$SMTP_MAILDIR"/new/* ]]; then
		fail "mail $n to $rcpt: delivered to '$f', outside SMTP_MAILDIR/new"
	fi
	tr -d '\r' <"$tmp/mail-$n.eml" >"$tmp/expected"
	if ! tail -c "$(wc -c <"$tmp/expected")" "$f" | cmp -s - "$tmp/expected"; then
		fail "mail $n to $rcpt: headers or body differ"
		diff <(tail -c "$(wc -c <"$tmp/expected")" "$f") "$tmp/expected" >&2 || true
		return 0
	fi
	if ! head -n 1 "$f" | grep -qx 'Return-path: <patchclock@example.com>'; then
		fail "mail $n to $rcpt: no Return-path for the envelope sender"
		return 0
	fi
	ok "mail $n to $rcpt arrived intact"
}

count_received() {
	"$srv" received "$dir" | wc -l
}

# 1. STARTTLS and AUTH PLAIN (curl's first choice).
make_mail 1 "Author <author@example.com>"
mail=$tmp/mail-1.eml
send "$starttls" patchclock@example.com author@example.com -- \
	--ssl-reqd "${auth[@]}" --login-options AUTH=PLAIN
if [[ $status -ne 0 ]]; then
	fail "STARTTLS + AUTH PLAIN send: curl exit $status: $(cat "$tmp/curl.err")"
fi
"$srv" wait "$dir" 1 10 || fail "mail 1 was not delivered"
check_copy 1 author@example.com
# used_auth N MECH: Exim logged mail N as received with AUTH MECH.
used_auth() {
	if grep -q "A=$2:$SMTP_USER .* id=selftest-$1@" "$SMTP_LOG"; then
		ok "mail $1 was sent with AUTH ${2^^}"
	else
		fail "mail $1: no AUTH ${2^^} in $SMTP_LOG"
	fi
}
used_auth 1 plain

# 2. Refusals: a wrong password, on both ports.
send "$smtps" patchclock@example.com author@example.com -- \
	--user "$SMTP_USER:wrong-$SMTP_PASS"
if [[ $status -eq 67 ]]; then
	ok "SMTPS: wrong password refused (curl: $(cat "$tmp/curl.err"))"
else
	fail "SMTPS: wrong password: curl exit $status, not 67 (login denied)"
fi
send "$starttls" patchclock@example.com author@example.com -- \
	--ssl-reqd --user "$SMTP_USER:wrong-$SMTP_PASS" --login-options AUTH=LOGIN
if [[ $status -eq 67 ]]; then
	ok "STARTTLS: wrong password refused with AUTH LOGIN"
else
	fail "STARTTLS: wrong password: curl exit $status, not 67 (login denied)"
fi

# 3. Plain SMTP without STARTTLS: no AUTH in the EHLO reply, AUTH itself
# refused, and curl (which then silently skips AUTH) cannot send.
dialog() {
	local line reply=()
	exec 3<>"/dev/tcp/127.0.0.1/$SMTP_PORT"
	read -r -t 5 -u 3 line
	printf 'EHLO selftest.patchclock.example.com\r\n' >&3
	while read -r -t 5 -u 3 line; do
		line=${line%$'\r'}
		reply+=("$line")
		if [[ $line != 250-* ]]; then
			break
		fi
	done
	printf 'AUTH PLAIN %s\r\n' \
		"$(printf '\0%s\0%s' "$SMTP_USER" "$SMTP_PASS" | base64 -w0)" >&3
	read -r -t 5 -u 3 line
	reply+=("AUTH: ${line%$'\r'}")
	printf 'QUIT\r\n' >&3
	exec 3<&-
	printf '%s\n' "${reply[@]}"
}
dialog >"$tmp/dialog"
if grep -q '^250[- ]AUTH' "$tmp/dialog"; then
	fail "plain SMTP offers AUTH before STARTTLS: $(cat "$tmp/dialog")"
elif ! grep -q '^250[- ]STARTTLS' "$tmp/dialog"; then
	fail "plain SMTP does not offer STARTTLS: $(cat "$tmp/dialog")"
elif ! grep -q '^AUTH: 5[0-9][0-9] ' "$tmp/dialog"; then
	fail "plain SMTP: AUTH not refused: $(grep '^AUTH' "$tmp/dialog")"
else
	ok "plain SMTP: STARTTLS offered, AUTH only after it ($(grep '^AUTH' "$tmp/dialog"))"
fi
send "smtp://127.0.0.1:$SMTP_PORT/selftest.patchclock.example.com" \
	patchclock@example.com author@example.com -- "${auth[@]}"
if [[ $status -eq 55 ]] && grep -q 530 "$tmp/curl.err"; then
	ok "plain SMTP without STARTTLS cannot send ($(cat "$tmp/curl.err"))"
else
	fail "plain SMTP without STARTTLS: curl exit $status: $(cat "$tmp/curl.err")"
fi

# 4. The failure triggers.
send "$smtps" patchclock@example.com defer-author@example.com -- "${auth[@]}"
if [[ $status -eq 55 ]] && grep -q 451 "$tmp/curl.err"; then
	ok "defer- recipient: 451"
else
	fail "defer- recipient: curl exit $status: $(cat "$tmp/curl.err")"
fi
send "$smtps" patchclock@example.com reject-author@example.com -- "${auth[@]}"
if [[ $status -eq 55 ]] && grep -q 550 "$tmp/curl.err"; then
	ok "reject- recipient: 550"
else
	fail "reject- recipient: curl exit $status: $(cat "$tmp/curl.err")"
fi

# 5. A hard restart between sends: same ports, a new daemon, nothing lost.
# is_instance PID: PID is a live process of this server.
is_instance() {
	tr '\0' '\n' 2>/dev/null <"/proc/$1/cmdline" | grep -qx "$dir/exim.conf"
}
old_pid=$SMTP_PID old_port=$SMTP_PORT old_ports=$SMTPS_PORT
t0=${EPOCHREALTIME/./}
"$srv" restart "$dir"
t1=${EPOCHREALTIME/./}
load_env
ok "restart (SIGKILL, start, ready) took $(((t1 - t0) / 1000)) ms"
if [[ $SMTP_PORT != "$old_port" || $SMTPS_PORT != "$old_ports" ]]; then
	fail "restart moved the ports: $old_port/$old_ports -> $SMTP_PORT/$SMTPS_PORT"
fi
if [[ $SMTP_PID == "$old_pid" ]] || is_instance "$old_pid"; then
	fail "restart left the old daemon $old_pid running"
fi
if ! is_instance "$SMTP_PID"; then
	fail "SMTP_PID $SMTP_PID is not the new daemon"
fi
check_copy 1 author@example.com

# 6. SMTPS and AUTH LOGIN, two recipients in two domains: two copies.
make_mail 2 "maint@example.org, list@lists.example.net"
mail=$tmp/mail-2.eml
send "$smtps" patchclock@example.com maint@example.org \
	list@lists.example.net -- "${auth[@]}" --login-options AUTH=LOGIN
if [[ $status -ne 0 ]]; then
	fail "SMTPS + AUTH LOGIN send: curl exit $status: $(cat "$tmp/curl.err")"
fi
"$srv" wait "$dir" 3 10 || fail "mail 2 was not delivered"
used_auth 2 login
check_copy 2 maint@example.org
check_copy 2 list@lists.example.net

# 7. Accepted but not yet delivered when the server dies: a hold- recipient
# keeps the message in the spool; SIGKILL, restart, and it arrives.
make_mail 3 "hold-reviewer@example.com"
mail=$tmp/mail-3.eml
send "$starttls" patchclock@example.com hold-reviewer@example.com -- \
	--ssl-reqd "${auth[@]}"
if [[ $status -ne 0 ]]; then
	fail "held send: curl exit $status: $(cat "$tmp/curl.err")"
fi
queued=$(find "$dir/spool/input" -name '*-H' | wc -l)
if [[ $queued -ne 1 || $(count_received) -ne 3 ]]; then
	fail "held mail: $queued queued and $(count_received) delivered, not 1 and 3"
fi
"$srv" restart "$dir"
if "$srv" wait "$dir" 4 10; then
	check_copy 3 hold-reviewer@example.com
else
	fail "the held mail was lost in the restart"
fi
if [[ $(count_received) -ne 4 ]]; then
	fail "$(count_received) copies delivered, not 4"
fi

# 8. stop: no process of the instance left, the mail stays.
"$srv" stop "$dir"
for p in /proc/[0-9]*; do
	if is_instance "${p#/proc/}"; then
		fail "stop left process ${p#/proc/}"
	fi
done
if [[ $(count_received) -eq 4 ]]; then
	ok "stopped; the 4 copies stay"
else
	fail "after stop: $(count_received) copies, not 4"
fi

if ((failures)); then
	echo "$failures check(s) failed" >&2
	exit 1
fi
echo "all checks passed"
