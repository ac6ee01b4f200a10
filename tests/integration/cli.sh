#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end checks of the patchclock command line: help and usage errors,
# ingest of the real lore nvdimm archive (summary line, idempotence, the
# same mail from other sources), JSON output, show by series id, by
# Message-ID and --raw, unparseable input, missing sources and the fuzz
# mails.
#
# usage: cli.sh PATCHCLOCK TEST_DATA_DIR
# Exit status 77 (skipped) when a tool it needs is not installed.
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
pc=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
split=$here/split-mbox.py
# jsondoc OBJECT FILE...: the files hold doc/json.md's OBJECT.
jsondoc() { python3 "$here/../support/jsondoc.py" "$here/../../doc/json.md" "$@"; }
lore=$data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
index=$data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.index.tsv
fuzz=$data/corpus/patchwork/fuzz

for tool in python3 sqlite3 jq sha256sum; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=$tmp/pc.db
# Sanitizer reports must not pass for one of patchclock's own statuses.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB

failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
ok() { echo "ok: $*"; }
skip() { echo "SKIP: $*" >&2; }

# run CMD...: runs CMD with stdout in $tmp/out, stderr in $tmp/err and
# the exit status in $status.
status=0
run() {
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	set -e
	if grep -q -e 'AddressSanitizer' -e 'runtime error:' \
		-e 'LeakSanitizer' "$tmp/err"; then
		fail "sanitizer report from: $*"
		cat "$tmp/err" >&2
	fi
}

# expect_status N WHAT: the last run exited with N.
expect_status() {
	if [[ $status -ne $1 ]]; then
		fail "$2: exit status $status, expected $1"
		sed 's/^/  stderr: /' "$tmp/err" >&2
		return 1
	fi
}

# expect_grep FILE PATTERN WHAT
expect_grep() {
	if ! grep -q -e "$2" "$1"; then
		fail "$3: no '$2' in $(basename "$1")"
		sed 's/^/  | /' "$1" | head -20 >&2
		return 1
	fi
}

count_messages() {
	sqlite3 "$db" 'select count(*) from messages'
}

series_sum() {
	"$pc" series --db "$db" --json | sha256sum | cut -d' ' -f1
}

# expect_show_status WHAT: show of a series exits 0.
expect_show_status() {
	expect_status 0 "$1"
}

### Help and usage.

for cmd in "" ingest series show; do
	# shellcheck disable=SC2086 # an empty $cmd is no argument
	run "$pc" $cmd --help
	what="patchclock${cmd:+ $cmd} --help"
	expect_status 0 "$what" &&
		expect_grep "$tmp/out" "^usage: patchclock${cmd:+ $cmd}" "$what" &&
		ok "$what"
done
run "$pc" help
expect_status 0 "patchclock help" && expect_grep "$tmp/out" "^usage:" help
run "$pc" --version
expect_status 0 "--version" && expect_grep "$tmp/out" "^patchclock " --version

run "$pc"
expect_status 64 "no command" &&
	expect_grep "$tmp/err" "^usage: patchclock" "no command" && ok "no command"
run "$pc" frobnicate
expect_status 64 "unknown command" &&
	expect_grep "$tmp/err" "unknown command 'frobnicate'" "unknown command" &&
	ok "unknown command"
# A mistake gets a line saying what, the usage's first line and where the
# rest is: not the whole help.
for cmd in ingest series show status; do
	run "$pc" "$cmd" --no-such-option
	expect_status 64 "$cmd --no-such-option" &&
		expect_grep "$tmp/err" "unrecognized option" "$cmd bad option" &&
		expect_grep "$tmp/err" "^Run 'patchclock $cmd --help' for the options.\$" "$cmd bad option" &&
		if [[ $(wc -l <"$tmp/err") -ne 3 ]]; then
			fail "$cmd --no-such-option: $(wc -l <"$tmp/err") lines on stderr, want 3"
		else
			ok "$cmd --no-such-option"
		fi
done
run "$pc" stauts
expect_status 64 "a typo" &&
	expect_grep "$tmp/err" "unknown command 'stauts': did you mean 'status'?" "a typo" &&
	ok "did you mean status"
