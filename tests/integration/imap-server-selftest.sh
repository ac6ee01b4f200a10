#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Self-test of tests/integration/imap-server, the real IMAP server (Dovecot)
# that the daemon's tests read mail from. Starts it in a temporary
# directory, appends three mails (CRLF line ends, 8-bit bodies) to INBOX and
# to "lists/nvdimm" over IMAPS with the curl command line (IMAP APPEND),
# counts them, fetches them back byte for byte (Dovecot stores and returns
# the CRLFs as appended), checks that a wrong password is refused, that
# IDLE is offered and that a session in IDLE hears of a new mail within
# 2 s, that STARTTLS works on the plain port, and that a hard restart keeps
# the ports, the mail, the UIDs and UIDVALIDITY.
#
# usage: imap-server-selftest.sh
# Exit status 77 (skipped) when dovecot, openssl or curl is not installed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
srv=$here/imap-server

for tool in dovecot openssl curl; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-imap.XXXXXX")
dir=$tmp/server
mkdir "$dir"
idle_pid=
cleanup() {
	if [[ -n $idle_pid ]]; then
		kill "$idle_pid" 2>/dev/null || true
	fi
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

# Milliseconds since the epoch.
now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((10#$t / 1000))
}

# The variables the server's env file sets.
IMAP_HOST='' IMAP_PORT='' IMAPS_PORT='' IMAP_USER='' IMAP_PASS='' IMAP_CA=''
IMAP_PID='' IMAP_LOG=''
load_env() {
	# shellcheck source=/dev/null
	. "$dir/env"
}

t0=$(now_ms)
"$srv" start "$dir"
load_env
ok "started in $(($(now_ms) - t0)) ms: imap $IMAP_PORT, imaps $IMAPS_PORT, pid $IMAP_PID"
for v in IMAP_HOST IMAP_PORT IMAPS_PORT IMAP_USER IMAP_PASS IMAP_CA \
	IMAP_PID IMAP_LOG; do
	if [[ -z ${!v} ]]; then
		fail "$dir/env does not set $v"
	fi
done
if [[ $IMAP_PORT == "$IMAPS_PORT" ]]; then
	fail "IMAP_PORT and IMAPS_PORT are the same: $IMAP_PORT"
fi
if [[ $(cat "$dir/credentials") != "$IMAP_USER:$IMAP_PASS" ]]; then
	fail "credentials file does not hold IMAP_USER:IMAP_PASS"
fi
if [[ ! -s $IMAP_LOG ]]; then
	fail "no log in IMAP_LOG '$IMAP_LOG'"
fi

imaps=imaps://$IMAP_HOST:$IMAPS_PORT
auth=(--cacert "$IMAP_CA" --user "$IMAP_USER:$IMAP_PASS")

# make_mail N FOLDER: writes $tmp/mail-N.eml with CRLF line ends and an
# 8-bit body.
make_mail() {
	local n=$1 folder=$2
	printf '%s\r\n' \
		"From: Author <author@example.com>" \
		"To: $folder@lists.example.org" \
		"Subject: [PATCH v$n 1/1] selftest mail $n" \
		"Date: Thu, 0$((n % 10)) Jan 2026 09:00:00 +0000" \
		"Message-ID: <imap-selftest-$n@example.com>" \
		"MIME-Version: 1.0" \
		"Content-Type: text/plain; charset=utf-8" \
		"Content-Transfer-Encoding: 8bit" \
		"" \
		"Mail $n for $folder." \
		"From the start of a line" \
		"Naïve café, Grüße, 日本語" \
		"" \
		"-- " \
		"author" >"$tmp/mail-$n.eml"
}

# append FOLDER N WANT_UID: appends mail N to FOLDER and checks its UID.
append() {
	local folder=$1 n=$2 want=$3 uid
	make_mail "$n" "$folder"
	if ! uid=$("$srv" append "$dir" "$folder" "$tmp/mail-$n.eml"); then
		fail "append of mail $n to $folder failed"
	elif [[ $uid != "$want" ]]; then
		fail "mail $n in $folder: UID '$uid', not $want"
	fi
}

# check_count FOLDER N
check_count() {
	local n
	n=$("$srv" count "$dir" "$1") || n=error
	if [[ $n == "$2" ]]; then
		ok "$1 holds $2 messages"
	else
		fail "$1 holds $n messages, not $2"
	fi
}

# check_fetch FOLDER UID N: the message FOLDER;UID=UID is mail N, byte for
# byte, CRLFs included.
check_fetch() {
	local folder=$1 uid=$2 n=$3
	if ! curl -sS --max-time 20 "${auth[@]}" \
		--url "$imaps/$folder;UID=$uid" >"$tmp/fetched" 2>"$tmp/curl.err"; then
		fail "fetch of $folder UID $uid: $(cat "$tmp/curl.err")"
	elif cmp -s "$tmp/fetched" "$tmp/mail-$n.eml"; then
		ok "$folder UID $uid is mail $n byte for byte (CRLF kept)"
	else
		fail "$folder UID $uid differs from mail $n"
		diff <(od -c "$tmp/fetched") <(od -c "$tmp/mail-$n.eml") >&2 || true
	fi
}

# status FOLDER ITEM: prints one STATUS item of FOLDER.
status() {
	curl -sS --max-time 20 "${auth[@]}" --url "$imaps/" \
		-X "STATUS \"$1\" ($2)" | tr -d '\r' |
		sed -n "s/^\* STATUS .*[( ]$2 \([0-9]*\).*/\1/p"
}

# 1. APPEND over IMAPS: three mails to each folder, UIDs 1 to 3 (the folder
# "lists/nvdimm" is created by the first append).
t0=$(now_ms)
for n in 1 2 3; do
	append INBOX "$n" "$n"
	append lists/nvdimm "$((n + 10))" "$n"
done
ok "6 appends (curl, IMAPS) took $(($(now_ms) - t0)) ms"
check_count INBOX 3
check_count lists/nvdimm 3
if [[ -d $dir/mail/.lists.nvdimm ]]; then
	ok "lists/nvdimm is stored in the maildir as .lists.nvdimm"
else
	fail "no Maildir++ folder $dir/mail/.lists.nvdimm"
fi
check_fetch INBOX 1 1
check_fetch INBOX 3 3
check_fetch lists/nvdimm 2 12

# 2. A wrong password is refused (curl 67: login denied).
set +e
curl -sS --max-time 20 --cacert "$IMAP_CA" \
	--user "$IMAP_USER:wrong-$IMAP_PASS" --url "$imaps/INBOX;UID=1" \
	>/dev/null 2>"$tmp/curl.err"
rc=$?
set -e
if [[ $rc -eq 67 ]]; then
	ok "wrong password refused ($(cat "$tmp/curl.err"))"
else
	fail "wrong password: curl exit $rc, not 67: $(cat "$tmp/curl.err")"
fi

# 3. STARTTLS on the plain port, and IDLE in the capabilities before and
# after login.
exec 3<>"/dev/tcp/$IMAP_HOST/$IMAP_PORT"
read -r -t 5 -u 3 greeting || greeting=
printf 'a LOGOUT\r\n' >&3
exec 3<&-
if [[ $greeting == '* OK [CAPABILITY '*' IDLE '*STARTTLS* ]]; then
	ok "plain port greets with IDLE and STARTTLS"
else
	fail "plain port greeting: $greeting"
fi
if curl -sS --max-time 20 --ssl-reqd "${auth[@]}" \
	--url "imap://$IMAP_HOST:$IMAP_PORT/" -X CAPABILITY \
	>"$tmp/caps" 2>"$tmp/curl.err" &&
	grep -q '^\* CAPABILITY .* IDLE' "$tmp/caps"; then
	ok "STARTTLS and LOGIN on the plain port; IDLE offered after login"
else
	fail "STARTTLS session: $(cat "$tmp/curl.err" "$tmp/caps")"
fi

# 4. IDLE: a session idling on INBOX hears of a mail appended by another
# within 2 s.
coproc IDLE { exec openssl s_client -connect "$IMAP_HOST:$IMAPS_PORT" \
	-quiet -verify_return_error -CAfile "$IMAP_CA" \
	-verify_ip "$IMAP_HOST" 2>"$tmp/idle.err"; }
# shellcheck disable=SC2153 # set by coproc
idle_pid=$IDLE_PID
# expect GLOB: reads the session until a line matches GLOB, 5 s at most.
expect() {
	local line deadline=$(($(now_ms) + 5000))
	while (($(now_ms) < deadline)); do
		if ! read -r -t 1 -u "${IDLE[0]}" line; then
			continue
		fi
		line=${line%$'\r'}
		# shellcheck disable=SC2053 # $1 is a glob
		if [[ $line == $1 ]]; then
			return 0
		fi
	done
	return 1
}
if expect '\* OK*' &&
	printf 'a LOGIN %s %s\r\n' "$IMAP_USER" "$IMAP_PASS" >&"${IDLE[1]}" &&
	expect 'a OK*' &&
	printf 'b SELECT INBOX\r\n' >&"${IDLE[1]}" && expect 'b OK*' &&
	printf 'c IDLE\r\n' >&"${IDLE[1]}" && expect '+ *'; then
	make_mail 4 INBOX
	t0=$(now_ms)
	"$srv" append "$dir" INBOX "$tmp/mail-4.eml" >/dev/null
	t1=$(now_ms)
	if expect '\* 4 EXISTS'; then
		t2=$(now_ms)
		if ((t2 - t1 <= 2000)); then
			ok "IDLE: EXISTS $((t2 - t1)) ms after the APPEND returned ($((t2 - t0)) ms after it began)"
		else
			fail "IDLE: EXISTS only $((t2 - t1)) ms after the APPEND"
		fi
	else
		fail "IDLE: no '* 4 EXISTS' within 5 s"
	fi
	printf 'DONE\r\nd LOGOUT\r\n' >&"${IDLE[1]}" || true
else
	fail "IDLE session did not get to IDLE: $(cat "$tmp/idle.err")"
fi
kill "$idle_pid" 2>/dev/null || true
wait "$idle_pid" 2>/dev/null || true
idle_pid=

# 5. A hard restart: same ports, a new master, the mail, UIDs and
# UIDVALIDITY kept.
# is_instance PID: PID is a live process of this server's master.
is_instance() {
	tr '\0' '\n' 2>/dev/null <"/proc/$1/cmdline" | grep -qx "$dir/dovecot.conf"
}
uidv_inbox=$(status INBOX UIDVALIDITY)
uidv_lists=$(status lists/nvdimm UIDVALIDITY)
if [[ -z $uidv_inbox || -z $uidv_lists ]]; then
	fail "no UIDVALIDITY in STATUS: '$uidv_inbox' '$uidv_lists'"
fi
old_pid=$IMAP_PID old_port=$IMAP_PORT old_ports=$IMAPS_PORT
t0=$(now_ms)
"$srv" restart "$dir"
ok "restart (SIGKILL, start, ready) took $(($(now_ms) - t0)) ms"
load_env
if [[ $IMAP_PORT != "$old_port" || $IMAPS_PORT != "$old_ports" ]]; then
	fail "restart moved the ports: $old_port/$old_ports -> $IMAP_PORT/$IMAPS_PORT"
fi
if [[ $IMAP_PID == "$old_pid" ]] || is_instance "$old_pid"; then
	fail "restart left the old master $old_pid running"
fi
if ! is_instance "$IMAP_PID"; then
	fail "IMAP_PID $IMAP_PID is not the new master"
fi
check_count INBOX 4
check_count lists/nvdimm 3
check_fetch INBOX 1 1
check_fetch lists/nvdimm 3 13
if [[ $(status INBOX UIDVALIDITY) == "$uidv_inbox" &&
	$(status lists/nvdimm UIDVALIDITY) == "$uidv_lists" ]]; then
	ok "UIDVALIDITY kept: INBOX $uidv_inbox, lists/nvdimm $uidv_lists"
else
	fail "UIDVALIDITY changed in the restart"
fi
append INBOX 5 5
check_fetch INBOX 5 5

# 6. stop: no process of the instance left, the mail stays.
"$srv" stop "$dir"
for p in /proc/[0-9]*; do
	if is_instance "${p#/proc/}"; then
		fail "stop left the master ${p#/proc/}"
	fi
done
if (exec 3<>"/dev/tcp/$IMAP_HOST/$IMAPS_PORT") 2>/dev/null; then
	fail "port $IMAPS_PORT still answers after stop"
fi
n=$(find "$dir/mail/cur" "$dir/mail/new" "$dir/mail/.lists.nvdimm/cur" \
	"$dir/mail/.lists.nvdimm/new" -type f | wc -l)
if [[ $n -eq 8 ]]; then
	ok "stopped; the 8 messages stay in the maildir"
else
	fail "after stop: $n messages in the maildir, not 8"
fi

if ((failures)); then
	echo "$failures check(s) failed" >&2
	exit 1
fi
echo "all checks passed"
