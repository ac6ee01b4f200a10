#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the kernel tree's branches say: a patch whose `git patch-id
# --stable` is on a branch of the tree (a git repository) was applied,
# however silent its thread; --branches chooses the refs; `patchclock
# fetch` fetches the tree's remote and fast-forwards its checked-out
# branch (and MAINTAINERS is then read anew). The trees are real git
# repositories made here with git; patchclock reads them with libgit2.
#
# usage: branches.sh PATCHCLOCK TEST_DATA_DIR
set -euo pipefail

if [[ $# -ne 2 ]]; then
	echo "usage: $0 PATCHCLOCK TEST_DATA_DIR" >&2
	exit 64
fi
pc=$1
for tool in jq git sqlite3; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed (contrib/install-deps installs it)" >&2
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-branches.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.com
export GIT_COMMITTER_NAME="May Tainer" GIT_COMMITTER_EMAIL=may@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp
git config --global init.defaultBranch master
git config --global advice.detachedHead false
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

# The upstream tree: MAINTAINERS and one driver.
up=$tmp/upstream
git init -q "$up"
mkdir -p "$up/drivers/widget"
cat >"$up/MAINTAINERS" <<'EOF'
WIDGET
M:	May Tainer <may@example.org>
S:	Maintained
F:	drivers/widget/
EOF
printf 'a\nc\n' >"$up/drivers/widget/w.c"
printf 'x\nz\n' >"$up/drivers/widget/v.c"
git -C "$up" add -A
GIT_COMMITTER_DATE="2024-01-01T00:00:00Z" GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" \
	git -C "$up" commit -q -m "widget: the driver"

# A series of two patches, posted Fri 2024-01-05 as format-patch makes
# them; neither is on any branch yet.
git -C "$up" checkout -q -b topic
printf 'a\nb\nc\n' >"$up/drivers/widget/w.c"
git -C "$up" commit -q -am "widget: spin" -m "Make it spin."
printf 'x\ny\nz\n' >"$up/drivers/widget/v.c"
git -C "$up" commit -q -am "widget: turn" -m "Make it turn."
git -C "$up" format-patch -q -2 -o "$tmp/out" --thread=shallow \
	--no-cover-letter
git -C "$up" checkout -q master
git -C "$up" branch -q -D topic
n=0
for p in "$tmp"/out/*.patch; do
	n=$((n + 1))
	sed -e "s/^Date: .*/Date: Fri, 05 Jan 2024 10:0$n:00 +0000/" \
		-e "1a Message-ID: <p$n@example.com>" "$p"
done >"$tmp/list.mbox"
expected_pid=$(git patch-id --stable <"$tmp/out/0001-widget-spin.patch" | cut -d' ' -f1)

# The maintainer's clone, which patchclock reads.
tree=$tmp/linux
git clone -q "$up" "$tree"

db=$tmp/pc.db
"$pc" ingest --db "$db" --tree "$tree" "$tmp/list.mbox" >/dev/null
status() {
	"$pc" status --db "$db" --tree "$tree" --all --json "$@"
}
state_of() { # FILE SUBJECT
	jq -r --arg s "$2" '.series[] | select(.subject | contains($s)) |
		"\(.state) \(.hold // "-")"' "$1"
}

# Nothing applied: it waits, overdue on Mon 01-15.
status --now 2024-01-15 >"$tmp/s1.json"
check "before" "$(state_of "$tmp/s1.json" spin)" "new -"
check "commits read from the clone" \
	"$(sqlite3 "$db" 'SELECT count(*) FROM tree_commits')" 0

# The maintainer applies "spin" upstream on Wed 01-10 (git am: a new
# commit, same patch-id) without a word on the list; the clone fetches.
GIT_COMMITTER_DATE="2024-01-10T09:00:00Z" \
	git -C "$up" am -q "$tmp/out/0001-widget-spin.patch"
"$pc" fetch --tree "$tree" >"$tmp/fetch.out"
contains "fetch fast-forwards" "$(cat "$tmp/fetch.out")" "fast-forwarded to"
check "the work tree moved" "$(git -C "$tree" rev-parse HEAD)" \
	"$(git -C "$up" rev-parse HEAD)"
status --now 2024-01-15 >"$tmp/s2.json"
# Patch 1 is applied, patch 2 is not: someone acted (no mail), but the
# series is not accepted.
check "patch 1 applied by patch-id" \
	"$(state_of "$tmp/s2.json" spin)" "new already-applied"
check "partly accepted" \
	"$(jq -r '.series[0].flags | index("partly-accepted") != null' "$tmp/s2.json")" true
check "patch 2 not accepted" \
	"$(jq -r '.series[0].patches[1].accepted_at' "$tmp/s2.json")" null
check "accepted at the commit's time" \
	"$(jq -r '.series[] | select(.subject | contains("spin")) | .patches[0].accepted_at' "$tmp/s2.json")" \
	"2024-01-10T09:00:00Z"
# status wrote nothing; a judging pass that stores (digest) keeps the
# commits it read.
check "status stored no commit" \
	"$(sqlite3 "$db" 'SELECT count(*) FROM tree_commits')" 0
"$pc" digest --db "$db" --tree "$tree" --now 2024-01-15 --no-replies \
	--from pc@patchclock.test >/dev/null
check "patch-id as git computes it" \
	"$(sqlite3 "$db" "SELECT patch_id FROM tree_commits tc JOIN messages m USING (patch_id) WHERE m.msgid = 'p1@example.com'")" \
	"$expected_pid"
# Judged at a time before the commit, it still waited then.
status --now 2024-01-09 --full >"$tmp/s3.json"
check "not yet applied on 01-09" "$(state_of "$tmp/s3.json" spin)" "new -"

# A branch that is not read does not count: --branches names the refs.
db2=$tmp/pc2.db
"$pc" ingest --db "$db2" --tree "$tree" "$tmp/list.mbox" >/dev/null
"$pc" status --db "$db2" --tree "$tree" --all --json --now 2024-01-15 \
	--branches none >"$tmp/s4.json"
check "--branches none" "$(state_of "$tmp/s4.json" spin)" "new -"
"$pc" status --db "$db2" --tree "$tree" --all --json --now 2024-01-15 \
	--branches 'refs/tags/*' >"$tmp/s5.json"
check "--branches refs/tags/*" "$(state_of "$tmp/s5.json" spin)" "new -"
"$pc" status --db "$db2" --tree "$tree" --all --json --now 2024-01-15 \
	--branches 'refs/remotes/origin/*' >"$tmp/s6.json"
check "--branches refs/remotes/origin/*" \
	"$(state_of "$tmp/s6.json" spin)" "new already-applied"

# Patch 2 follows on Thu 01-11: the series is accepted then.
GIT_COMMITTER_DATE="2024-01-11T08:00:00Z" \
	git -C "$up" am -q "$tmp/out/0002-widget-turn.patch"
"$pc" fetch --tree "$tree" >/dev/null
status --now 2024-01-15 >"$tmp/s7.json"
check "both applied" "$(state_of "$tmp/s7.json" spin)" \
	"accepted already-applied"
check "accepted with its last patch" \
	"$(jq -r '.series[0].patches[1].accepted_at' "$tmp/s7.json")" \
	"2024-01-11T08:00:00Z"

# A MAINTAINERS change upstream reaches the clone by fetch.
printf 'R:\tRita Viewer <rita@example.org>\n' >>"$up/MAINTAINERS"
GIT_COMMITTER_DATE="2024-01-11T09:00:00Z" git -C "$up" commit -q -am \
	"MAINTAINERS: add a reviewer"
"$pc" fetch --tree "$tree" >/dev/null
contains "MAINTAINERS updated" "$(cat "$tree/MAINTAINERS")" "rita@example.org"

# A local change in the way: the fetch is kept, the work tree is not
# touched, and the command says what to do.
printf 'local\n' >>"$tree/MAINTAINERS"
printf 'M:\tOther <o@example.org>\n' >>"$up/MAINTAINERS"
GIT_COMMITTER_DATE="2024-01-12T09:00:00Z" git -C "$up" commit -q -am \
	"MAINTAINERS: another"
if "$pc" fetch --tree "$tree" >/dev/null 2>"$tmp/ff.err"; then
	check "fast-forward over a local change" succeeded failed
fi
contains "says what to do" "$(cat "$tmp/ff.err")" "commit or stash the local changes"
contains "local change kept" "$(cat "$tree/MAINTAINERS")" "local"
check "origin/master fetched" "$(git -C "$tree" rev-parse origin/master)" \
	"$(git -C "$up" rev-parse HEAD)"

# Errors: no remote, no repository.
if "$pc" fetch --tree "$tree" --remote nosuch >/dev/null 2>"$tmp/nr.err"; then
	check "fetch from a missing remote" succeeded failed
fi
contains "missing remote" "$(cat "$tmp/nr.err")" "has no remote 'nosuch'"
mkdir "$tmp/plain"
if "$pc" fetch --tree "$tmp/plain" >/dev/null 2>"$tmp/np.err"; then
	check "fetch into no repository" succeeded failed
fi
contains "no repository" "$(cat "$tmp/np.err")" "cannot open as a git repository"

# The daemon does the same with fetch = origin: a fresh clone, a new
# commit upstream, and patchclockd fetches, fast-forwards and reads it.
pcd=$(dirname "$pc")/patchclockd
tree3=$tmp/linux3
git clone -q "$up" "$tree3"
printf 'a\nb\nc\nd\n' >"$up/drivers/widget/w.c"
GIT_COMMITTER_DATE="2024-01-13T09:00:00Z" git -C "$up" commit -q -am \
	"widget: more"
mkdir -p "$tmp/spool/new" "$tmp/spool/cur" "$tmp/spool/tmp"
cat >"$tmp/d.conf" <<CONF
[general]
database = $tmp/pc3.db
tree = $tree3
fetch = origin
fetch_every = 60

# The history read is the last months before the clock's now.
[clock]
start = 2024-01-14 00:00

[source "spool"]
type = maildir
path = $tmp/spool
poll = 1
CONF
"$pcd" -d -f "$tmp/d.conf" 2>"$tmp/daemon.log" &
dpid=$!
for _ in $(seq 100); do
	grep -q "fast-forwarded" "$tmp/daemon.log" && break
	sleep 0.1
done
for _ in $(seq 50); do
	[[ $(sqlite3 "$tmp/pc3.db" 'SELECT count(*) FROM tree_commits' 2>/dev/null || echo 0) -ge 5 ]] && break
	sleep 0.1
done
kill -TERM "$dpid"
wait "$dpid" || check "daemon exit status" "$?" 0
contains "daemon fetched" "$(cat "$tmp/daemon.log")" "fast-forwarded to"
check "daemon's tree moved" "$(git -C "$tree3" rev-parse HEAD)" \
	"$(git -C "$up" rev-parse HEAD)"
# Every non-merge, non-root commit of the branches read, once each.
check "daemon read the branches" \
	"$(sqlite3 "$tmp/pc3.db" 'SELECT count(*) FROM tree_commits')" 5

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "branches: all checks passed"
