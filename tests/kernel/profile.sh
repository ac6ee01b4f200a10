#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.profile: subsystem profiles of the real 6.1 tree.
#
#   tests/kernel/profile.sh PATCHCLOCK TEST_DATA_DIR
#
# (a) Every profile 6.1 has, read through `patchclock profile --json`:
#     the values its prose states, with prose provenance (the sentence
#     quoted, the file and the section), the default where a profile is
#     silent, the fallback map (data/profiles.ini) for the media,
#     netdev and tip profiles, which have no P: line in 6.1.
# (b) The port of the seed RFC (kernel-test/patches/profile/) applied
#     with `git am` to a clone of the baseline: the LIBNVDIMM entries get
#     exactly the short answers, with short-answer provenance, and no
#     disagreement with the prose.
#
# The tree comes from $PC_KERNEL_TREE (kernel-test/prepare-tree); it is
# never modified: the series is applied in a sparse clone (MAINTAINERS
# and Documentation/ only, ~3 s; a full checkout takes ~25 s) in a
# temporary directory removed on exit. Exit 77 (skip) only when
# $PC_KERNEL_TREE is unset.
set -euo pipefail

cli=$1
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
tree=$PC_KERNEL_TREE
top=$(cd "$(dirname "$0")/../.." && pwd)
patches=$top/kernel-test/patches/profile
export PATCHCLOCK_PROFILES=$top/data/profiles.ini

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

# profile OUT ARG...: `patchclock profile --json ARG...` into OUT.
profile() {
	local out=$1
	shift
	if ! "$cli" profile --json "$@" >"$tmp/$out" 2>"$tmp/$out.err"; then
		fail "patchclock profile $*: $(cat "$tmp/$out.err")"
		echo '{}' >"$tmp/$out"
	elif ! python3 "$top/tests/support/jsondoc.py" "$top/doc/json.md" \
		Profile "$tmp/$out" >"$tmp/$out.doc"; then
		fail "patchclock profile --json $*: not doc/json.md's Profile: $(head -n 3 "$tmp/$out.doc")"
	fi
}

# is OUT JQ-EXPR WANT: the jq expression's raw value must be WANT.
is() {
	local got
	got=$(jq -r "$2" "$tmp/$1")
	if [ "$got" != "$3" ]; then
		fail "$1: $2 is '$got', want '$3'"
	fi
}

# field OUT KEY VALUE KIND [HEADING]: a policy field's value and source.
field() {
	is "$1" ".policy.$2.value" "$3"
	is "$1" ".policy.$2.source.kind" "$4"
	if [ $# -ge 5 ]; then
		is "$1" ".policy.$2.source.heading" "$5"
	fi
}

# quotes OUT KEY TEXT: the field's quote contains TEXT.
quotes() {
	local q
	q=$(jq -r ".policy.$2.source.quote" "$tmp/$1")
	case "$q" in
	*"$3"*) ;;
	*) fail "$1: $2 quote '$q' does not contain '$3'" ;;
	esac
}

nv=Documentation/nvdimm/maintainer-entry-profile.rst
nv_entries=(
	"LIBNVDIMM BTT: BLOCK TRANSLATION TABLE"
	"LIBNVDIMM PMEM: PERSISTENT MEMORY DRIVER"
	"LIBNVDIMM: NON-VOLATILE MEMORY DEVICE SUBSYSTEM"
)

# ---- (a) the 6.1 tree as it is ---------------------------------------

