#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The repository alone passes its tests: clones the repository (what is
# committed at HEAD) into an empty directory, with nothing beside it (no
# ../shared), builds it there and runs its unit and corpus tests, which
# read every mail they need from the clone's tests/data.
#
# usage: clone.sh SOURCE_DIR
set -euo pipefail

src=$1
for tool in git cmake ctest; do
	if ! command -v "$tool" >/dev/null; then
		echo "SKIP: $tool is not installed" >&2
		exit 77
	fi
done
if ! git -C "$src" rev-parse --verify -q HEAD >/dev/null; then
	echo "SKIP: $src is not a git repository with a commit" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-clone.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

mkdir "$tmp/empty"
git clone -q "$src" "$tmp/empty/patchclock"
if [[ -e $tmp/empty/shared ]]; then
	check "nothing beside the clone" present absent
fi
cmake -S "$tmp/empty/patchclock" -B "$tmp/build" -DPC_WERROR=ON -DPC_TESTS=ON >/dev/null
cmake --build "$tmp/build" -j"$(nproc)" >"$tmp/build.log" 2>&1 ||
	{ tail -n 30 "$tmp/build.log" >&2; check "build" failed ok; exit 1; }
set +e
ctest --test-dir "$tmp/build" -j"$(nproc)" -L 'unit|corpus' \
	--output-on-failure >"$tmp/ctest.log" 2>&1
rc=$?
set -e
if ((rc != 0)); then
	# What each failed test said (cmocka's lines), then the summary:
	# the summary alone names a test but not why it failed.
	grep -a -E '\[  (ERROR|FAILED) +\]|\[ +LINE +\]|Failure!' \
		"$tmp/ctest.log" | head -n 40 >&2 || true
	tail -n 20 "$tmp/ctest.log" >&2
fi
check "unit and corpus tests in the clone" "$rc" 0
ran=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$tmp/ctest.log" |
	tail -n 1)
echo "clone: $ran"
# No test was skipped for want of data outside the clone.
check "no test skipped" "$(grep -c 'Not Run\|Skipped' "$tmp/ctest.log" ||
	true)" 0
exit $((fails > 0))
