#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.json: every listing's --json, on real kernel traffic, is what
# doc/json.md says, field by field (tests/support/jsondoc.py reads the
# page's tables), and says what the database and the mail say:
#   - the nvdimm list of 2021, ingested and mapped against the 6.1 tree,
#     judged and digested at 2021-07-01 (mail queued);
#   - status, series, show (a series, a reply, --errors), outbox, who
#     and profile, each checked against its object in the page;
#   - status lists the series that series lists, with the same people
#     and Message-IDs; a verdict's url is the configured archive's link;
#   - outbox's subject is the Subject the stored mail carries (decoded),
#     and its recipients are the mail's envelope, one address an item.
# Exit 77 (skip) only when $PC_KERNEL_TREE is unset.
set -euo pipefail

pc=$1
data=$2
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
tree=$PC_KERNEL_TREE
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
export PATCHCLOCK_PROFILES=$top/data/profiles.ini PATCHCLOCK_PAGER=cat
db=$tmp/pc.db
archive=$data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
# The archive pattern comes from the configuration, as the daemon's does.
cat >"$tmp/pc.conf" <<EOF
[general]
database = $db
tree = $tree
from = patchclock@localhost
archive = https://lore.kernel.org/nvdimm/%s/
EOF
export PATCHCLOCK_CONFIG=$tmp/pc.conf
jd() { python3 "$top/tests/support/jsondoc.py" "$top/doc/json.md" "$@"; }
# doc OBJECT FILE...: the files are the page's OBJECT.
doc() {
	local what=$1
	if ! jd "$what" --seen "$tmp/seen" "${@:2}" >"$tmp/doc.out"; then
		echo "FAIL: not doc/json.md's $what:" >&2
		sed 's/^/  /' "$tmp/doc.out" >&2
		fails=$((fails + 1))
	fi
}

check "doc/json.md keeps its own rules" "$(jd --lint && echo yes)" yes

# The list's archive (May to December 2021: the judging at 2021-07-01
# reads only the mail before it), and a file that is no mail at all.
python3 -c '
import random, sys
r = random.Random(7)
junk = bytes(r.randrange(256) for _ in range(4000))
sys.stdout.buffer.write(b"\0\xffgarbage " +
                        junk.replace(b":", b".").replace(b"\r", b"."))
' >"$tmp/garbage.bin"
"$pc" ingest -q --db "$db" "$archive" "$tmp/garbage.bin" || true
"$pc" digest --db "$db" --now 2021-07-01 --from patchclock@localhost \
	--watching-since 2021-05-01 >/dev/null

"$pc" status --all --json --now 2021-07-01 >"$tmp/status.json"
"$pc" series --json >"$tmp/series.json"
"$pc" outbox --all --json >"$tmp/outbox.json"
"$pc" show --json --errors >"$tmp/errors.json"
doc Status "$tmp/status.json"
doc SeriesList "$tmp/series.json"
doc Outbox "$tmp/outbox.json"
doc ShowErrors "$tmp/errors.json"
check "status: judged at" "$(jq -r .judged_at "$tmp/status.json")" \
	2021-07-01T00:00:00Z
check "some mail queued" "$(jq '.mails | length > 0' "$tmp/outbox.json")" true
check "the garbage is an error" \
	"$(jq -r '.errors[0].source' "$tmp/errors.json")" "$tmp/garbage.bin"

# Five series and a reply, shown.
shown=()
for id in $(jq -r '.series[:5][].id' "$tmp/series.json"); do
	"$pc" show --json "$id" >"$tmp/show-$id.json"
	shown+=("$tmp/show-$id.json")