# nvdimm, as a document and through its entries' P: lines.
profile nv.json --tree "$tree" "$nv"
field nv.json ping_after "1 week" prose "Review Cadence"
quotes nv.json ping_after "please wait up to one week before pinging"
is nv.json .policy.ping_after.source.file "$nv"
is nv.json .policy.ping_after.source.line 57
field nv.json new_features "before -rc4" prose "Key Cycle Dates"
quotes nv.json new_features "they should be sent before -rc4"
is nv.json .policy.new_features.inclusive false
field nv.json merge_features "by -rc6" prose "Key Cycle Dates"
is nv.json .policy.merge_features.inclusive true
field nv.json reminder private prose "Review Cadence"
quotes nv.json reminder "A private mail reminder is preferred."
is nv.json .policy.test_suite.url "https://github.com/pmem/ndctl"
is nv.json .policy.test_suite.source.kind prose
is nv.json .policy.office_hours.value null
is nv.json .policy.review.value null
is nv.json '.document.entries | length' 3
is nv.json '.unrecognised | map(.heading) | join("|")' \
	"ACPI Device Specific Methods (_DSM)"
for e in "${nv_entries[@]}"; do
	profile nve.json --tree "$tree" "$e"
	is nve.json .entry "$e"
	is nve.json .document.path "$nv"
	is nve.json .document.from.kind maintainers
	is nve.json .document.from.file MAINTAINERS
	field nve.json ping_after "1 week" prose "Review Cadence"
done
# Entry names are matched without regard to case.
profile nvl.json --tree "$tree" "libnvdimm pmem: persistent memory driver"
is nvl.json .entry "LIBNVDIMM PMEM: PERSISTENT MEMORY DRIVER"

# doc-guide: "within a week"; its key cycle dates state no -rc.
profile doc.json --tree "$tree" DOCUMENTATION
is doc.json .document.path Documentation/doc-guide/maintainer-profile.rst
field doc.json ping_after "1 week" prose "Review cadence"
quotes doc.json ping_after "have not heard back within a week"
is doc.json .policy.new_features.value null
is doc.json '[.unrecognised[] | select(.heading == "Key cycle dates")] | length' 1
# Its checklist asks for a documentation build without new warnings.
field doc.json test_suite "When making documentation changes, you should actually build the documentation and ensure that no new errors or warnings have been introduced." prose "Submit checklist addendum"
is doc.json .policy.test_suite.url null

# riscv: silent on cadence, so the default from submitting-patches.rst.
profile riscv.json --tree "$tree" "RISC-V ARCHITECTURE"
is riscv.json .document.path Documentation/riscv/patch-acceptance.rst
field riscv.json ping_after "1 week" default
is riscv.json .policy.ping_after.source.file \
	Documentation/process/submitting-patches.rst
quotes riscv.json ping_after "Wait for a minimum of one week"
# Its addendum is a rule now: frozen or ratified extensions only (a
# draft's series is held: profile-forbids).
field riscv.json isa_extensions ratified prose "Submit Checklist Addendum"
quotes riscv.json isa_extensions "\"Frozen\" or \"Ratified\""
is riscv.json '[.unrecognised[] | select(.heading == "Submit Checklist Addendum")] | length' 0

# vfio: review by one of the listed reviewers.
profile vfio.json --tree "$tree" "VFIO PCI DEVICE SPECIFIC DRIVERS"
field vfio.json review reviewers prose Overview
quotes vfio.json review "at least one of the listed reviewers"

# media, through the fallback map.
profile media.json --tree "$tree" "MEDIA INPUT INFRASTRUCTURE (V4L/DVB)"
is media.json .document.path \
	Documentation/driver-api/media/maintainer-entry-profile.rst
is media.json .document.from.kind override
is media.json .document.from.file "$PATCHCLOCK_PROFILES"
field media.json ping_after "2 weeks" prose "Review Cadence"
quotes media.json ping_after "in a couple of weeks"
field media.json new_features "before -rc5" prose "Key Cycle Dates"
field media.json merge_features "by -rc6" prose "Key Cycle Dates"
field media.json style_cleanups with-changes prose "Style Cleanup Patches"
is media.json .policy.test_suite.url https://git.linuxtv.org/v4l-utils.git/
is media.json .policy.reminder.value null
# "Media maintainers": the senior developers who do the code reviews.
is media.json '.policy.trusted_reviewers.people | map(.email) | join(" ")' \
	"sean@mess.org hverkuil@xs4all.nl laurent.pinchart@ideasonboard.com sakari.ailus@linux.intel.com mchehab@kernel.org"