run "$pc" help status
expect_status 0 "patchclock help status" &&
	expect_grep "$tmp/out" "^usage: patchclock status" "help status" &&
	ok "patchclock help status"
bad_usage=(
	"ingest --db $db|no SOURCE given"
	"ingest --db $db --format bogus $lore|unknown --format 'bogus'"
	"ingest --db $db --mbox-format bogus $lore|unknown --mbox-format 'bogus'"
	"ingest --db $db --db|requires an argument"
	"series --db $db extra|^usage: patchclock series"
	"show --db $db|^usage: patchclock show"
	"show --db $db 1 2|^usage: patchclock show"
	"show --db $db --errors 1|^usage: patchclock show"
)
for t in "${bad_usage[@]}"; do
	args=${t%%|*}
	# shellcheck disable=SC2086 # split the arguments
	run "$pc" $args
	expect_status 64 "$args" &&
		expect_grep "$tmp/err" "${t#*|}" "$args" && ok "usage: $args"
done
if [[ -e $db ]]; then
	fail "bad usage created the database"
fi

### Ingest the real archive.

run "$pc" ingest --db "$db" "$lore"
expect_status 0 "ingest lore" &&
	expect_grep "$tmp/out" \
		'^ingest: read 2317, new 2309, duplicates 8, .*, errors 0$' \
		"ingest lore summary" && ok "ingest lore: $(cat "$tmp/out")"
n0=$(count_messages)
sum0=$(series_sum)
raw0=$(sqlite3 "$db" 'select count(*) from raw')
[[ $n0 -eq 2309 ]] || fail "messages: $n0, expected 2309"

# Again: nothing new, nothing changed.
run "$pc" ingest --db "$db" "$lore"
expect_status 0 "ingest lore again" &&
	expect_grep "$tmp/out" \
		'^ingest: read 2317, new 0, duplicates 2317, patches 0, covers 0, replies 0, pulls 0, other 0, series 0, errors 0$' \
		"ingest lore again" && ok "ingest again: $(cat "$tmp/out")"

# The same mail from other sources: split by an independent splitter
# whose lengths match the collector's index.
nsplit=$(python3 "$split" "$lore" "$tmp/msgs")
[[ $nsplit -eq 2317 ]] || fail "split-mbox.py found $nsplit messages"
awk -F'\t' 'NR > 1 { printf "%05d.eml %s\n", $1, $4 }' "$index" >"$tmp/want"
(cd "$tmp/msgs" && stat -c '%n %s' -- *.eml) >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "split-mbox.py disagrees with the index"

md=$tmp/Maildir
mkdir -p "$md/cur" "$md/new" "$md/tmp"
for i in $(seq 1 40); do
	f=$(printf '%05d.eml' "$i")
	if ((i % 2)); then
		cp "$tmp/msgs/$f" "$md/new/$((1600000000 + i)).M${i}P1.host"
	else
		cp "$tmp/msgs/$f" "$md/cur/$((1600000000 + i)).M${i}P1.host:2,S"
	fi
done
run "$pc" ingest --db "$db" "$md"
expect_status 0 "ingest maildir" &&
	expect_grep "$tmp/out" '^ingest: read 40, new 0, duplicates 40,' \
		"maildir duplicates" && ok "maildir copy is duplicate"

run "$pc" ingest --db "$db" - <"$tmp/msgs/00003.eml"
expect_status 0 "ingest stdin" &&
	expect_grep "$tmp/out" '^ingest: read 1, new 0, duplicates 1,' \
		"stdin duplicate" && ok "stdin message is duplicate"
sed 's/$/\r/' "$tmp/msgs/00955.eml" >"$tmp/crlf.eml"
run "$pc" ingest --db "$db" "$tmp/crlf.eml"
expect_status 0 "ingest CRLF file" &&
	expect_grep "$tmp/out" '^ingest: read 1, new 0, duplicates 1,' \
		"CRLF duplicate" && ok "CRLF message file is duplicate"
run "$pc" ingest --db "$db" - <"$lore"
expect_status 0 "ingest gzip stdin" &&
	expect_grep "$tmp/out" '^ingest: read 2317, new 0, duplicates 2317,' \
		"gzip stdin duplicate" && ok "gzip mbox on stdin is duplicate"
