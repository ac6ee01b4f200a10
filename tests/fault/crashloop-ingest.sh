#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Crash consistency of ingest (issue 15, "the campaign"): an ingest killed
# with SIGKILL at any moment -- while the schema is created, in the middle
# of a batch, between two sources, while series are mapped to MAINTAINERS,
# after the last commit while it closes -- leaves a database that the
# next ingest of the same sources completes, and the end state is exactly
# that of one clean run:
#   - the same messages (Message-IDs, SHA3 of the raw bytes and every
#     parsed column), series (by anchor Message-ID, with their versions
#     and superseded_by), patches and their files, trailers, pull request
#     titles, MAINTAINERS entries and the series' and patches' mapping;
#   - no raw mail that no message or error refers to;
#   - PRAGMA integrity_check says ok, foreign_key_check finds nothing, and
#     the database is back in WAL mode.
# Two rounds, on the real archive tests/data/corpus/lore-nvdimm (2,317 messages):
# the archive as one source (one transaction), and the same mail split in
# four mbox files given as four sources (a commit after each, so that
# kills also land between commits). A final ingest once more stores
# nothing new.
#
# Each round runs campaigns, each on a fresh database: ingest killed
# again and again until a run ends by itself, then once more, then the
# comparison; campaigns go on until PC_CRASH_KILLS kills (default 15)
# have landed in the round. The kill times are drawn with $RANDOM from
# PC_CRASH_SEED (printed; set it to replay a failure), uniformly over the
# length of a clean run and a tenth more. Each kill's effect is printed
# (what the killed run had committed, read from a copy of the files).
#
# usage: crashloop-ingest.sh PATCHCLOCK
set -euo pipefail

pc=$1
here=$(cd "$(dirname "$0")" && pwd)
archive=$here/../data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
for tool in sqlite3 python3 gzip; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed" >&2
		exit 77
	fi
done
if ! sqlite3 :memory: "SELECT sha3('x')" >/dev/null 2>&1; then
	echo "SKIP: this sqlite3 has no sha3() function" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-crashloop-ingest.XXXXXX")
victim=
cleanup() {
	[[ -z $victim ]] || kill -9 "$victim" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
# shellcheck source=tests/support/checks.sh
. "$here/../support/checks.sh"

seed=${PC_CRASH_SEED:-$(((($$ << 15) ^ $(date +%s)) & 0x7fffffff))}
kills=${PC_CRASH_KILLS:-15}
echo "crashloop-ingest: PC_CRASH_SEED=$seed PC_CRASH_KILLS=$kills"
RANDOM=$seed

# A small tree whose MAINTAINERS covers the list's main directories, and
# which holds every file the archive's patches touch: ingest maps series
# to entries in a transaction of its own, after the mail.
tree=$tmp/tree
mkdir -p "$tree"
gzip -dc "$archive" | python3 -c '
import os, sys
for line in sys.stdin.buffer:
    if not line.startswith(b"+++ b/"):
        continue
    p = line[6:].rstrip(b"\r\n").decode("utf-8", "replace")
    if not p or p.startswith("/") or ".." in p.split("/"):
        continue
    p = os.path.join(sys.argv[1], p)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "a").close()
' "$tree"
printf '%s\n' "LIBNVDIMM" "M:	Dan Williams <dan.j.williams@intel.com>" \
	"L:	nvdimm@lists.linux.dev" "S:	Supported" "F:	drivers/nvdimm/" \
	"F:	include/linux/libnvdimm.h" "" \
	"DAX" "M:	Dan Williams <dan.j.williams@intel.com>" "S:	Supported" \
	"F:	drivers/dax/" "F:	fs/dax.c" "" \
	"CXL" "M:	Ben Widawsky <ben.widawsky@intel.com>" "S:	Supported" \
	"F:	drivers/cxl/" "" \
	"XFS" "M:	Darrick J. Wong <djwong@kernel.org>" "S:	Supported" \
	"F:	fs/xfs/" >"$tree/MAINTAINERS"

# The same mail in four mboxrd files, cut at From_ lines.
mkdir "$tmp/parts"
python3 - "$archive" "$tmp/parts" <<'PY'
import gzip, re, sys
from_ = re.compile(rb"^From \S+ +\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}\r?$")
lines = gzip.open(sys.argv[1]).read().split(b"\n")
starts = [i for i, l in enumerate(lines)
          if from_.match(l) and (i == 0 or lines[i - 1] in (b"", b"\r"))]