is media.json .policy.trusted_reviewers.source.heading "Media maintainers"

# netdev: 24 hours between postings.
for e in "NETWORKING [GENERAL]" "NETWORKING DRIVERS"; do
	profile net.json --tree "$tree" "$e"
	is net.json .document.path Documentation/process/maintainer-netdev.rst
	field net.json repost_min "24 hours" prose "tl;dr"
	quotes net.json repost_min "within one 24h period"
	# "Asking the maintainer for status updates on your patch is a
	# good way to ensure your patch is ignored": no pings at all.
	field net.json reminder none prose "How long before my patch is accepted?"
	quotes net.json reminder "Asking the maintainer for status updates"
	is net.json .policy.repost_min.duration.count 24
	is net.json .policy.repost_min.duration.unit hours
	field net.json ping_after "1 week" default
	# net-next closes when the merge window opens.
	field net.json new_features "before the merge window opens" prose \
		"How often do changes from these trees make it to the mainline Linus tree?"
	is net.json .policy.new_features.lead.count 0
	quotes net.json test_suite "must survive an allyesconfig and an allmodconfig build with W=1"
	is net.json .policy.test_suite.source.heading \
		"What level of testing is expected before I submit my change?"
done

# tip: the reminder section defers to submitting-patches.rst by :ref:.
profile tip.json --tree "$tree" "X86 ARCHITECTURE (32-BIT AND 64-BIT)"
is tip.json .document.path Documentation/process/maintainer-tip.rst
field tip.json ping_after "1 week" prose "Don't get discouraged - or impatient"
is tip.json .policy.ping_after.source.file \
	Documentation/process/submitting-patches.rst
is tip.json '.policy.ping_after.source.via | contains(":ref:")' true
is tip.json '.policy.ping_after.source.via | contains("resend_reminders")' true
field tip.json new_features "1 week before the merge window" prose "Merge window"
quotes tip.json new_features "at least a week before the merge window opens"
is tip.json .policy.new_features.kind merge-window
field tip.json submit patches prose Git
quotes tip.json submit "Pull requests for new patch submissions are usually not accepted"
# Its "Testing" section, both sentences of the rule.
field tip.json test_suite "Code should be tested before submitting to the tip maintainers. Anything other than minor changes should be built, booted and tested with comprehensive (and heavyweight) kernel debugging options enabled." prose Testing
is tip.json '[.unrecognised[] | select(.heading == "Testing")] | length' 0

# Without the map, netdev has no profile; with a user override file,
# fields are replaced and say so.
profile nomap.json --tree "$tree" --no-map "NETWORKING [GENERAL]"
is nomap.json .document.path null
is nomap.json '.notes | map(select(test("no profile"))) | length' 1
cat >"$tmp/mine.ini" <<'EOF'
; local knowledge
[NETWORKING [GENERAL]]
office_hours = Mon-Fri 9:00am to 5:00pm Pacific Time Zone
repost_min = 2 days
EOF
profile mine.json --tree "$tree" --overrides "$tmp/mine.ini" "NETWORKING [GENERAL]"
is mine.json .document.path Documentation/process/maintainer-netdev.rst
field mine.json office_hours "mon-fri 09:00-17:00 America/Los_Angeles" override
is mine.json .policy.office_hours.source.line 3
field mine.json repost_min "2 days" override
is mine.json '.notes | map(select(test("24 hours"))) | length' 1
printf '[NETWORKING [GENERAL]]\nping_after = soon\n' >"$tmp/bad.ini"
if "$cli" profile --tree "$tree" --overrides "$tmp/bad.ini" \
	"NETWORKING [GENERAL]" >/dev/null 2>"$tmp/bad.err"; then
	fail "a bad override file was accepted"
fi
grep -q "$tmp/bad.ini:2: \[NETWORKING \[GENERAL\]\] ping_after:" "$tmp/bad.err" ||
	fail "bad override file: $(cat "$tmp/bad.err")"

