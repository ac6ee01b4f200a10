#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# MAINTAINERS or a profile that is not a regular file (a FIFO, /dev/zero,
# a directory) is refused at once with a message saying so; nothing
# hangs waiting for a writer or reads forever; a patch argument that
# never ends (/dev/zero) stops at the limit.
#
# usage: nonregular.sh PATCHCLOCK
set -euo pipefail

pc=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-nonregular.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
unset PATCHCLOCK_DB PC_KERNEL_TREE
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES=""
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

# refused WHAT WANT-TEXT CMD...: exits non-zero within 10 s, saying WANT.
refused() {
	local what=$1 want=$2 rc
	shift 2
	set +e
	timeout 10 "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	if [[ $rc -eq 124 ]]; then
		check "$what" hangs refused
	elif [[ $rc -eq 0 ]]; then
		check "$what" accepted refused
	else
		contains "$what says why" "$(cat "$tmp/err")" "$want"
	fi
}

mkdir -p "$tmp/fifo/drivers" "$tmp/zero/drivers" "$tmp/dir/MAINTAINERS"
mkfifo "$tmp/fifo/MAINTAINERS"
ln -s /dev/zero "$tmp/zero/MAINTAINERS"
for t in fifo zero dir; do
	refused "who, MAINTAINERS a $t" "is not a regular file" \
		"$pc" who --tree "$tmp/$t" -f drivers/x.c
done
mkfifo "$tmp/profile.rst"
refused "profile, a FIFO" "is not a regular file" \
	"$pc" profile "$tmp/profile.rst"
refused "profile, /dev/zero" "is not a regular file" \
	"$pc" profile /dev/zero
# A P: line naming a FIFO in the tree.
mkdir -p "$tmp/ptree/Documentation"
mkfifo "$tmp/ptree/Documentation/profile.rst"
printf 'WIDGET\nM:\tMay <may@example.org>\nS:\tMaintained\nP:\tDocumentation/profile.rst\nF:\tdrivers/widget/\n' \
	>"$tmp/ptree/MAINTAINERS"
refused "profile of an entry whose P: is a FIFO" "is not a regular file" \
	"$pc" profile --tree "$tmp/ptree" WIDGET
# A patch argument is read whole, but not without end (issue 36: `who
# /dev/zero` grew to 1.8 GB in 8 s): it stops at the limit and says so.
refused "who, /dev/zero as the patch" "is larger than" \
	"$pc" who --tree "$tmp/ptree" /dev/zero

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "nonregular: all checks passed"
