#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.readme: the README's commands run as written, like a doctest.
# Each command of "Five minutes: a maintainer" runs with the built
# program for `patchclock`, the prepared tree for
# ~/.cache/patchclock/linux-6.1 and the repository for its relative
# paths; each must exit 0 and print something. The two commands of "Two
# commands" are CI itself (./contrib/test) and fresh.debian12
# (./contrib/demo); the list operator's install is integration.install.
#
# usage: readme.sh PATCHCLOCK TEST_DATA_DIR
set -euo pipefail

pc=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "SKIP: PC_KERNEL_TREE is unset (kernel-test/prepare-tree makes the tree)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-readme.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PATCHCLOCK_PAGER=cat

# The indented lines of a section that start with "patchclock ".
block() {
	awk -v s="## $1" '$0 == s {on = 1; next} /^## / {on = 0}
		on && /^    patchclock / {sub(/^    /, ""); print}' "$top/README.md"
}

mapfile -t cmds < <(block "Five minutes: a maintainer")
if [ "${#cmds[@]}" -lt 5 ]; then
	echo "FAIL: found ${#cmds[@]} commands in the README's maintainer section, want 5" >&2
	exit 1
fi
fails=0
for c in "${cmds[@]}"; do
	line=${c//\~\/.cache\/patchclock\/linux-6.1/$PC_KERNEL_TREE}
	line=${line//tests\/data\//$top/tests/data/}
	line=${line/#patchclock /$pc }
	# The README's quoting, as a shell reads it.
	set +e
	(cd "$tmp" && eval "$line") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	if [ "$rc" -ne 0 ] || [ ! -s "$tmp/out" ]; then
		echo "FAIL: README: '$c' exited $rc, printed $(wc -l <"$tmp/out") lines" >&2
		sed 's/^/  | /' "$tmp/err" | head -n 10 >&2
		fails=$((fails + 1))
	else
		echo "ok: $c ($(wc -l <"$tmp/out") lines)"
	fi
done
# What they say: the entry's series, Dan's own, the profile's cadence and
# the series the lore link names.
grep -q 'papr_scm' "$tmp/out" || {
	echo "FAIL: README: show of the lore link is not the papr_scm series" >&2
	fails=$((fails + 1))
}
# Piped, the listing names the entry whole, not cut to its column.
(cd "$tmp" && "$pc" status --db nvdimm.db --tree "$PC_KERNEL_TREE" \
	--now 2021-08-01) >"$tmp/out" 2>/dev/null
grep -q ' LIBNVDIMM: NON-VOLATILE MEMORY DEVICE SUBSYSTEM ' "$tmp/out" || {
	echo "FAIL: status, piped, does not name the entry whole" >&2
	fails=$((fails + 1))
}
exit $((fails > 0))
