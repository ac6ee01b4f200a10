#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Maintainers steer patchclock by mail, and only they can. Real signed
# mail: an RSA key pair made here with openssl, mail signed with it
# (tests/support/dkim_sign.c through libopendkim, and one by opendkim's
# own opendkim-testmsg), verified against a key table libopendkim reads.
#
#   - a maintainer's signed "snooze 2w" is obeyed: the series is held
#     ("steered") until the snooze ends, and the record says who, when,
#     why and what DKIM said;
#   - a broken signature, a forged From (signed by another domain) and a
#     non-maintainer are each refused, and change nothing;
#   - an unknown command gets one short answer, to its sender alone,
#     threaded, once (a second unknown command gets none);
#   - with --require-dkim an unsigned command is refused;
#   - the daemon reads its own mailbox (a maildir source with
#     commands = yes): it stores the command mail, not the private
#     "thanks" beside it, and obeys the command.
#
# usage: commands.sh PATCHCLOCK PC-DKIM-SIGN (patchclockd is found next
# to patchclock)
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK PC-DKIM-SIGN" >&2
	exit 64
fi
pc=$1
pcd=$(dirname "$1")/patchclockd
sign=$2
here=$(cd "$(dirname "$0")" && pwd)
for tool in openssl jq sqlite3 python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-commands.XXXXXX")
daemon_pid=
cleanup() {
	[[ -z $daemon_pid ]] || kill "$daemon_pid" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# KEEP=1 keeps the temporary directory for debugging.
[[ -z ${KEEP:-} ]] || trap - EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PATCHCLOCK_CONFIG
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$here/../support/checks.sh"
jsondoc() { python3 "$here/../support/jsondoc.py" "$here/../../doc/json.md" "$@"; }

# The tree: WIDGET (May, and Rita as reviewer) governs drivers/widget/;
# GADGET (Gus) covers all of drivers/.
mkdir -p "$tmp/tree/drivers/widget"
printf '%s\n' "GADGET" "M:	Gus Gadget <gus@example.net>" "S:	Maintained" \
	"F:	drivers/" "" "WIDGET" "M:	May Tainer <may@example.org>" \
	"R:	Rita Viewer <rita@example.org>" "S:	Maintained" \
	"F:	drivers/widget/" >"$tmp/tree/MAINTAINERS"
: >"$tmp/tree/drivers/widget/w.c"
: >"$tmp/tree/drivers/widget/knob.c"
: >"$tmp/tree/drivers/widget/light.c"
: >"$tmp/tree/drivers/widget/bell.c"
export PC_KERNEL_TREE=$tmp/tree

# Keys: example.org (selector sel) and evil.test (selector x), both in
# the key table libopendkim reads instead of DNS.
for d in example.org evil.test; do
	openssl genrsa -out "$tmp/$d.pem" 2048 2>/dev/null
	pub=$(openssl rsa -in "$tmp/$d.pem" -pubout -outform DER 2>/dev/null |
		base64 -w0)
	sel=sel
	[[ $d == evil.test ]] && sel=x
	echo "$sel._domainkey.$d v=DKIM1; k=rsa; p=$pub" >>"$tmp/keys"
done

mkdir -p "$tmp/mail/new" "$tmp/mail/cur" "$tmp/mail/tmp"
patch_mail() { # id subject date [author] [file]
	local who=${4:-A U Thor <author@example.com>} f=${5:-w.c}
	cat <<MAIL
From: $who
To: widget@lists.example.org
Subject: $2
Date: $3
Message-ID: <$1>

Make it spin.

Signed-off-by: $who
---
diff --git a/drivers/widget/$f b/drivers/widget/$f
index 1111111..2222222 100644
--- a/drivers/widget/$f
+++ b/drivers/widget/$f
@@ -1,2 +1,3 @@
 a
+b
 c
MAIL
}
reply() { # id from date in-reply-to body
	printf 'From: %s\nTo: patchclock@patchclock.test\nSubject: Re: [PATCH] widget: spin\nDate: %s\nMessage-ID: <%s>\nIn-Reply-To: <%s>\n\n%b' \
		"$2" "$3" "$1" "$4" "$5"
}
patch_mail p1@example.com "[PATCH] widget: spin" \
	"Mon, 01 Jan 2024 10:00:00 +0000" >"$tmp/mail/new/01.eml"
patch_mail p2@example.com "[PATCH] widget: add a knob" \
	"Mon, 01 Jan 2024 11:00:00 +0000" "Bo Other <bo@example.com>" \
	knob.c >"$tmp/mail/new/02.eml"
d2="Tue, 02 Jan 2024 10:00:00 +0000"
# 1. May, signed by example.org: obeyed.
reply c1@example.org "May Tainer <may@example.org>" "$d2" p1@example.com \
	'> Make it spin.\n\npatchclock: snooze 2w\n\n-- \nMay\n' |
	"$sign" "$tmp/example.org.pem" sel example.org >"$tmp/mail/new/03.eml"
# 2. May's signed mail, its body changed on the way: refused.
reply c2@example.org "May Tainer <may@example.org>" "$d2" p1@example.com \
	'patchclock: resend-ok\n' |
	"$sign" "$tmp/example.org.pem" sel example.org |
	sed 's/resend-ok/rejected/' >"$tmp/mail/new/04.eml"
# 3. From May, signed by evil.test: a valid signature, not May's.
reply c3@evil.test "May Tainer <may@example.org>" "$d2" p1@example.com \
	'patchclock: rejected\n' |
	"$sign" "$tmp/evil.test.pem" x evil.test >"$tmp/mail/new/05.eml"
# 4. Eve, properly signed by example.org, but nobody in WIDGET.
reply c4@example.org "Eve <eve@example.org>" "$d2" p1@example.com \
	'patchclock: rejected\n' |
	"$sign" "$tmp/example.org.pem" sel example.org >"$tmp/mail/new/06.eml"
# 5, 6. Rita, unsigned, twice a command patchclock does not know.
reply c5@example.org "Rita Viewer <rita@example.org>" "$d2" p2@example.com \
	'Looks fine.\npatchclock: merge it\n' >"$tmp/mail/new/07.eml"
reply c6@example.org "Rita Viewer <rita@example.org>" \
	"Tue, 02 Jan 2024 11:00:00 +0000" p2@example.com \
	'patchclock: frobnicate\n' >"$tmp/mail/new/08.eml"
# 8, 9. Review tags by mail on a third and fourth series: Rita's on the
# third is DKIM-signed, hers on the fourth is not.
patch_mail p3@example.com "[PATCH] widget: add a light" \
	"Mon, 01 Jan 2024 12:00:00 +0000" "Bo Other <bo@example.com>" \
	light.c >"$tmp/mail/new/10.eml"
patch_mail p4@example.com "[PATCH] widget: add a bell" \
	"Mon, 01 Jan 2024 13:00:00 +0000" "Bo Other <bo@example.com>" \
	bell.c >"$tmp/mail/new/11.eml"
reply t3@example.org "Rita Viewer <rita@example.org>" "$d2" p3@example.com \
	'Looks good.\n\nReviewed-by: Rita Viewer <rita@example.org>\n' |
	"$sign" "$tmp/example.org.pem" sel example.org >"$tmp/mail/new/12.eml"
reply t4@example.org "Rita Viewer <rita@example.org>" "$d2" p4@example.com \
	'Looks good.\n\nReviewed-by: Rita Viewer <rita@example.org>\n' \
	>"$tmp/mail/new/13.eml"
# 7. May again on the second series, signed by opendkim's own tool (an
# independent signer), when it is installed.
if command -v opendkim-testmsg >/dev/null; then
	reply c7@example.org "May Tainer <may@example.org>" "$d2" \
		p2@example.com 'patchclock: snooze 3d\n' |
		opendkim-testmsg -d example.org -s sel \
			-k "$tmp/example.org.pem" >"$tmp/mail/new/09.eml"
fi

db=$tmp/pc.db
"$pc" ingest --db "$db" "$tmp/mail" >/dev/null 2>&1
check "mails with commands" \
	"$(sqlite3 "$db" "SELECT count(*) FROM messages WHERE commands = 1")" \
	"$(find "$tmp/mail/new" -name '0[3-9].eml' | wc -l)"
# A mail of commands only is no answer on the thread; Rita's "Looks
# fine." is.
check "to_bot" "$(sqlite3 "$db" "SELECT group_concat(msgid, ' ') FROM \
	(SELECT msgid FROM messages WHERE to_bot = 1 ORDER BY msgid)")" \
	"$(if [[ -f $tmp/mail/new/09.eml ]]; then echo "c1@example.org c2@example.org c3@evil.test c4@example.org c6@example.org c7@example.org"; else echo "c1@example.org c2@example.org c3@evil.test c4@example.org c6@example.org"; fi)"

# status, a listing, reads the commands in a transaction it rolls back;
# digest (as the daemon) stores what it read.
status() { "$pc" status --db "$db" --dkim-keys "$tmp/keys" "$@"; }
digest() {
	"$pc" digest --db "$db" --dkim-keys "$tmp/keys" \
		--from patchclock@patchclock.test "$@"
}
status --now "2024-01-03 12:00" --json >"$tmp/st.json" 2>"$tmp/st.log"
jsondoc Status "$tmp/st.json"
check "p1 held" "$(jq -r '.series[] | select(.subject == "widget: spin") |
	.hold + ": " + .hold_reason' "$tmp/st.json")" \
	'steered: may@example.org said "patchclock: snooze 2w"'
contains "log names the refusal" "$(cat "$tmp/st.log")" \
	"command 'patchclock: rejected' from eve@example.org in <c4@example.org>: refused (eve@example.org is not an M: or R: of WIDGET)"
check "status stored nothing" \
	"$(sqlite3 "$db" "SELECT count(*) FROM commands")" 0
digest --now "2024-01-03 12:00" >/dev/null 2>&1

# The record: show --commands, and the series' own.
"$pc" show --db "$db" --commands --json >"$tmp/cmds.json"
jsondoc ShowCommands "$tmp/cmds.json"
outcome() { jq -r --arg m "$1" '.commands[] | select(.message_id == $m) |
	.outcome + " | " + .reason + " | " + (.dkim // "-")' "$tmp/cmds.json"; }
check "signed by May" "$(outcome c1@example.org)" \
	"obeyed | M: of WIDGET, DKIM verified | pass"
check "body changed" "$(outcome c2@example.org)" \
	"refused | DKIM: no valid signature by example.org: body changed since it was signed (d=example.org) | fail"
check "forged From" "$(outcome c3@evil.test)" \
	"refused | DKIM: no valid signature by example.org: signed by another domain (d=evil.test) | fail"
check "not a maintainer" "$(outcome c4@example.org)" \
	"refused | eve@example.org is not an M: or R: of WIDGET | pass"
check "unknown" "$(outcome c5@example.org)" \
	"invalid | unknown command | none"
if [[ -f $tmp/mail/new/09.eml ]]; then
	check "opendkim-testmsg's signature" "$(outcome c7@example.org)" \
		"obeyed | M: of WIDGET, DKIM verified | pass"
fi
check "refused changed nothing" \
	"$(sqlite3 "$db" "SELECT count(*) FROM series_accept")" 0
"$pc" show --db "$db" --json 1 >"$tmp/show.json"
jsondoc ShowSeries "$tmp/show.json"
check "show 1: its commands" \
	"$(jq -r '[.commands[].outcome] | join(" ")' "$tmp/show.json")" \
	"obeyed refused refused refused"
check "every mail read once" "$(sqlite3 "$db" "SELECT count(*) FROM \
	messages WHERE commands = 1")" 0
"$pc" show --db "$db" 1 >"$tmp/show.txt"
contains "show 1 text" "$(cat "$tmp/show.txt")" \
	'may@example.org  "patchclock: snooze 2w"'

# The unknown commands: one answer to Rita, threaded on her first mail;
# planning again adds none.
digest --now "2024-01-03 13:00" >/dev/null 2>&1
check "one answer" "$(sqlite3 "$db" "SELECT count(*) || ' ' || \
	group_concat(recipients) || ' ' || status FROM outbox \
	WHERE action = 'command-help'")" "1 rita@example.org pending"
sqlite3 "$db" "SELECT message FROM outbox WHERE action = 'command-help'" \
	>"$tmp/help.eml"
help=$(cat "$tmp/help.eml")
contains "help: To" "$help" "To: Rita Viewer <rita@example.org>"
contains "help: threaded" "$help" "In-Reply-To: <c5@example.org>"
contains "help: subject" "$help" "Subject: Re: [PATCH] widget: spin"
contains "help: auto-replied" "$help" "Auto-Submitted: auto-replied"
contains "help: the line" "$help" "  patchclock: merge it"
contains "help: the list" "$help" "  patchclock: snooze Nh | Nd | Nw"
"$pc" outbox --db "$db" --all --json >"$tmp/outbox.json"
jsondoc Outbox "$tmp/outbox.json"

# The snooze ends on 2024-01-16 10:00: held before, free after.
status --now "2024-01-16 09:00" --json >"$tmp/st2.json" 2>/dev/null
check "held before the end" "$(jq -r '.series[] |
	select(.subject == "widget: spin") | .hold' "$tmp/st2.json")" steered
status --now "2024-01-16 11:00" --json >"$tmp/st3.json" 2>/dev/null
check "free after" "$(jq -r '.series[] |
	select(.subject == "widget: spin") | .hold // "none"' "$tmp/st3.json")" \
	none

# Attested review tags: WIDGET's profile asks for them (an override).
printf '[WIDGET]\nreview_attestation = dkim\n' >"$tmp/attest.ini"
digest --now "2024-01-03 14:00" --attest-tags --overrides "$tmp/attest.ini" \
	>/dev/null 2>&1
check "attested" "$(sqlite3 "$db" "SELECT group_concat(msgid || ' ' || \
	dkim, ', ') FROM (SELECT msgid, dkim FROM messages WHERE attest = 2 \
	ORDER BY msgid)")" "t3@example.org pass, t4@example.org none"
status --now "2024-01-03 14:00" --attest-tags --overrides "$tmp/attest.ini" \
	--json >"$tmp/st4.json" 2>/dev/null
review_of() { jq -r --arg s "$1" '.series[] | select(.subject == $s) |
	.state + " " + ((.flags | index("needs-review")) != null |
	tostring)' "$tmp/st4.json"; }
check "signed tag counts" "$(review_of "widget: add a light")" \
	"reviewed false"
check "unsigned tag does not" "$(review_of "widget: add a bell")" \
	"acknowledged true"
# Without the rule the unsigned tag counts, as it always did.
status --now "2024-01-03 14:00" --json >"$tmp/st5.json" 2>/dev/null
check "no rule: counts" "$(jq -r '.series[] |
	select(.subject == "widget: add a bell") | .state' "$tmp/st5.json")" \
	reviewed
"$pc" profile --tree "$tmp/tree" --overrides "$tmp/attest.ini" --json \
	WIDGET >"$tmp/profile.json" 2>/dev/null
jsondoc Profile "$tmp/profile.json"
check "profile shows it" \
	"$(jq -r '.policy.review_attestation.value' "$tmp/profile.json")" dkim

# --require-dkim: Rita's unsigned command on a fresh database.
db2=$tmp/pc2.db
cp "$tmp/mail/new/02.eml" "$tmp/p2.eml"
"$pc" ingest --db "$db2" "$tmp/p2.eml" >/dev/null 2>&1
reply c8@example.org "rita@example.org" "$d2" p2@example.com \
	'patchclock: snooze 1w\n' >"$tmp/c8.eml"
"$pc" ingest --db "$db2" "$tmp/c8.eml" >/dev/null 2>&1
"$pc" digest --db "$db2" --require-dkim --dkim-keys "$tmp/keys" \
	--from patchclock@patchclock.test --now "2024-01-03 12:00" \
	>/dev/null 2>&1
check "require-dkim" "$(sqlite3 "$db2" "SELECT outcome || ': ' || reason \
	FROM commands")" \
	"refused: not DKIM-signed, and this patchclock requires it"

# The daemon, on a simulated clock, reads the list spool and its own
# mailbox. The mailbox holds May's signed command and a private thanks.
mkdir -p "$tmp/list/new" "$tmp/list/cur" "$tmp/list/tmp" \
	"$tmp/bot/new" "$tmp/bot/cur" "$tmp/bot/tmp"
cp "$tmp/mail/new/01.eml" "$tmp/list/new/1.eml"
cp "$tmp/mail/new/03.eml" "$tmp/bot/new/1.eml"
reply t1@example.org "May Tainer <may@example.org>" "$d2" p1@example.com \
	'Thanks, I will look at it next week.\n' >"$tmp/bot/new/2.eml"
cat >"$tmp/pcd.conf" <<CONF
[general]
database = $tmp/d.db
tree = $tmp/tree
from = patchclock@patchclock.test
dkim_keys = $tmp/keys
replies = no
digest = no

[clock]
start = 2024-01-03 12:00
speed = 3600

[source "list"]
type = maildir
path = $tmp/list
poll = 1

[source "patchclock"]
type = maildir
path = $tmp/bot
poll = 1
commands = yes
CONF
check "-n" "$("$pcd" -n -f "$tmp/pcd.conf")" \
	"patchclockd: configuration OK ($tmp/pcd.conf)"
"$pcd" -d -f "$tmp/pcd.conf" 2>"$tmp/daemon.log" &
daemon_pid=$!
sql() { sqlite3 -cmd '.timeout 5000' "$tmp/d.db" "$@"; }
got=
for _ in $(seq 100); do
	got=$(sql "SELECT hold FROM series_status" 2>/dev/null || true)
	[[ $got == steered ]] && break
	sleep 0.1
done
check "daemon: steered" "$got" steered
check "daemon: the mailbox's command only" \
	"$(sql "SELECT group_concat(msgid, ' ') FROM \
	(SELECT msgid FROM messages ORDER BY msgid)")" \
	"c1@example.org p1@example.com"
contains "daemon: log" "$(cat "$tmp/daemon.log")" \
	"command 'patchclock: snooze 2w' from may@example.org in <c1@example.org>: obeyed (M: of WIDGET, DKIM verified)"
kill "$daemon_pid"
wait "$daemon_pid" || true
daemon_pid=

if ((fails)); then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "commands: all checks passed"
