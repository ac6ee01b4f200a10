#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No silent empty answers: --entry matches in any case and by a unique
# start, and an unknown or ambiguous one is an error that says so;
# --mine takes "Name <addr>"; a filter that shows nothing says so;
# --now takes ISO 8601 with any offset; show takes a lore link; profile
# refuses a file that is no profile, and its --help names every key.
#
# usage: answers.sh PATCHCLOCK
set -euo pipefail

pc=$1
if ! command -v jq >/dev/null; then
	echo "SKIP: jq is not installed" >&2
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-answers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset PATCHCLOCK_DB PC_KERNEL_TREE
export PATCHCLOCK_CONFIG=
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86
export UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

mkdir -p "$tmp/tree/drivers/widget" "$tmp/drivers/gadget"
printf '%s\n' "WIDGET DRIVER" "M:	May Tainer <may@example.org>" \
	"S:	Maintained" "F:	drivers/widget/" "" \
	"WIDGET CORE" "M:	Cora <cora@example.org>" "S:	Maintained" \
	"F:	drivers/widget/core.c" >"$tmp/tree/MAINTAINERS"
: >"$tmp/tree/drivers/widget/w.c"
cat >"$tmp/p.eml" <<'MAIL'
From: A U Thor <author@example.com>
Subject: [PATCH] widget: spin
Date: Mon, 01 Jan 2024 10:00:00 +0000
Message-ID: <p1@example.com>

Spin.

Signed-off-by: A U Thor <author@example.com>
---
diff --git a/drivers/widget/w.c b/drivers/widget/w.c
--- a/drivers/widget/w.c
+++ b/drivers/widget/w.c
@@ -1 +1,2 @@
 a
+b
MAIL
db=$tmp/pc.db
"$pc" ingest -q --db "$db" --tree "$tmp/tree" "$tmp/p.eml" >/dev/null
st() { "$pc" status --db "$db" --tree "$tmp/tree" --now 2024-01-15 "$@"; }
ids() { jq -r '[.series[].id] | join(",")'; }
run() { # WANT-STATUS ARGS...: runs status, leaves stderr in $tmp/err
	local want=$1 rc
	shift
	set +e
	st "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	check "status $*: exit status" "$rc" "$want"
}

check "--entry exact" "$(st --json --entry "WIDGET DRIVER" | ids)" 1
check "--entry any case" "$(st --json --entry "widget driver" | ids)" 1
check "--entry by a unique start" "$(st --json --entry "widget d" | ids)" 1
run 64 --entry widget
contains "--entry ambiguous: names them" "$(cat "$tmp/err")" \
	"starts the names of several MAINTAINERS entries ('WIDGET DRIVER', 'WIDGET CORE')"
run 1 --entry "GADGET"
contains "--entry unknown: says so" "$(cat "$tmp/err")" \
	"no MAINTAINERS entry 'GADGET'"
check "--entry of an entry with no series: nothing, said" \
	"$(st --json --entry "widget core" 2>"$tmp/err" | ids)" ""
contains "--entry with no series: said" "$(cat "$tmp/err")" \
	"no open series mapped to WIDGET CORE"
check "--mine 'Name <addr>'" \
	"$(st --json --mine "A U Thor <Author@Example.com>" | ids)" 1
check "--mine a maintainer's" \
	"$(st --json --mine "May Tainer <may@example.org>" | ids)" 1

# --now in ISO 8601 with its zone.
at() { st --json --now "$1" | jq -r '.series[0].evaluated_at'; }
check "--now +02:00" "$(at 2024-01-15T12:00:00+02:00)" 2024-01-15T10:00:00Z
check "--now -0130" "$(at 2024-01-15T12:00:00-0130)" 2024-01-15T13:30:00Z
check "--now +05" "$(at 2024-01-15T12:00+05)" 2024-01-15T07:00:00Z
check "--now fraction and Z" "$(at 2024-01-15T12:00:00.250Z)" \
	2024-01-15T12:00:00Z