n = len(starts)
cuts = [starts[n * k // 4] for k in range(4)] + [len(lines)]
for k in range(4):
    chunk = lines[cuts[k]:cuts[k + 1]]
    with open("%s/part%d.mbox" % (sys.argv[2], k + 1), "wb") as f:
        f.write(b"\n".join(chunk) + (b"\n" if k < 3 else b""))
PY

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# sqlite3 on DB, with a list of the columns of TABLE but those named.
cols() { # DB TABLE EXCLUDED...
	local db=$1 t=$2 ex
	shift 2
	ex=$(printf "'%s'," "$@")
	sqlite3 "$db" "SELECT group_concat('t.' || name, ', ')
		FROM pragma_table_info('$t') WHERE name NOT IN (${ex%,})"
}

# What must be the same, by natural keys: a message by its Message-ID, a
# series by its anchor's; row ids are replaced by those keys.
dump() { # DB OUT
	local db=$1 m s
	m='(SELECT msgid FROM messages WHERE id = '
	s='(SELECT a.msgid FROM series x JOIN messages a ON a.id = x.anchor_id WHERE x.id = '
	sqlite3 -batch "$db" >"$2" <<SQL
.mode quote
PRAGMA user_version;
SELECT 'series anchors not unique', count(*) - count(DISTINCT anchor_id) FROM series;
SELECT 'messages', t.msgid, hex(sha3(r.bytes)), r.size, r.compression,
	$(cols "$db" messages id msgid raw_id series_id), ${s}t.series_id)
	FROM messages t JOIN raw r ON r.id = t.raw_id ORDER BY t.msgid;
SELECT 'raw rows', count(*) FROM raw;
SELECT 'raw unreferenced', count(*) FROM raw
	WHERE id NOT IN (SELECT raw_id FROM messages)
	AND id NOT IN (SELECT raw_id FROM ingest_errors WHERE raw_id IS NOT NULL);
SELECT 'series', ${m}t.anchor_id), ${m}t.cover_id), ${s}t.superseded_by),
	$(cols "$db" series id anchor_id cover_id superseded_by)
	FROM series t ORDER BY 2;
SELECT 'patch_files', ${m}t.message_id), $(cols "$db" patch_files message_id)
	FROM patch_files t ORDER BY 2, t.pos;
SELECT 'trailers', ${m}t.message_id), ${m}t.target_id),
	$(cols "$db" trailers id message_id target_id)
	FROM trailers t ORDER BY 2, t.pos;
SELECT 'ingest_errors', (SELECT hex(sha3(bytes)) FROM raw WHERE id = t.raw_id),
	$(cols "$db" ingest_errors id raw_id)
	FROM ingest_errors t ORDER BY 2, 3, 4, 5;
SELECT 'pull_titles', ${m}t.message_id), t.title FROM pull_titles t
	ORDER BY 2, 3;
SELECT 'maintainers_state', $(cols "$db" maintainers_state id loaded_at)
	FROM maintainers_state t;
SELECT 'maint_entries', t.* FROM maint_entries t ORDER BY t.name;
SELECT 'maint_people', t.* FROM maint_people t ORDER BY t.entry, t.pos;
SELECT 'series_entries', ${s}t.series_id), $(cols "$db" series_entries series_id)
	FROM series_entries t ORDER BY 2, t.entry;
SELECT 'patch_entries', ${m}t.message_id), t.entry FROM patch_entries t
	ORDER BY 2, 3;
PRAGMA foreign_key_check;
SQL
	# Every other table: as many rows.
	sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' ORDER BY name" |
		while read -r t; do
			echo "rows $t $(sqlite3 "$db" "SELECT count(*) FROM \"$t\"")"
		done >>"$2"
}

# The state an ingest killed at a moment left, read from a copy of the
# files (so that the next ingest, not this look, recovers the journal).
phase() { # DB FULL LATEST
	local db=$1 full=$2 latest=$3 p=$tmp/peek/pc.db v n u f
	rm -rf "$tmp/peek"
	mkdir "$tmp/peek"
	if [[ ! -s $db ]]; then
		echo "before the schema"
		return
	fi
	for f in "$db" "$db"-journal "$db"-wal; do
		[[ ! -e $f ]] || cp "$f" "$p${f#"$db"}"
	done
	v=$(sqlite3 "$p" "PRAGMA user_version")
	if ((v < latest)); then
		echo "in the schema (version $v)"
		return
	fi
	n=$(sqlite3 "$p" "SELECT count(*) FROM messages")
	u=$(sqlite3 "$p" "SELECT count(*) FROM series WHERE mapped_hash IS NULL")
	if ((n == 0)); then
		echo "in the first batch"
	elif ((n < full)); then
		echo "between batches ($n stored)"
	elif ((u > 0)); then
		echo "in the mapping ($u series unmapped)"
	else
		echo "after the last commit"
	fi
}

