#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.boot: the 6.1 tree built and booted in QEMU with two NVDIMMs
# (kernel-test/run), and the fixture series of kernel-test/fixtures.
#
#   tests/kernel/boot.sh PATCHCLOCK TEST_DATA_DIR
#
# (a) baseline: the verdict is pass and every named check is there and
#     passes (config, build, boot, bus, dimms, regions, labels, fsdax,
#     sector, readback, destroy, clean-log); the JSON has its shape.
# (b) nvdimm-attr.mbox applied with `git am`: pass, including its guest
#     check (extra:nvdimm-attr.check, /sys/block/pmem0/data_offset).
# (c) nvdimm-breakprobe.mbox applied with `git am`: the verdict is fail,
#     exit status 1, and the reason names the failing check (fsdax).
# (d) nvdimm-noapply.mbox does not apply to the baseline.
#
# The series are applied in a sparse `git clone --shared` of the tree
# (drivers/nvdimm and Documentation only) in a temporary directory, then
# fetched into uniquely named branches of the tree, deleted on exit: the
# tree's worktree and HEAD are never touched. Builds are incremental in
# kernel-test/run's cache: about 15-20 s a run once the cache is warm,
# 5-7 min the first time. Exit 77 (skip) only when $PC_KERNEL_TREE is
# unset.
set -euo pipefail

if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
tree=$PC_KERNEL_TREE
top=$(cd "$(dirname "$0")/../.." && pwd)
run=$top/kernel-test/run
fixtures=$top/kernel-test/fixtures

tmp=$(mktemp -d)
branches=()
cleanup() {
	local b
	for b in "${branches[@]}"; do
		git -C "$tree" branch -q -D "$b" >/dev/null 2>&1 || true
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# is JSON JQ-EXPR WANT: the jq expression's raw value must be WANT.
is() {
	local got
	got=$(jq -r "$2" "$tmp/$1")
	if [ "$got" != "$3" ]; then
		fail "$1: $2 is '$got', want '$3'"
	fi
}

# passes JSON CHECK...: each named check is there once and passed.
passes() {
	local j=$1 c
	shift
	for c in "$@"; do
		is "$j" "[.checks[] | select(.name == \"$c\")] | length" 1
		is "$j" ".checks[] | select(.name == \"$c\") | .result" pass
	done
}

# kt JSON WANT_STATUS ARG...: kernel-test/run ARG... --json JSON; its
# exit status must be WANT_STATUS.
kt() {
	local j=$1 want=$2 rc=0
	shift 2
	"$run" --tree "$tree" --json "$tmp/$j" "$@" 2>"$tmp/$j.err" || rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "kernel-test/run $*: exit $rc, want $want: $(tail -n 5 "$tmp/$j.err")"
	fi
	if [ ! -s "$tmp/$j" ]; then
		fail "kernel-test/run $*: no JSON"
		echo '{"checks": []}' >"$tmp/$j"
	fi
}

# A sparse clone of the baseline to apply series in.
git clone -q --shared --no-checkout "$tree" "$tmp/k"
git -C "$tmp/k" sparse-checkout set --no-cone /drivers/nvdimm/ /Documentation/ \
	/MAINTAINERS
git -C "$tmp/k" -c advice.detachedHead=false checkout -q baseline

# branch NAME MBOX: apply MBOX onto the baseline (the cover letter and the
# replies have no diff: --empty=drop) and fetch the result into a new
# branch of the tree, whose name it leaves in $b (not a subshell: the
# EXIT trap must know the branch).
branch() {
	b="pc-test-boot-$$-$1"
	git -C "$tmp/k" checkout -q -B "$1" baseline
	git -C "$tmp/k" -c user.name=patchclock -c user.email=patchclock@localhost \
		am -q --empty=drop "$2"
	branches+=("$b")
	git -C "$tree" fetch -q "$tmp/k" "$1:refs/heads/$b"
}

all_checks=(config build boot bus dimms regions labels fsdax sector readback
	destroy clean-log)

# ---- (a) baseline ---------------------------------------------------------------
kt base.json 0
is base.json .verdict pass
is base.json .reason ""
is base.json .ref baseline
is base.json .commit "$(git -C "$tree" rev-parse 'baseline^{commit}')"
is base.json .tree "$(cd "$tree" && pwd)"
passes base.json "${all_checks[@]}"
is base.json '[.checks[] | select(.result != "pass")] | length' 0
is base.json '.checks | map(has("name") and has("result") and has("detail")) | all' true
for t in config build initramfs boot; do
	is base.json ".timings.$t | type" number
done
is base.json '.console | test("PCDONE ")' true
is base.json '.console | test("Linux version 6\\.1\\.")' true
is base.json '.checks[] | select(.name == "dimms") | .detail | test("^2 DIMMs")' true
is base.json '.checks[] | select(.name == "fsdax") | .detail | test("^/dev/pmem[0-9]+ ")' true
is base.json '.checks[] | select(.name == "sector") | .detail | test("^/dev/pmem[0-9]+s ")' true
[ -f "$(jq -r .build_log "$tmp/base.json")" ] || fail "base.json: build_log is not a file"

# ---- (b) nvdimm-attr: its guest check passes ----------------------------------------
branch attr "$fixtures/nvdimm-attr.mbox"
is_count=$(git -C "$tree" rev-list --count "baseline..$b")
[ "$is_count" -eq 2 ] || fail "nvdimm-attr.mbox: $is_count commits, want 2"
kt attr.json 0 --branch "$b" --guest-check "$fixtures/nvdimm-attr.check"
is attr.json .verdict pass
is attr.json .ref "$b"
passes attr.json "${all_checks[@]}" extra:nvdimm-attr.check
is attr.json '.checks[] | select(.name == "extra:nvdimm-attr.check") | .detail | test("^/sys/block/pmem0/data_offset = [0-9]+ = ")' true

# ---- (c) nvdimm-breakprobe: fails, naming the check ------------------------------------
branch breakprobe "$fixtures/nvdimm-breakprobe.mbox"
kt bp.json 1 --branch "$b"
is bp.json .verdict fail
is bp.json '.reason | test("^check fsdax failed: ")' true
is bp.json '.checks[] | select(.name == "fsdax") | .result' fail
# The reason names a check that is there and failed.
first=$(jq -r '.reason | capture("^check (?<c>[^ ]+) failed").c' "$tmp/bp.json")
is bp.json "[.checks[] | select(.name == \"$first\" and .result == \"fail\")] | length" 1
# The kernel built and booted: the failure is the driver's.
passes bp.json config build boot bus dimms regions labels sector clean-log
is bp.json '.console | test("namespace too small for a pmem disk")' true

# ---- (d) nvdimm-noapply: git am refuses it ----------------------------------------------
git -C "$tmp/k" checkout -q -B noapply baseline
if git -C "$tmp/k" -c user.name=patchclock -c user.email=patchclock@localhost \
	am -q --empty=drop "$fixtures/nvdimm-noapply.mbox" >"$tmp/noapply.err" 2>&1; then
	fail "nvdimm-noapply.mbox applied to the baseline"
else
	grep -q 'patch does not apply' "$tmp/noapply.err" ||
		fail "nvdimm-noapply.mbox: $(cat "$tmp/noapply.err")"
	git -C "$tmp/k" am --abort
fi

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "kernel.boot: all checks passed"
