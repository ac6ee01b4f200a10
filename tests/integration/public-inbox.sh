#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Reads a real public-inbox v2 archive. The archive is built in a temporary
# directory by public-inbox's own tools (public-inbox-init -V2, then
# public-inbox-mda for every message of a b4 series and a lore thread),
# then `patchclock ingest` reads the inbox directory and its epoch
# git/0.git and must find the same messages and series as when it reads
# the mbox. A message removed with public-inbox-learn rm, and one erased
# with public-inbox-purge, must no longer be read.
#
# usage: public-inbox.sh PATCHCLOCK TEST_DATA_DIR
# Exit status 77 (skipped) when public-inbox is not installed.
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
pc=$1
data=$2
here=$(cd "$(dirname "$0")" && pwd)
split=$here/split-mbox.py
b4=$data/corpus/b4/shazam-git1-just-series.mbox
thread=$data/corpus/lore-nvdimm/threads/poison-list-retrieval-v11-v12.mbox

for tool in public-inbox-init public-inbox-mda public-inbox-learn \
	public-inbox-purge git sqlite3 python3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-pi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB
# public-inbox reads ~/.public-inbox and $PI_CONFIG: keep both here.
export HOME=$tmp/home PI_CONFIG=$tmp/home/pi-config
export GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
inbox=$tmp/inbox
epoch=$inbox/git/0.git

failures=0
fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}
ok() { echo "ok: $*"; }

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

# ingest DB SOURCE... : ingests, requires exit 0 and no errors, and leaves
# the summary line in $tmp/summary. A failure is counted; the checks go on.
ingest() {
	local db=$1
	shift
	run "$pc" ingest --db "$db" "$@"
	cp "$tmp/out" "$tmp/summary"
	if [[ $status -ne 0 ]] || ! grep -q ', errors 0$' "$tmp/out"; then
		fail "ingest $*: exit status $status: $(cat "$tmp/out")"
		sed 's/^/  stderr: /' "$tmp/err" | head -20 >&2
	fi
	return 0
}

# dump DB NAME: what a database says about its mail, for comparison:
# the series as JSON and every message's identity and parsed fields.
dump() {
	"$pc" series --db "$1" --json >"$tmp/$2.series.json"
	python3 -m json.tool "$tmp/$2.series.json" >/dev/null
	sqlite3 "$1" "select msgid, kind, subject, from_addr, author_addr,
		date, in_reply_to, refs, version, idx, total, patch_id
		from messages order by msgid" >"$tmp/$2.messages"
}

# same A B WHAT: dumps A and B agree (a failure is counted).
same() {
	if ! cmp -s "$tmp/$1.series.json" "$tmp/$2.series.json"; then
		fail "$3: series --json differs"
		diff -u "$tmp/$1.series.json" "$tmp/$2.series.json" |
			head -40 >&2 || true
		return 0
	fi
	if ! cmp -s "$tmp/$1.messages" "$tmp/$2.messages"; then
		fail "$3: messages differ"
		diff -u "$tmp/$1.messages" "$tmp/$2.messages" | head -40 >&2 ||
			true
		return 0
	fi
	ok "$3"
}

