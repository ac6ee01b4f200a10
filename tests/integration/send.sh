#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Replies and digests delivered through a real SMTP server (Exim, started
# by tests/integration/smtp-server on loopback): overdue series get their
# "resend now" reply, threaded and marked; the maintainer gets a digest;
# the rules hold mail back; a 5xx fails for good; a server that is down,
# then killed and restarted in the middle of a flush, loses nothing and
# duplicates nothing (the outbox marks a mail sent only after the server's
# OK, and a resend would carry the same Message-ID).
#
# usage: send.sh PATCHCLOCK TEST_DATA_DIR
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
pc=$1
here=$(cd "$(dirname "$0")" && pwd)
srv=$here/smtp-server
# jsondoc OBJECT FILE...: the files hold doc/json.md's OBJECT.
jsondoc() { python3 "$here/../support/jsondoc.py" "$here/../../doc/json.md" "$@"; }
for tool in exim4 openssl curl jq sqlite3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-send.XXXXXX")
dir=$tmp/server
mkdir "$dir"
cleanup() {
	"$srv" stop "$dir" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
# KEEP=1 keeps the temporary directory (and the server) for debugging.
[[ -z ${KEEP:-} ]] || trap - EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
db=$tmp/pc.db
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

SMTP_PORT='' SMTPS_PORT='' SMTP_CA=''
"$srv" start "$dir" >/dev/null
# shellcheck source=/dev/null
. "$dir/env"
creds=$tmp/creds
cp "$dir/credentials" "$creds"
chmod 600 "$creds"
send() {
	"$pc" send --db "$db" --smtp "smtp://127.0.0.1:$SMTP_PORT" \
		--from bounces@patchclock.test --credentials "$creds" \
		--ca-file "$SMTP_CA" --helo patchclock.test "$@"
}

# A tree with just a MAINTAINERS file: the WIDGET entry, no profile, so
# the default policy (a week, UTC) and a maintainer to send digests to.
mkdir "$tmp/tree"
printf '%s\n' "WIDGET" "M:	May Tainer <may@example.org>" \
	"L:	widget@lists.example.org" "S:	Maintained" \
	"F:	drivers/widget/" >"$tmp/tree/MAINTAINERS"
# The file the patches change: a patch whose files are not in the tree
# is not for this tree, and patchclock says nothing about it.
mkdir -p "$tmp/tree/drivers/widget"
for i in 1 2 3 4 5 6 7 8 9; do : >"$tmp/tree/drivers/widget/w$i.c"; done
export PC_KERNEL_TREE=$tmp/tree

# Four series posted Mon 2024-01-01. Authors: a person, a second person
# whose server refuses her (reject-), one who opted out, a list, a bot.
n=0
post() { # from subject
	n=$((n + 1))
	cat >"$tmp/p$n.eml" <<MAIL
From: $1
Subject: $2
Date: Mon, 01 Jan 2024 10:0$n:00 +0000
Message-ID: <p$n@example.com>

Make it spin.

---
diff --git a/drivers/widget/w$n.c b/drivers/widget/w$n.c
index 1111111..2222222 100644
--- a/drivers/widget/w$n.c
+++ b/drivers/widget/w$n.c
@@ -1,2 +1,3 @@
 a
+b
 c
MAIL
}
post "A U Thor <author@example.com>" "[PATCH v2 1/1] widget: spin"
post "Rita Jected <reject-rita@example.org>" "[PATCH] widget: turn"
post "Otto Out <otto@example.net>" "[PATCH] widget: stop"
post "kernel test robot <lkp@intel.com>" "[PATCH] widget: robot"
cat >"$tmp/optout.eml" <<'MAIL'
From: Otto Out <otto@example.net>
Subject: Re: [PATCH] widget: stop
Date: Tue, 02 Jan 2024 09:00:00 +0000
Message-ID: <o1@example.net>
In-Reply-To: <other@example.com>

Please no robots.

patchclock: opt-out
MAIL
"$pc" ingest -q --db "$db" "$tmp"/p*.eml "$tmp/optout.eml"

# Mon 01-08 12:00: due since 10:0x; queue. This first run over the
# database is told that patchclock has watched the list since the
# postings: else it would say nothing about what fell due before it.
"$pc" digest --db "$db" --now "2024-01-08 12:00" \
	--watching-since "2024-01-01 00:00" --cc-maintainers \
	--from patchclock@patchclock.test >"$tmp/digest.out"
check "digest summary" "$(cat "$tmp/digest.out")" \
	"digest: 3 queued, 2 held back by a rule, 0 already queued, 1 new opt-outs, 0 could not be composed ('patchclock outbox --all' says why)"
out=$("$pc" outbox --db "$db" --all --json)
check "held back" "$(jq -r '[.mails[] | select(.state == "suppressed") |
	.reason] | sort | join(";")' <<<"$out")" \
	"the author is a bot;the author opted out"