# An entry that does not exist: a clear error and similar names.
if "$cli" profile --tree "$tree" "LIBNVDIMM PMEM AND CORE" \
	>/dev/null 2>"$tmp/none.err"; then
	fail "a missing entry was found"
fi
grep -q "no MAINTAINERS entry is named 'LIBNVDIMM PMEM AND CORE'" \
	"$tmp/none.err" || fail "missing entry: $(cat "$tmp/none.err")"
grep -q "^  LIBNVDIMM PMEM: PERSISTENT MEMORY DRIVER$" "$tmp/none.err" ||
	fail "no suggestion: $(cat "$tmp/none.err")"

# Every document a P: line or the map names reads without a conflict.
mapfile -t docs < <({
	sed -n 's/^P:[[:space:]]*//p' "$tree/MAINTAINERS"
	sed -n 's/^profile = //p' "$PATCHCLOCK_PROFILES"
} | sort -u)
[ "${#docs[@]}" -eq 7 ] || fail "expected 7 profile documents, got ${#docs[@]}"
for d in "${docs[@]}"; do
	profile all.json --tree "$tree" "$d"
	is all.json '.notes | map(select(test("short answer"))) | length' 0
done

# ---- (b) the seed RFC ported to 6.1 ----------------------------------

mapfile -t series < <(find "$patches" -name '0*.patch' ! -name '0000-*' | sort)
[ "${#series[@]}" -eq 2 ] || fail "expected 2 patches in $patches"
git clone -q --shared --no-checkout "$tree" "$tmp/k"
git -C "$tmp/k" sparse-checkout set --no-cone /MAINTAINERS /.mailmap \
	/Documentation/
git -C "$tmp/k" -c advice.detachedHead=false checkout -q baseline
git -C "$tmp/k" -c user.name=patchclock -c user.email=patchclock@localhost \
	am -q "${series[@]}"
is_count=$(git -C "$tmp/k" rev-list --count baseline..HEAD)
[ "$is_count" -eq 2 ] || fail "git am made $is_count commits, want 2"
[ -z "$(git -C "$tmp/k" status --porcelain)" ] || fail "git am left changes"

for e in "${nv_entries[@]}"; do
	profile port.json --tree "$tmp/k" "$e"
	is port.json .document.path "$nv"
	field port.json ping_after "1 week" short-answer "Resubmit Cadence"
	quotes port.json ping_after "1 week"
	is port.json .policy.ping_after.source.file "$nv"
	is port.json .policy.ping_after.source.line 88
	field port.json office_hours "08:00-17:00 America/Los_Angeles" \
		short-answer "Time Zone / Office Hours"
	quotes port.json office_hours "8:00am to 5:00pm Pacific Time Zone"
	is port.json .policy.office_hours.zone America/Los_Angeles
	is port.json .policy.office_hours.days null
	field port.json review non-author short-answer \
		"Non-author Ack / Review Tags Required"
	field port.json new_features "before -rc4" short-answer \
		"Last -rc for new feature submissions"
	is port.json .policy.new_features.rc 4
	is port.json .policy.new_features.inclusive false
	field port.json merge_features "by -rc6" short-answer \
		"Last -rc to merge features"
	is port.json .policy.merge_features.inclusive true
	field port.json submit patches short-answer "Patches or Pull requests"
	quotes port.json submit "Patches only"
	field port.json trusted_reviewers \
		"Johannes Thumshirn, Toshi Kani, Jeff Moyer, Robert Elliott" \
		short-answer "Trusted Reviewers"
	is port.json '.policy.trusted_reviewers.people | map(.name) | join(",")' \
		"Johannes Thumshirn,Toshi Kani,Jeff Moyer,Robert Elliott"
	field port.json test_suite "Run make check from https://github.com/pmem/ndctl" \
		short-answer "Test Suite"
	is port.json .policy.test_suite.url https://github.com/pmem/ndctl
	field port.json style_cleanups welcome short-answer \
		"Checkpatch / Style Cleanups"
	# Not among the short answers: still read from the prose.
	field port.json reminder private prose "Review Cadence"
	is port.json .policy.repost_min.value null
	is port.json .policy.off_list_review.value null
	# The short answers agree with the prose they sit next to.
	is port.json '.notes | length' 0
