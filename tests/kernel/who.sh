#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `patchclock who` end to end on the kernel tree: the same lines as the
# tree's scripts/get_maintainer.pl for files (with and without -f),
# directories, patches (as arguments and on standard input), --roles;
# --json; how the tree is found; errors. The exhaustive comparison of the
# mapping itself is kernel.maintainers (test_maintainers.c); this checks
# the command around it. Lines are compared as sets where the script's
# order of tied entries is random, exactly otherwise.
#
# usage: who.sh PATCHCLOCK TEST_DATA_DIR   (ctest passes both)
set -euo pipefail

pc=$1
data=$2
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "PC_KERNEL_TREE is not set: skipping" >&2
	exit 77
fi
tree=$PC_KERNEL_TREE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

gm() {
	(cd "$tree" && HOME=$tmp perl scripts/get_maintainer.pl --no-git \
		--no-git-fallback "$@")
}

# same_set NAME OURS THEIRS: the same lines, in any order.
same_set() {
	if ! diff <(sort "$2") <(sort "$3") >"$tmp/diff"; then
		echo "FAIL $1:" >&2
		cat "$tmp/diff" >&2
		fail=1
	else
		echo "ok   $1 ($(wc -l <"$2") lines)"
	fi
}

# same NAME OURS THEIRS: the same lines in the same order.
same() {
	if ! diff "$2" "$3" >"$tmp/diff"; then
		echo "FAIL $1:" >&2
		cat "$tmp/diff" >&2
		fail=1
	else
		echo "ok   $1"
	fi
}

# no_ties ARGS...: no two entries placed by the same path share a depth.
no_ties() {
	"$pc" who --tree "$tree" --json "$@" 2>/dev/null |
		jq -e '[.entries[] | select(.keyword_only | not) | [.file, .depth]] |
			(length == (unique | length))' >/dev/null
}

check() {
	if "$@" >/dev/null; then
		echo "ok   ${*:2}"
	else
		echo "FAIL ${*:2}" >&2
		fail=1
	fi
}

"$pc" who --help >"$tmp/help"
check grep -q '^usage: patchclock who' "$tmp/help"

# Files, -f and not (git tracks them, so the script takes them as
# files), and a directory.
for f in drivers/nvdimm/pmem.c fs/dax.c include/linux/libnvdimm.h \
	Documentation/devicetree/bindings/iio/adc/adi,ad7124.yaml \
	arch/arm/boot/dts/vexpress-v2m.dtsi MAINTAINERS drivers/nvdimm; do
	"$pc" who --tree "$tree" -f "$f" >"$tmp/ours"
	gm --no-rolestats -f "$f" >"$tmp/theirs"
	same_set "-f $f" "$tmp/ours" "$tmp/theirs"
	"$pc" who --tree "$tree" "$f" >"$tmp/ours2"
	same "$f without -f" "$tmp/ours2" "$tmp/ours"
	"$pc" who --tree "$tree" --roles -f "$f" >"$tmp/ours"
	sed 's/ (.*)$//' "$tmp/ours" >"$tmp/stripped"
	same "--roles -f $f, roles stripped" "$tmp/stripped" "$tmp/ours2"
	# Which entry names a person depends on the script's random order of
	# tied entries: compare when nothing ties (test_maintainers.c tries
	# the orders).
	if no_ties "$f"; then
		gm -f "$f" >"$tmp/theirs"
		same_set "--roles -f $f" "$tmp/ours" "$tmp/theirs"
	fi
done

# Patches: as an argument, on standard input, and with roles.
for p in "$data"/seeds/00[234]-*.patch; do
	cp "$p" "$tmp/p.patch"
	"$pc" who --tree "$tree" "$tmp/p.patch" >"$tmp/ours"
	gm --no-rolestats "$tmp/p.patch" >"$tmp/theirs"
	same_set "patch $(basename "$p")" "$tmp/ours" "$tmp/theirs"
	"$pc" who --tree "$tree" <"$tmp/p.patch" >"$tmp/ours2"
	same "stdin $(basename "$p")" "$tmp/ours2" "$tmp/ours"
	"$pc" who --tree "$tree" - <"$tmp/p.patch" >"$tmp/ours2"
	same "'-' $(basename "$p")" "$tmp/ours2" "$tmp/ours"
	"$pc" who --tree "$tree" --roles "$tmp/p.patch" >"$tmp/ours"
	if no_ties "$tmp/p.patch"; then
		gm "$tmp/p.patch" >"$tmp/theirs"
		same_set "--roles patch $(basename "$p")" "$tmp/ours" \
			"$tmp/theirs"
	fi
done

# Several arguments in one call.
"$pc" who --tree "$tree" -f drivers/nvdimm/btt.c fs/dax.c mm/memory.c \
	>"$tmp/ours"
gm --no-rolestats -f drivers/nvdimm/btt.c fs/dax.c mm/memory.c \
	>"$tmp/theirs"
same_set "three files" "$tmp/ours" "$tmp/theirs"