# Running it again changes nothing: exactly once (the two replies, the
# two held back and the digest are all already there).
"$pc" digest --db "$db" --now "2024-01-08 12:30" \
	--from patchclock@patchclock.test >"$tmp/digest.out"
check "digest again" "$(cat "$tmp/digest.out")" \
	"digest: 0 queued, 0 held back by a rule, 5 already queued, 0 new opt-outs, 0 could not be composed ('patchclock outbox --all' says why)"

# Send at Tuesday's opening (office hours all day on weekdays: 00:00
# UTC), when the digest planned on Monday goes out: one reply arrives;
# the server refuses the reject- author (550), so hers goes to the
# maintainer it is Cc'd to, and the refusal is recorded.
set +e
send --now "2024-01-09 00:01" >"$tmp/send.out" 2>"$tmp/send.err"
rc=$?
set -e
check "send status with a refused recipient" "$rc" 3
check "send summary" "$(tail -n 1 "$tmp/send.out")" \
	"send: 3 sent (1 not to every recipient), 0 to retry, 0 failed"
contains "the refusal is logged" "$(cat "$tmp/send.err")" \
	"refused 1 recipient(s): reject-rita@example.org (550"
# Exim keeps one copy per recipient: the reply to the author (Cc the
# maintainer), the maintainer's copy of Rita's and the maintainer's
# digest make four.
"$srv" wait "$dir" 4 >/dev/null
mapfile -t got < <("$srv" received "$dir")
check "delivered copies" "${#got[@]}" 4
check "none to the refused recipient" \
	"$(grep -l '^Envelope-to: reject-rita@example.org' "${got[@]}" |
		wc -l | tr -d ' ')" 0
m=$(grep -l '^Envelope-to: author@example.com' "${got[@]}" | head -n 1)
m=${m:-/dev/null}
hdr() { sed -n "/^$1: /{s/^$1: //p;q}" "$m"; }
check "To" "$(hdr To)" "A U Thor <author@example.com>"
check "Cc" "$(hdr Cc)" "May Tainer <may@example.org>"
check "Subject" "$(hdr Subject)" "Re: [PATCH v2 1/1] widget: spin"
# shellcheck disable=SC2016 # $id is jq's
check "outbox --json: the Subject sent" "$("$pc" outbox --db "$db" --all \
	--json | jq -r --arg id "$(hdr Message-ID | tr -d '<>')" \
	'.mails[] | select(.message_id == $id) | .subject')" \
	"Re: [PATCH v2 1/1] widget: spin"
check "In-Reply-To" "$(hdr In-Reply-To)" "<p1@example.com>"
check "Auto-Submitted" "$(hdr Auto-Submitted)" "auto-generated"
check "X-Patchclock-Action" "$(hdr X-Patchclock-Action)" "resend"
check "Message-ID is the outbox's" "$(hdr Message-ID)" \
	"$(sqlite3 "$db" "select message_id from outbox where status = 'sent'
		and action = 'resend' and recipients like 'author@%'")"
grep -q '\[PATCH RESEND v2 1/1\] widget: spin' "$m" ||
	check "body suggests the RESEND subject" missing present
out=$("$pc" outbox --db "$db" --all --json)
check "the refused recipient is recorded" "$(jq -r '[.mails[] |
	select(.state == "sent" and any(.recipients[]; test("reject-")))] |
	.[0].last_error' <<<"$out")" \
	"not delivered to 1: reject-rita@example.org (550 5.1.1 No such user (reject-rita: test trigger))"
# A mail whose every recipient is refused fails for good, and is not
# tried again.
sqlite3 "$db" "INSERT INTO outbox (key, action, series_id, recipients,
	message_id, subject, created_at, send_after, message)
	SELECT key || ':all-refused', action, series_id,
	'reject-a@example.org reject-b@example.org', '<all-refused@x>',
	subject, created_at, send_after, message FROM outbox
	WHERE recipients LIKE 'reject-rita%'"
set +e
send --now "2024-01-09 00:02" >"$tmp/send.out" 2>&1
rc=$?
set -e
check "every recipient refused: status" "$rc" 3
check "every recipient refused: summary" "$(tail -n 1 "$tmp/send.out")" \
	"send: 0 sent, 0 to retry, 1 failed"