done
doc ShowSeries "${shown[@]}"
reply=$(sqlite3 "$db" "select msgid from messages where kind = 'reply'
	and in_reply_to is not null order by id limit 1")
"$pc" show --json "$reply" >"$tmp/reply.json"
doc ShowMessage "$tmp/reply.json"
check "show REPLY: the reply" "$(jq -r '.message.kind' "$tmp/reply.json")" reply

"$pc" who --json "$data"/seeds/00[234]-*.patch >"$tmp/who.json"
"$pc" who --json -f drivers/nvdimm/pmem.c fs/dax.c >"$tmp/who-f.json"
doc Who "$tmp/who.json" "$tmp/who-f.json"
profiles=()
for e in "LIBNVDIMM: NON-VOLATILE" "X86 ARCHITECTURE (32-BIT AND 64-BIT)" \
	"NETWORKING [GENERAL]" "MEDIA INPUT INFRASTRUCTURE (V4L/DVB)" \
	DOCUMENTATION; do
	f=$tmp/profile-${#profiles[@]}.json
	"$pc" profile --json "$e" >"$f"
	profiles+=("$f")
done
doc Profile "${profiles[@]}"

# The listings agree with each other and with the database.
python3 - "$tmp/status.json" "$tmp/series.json" "$tmp/outbox.json" "$db" \
	>"$tmp/agree.out" <<'EOF' || true
import email, email.header, email.policy, json, sqlite3, sys
status = json.load(open(sys.argv[1]))["series"]
series = {s["id"]: s for s in json.load(open(sys.argv[2]))["series"]}
mails = json.load(open(sys.argv[3]))["mails"]
db = sqlite3.connect(sys.argv[4])
bad = []
for v in status:
    s = series.get(v["id"])
    if not s:
        bad.append(f"status lists series {v['id']}, series does not")
        continue
    for k in ("author", "subject", "anchor_message_id", "revision", "url"):
        if v[k] != s[k]:
            bad.append(f"series {v['id']}: {k} {v[k]!r} in status, "
                       f"{s[k]!r} in series")
    want = f"https://lore.kernel.org/nvdimm/{v['anchor_message_id']}/"
    if v["url"] != want:
        bad.append(f"series {v['id']}: url {v['url']!r}, want {want!r}")
    msgids = {p["message_id"] for p in s["patches"]}
    for p in v["patches"]:
        if p["message_id"] not in msgids:
            bad.append(f"series {v['id']}: patch {p['message_id']} "
                       "not in series")
for m in mails:
    raw, rcpts = db.execute("select message, recipients from outbox "
                            "where id = ?", (m["id"],)).fetchone()
    msg = email.message_from_bytes(raw if isinstance(raw, bytes) else
                                   raw.encode(), policy=email.policy.default)
    subject = str(msg["Subject"])
    if m["subject"] != subject:
        bad.append(f"mail {m['id']}: subject {m['subject']!r}, the mail "
                   f"says {subject!r}")
    if m["recipients"] != rcpts.split():
        bad.append(f"mail {m['id']}: recipients {m['recipients']}, "
                   f"stored {rcpts!r}")
    if "<" + m["message_id"] + ">" != msg["Message-ID"]:
        bad.append(f"mail {m['id']}: message_id {m['message_id']}")
print(f"{len(status)} verdicts, {len(series)} series, {len(mails)} mails")
for b in bad[:20]:
    print("BAD " + b)
EOF
cat "$tmp/agree.out"
check "status, series and outbox agree" \
	"$(grep -c '^BAD' "$tmp/agree.out" || true)" 0
check "the resends' subjects are replies" \
	"$(jq -r '[.mails[] | select(.action == "resend") |
		.subject | startswith("Re: ")] | all' "$tmp/outbox.json")" true

# Which fields the run never saw a value in (for the reader; the
# integration tests cover apply, boot-test, sent and failed mail).
python3 - "$top/doc/json.md" "$tmp/seen" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1].rsplit("/doc/", 1)[0] + "/tests/support")
import jsondoc
objects = jsondoc.read_doc(sys.argv[1])
seen = set(open(sys.argv[2]).read().split())
never = [f"{o}.{k}" for o, fs in objects.items() for k in fs
         if f"{o}.{k}" not in seen and o not in ("Apply", "BootTest")]
print(f"fields with a value: {len(seen)}; never: {' '.join(never)}")
EOF

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "json: all checks passed"