done

# The text output says the same, field by field.
"$cli" profile --tree "$tmp/k" "${nv_entries[2]}" >"$tmp/port.txt"
for want in \
	"ping after                  1 week" \
	"    short answer, $nv:88" \
	"last -rc for new features   before -rc4" \
	"last -rc to merge features  by -rc6" \
	"office hours                08:00-17:00 America/Los_Angeles"; do
	grep -qF -- "$want" "$tmp/port.txt" || fail "text output lacks '$want'"
done

# The template's new questions describe; they are not answers.
profile tmpl.json --tree "$tmp/k" Documentation/maintainer/maintainer-entry-profile.rst
for h in "Resubmit Cadence" "Time Zone / Office Hours" "Trusted Reviewers" \
	"Last -rc to merge features"; do
	is tmpl.json "[.unrecognised[] | select(.heading == \"$h\")] | length" 1
done
is tmpl.json .policy.office_hours.value null
is tmpl.json .policy.trusted_reviewers.value null

# ---- (c) the RISC-V rule, applied --------------------------------------
# Two RISC-V patches, each 6 weeks without an answer: the one that says
# its specification is a draft is held (profile-forbids: the addendum
# takes frozen or ratified extensions only); the other is overdue. The
# same draft under an entry whose profile says nothing is owed its mail.
riscv_patch() { # SUBJECT MSGID PATH PROSE
	cat <<EOF
From nobody Mon Sep 17 00:00:00 2001
From: Dev Eloper <dev@example.org>
To: linux-riscv@lists.infradead.org
Subject: [PATCH] $1
Date: Tue, 01 Nov 2022 10:00:00 +0000
Message-ID: <$2@example.org>

$4

Signed-off-by: Dev Eloper <dev@example.org>
---
 $3 | 1 +
 1 file changed, 1 insertion(+)

diff --git a/$3 b/$3
--- a/$3
+++ b/$3
@@ -1,3 +1,4 @@
+# x
 a
 b
 c

EOF
}
{
	riscv_patch "riscv: Add support for pointer masking" draft \
		arch/riscv/Kconfig \
		"This implements pointer masking, based on the draft v0.4 of the
Zjpm specification."
	riscv_patch "riscv: Add Zicboz support" ratified arch/riscv/Makefile \
		"Zicboz lets user space zero a cache block."
	riscv_patch "pmem: Add support for the draft spec" elsewhere \
		drivers/nvdimm/Kconfig \
		"This implements the draft v0.4 of a specification."
} >"$tmp/riscv.mbox"
"$cli" ingest -q --db "$tmp/riscv.db" --tree "$tree" "$tmp/riscv.mbox"
"$cli" status --db "$tmp/riscv.db" --tree "$tree" --all --json \
	--now "2022-12-15 12:00" >"$tmp/riscv-status.json"
hold_of() {
	jq -r --arg s "$1" '.series[] | select(.subject | contains($s)) |
		"\(.hold) \(.flags | index("overdue") != null)"' \
		"$tmp/riscv-status.json"
}
[ "$(hold_of "pointer masking")" = "profile-forbids true" ] ||
	fail "a draft extension's series: $(hold_of "pointer masking"), want profile-forbids"
[ "$(hold_of "Zicboz")" = "null true" ] ||
	fail "a ratified extension's series: $(hold_of "Zicboz"), want no hold, overdue"
[ "$(hold_of "draft spec")" = "null true" ] ||
	fail "a draft under a profile silent on it: $(hold_of "draft spec"), want no hold"

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "kernel.profile: all checks passed"