check "every recipient refused: failed" "$(sqlite3 "$db" "SELECT status
	FROM outbox WHERE message_id = '<all-refused@x>'")" failed

# A week later, no second reminder (one per series version), but fresh
# mail for three more series: their reminders, and a digest that lists
# them.
for i in 5 6 7; do
	post "Many Posts <many$i@example.com>" "[PATCH] widget: part $i"
done
"$pc" ingest -q --db "$db" "$tmp/p5.eml" "$tmp/p6.eml" "$tmp/p7.eml"
"$pc" digest --db "$db" --now "2024-01-16 12:00" \
	--from patchclock@patchclock.test >/dev/null
pending=$("$pc" outbox --db "$db" --json | jq '.mails | length')

# The server is down: everything waits for a retry; nothing is lost.
"$srv" stop "$dir" >/dev/null
set +e
send --now "2024-01-16 12:01" >"$tmp/send.out" 2>&1
check "send while down" "$?" 3
set -e
"$pc" outbox --db "$db" --all --json >"$tmp/outbox-down.json"
jsondoc Outbox "$tmp/outbox-down.json" ||
	check "outbox --json is doc/json.md's Outbox" no yes
check "a retry is planned" "$(jq '[.mails[] | select(.next_attempt_at)] |
	length > 0' "$tmp/outbox-down.json")" true
check "still pending" "$("$pc" outbox --db "$db" --json | jq '.mails | length')" \
	"$pending"
# Back up, killed and restarted while a flush runs: run the flush in the
# background and kill the server under it.
"$srv" start "$dir" >/dev/null
# shellcheck source=/dev/null
. "$dir/env"
send --now "2024-01-16 13:00" >"$tmp/send1.out" 2>&1 &
flush=$!
sleep 0.2
"$srv" restart "$dir" >/dev/null
wait "$flush" || true
# Whatever the kill interrupted is retried; a later run sends the rest.
send --now "2024-01-16 20:00" >"$tmp/send2.out" 2>&1 || true
send --now "2024-01-17 08:00" >"$tmp/send3.out" 2>&1 || true
check "nothing left" "$("$pc" outbox --db "$db" --json | jq '.mails | length')" 0
# Every mail arrived, and none twice: one copy per recipient of each
# sent mail, and each Message-ID once per recipient.
sent=$(sqlite3 "$db" "select count(*) from outbox where status = 'sent'")
copies=$(sqlite3 "$db" "select sum(length(recipients) -
	length(replace(recipients, ' ', '')) + 1 -
	coalesce(last_error like 'not delivered to 1:%', 0)) from outbox
	where status = 'sent'")
"$srv" wait "$dir" "$copies" 20 >/dev/null
mapfile -t got < <("$srv" received "$dir")
pairs=$(for f in "${got[@]}"; do
	printf '%s %s\n' \
		"$(sed -n '/^Envelope-to: /{s/^Envelope-to: //p;q}' "$f")" \
		"$(sed -n '/^Message-ID: /{s/^Message-ID: //p;q}' "$f")"
done | sort)
check "every mail arrived" "$(awk '{print $2}' <<<"$pairs" | sort -u |
	wc -l)" "$sent"
# The documented boundary: a kill between the server's OK and the "sent"
# mark can deliver one mail (its copies) twice, with the same Message-ID.
dups=$(($(wc -l <<<"$pairs") - $(sort -u <<<"$pairs" | wc -l)))
if ((dups > 2)); then
	check "duplicates within the boundary" "$dups" "at most 2"
fi
check "copies" "$(sort -u <<<"$pairs" | wc -l)" "$copies"
check "the digests arrived" "$(grep -l 'X-Patchclock-Action: digest' \
	"${got[@]}" | wc -l | tr -d ' ')" 2

# SMTPS (implicit TLS) works as well: the digest planned on Wednesday
# 01-24 (a series it has not listed yet), sent at the next opening
# (Thursday 00:00).
post "Late Comer <late@example.com>" "[PATCH] widget: part 8"
"$pc" ingest -q --db "$db" "$tmp/p8.eml"
"$pc" digest --db "$db" --now "2024-01-24 12:00" --no-replies \
	--from patchclock@patchclock.test >/dev/null
before=$(sqlite3 "$db" "select count(*) from outbox where status = 'sent'")
"$pc" send --db "$db" --smtp "smtps://127.0.0.1:$SMTPS_PORT" \
	--from bounces@patchclock.test --credentials "$creds" \
	--ca-file "$SMTP_CA" --now "2024-01-25 00:01" >"$tmp/smtps.out" 2>&1