# The mail: a b4 series and a 38-message lore thread (v11 and v12 of a
# series, with review replies), one message per file, in mbox order.
python3 "$split" "$b4" "$tmp/b4" >/dev/null
python3 "$split" "$thread" "$tmp/thread" >/dev/null
mapfile -t msgs < <(ls "$tmp"/b4/*.eml "$tmp"/thread/*.eml)
total=${#msgs[@]}
python3 "$split" --join "$tmp/all.mbox" "${msgs[@]}"

# A v2 inbox for both lists; no spam filter (none is installed).
public-inbox-init -V2 test "$inbox" http://example.invalid/test \
	list@example.org nvdimm@lists.linux.dev
git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
for f in "${msgs[@]}"; do
	# --no-precheck: some of this mail would fail public-inbox's
	# sanity checks on recipients and dates meant for live delivery.
	if ! ORIGINAL_RECIPIENT=list@example.org \
		public-inbox-mda --no-precheck <"$f" 2>"$tmp/err"; then
		fail "public-inbox-mda rejected $f: $(cat "$tmp/err")"
	fi
done
ncommits=$(git --git-dir="$epoch" rev-list --count HEAD)
if [[ $ncommits -ne $total ]]; then
	fail "the inbox has $ncommits commits for $total messages"
fi
ok "public-inbox v2 archive of $total messages"

# The mbox is the reference. public-inbox-mda adds "List-Id:
# <list.example.org>" to mail that has none (the b4 series), so the mbox
# is read with that list id as the default.
listid=(--list-id list.example.org)
ingest "$tmp/mbox.db" "${listid[@]}" "$tmp/all.mbox"
dump "$tmp/mbox.db" mbox
grep -q "^ingest: read $total, new $total," "$tmp/summary" ||
	fail "mbox: $(cat "$tmp/summary")"

ingest "$tmp/inbox.db" "$inbox"
grep -q "^ingest: read $total, new $total," "$tmp/summary" ||
	fail "inbox: $(cat "$tmp/summary")"
dump "$tmp/inbox.db" inbox
same mbox inbox "inbox directory = mbox"

ingest "$tmp/epoch.db" "$epoch"
dump "$tmp/epoch.db" epoch
same mbox epoch "epoch git/0.git = mbox"

ingest "$tmp/forced.db" --format public-inbox "$inbox"
dump "$tmp/forced.db" forced
same mbox forced "--format public-inbox = mbox"

# Where a message came from: the epoch and its commit.
src=$(sqlite3 "$tmp/inbox.db" 'select source from messages limit 1')
if [[ $src =~ /git/0\.git:[0-9a-f]{40}$ ]]; then
	ok "source is EPOCH:COMMIT ($src)"
else
	fail "source '$src' is not EPOCH:COMMIT"
fi

# Reading the inbox again, or the mbox into the inbox's database, adds
# nothing.
ingest "$tmp/inbox.db" "$tmp/all.mbox"
grep -q "new 0, duplicates $total," "$tmp/summary" ||
	fail "mbox after inbox: $(cat "$tmp/summary")"
ingest "$tmp/inbox.db" "$epoch"
grep -q "new 0, duplicates $total," "$tmp/summary" ||
	fail "epoch after inbox: $(cat "$tmp/summary")"

msgid_of() {
	sed -n 's/^Message-I[Dd]: *<\([^>]*\)>.*/\1/p' "$1" | head -1
}

# public-inbox-learn rm: a `d` commit later in history names the blob of
# the removed message, which stays in history.
rm_file=$tmp/b4/00003.eml
rm_id=$(msgid_of "$rm_file")
public-inbox-learn rm <"$rm_file"
git --git-dir="$epoch" ls-tree HEAD >"$tmp/tree"
if ! grep -q $'\td$' "$tmp/tree"; then
	fail "public-inbox-learn rm made no 'd' commit"
fi
mapfile -t kept < <(printf '%s\n' "${msgs[@]}" | grep -v -x -F "$rm_file")
python3 "$split" --join "$tmp/kept.mbox" "${kept[@]}"
ingest "$tmp/kept.db" "${listid[@]}" "$tmp/kept.mbox"
dump "$tmp/kept.db" kept
ingest "$tmp/rm.db" "$inbox"
grep -q "^ingest: read $((total - 1)), new $((total - 1))," "$tmp/summary" ||
	fail "after rm: $(cat "$tmp/summary")"
dump "$tmp/rm.db" rm
same kept rm "a message removed with public-inbox-learn rm is skipped"
run "$pc" show --db "$tmp/rm.db" --message "$rm_id"
[[ $status -eq 1 ]] || fail "removed <$rm_id> is in the database"

# public-inbox-purge rewrites history: the message's commit now holds an
# empty `m`, which is no mail at all.
purge_file=$tmp/thread/00010.eml
purge_id=$(msgid_of "$purge_file")
public-inbox-purge --all <"$purge_file" >"$tmp/out" 2>"$tmp/err" ||
	fail "public-inbox-purge: $(cat "$tmp/err")"
# (No pipe into grep -q: with pipefail, git's SIGPIPE would fail it.)
git --git-dir="$epoch" log --format=%s >"$tmp/log"
if grep -q '^purged ' "$tmp/log"; then
	mapfile -t kept2 < <(printf '%s\n' "${kept[@]}" |
		grep -v -x -F "$purge_file")
	python3 "$split" --join "$tmp/kept2.mbox" "${kept2[@]}"
	ingest "$tmp/kept2.db" "${listid[@]}" "$tmp/kept2.mbox"
	dump "$tmp/kept2.db" kept2
	ingest "$tmp/purge.db" "$inbox"
	grep -q "^ingest: read $((total - 2)), new $((total - 2))," \
		"$tmp/summary" || fail "after purge: $(cat "$tmp/summary")"
	dump "$tmp/purge.db" purge
	same kept2 purge "a message erased with public-inbox-purge is skipped"
	run "$pc" show --db "$tmp/purge.db" --message "$purge_id"
	[[ $status -eq 1 ]] || fail "purged <$purge_id> is in the database"
else
	fail "public-inbox-purge did not rewrite <$purge_id>"
fi

if ((failures)); then
	echo "$failures check(s) failed" >&2
	exit 1
fi
echo "all checks passed"