run 64 --now 2024-01-15T12:00:00+2

# Text output: a line a series under a header, the subject whole when
# piped; --long a paragraph a series.
out=$(st 2>/dev/null)
check "table header" "$(head -n 1 <<<"$out" | tr -s ' ')" \
	"ID STATE TURN DUE (UTC) LATE REV HOLD ENTRY SUBJECT"
check "one line a series" "$(sed -n 2p <<<"$out" | tr -s ' ')" \
	"1 new maintainers 2024-01-08 4.6bd 0/1 - WIDGET DRIVER widget: spin"
contains "--long" "$(st --long 2>/dev/null)" "  state:   new  [overdue needs-review]"
if command -v script >/dev/null; then
	# On a terminal: colour (not with NO_COLOR), and the pager.
	tty=$(PAGER='cat' script -qc "'$pc' status --db '$db' --tree '$tmp/tree' \
		--now 2024-01-15" /dev/null 2>/dev/null | cat -v)
	contains "colour on a terminal" "$tty" "^[[31mnew"
	tty=$(NO_COLOR=1 PAGER='cat' script -qc "'$pc' status --db '$db' \
		--tree '$tmp/tree' --now 2024-01-15" /dev/null 2>/dev/null |
		cat -v)
	check "NO_COLOR" "$(grep -c '\^\[\[3' <<<"$tty")" 0
	tty=$(PAGER="sed s/^/paged:/" script -qc "'$pc' status --db '$db' \
		--tree '$tmp/tree' --now 2024-01-15" /dev/null 2>/dev/null)
	contains "the pager" "$tty" "paged:"
	for cmd in series "outbox --all"; do
		tty=$(PAGER="sed s/^/paged:/" script -qc "'$pc' $cmd --db '$db'" \
			/dev/null 2>/dev/null)
		contains "$cmd: the pager" "$tty" "paged:"
	done
	# The progress line of a long ingest fits 80 columns, whatever the
	# path's length.
	long=$tmp/a-directory-with-a-long-name-so-that-the-path-is-long
	mkdir -p "$long"
	gzip -dc "$(dirname "$0")/../data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz" \
		>"$long/nvdimm-archive-with-a-long-file-name.mbox"
	widest=$(script -qc "stty cols 80; '$pc' ingest --db '$tmp/p.db' \
		'$long/nvdimm-archive-with-a-long-file-name.mbox'" /dev/null \
		2>/dev/null | tr '\r' '\n' | grep -a ' msgs, ' |
		sed 's/\x1b\[K//g' | awk '{ if (length($0) > w) w = length($0) }
		END { print w + 0 }')
	if ((widest == 0 || widest > 80)); then
		check "progress line width" "$widest" "1..80"
	fi
fi

# show takes archive links.
for url in "https://lore.kernel.org/linux-widget/p1@example.com/" \
	"https://lore.kernel.org/r/p1%40example.com" \
	"https://lore.kernel.org/all/p1@example.com/T/#u" \
	"https://patch.msgid.link/p1@example.com"; do
	contains "show $url" "$("$pc" show --db "$db" "$url")" \
		"Series 1: widget: spin"
done

# profile refuses a file that is no profile.
printf 'just a line\n' >"$tmp/notes.txt"
set +e
"$pc" profile "$tmp/notes.txt" >/dev/null 2>"$tmp/err"
rc=$?
set -e
check "profile of no profile: exit status" "$rc" 1
contains "profile of no profile: says so" "$(cat "$tmp/err")" \
	"does not read as a subsystem profile"

# profile --help names every key an override file takes: the fields of
# profile --json, from the one field table.
printf 'Profile\n=======\n\nResubmit Cadence\n----------------\n1 week\n' \
	>"$tmp/p.rst"
help=$("$pc" profile --help)
for key in $("$pc" profile --json "$tmp/p.rst" | jq -r '.policy | keys[]'); do
	contains "profile --help names the key $key" "$help" "  $key = "
done
exit $((fails > 0))