# PATCHCLOCK_DB names the database when --db does not.
PATCHCLOCK_DB=$db run "$pc" ingest "$tmp/msgs/00010.eml"
expect_status 0 "ingest with PATCHCLOCK_DB" &&
	expect_grep "$tmp/out" 'new 0, duplicates 1,' "PATCHCLOCK_DB" &&
	ok "PATCHCLOCK_DB"

[[ $(count_messages) -eq $n0 ]] || fail "message count changed on re-ingest"
[[ $(sqlite3 "$db" 'select count(*) from raw') -eq $raw0 ]] ||
	fail "raw count changed on re-ingest"
[[ $(series_sum) == "$sum0" ]] || fail "series --json changed on re-ingest"
ok "re-ingest changed nothing ($n0 messages)"

### JSON.

"$pc" series --db "$db" --json >"$tmp/series.json"
# Global options before the command, as git takes them.
for form in "--db $db series --json" "--db=$db series --json"; do
	# shellcheck disable=SC2086 # split the arguments
	run "$pc" $form
	expect_status 0 "patchclock $form" &&
		if cmp -s "$tmp/out" "$tmp/series.json"; then
			ok "patchclock ${form%% *} before the command"
		else
			fail "patchclock $form: not the output of series --db"
		fi
done
if jsondoc SeriesList "$tmp/series.json" && python3 - "$tmp/series.json" <<'EOF'; then
import json, sys
series = json.load(open(sys.argv[1]))["series"]
assert len(series) > 100, len(series)
for s in series:
    assert s["patches"], s["id"]
EOF
	ok "series --json is doc/json.md's SeriesList"
else
	fail "series --json"
fi
run "$pc" series --db "$db"
expect_status 0 "series" && expect_grep "$tmp/out" '^ID ' "series header"

# A series with a cover letter and a patch, both in the index.
read -r sid cover patch < <(python3 - "$tmp/series.json" <<'EOF'
import json, sys
for s in json.load(open(sys.argv[1]))["series"]:
    if s["cover_message_id"] and len(s["patches"]) > 2:
        p = [x for x in s["patches"] if x["kind"] == "patch"][0]
        print(s["id"], s["cover_message_id"], p["message_id"])
        break
EOF
)

run "$pc" show --db "$db" "$sid"
expect_show_status "show $sid" &&
	expect_grep "$tmp/out" "^Series $sid: " "show $sid" &&
	expect_grep "$tmp/out" "<$patch>" "show $sid" &&
	expect_grep "$tmp/out" "^  link: *https://lore.kernel.org/r/$cover\$" "show $sid: the link" &&
	ok "show $sid"
run "$pc" series --db "$db" --patches
expect_status 0 "series --patches" &&
	expect_grep "$tmp/out" "^       link: https://lore.kernel.org/r/$cover\$" "series --patches: the link" &&
	ok "series --patches names the archive link"
cp "$tmp/out" "$tmp/show-by-id"
run "$pc" show --db "$db" "$patch"
expect_show_status "show MSGID" &&
	cmp -s "$tmp/out" "$tmp/show-by-id" && ok "show MSGID = show ID"
run "$pc" show --db "$db" "<$cover>"
expect_show_status "show <MSGID>" &&
	cmp -s "$tmp/out" "$tmp/show-by-id" && ok "show <COVER> = show ID"
run "$pc" show --db "$db" --json "$sid"
expect_show_status "show --json ID" &&
	if jsondoc ShowSeries "$tmp/out" &&
		[[ $(jq -r '.series.id' "$tmp/out") == "$sid" ]] &&
		[[ $(jq -r '.series.patches | length' "$tmp/out") -gt 2 ]]; then
		ok "show --json ID"
	else
		fail "show --json $sid"
	fi

# A reply belongs to no series: shown as a message.
reply=CAPcyv4hfZBgtEW8iaJ1yu=E758hzErxiAre2Tk4cw7Fb0E=R=Q@mail.gmail.com
run "$pc" show --db "$db" --json "$reply"
expect_status 0 "show --json REPLY" &&
	if jsondoc ShowMessage "$tmp/out" && python3 - "$tmp/out" "$reply" <<'EOF'; then
