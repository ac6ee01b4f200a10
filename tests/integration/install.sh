#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# patchclock installs like a real program: `cmake --install` into an
# empty prefix puts the programs, their data, the man pages, the bash
# completion, the example configuration and the systemd unit in place;
# the installed programs find their data under the prefix (nothing of
# the source or build tree is compiled in), answer --help (exit 0) and
# --version; each man page renders without a warning; the unit passes
# `systemd-analyze verify`; the completion completes.
#
# usage: install.sh BUILD_DIR
set -euo pipefail

build=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
unset PATCHCLOCK_DATA_DIR

p=$tmp/prefix
cmake --install "$build" --prefix "$p" >/dev/null
for f in bin/patchclock libexec/patchclock-core sbin/patchclockd \
	share/patchclock/profiles.ini \
	share/patchclock/kernel-releases share/patchclock/kernel-test/run \
	share/man/man1/patchclock.1 share/man/man5/patchclockd.conf.5 \
	share/man/man8/patchclockd.8 \
	share/bash-completion/completions/patchclock \
	share/doc/patchclock/patchclockd.conf.example \
	lib/systemd/system/patchclockd.service; do
	[[ -e $p/$f ]] || check "installed $f" missing present
done

check "patchclock --version" "$("$p/bin/patchclock" --version)" \
	"patchclock $("$build/daemon/patchclock" --version |
		sed -n 's/^patchclock \([^ ]*\) .*/\1/p') (data: $p/share/patchclock)"
contains "patchclockd --version" "$("$p/sbin/patchclockd" --version)" \
	"(data: $p/share/patchclock)"
"$p/sbin/patchclockd" --help >/dev/null ||
	check "patchclockd --help exits 0" "$?" 0
"$p/bin/patchclock" --help >/dev/null ||
	check "patchclock --help exits 0" "$?" 0
# The installed profile map is the one read.
contains "the data directory's profiles.ini is read" \
	"$("$p/bin/patchclock" profile --help)" "data directory"

if command -v man >/dev/null; then
	for page in man1/patchclock.1 man5/patchclockd.conf.5 man8/patchclockd.8; do
		warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l \
			"$p/share/man/$page" 2>&1 >/dev/null)
		check "man -l $page: warnings" "$warn" ""
		lines=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$p/share/man/$page" |
			wc -l)
		((lines > 40)) || check "man -l $page: renders" "$lines" "> 40"
	done
fi
# Every command is in the man page.
for c in $("$p/bin/patchclock" --help | awk '/^Commands:/ {on = 1; next}
	on && /^  [a-z]/ {print $1}'); do
	grep -q "^\.SS $c\$" "$p/share/man/man1/patchclock.1" ||
		check "man page has '$c'" missing present
done

unit=$p/lib/systemd/system/patchclockd.service
contains "unit: RuntimeDirectory" "$(cat "$unit")" "RuntimeDirectory=patchclock"
# The prefix given at install time, not the configured one, reaches the
# unit: it runs the daemon that was installed.
check "unit: ExecStart" "$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$unit")" \
	"$p/sbin/patchclockd"
contains "unit: the example configuration" "$(cat "$unit")" \
	"$p/share/doc/patchclock/patchclockd.conf.example"
if command -v systemd-analyze >/dev/null; then
	out=$(systemd-analyze verify --man=no "$unit" 2>&1) ||
		check "systemd-analyze verify" "$out" ""
fi

# The README's list operator block, as written, with this test's paths:
# the prefix for /usr/local, a directory for /etc; `useradd` (the host's
# users are not the test's to change) and `-g patchclock` left out; the
# editor's step scripted (a maildir list, a tree, the SMTP credentials);
# `systemctl enable --now` is the unit's `systemd-analyze verify` above.
# `patchclockd -n` must find the configuration whole, its data included.
mapfile -t op < <(awk '$0 == "## Five minutes: a list operator" {on = 1; next}
	/^## / {on = 0} on && /^    [a-z]/ {sub(/^    /, ""); print}' \
	"$(dirname "$0")/../../README.md")
check "README operator block" "${#op[@]}" 6
etc=$tmp/etc
for line in "${op[@]}"; do
	line=${line%%#*}
	line=${line%"${line##*[![:space:]]}"}
	case $line in
	"cmake --install build") ;; # done above, into $p
	useradd\ *) ;;
	install\ *)
		line=${line//\/usr\/local/$p}
		line=${line//\/etc\//$etc/}
		line=${line/ -g patchclock/}
		eval "$line" || check "README: $line" failed ok
		;;
	editor\ *)
		conf=$etc/patchclock/patchclockd.conf
		mkdir -p "$tmp/tree" "$tmp/list/cur" "$tmp/list/new" \
			"$tmp/list/tmp" "$tmp/me/cur" "$tmp/me/new" "$tmp/me/tmp"
		printf 'WIDGET\nM:\tMay <may@example.org>\nS:\tMaintained\nF:\tdrivers/widget/\n' \
			>"$tmp/tree/MAINTAINERS"
		printf 'user:secret\n' >"$etc/patchclock/smtp-credentials"
		chmod 0600 "$etc/patchclock/smtp-credentials"
		# [general]: the database, the tree; the sources: one maildir
		# list and patchclock's own mailbox.
		sed -i -e "s|^database = .*|database = $tmp/var/patchclock.db|" \
			-e "s|^pidfile = .*|pidfile = $tmp/patchclockd.pid|" \
			-e "s|^tree = /srv/linux|tree = $tmp/tree|" \
			-e '/^\[source "nvdimm"\]/,$d' "$conf"
		cat >>"$conf" <<CONF
[source "list"]
type = maildir
path = $tmp/list

[source "patchclock"]
type = maildir
path = $tmp/me
commands = yes
CONF
		;;
	"patchclockd -n")
		out=$("$p/sbin/patchclockd" -n -f "$etc/patchclock/patchclockd.conf" 2>&1) ||
			true
		check "README: patchclockd -n" "$out" \
			"patchclockd: configuration OK ($etc/patchclock/patchclockd.conf)"
		;;
	"systemctl enable --now patchclockd") ;;
	*) check "README operator line known to the test" "$line" "known" ;;
	esac
done
# -n reads what the configuration names: a profile map that is not
# there fails the check, saying which.
sed -i "s|^overrides = .*|overrides = $tmp/nosuch.ini|" \
	"$etc/patchclock/patchclockd.conf"
set +e
out=$("$p/sbin/patchclockd" -n -f "$etc/patchclock/patchclockd.conf" 2>&1)
rc=$?
set -e
check "patchclockd -n, a missing overrides file: status" "$rc" 1
contains "it names the file" "$out" "$tmp/nosuch.ini"

got=$(PATH=$p/bin:$PATH bash -c '
	. "$1"
	COMP_WORDS=(patchclock st); COMP_CWORD=1; _patchclock
	echo "${COMPREPLY[*]}"
	COMP_WORDS=(patchclock status --js); COMP_CWORD=2; _patchclock
	echo "${COMPREPLY[*]}"' _ "$p/share/bash-completion/completions/patchclock")
check "bash completion" "$got" "status
--json"
exit $((fails > 0))