# --json: the entries, their profile, the same lines.
"$pc" who --tree "$tree" --json -f drivers/nvdimm/pmem.c >"$tmp/json"
check jq -e '.entries[0].name == "LIBNVDIMM PMEM: PERSISTENT MEMORY DRIVER"
	and .entries[0].depth == 3 and .entries[0].keyword_only == false
	and .entries[0].role == "supporter"
	and (.maintainers_sha256 | length) == 64' "$tmp/json"
check jq -e '[.entries[] | select(.name ==
	"LIBNVDIMM: NON-VOLATILE MEMORY DEVICE SUBSYSTEM")][0].profiles ==
	["Documentation/nvdimm/maintainer-entry-profile.rst"]' "$tmp/json"
jq -r '.lines[].text' "$tmp/json" >"$tmp/ours"
"$pc" who --tree "$tree" -f drivers/nvdimm/pmem.c >"$tmp/theirs"
same "--json lines" "$tmp/ours" "$tmp/theirs"
check jq -e '[.entries[].lines[]] | length > 0' "$tmp/json"
cp "$tmp/json" "$tmp/pmem.json"
printf 'Subject: x\n\nriscv and pidfd\n' >"$tmp/k.eml"
"$pc" who --tree "$tree" --json "$tmp/k.eml" >"$tmp/json" 2>/dev/null
check jq -e '[.entries[] | select(.keyword_only and .depth == null) | .name] ==
	["PIDFD API", "RISC-V ARCHITECTURE"]' "$tmp/json"
# Both are doc/json.md's Who; a patch's "--- /dev/null" is no file.
check python3 "$(dirname "$0")/../support/jsondoc.py" \
	"$(dirname "$0")/../../doc/json.md" Who "$tmp/pmem.json" "$tmp/json"
"$pc" who --tree "$tree" --json "$(dirname "$0")/../data/seeds/004-patch-libnvdimm-maintainers-subsystem-profile.patch" >"$tmp/json"
check jq -e '.files | index("dev/null") == null' "$tmp/json"

# The compiled MAINTAINERS in the cache: the first call writes it, the
# next ones map it; the same lines, and no cache at all is no error.
export XDG_CACHE_HOME=$tmp/cache
printf 'hello\n' >"$tmp/hello.txt"
p=$data/seeds/004-patch-libnvdimm-maintainers-subsystem-profile.patch
gm --no-rolestats "$p" >"$tmp/theirs"
PATCHCLOCK_DEBUG=1 "$pc" who --tree "$tree" "$p" >"$tmp/ours" 2>"$tmp/err"
check grep -q "cache written" "$tmp/err"
same_set "cache written" "$tmp/ours" "$tmp/theirs"
PATCHCLOCK_DEBUG=1 "$pc" who --tree "$tree" "$p" >"$tmp/ours" 2>"$tmp/err"
check grep -q "from the cache" "$tmp/err"
same_set "from the cache" "$tmp/ours" "$tmp/theirs"
XDG_CACHE_HOME=$tmp/hello.txt PATCHCLOCK_DEBUG=1 "$pc" who --tree "$tree" \
	"$p" >"$tmp/ours" 2>"$tmp/err"
check grep -q "no cache" "$tmp/err"
same_set "no cache" "$tmp/ours" "$tmp/theirs"

# The tree: $PC_KERNEL_TREE, else the current directory.
"$pc" who -f drivers/nvdimm/pmem.c >"$tmp/ours"
"$pc" who --tree "$tree" -f drivers/nvdimm/pmem.c >"$tmp/theirs"
same "tree from \$PC_KERNEL_TREE" "$tmp/ours" "$tmp/theirs"
(cd "$tree" && env -u PC_KERNEL_TREE "$pc" who -f drivers/nvdimm/pmem.c) \
	>"$tmp/ours"
same "tree from the current directory" "$tmp/ours" "$tmp/theirs"
(cd "$tree/drivers" && env -u PC_KERNEL_TREE "$pc" who --tree .. \
	-f nvdimm/pmem.c) >"$tmp/ours"
same "path relative to a directory in the tree" "$tmp/ours" "$tmp/theirs"

# Errors say what to do.
rc=0
(cd "$tmp" && env -u PC_KERNEL_TREE "$pc" who -f x.c) 2>"$tmp/err" || rc=$?
check test "$rc" = 64
check grep -q -- '--tree DIR' "$tmp/err"
rc=0
"$pc" who --tree "$tree" -f no/such/file.c 2>"$tmp/err" || rc=$?
check test "$rc" = 1
check grep -q "not found in the tree" "$tmp/err"
printf 'hello\n' >"$tmp/hello.txt"
"$pc" who --tree "$tree" "$tmp/hello.txt" >"$tmp/ours" 2>"$tmp/err"
check grep -q "doesn't appear to be a patch" "$tmp/err"
rc=0
"$pc" who --tree "$tree" --bogus 2>/dev/null || rc=$?
check test "$rc" = 64

exit "$fail"