# One clean ingest into a reference database; then campaigns, each on a
# database of its own: ingest again and again, each run killed at a
# random moment, until a run ends by itself; then once more; then the
# database must be the reference's. Campaigns go on until PC_CRASH_KILLS
# kills have landed.
round() { # NAME SOURCE...
	local name=$1 ref=$tmp/$1-ref.db db t0 t1 ms full latest out
	local d rc tried=0 landed=0 runs=0 camp=0 p k
	local -A phases=()
	shift
	t0=$(now_ms)
	"$pc" ingest --db "$ref" --tree "$tree" -q "$@" >"$tmp/out" 2>"$tmp/err" ||
		check "$name: clean ingest" "$? $(cat "$tmp/err")" 0
	t1=$(now_ms)
	ms=$((t1 - t0))
	full=$(sqlite3 "$ref" "SELECT count(*) FROM messages")
	latest=$(sqlite3 "$ref" "PRAGMA user_version")
	echo "$name: clean ingest $ms ms: $(cat "$tmp/out")"
	check "$name: reference integrity" \
		"$(sqlite3 "$ref" "PRAGMA integrity_check")" ok
	dump "$ref" "$tmp/$name-ref.dump"

	t0=$(now_ms)
	while ((landed < kills)); do
		camp=$((camp + 1))
		db=$tmp/$name-$camp.db
		for ((k = 1; ; k++)); do
			# Over the length of a clean run, and a tenth more;
			# after 30 kills, no kill (each run must end some day).
			d=$((RANDOM * (ms + ms / 10) / 32768))
			"$pc" ingest --db "$db" --tree "$tree" -q "$@" \
				>/dev/null 2>"$tmp/err" &
			victim=$!
			runs=$((runs + 1))
			if ((k <= 30)); then
				sleep "$((d / 1000)).$(printf '%03d' $((d % 1000)))"
				kill -9 "$victim" 2>/dev/null || true
				tried=$((tried + 1))
			fi
			rc=0
			wait "$victim" 2>/dev/null || rc=$?
			victim=
			((rc == 137)) || break
			landed=$((landed + 1))
			p=$(phase "$db" "$full" "$latest")
			phases[$p]=$((${phases[$p]:-0} + 1))
			echo "$name: campaign $camp: kill at $d ms: $p"
		done
		echo "$name: campaign $camp: run $k ended by itself ($d ms drawn)"
		check "$name: campaign $camp: the run that ended" \
			"$rc $(cat "$tmp/err")" "0 "
		runs=$((runs + 1))
		out=$("$pc" ingest --db "$db" --tree "$tree" -q "$@" 2>&1) ||
			check "$name: campaign $camp: once more" "$? $out" 0
		contains "$name: campaign $camp: once more stores nothing" \
			"$out" "new 0,"
		check "$name: campaign $camp: integrity" \
			"$(sqlite3 "$db" "PRAGMA integrity_check")" ok
		check "$name: campaign $camp: journal mode" \
			"$(sqlite3 "$db" "PRAGMA journal_mode")" wal
		dump "$db" "$tmp/$name.dump"
		if ! cmp -s "$tmp/$name-ref.dump" "$tmp/$name.dump"; then
			check "$name: campaign $camp: as one clean run" differs same
			diff "$tmp/$name-ref.dump" "$tmp/$name.dump" |
				head -n 40 >&2
		fi
		rm -f "$db" "$db"-*
	done
	t1=$(now_ms)
	echo "$name: $tried kills tried, $landed landed, $((tried - landed)) too late (the run had ended), $camp campaigns, $runs runs in $((t1 - t0)) ms; each: $full messages, $(sqlite3 "$ref" "SELECT count(*) FROM series") series, $(sqlite3 "$ref" "SELECT count(*) FROM trailers") trailers, $(wc -l <"$tmp/$name-ref.dump") lines compared"
	for p in "${!phases[@]}"; do
		echo "$name:   ${phases[$p]} killed $p"
	done | sort -t' ' -k3
}

round whole "$archive"
round parts "$tmp"/parts/part[1-4].mbox

# Four sources or one: the same mail, the same result (but for the source
# each message was read from).
for r in whole parts; do
	sqlite3 "$tmp/$r-ref.db" "UPDATE messages SET source = NULL;
		UPDATE ingest_errors SET source = ''"
	dump "$tmp/$r-ref.db" "$tmp/$r-nosource.dump"
done
if ! cmp -s "$tmp/whole-nosource.dump" "$tmp/parts-nosource.dump"; then
	check "one source or four: the same" differs same
	diff "$tmp/whole-nosource.dump" "$tmp/parts-nosource.dump" |
		head -n 40 >&2
fi

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed (PC_CRASH_SEED=$seed)" >&2
	exit 1
fi
echo "crashloop-ingest: all checks passed"
