#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fresh.debian12: the README's first command on a fresh Debian 12.
#
#   tests/fresh/debian12.sh SOURCE_DIR
#
# Makes a minbase Debian 12 (bookworm) with debootstrap, clones the
# repository at SOURCE_DIR into it (its committed HEAD: what a user
# clones), and runs ./contrib/demo there as root, in a chroot of its own
# mount namespace. Passes when the demo exits 0 and prints the mail it
# would send. Nothing of the machine's own packages is visible in there:
# a build requirement that only this machine has fails here.
#
# Made once, kept in the cache ($PC_CACHE_DIR/fresh): the base system as
# a tarball (debootstrap, a few minutes) and the packages apt downloads in
# it. Shared with the fresh system, read-only, so that it need not make
# them again: the prepared kernel tree ($PC_KERNEL_TREE, as
# kernel-test/prepare-tree left it). Needs root (chroot, mount) and
# Debian's package archive; skips (77) without $PC_KERNEL_TREE or root.
set -euo pipefail

src=${1:?usage: debian12.sh SOURCE_DIR}
src=$(cd "$src" && pwd)
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "fresh.debian12: PC_KERNEL_TREE is unset (contrib/test sets it): skipped"
	exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "fresh.debian12: needs root (debootstrap, chroot, mount): skipped"
	exit 77
fi
for tool in debootstrap unshare git; do
	command -v "$tool" >/dev/null || {
		echo "FAIL: $tool is missing (contrib/install-deps --tests installs it)" >&2
		exit 1
	}
done
cache=${PC_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/patchclock}/fresh
base=$cache/bookworm-minbase.tar
mkdir -p "$cache/apt-archives/partial"
# The machine's own mirror (deb822 or one-line sources), else Debian's.
mirror=$(sed -n 's/^URIs: *\([^ ]*debian\)\/*$/\1/p; s/^deb  *\(http[^ ]*debian\)\/* bookworm .*/\1/p' \
	/etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
	head -n 1) || true
mirror=${mirror:-http://deb.debian.org/debian}

work=$(mktemp -d /var/tmp/patchclock-fresh.XXXXXX)
cleanup() {
	# The mounts were in a namespace of their own: gone with it.
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
root=$work/root

if [ ! -s "$base" ]; then
	echo "fresh.debian12: making the base system once ($mirror, into $base)"
	start=$SECONDS
	debootstrap --variant=minbase bookworm "$work/base" "$mirror" \
		>"$work/debootstrap.log" 2>&1 || {
		tail -n 20 "$work/debootstrap.log" >&2
		echo "FAIL: debootstrap failed (log above)" >&2
		exit 1
	}
	rm -rf "$work/base/var/cache/apt/archives/"*.deb
	tar -C "$work/base" -cf "$base.tmp" .
	mv "$base.tmp" "$base"
	rm -rf --one-file-system "$work/base"
	echo "fresh.debian12: base system made in $((SECONDS - start)) s"
fi

mkdir "$root"
tar -C "$root" -xf "$base"
# The name server, and nothing else, from the machine.
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone --quiet "$src" "$root/root/patchclock"
echo "fresh.debian12: $(git -C "$root/root/patchclock" log --oneline -1)"
mkdir -p "$root/root/.cache/patchclock/linux-6.1"

start=$SECONDS
set +e
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private bash -c '
	set -e
	root=$1 cache=$2 tree=$3
	mount -t proc proc "$root/proc"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs tmpfs "$root/tmp"
	mount --bind "$cache/apt-archives" "$root/var/cache/apt/archives"
	mount --bind -o ro "$tree" "$root/root/.cache/patchclock/linux-6.1"
	exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive \
		bash -c "cd /root/patchclock && ./contrib/demo"
' fresh "$root" "$cache" "$PC_KERNEL_TREE" >"$work/demo.log" 2>&1
rc=$?
set -e
took=$((SECONDS - start))

fail() {
	tail -n 40 "$work/demo.log" >&2
	echo "FAIL: $*" >&2
	exit 1
}
[ "$rc" -eq 0 ] || fail "./contrib/demo exited $rc on a fresh Debian 12 (after ${took} s; its last lines above)"
# The mail it would send: the dry run's headers and a body.
sed -n '/^== patchclock send --dry-run/,$p' "$work/demo.log" >"$work/mail.txt"
for want in '^=== outbox [0-9]*: ' '^From: patchclock' '^To: ' '^Subject: ' \
	'^Message-ID: <' '^X-Patchclock-Action: ' '^Hello '; do
	grep -q "$want" "$work/mail.txt" ||
		fail "the demo printed no mail with a '${want#^}' line"
done
grep -q '^== patchclock status' "$work/demo.log" ||
	fail "the demo printed no verdicts"
echo "fresh.debian12: ./contrib/demo passed on a minbase Debian 12 in ${took} s"
grep -m 1 '^Subject: ' "$work/mail.txt"