check "smtps" "$(tail -n 1 "$tmp/smtps.out")" \
	"send: 1 sent, 0 to retry, 0 failed"
check "sent over smtps" \
	"$(sqlite3 "$db" "select count(*) from outbox where status = 'sent'")" \
	$((before + 1))
# An opt-out from the configuration: a whole domain.
post "Later Still <later@example.com>" "[PATCH] widget: part 9"
"$pc" ingest -q --db "$db" "$tmp/p9.eml"
"$pc" digest --db "$db" --now "2024-01-25 12:00" --no-replies \
	--opt-out @example.org --from patchclock@patchclock.test >/dev/null
check "domain opt-out" "$(sqlite3 "$db" "select status || ': ' || reason
	from outbox order by id desc limit 1")" \
	"suppressed: the maintainer opted out"

# A 451 for one recipient (issue 36, item 6): the others get the mail at
# once; the refused one gets it alone, later, and nobody gets it twice.
sqlite3 "$db" "INSERT INTO outbox (key, action, series_id, recipients,
	message_id, subject, created_at, send_after, message)
	SELECT key || ':one-deferred', action, series_id,
	'may3@example.org defer-dora@example.org', '<one-deferred@x>',
	subject, created_at, send_after, message FROM outbox
	WHERE recipients LIKE 'reject-rita%'"
count_to() { # ADDR: copies delivered to ADDR (this test's alone)
	local f n=0
	while read -r f; do
		if grep -q '^Envelope-to: '"$1"'$' "$f"; then
			n=$((n + 1))
		fi
	done < <("$srv" received "$dir")
	echo "$n"
}
set +e
send --now "2024-01-26 00:01" >"$tmp/defer.out" 2>"$tmp/defer.err"
set -e
contains "a 451 is logged, to retry" "$(cat "$tmp/defer.err")" \
	"will retry defer-dora@example.org alone"
row() { sqlite3 "$db" "SELECT status || '|' || recipients || '|' ||
	(sent_at IS NOT NULL) FROM outbox WHERE message_id = '<one-deferred@x>'"; }
check "pending for the refused one alone" "$(row)" \
	"pending|defer-dora@example.org|1"
"$srv" wait "$dir" 1 >/dev/null
sleep 0.5
check "the accepted one has it" "$(count_to may3@example.org)" 1
# Later: tried again for the deferred recipient alone (refused again, so
# still pending); the accepted one gets no second copy.
set +e
send --now "2024-01-27 00:01" >"$tmp/defer2.out" 2>&1
set -e
check "tried again, to retry" "$(tail -n 1 "$tmp/defer2.out")" \
	"send: 0 sent, 1 to retry, 0 failed"
check "still pending for it alone" "$(row)" "pending|defer-dora@example.org|1"
sleep 0.5
check "no second copy" "$(count_to may3@example.org)" 1

# The server's answer (its queue id) is kept with every mail it took.
check "the queue id is kept" "$(sqlite3 "$db" "SELECT count(*) FROM outbox
	WHERE status = 'sent' AND coalesce(server_reply, '') NOT LIKE '250 OK id=%'")" 0
check "and shown" "$("$pc" outbox --db "$db" --all --json | jq -r \
	'[.mails[] | select(.state == "sent")][0].server_reply' | cut -c1-10)" \
	"250 OK id="
# A sender killed between the server's OK and the "sent" mark (issue 36,
# item 8) leaves the row claimed, its pre-send mark set: the next sender,
# once the lease is over, sends it again and says it may arrive twice.
sqlite3 "$db" "INSERT INTO outbox (key, action, series_id, recipients,
	message_id, subject, created_at, send_after, message, claimed_by,
	claim_until, sending_at)
	SELECT key || ':in-doubt', action, series_id, 'may4@example.org',
	'<in-doubt@x>', subject, created_at, send_after, message, 'gone:1',
	1, 1706313600 FROM outbox WHERE recipients LIKE 'reject-rita%'"
send --now "2024-01-28 00:01" >"$tmp/doubt.out" 2>"$tmp/doubt.err" || true
contains "the doubt is logged" "$(cat "$tmp/doubt.err")" \
	"a sender stopped while sending it"
contains "and counted" "$(tail -n 1 "$tmp/doubt.out")" "(1 possibly twice)"
check "and recorded on the sent mail" "$(sqlite3 "$db" "SELECT status ||
	'|' || (last_error LIKE 'a sender stopped while sending it%') ||
	'|' || (sending_at IS NULL) FROM outbox
	WHERE message_id = '<in-doubt@x>'")" "sent|1|1"

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "send: all checks passed"