import json, sys
m = json.load(open(sys.argv[1]))["message"]
assert m["message_id"] == sys.argv[2] and m["kind"] == "reply", m
assert m["raw_bytes"] == 4080, m["raw_bytes"]
assert any(t["name"] == "Reviewed-by" for t in m["trailers"])
EOF
		ok "show --json REPLY"
	else
		fail "show --json $reply"
	fi
run "$pc" show --db "$db" --message "$patch"
expect_status 0 "show --message" &&
	expect_grep "$tmp/out" "^Message <$patch>" "show --message" &&
	expect_grep "$tmp/out" "kind: *patch" "show --message" &&
	ok "show --message"
run "$pc" show --db "$db" no-such-message@example.invalid
expect_status 1 "show missing" &&
	expect_grep "$tmp/err" "no-such-message@example.invalid" "show missing" &&
	ok "show of a missing message fails"
run "$pc" show --db "$db" 999999
expect_status 1 "show missing series" && ok "show of a missing series fails"

# --raw gives the original bytes: the first message, two whose bodies
# needed mboxrd quoting, and the first of two deliveries of one
# Message-ID with different headers (the first one read is kept).
for n in 1 2 955 1816 2180 2317; do
	msgid=$(awk -F'\t' -v n="$n" '$1 == n { print $3 }' "$index")
	f=$tmp/msgs/$(printf '%05d.eml' "$n")
	run "$pc" show --db "$db" --raw "$msgid"
	expect_status 0 "show --raw $msgid" &&
		if cmp -s "$tmp/out" "$f"; then
			ok "show --raw message $n"
		else
			fail "show --raw $msgid differs from message $n"
		fi
done

### Why no mail goes.

# On an existing archive, the first digest says nothing about the past:
# its summary says so, and names every hold, rather than a bare "0 queued".
cp "$db" "$tmp/digest.db"
run "$pc" digest --db "$tmp/digest.db" --now 2021-08-01 --from pc@localhost --dry-run
expect_status 0 "digest on an archive" &&
	expect_grep "$tmp/out" "^digest: (dry run, nothing kept) 0 queued" "digest summary" &&
	expect_grep "$tmp/out" "^digest: [1-9][0-9]* overdue series were already due before mail was first planned here" "digest: the past" &&
	expect_grep "$tmp/out" "^digest: [1-9][0-9]* overdue series held: " "digest: holds" &&
	ok "digest names why nothing goes"
# Another project's series (ndctl) is overdue in no kernel queue: it is
# no hold of the digest's (issue 37).
if grep -q "^digest: .*overdue series held: .*not-kernel" "$tmp/out"; then
	fail "digest: an ndctl series counted as an overdue kernel series"
fi
# past COUNT: how many were due before the first planning.
past() { sed -n 's/^digest: \([0-9]*\) overdue series were already due.*/\1/p' "$tmp/out"; }
before=$(past)
run "$pc" digest --db "$tmp/digest.db" --now 2021-08-01 --watching-since 2021-07-01 --from pc@localhost --dry-run
after=$(past)
expect_status 0 "digest --watching-since" &&
	if ((${after:-0} < before)); then
		ok "digest --watching-since 2021-07-01: $before due before, then ${after:-0}"
	else
		fail "digest --watching-since: still ${after:-0} due before (was $before)"
	fi

### Unparseable input.

python3 -c '
import random, sys
r = random.Random(7)
junk = bytes(r.randrange(256) for _ in range(4000))
sys.stdout.buffer.write(b"\0\xffgarbage " +
                        junk.replace(b":", b".").replace(b"\r", b"."))
' >"$tmp/garbage.bin"
run "$pc" ingest --db "$db" "$tmp/garbage.bin"
expect_status 3 "ingest garbage" &&
	expect_grep "$tmp/out" 'read 1, new 1, .*, errors 1$' "garbage summary" &&
	expect_grep "$tmp/err" "garbage.bin" "garbage warning" &&
	ok "garbage: exit 3"
run "$pc" show --db "$db" --errors
expect_status 0 "show --errors" &&
	expect_grep "$tmp/out" "garbage.bin <[^>]*>: ." "show --errors" &&
	ok "show --errors: $(head -1 "$tmp/out")"
