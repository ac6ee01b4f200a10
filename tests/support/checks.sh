# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Sourced by the integration and kernel test scripts. check and contains
# count failed checks in $fails and say what differed; the script ends
# with a non-zero status when $fails is not 0.

fails=0

# check WHAT GOT WANT
check() {
	if [[ "$2" != "$3" ]]; then
		echo "FAIL: $1: got '$2', want '$3'" >&2
		fails=$((fails + 1))
	fi
}

# contains WHAT HAYSTACK NEEDLE
contains() {
	case "$2" in
	*"$3"*) ;;
	*)
		echo "FAIL: $1: '$3' not in: $2" >&2
		fails=$((fails + 1))
		;;
	esac
}