run "$pc" show --db "$db" --errors --json
expect_status 0 "show --errors --json"
if jsondoc ShowErrors "$tmp/out" &&
	[[ $(jq -r '.errors | length' "$tmp/out") -eq 1 ]] &&
	[[ $(jq -r '.errors[0].source' "$tmp/out") == "$tmp/garbage.bin" ]] &&
	[[ -n $(jq -r '.errors[0].reason // empty' "$tmp/out") ]]; then
	ok "show --errors --json"
	gid=$(jq -r '.errors[0].message_id' "$tmp/out")
	run "$pc" show --db "$db" --raw "$gid"
	expect_status 0 "show --raw garbage" &&
		if cmp -s "$tmp/out" "$tmp/garbage.bin"; then
			ok "garbage kept raw"
		else
			fail "garbage raw bytes differ"
		fi
else
	fail "show --errors --json"
fi
# Once stored, garbage is a duplicate like any other mail.
run "$pc" ingest --db "$db" "$tmp/garbage.bin"
expect_grep "$tmp/out" 'read 1, new 0, duplicates 1,' "garbage again"

### Unusable sources.

run "$pc" ingest --db "$db" "$tmp/no/such.mbox"
expect_status 1 "missing source" &&
	expect_grep "$tmp/err" "'$tmp/no/such.mbox'" "missing source" &&
	expect_grep "$tmp/err" "No such file" "missing source" &&
	ok "missing source: $(cat "$tmp/err")"
mkdir "$tmp/plain-dir"
run "$pc" ingest --db "$db" "$tmp/plain-dir"
expect_status 1 "plain directory" &&
	expect_grep "$tmp/err" "'$tmp/plain-dir'.*neither a maildir" \
		"plain directory" && ok "plain directory: $(cat "$tmp/err")"
# A bad source among good ones: every source is opened first, and
# nothing is read until all of them can be.
run "$pc" ingest --db "$db" "$tmp/msgs/00004.eml" "$tmp/no/such.mbox"
expect_status 1 "good + missing source" &&
	expect_grep "$tmp/err" "nothing was ingested" "good + missing source" &&
	if [[ -s "$tmp/out" ]]; then
		fail "good + missing source: read something: $(cat "$tmp/out")"
	else
		ok "good + missing source: nothing read"
	fi
# Nothing is made on failure: no database for a source that is not there
# or not mail.
for src in "$tmp/no/such.mbox" "$tmp/plain-dir"; do
	run "$pc" ingest --db "$tmp/never.db" "$src"
	expect_status 1 "new database, bad source" &&
		if [[ -e "$tmp/never.db" ]]; then
			fail "ingest of '$src' left $tmp/never.db behind"
		else
			ok "no database made for '$src'"
		fi
done
# A source with no message in it says so.
: >"$tmp/empty.mbox"
run "$pc" ingest --db "$db" "$tmp/empty.mbox"
expect_status 0 "empty mbox" &&
	expect_grep "$tmp/err" "empty.mbox: no message in it" "empty mbox" &&
	ok "empty mbox: $(head -n 1 "$tmp/err")"

### Fuzz mails never crash.

fdb=$tmp/fuzz.db
for f in "$fuzz"/*; do
	run "$pc" ingest --db "$fdb" "$f"
	if [[ $status -ne 0 && $status -ne 3 ]]; then
		fail "ingest $(basename "$f"): exit status $status"
		sed 's/^/  stderr: /' "$tmp/err" >&2
		continue
	fi
	msgid=$(sqlite3 "$fdb" 'select msgid from messages order by id desc limit 1')
	run "$pc" show --db "$fdb" --message --json "$msgid"
	if [[ $status -ne 0 ]] || ! jsondoc ShowMessage "$tmp/out"; then
		fail "show $(basename "$f"): status $status, or not doc/json.md's ShowMessage"
		continue
	fi
	ok "fuzz $(basename "$f")"
done
run "$pc" series --db "$fdb" --json
if expect_status 0 "fuzz series --json"; then
	jsondoc SeriesList "$tmp/out" ||
		fail "fuzz series --json: not doc/json.md's SeriesList"
fi

if ((failures)); then
	echo "$failures check(s) failed" >&2
	exit 1
fi
echo "all checks passed"
