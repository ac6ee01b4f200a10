#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.e2e: from mail to a booted kernel, on the real 6.1 tree.
#
#   tests/kernel/e2e.sh PATCHCLOCK TEST_DATA_DIR
#
# With the CLI, on the fixtures of kernel-test/fixtures/:
#   - nvdimm-attr (a real 2-patch series adding /sys/block/pmemX/
#     data_offset, a maintainer's Reviewed-by on the cover letter and Dan
#     Williams' "Applied"): mapped to the LIBNVDIMM entries and their
#     profile; the profile's review rule met on both patches; accepted;
#     applied with the list's Reviewed-by and a Link: on each commit;
#     built and booted in QEMU with two NVDIMMs, and the new attribute
#     checked from inside the guest; then 'tested';
#   - nvdimm-noapply: refused by apply with the patch, file and hunk;
#   - nvdimm-breakprobe: applies and builds, and the boot test fails on
#     the fsdax namespace with that reason;
#   - the maintainers' digest reports the three verdicts.
# With the daemon ([test] apply = yes, reply = yes) on a simulated clock:
# it sees the accepted series, applies and boots it in its tester child,
# and queues the verdict in the digest and as a reply in the thread.
#
# Branches are made in the shared tree under a name unique to this run
# and deleted on exit; the tree's HEAD and work tree are not touched.
# Exit 77 (skip) only when $PC_KERNEL_TREE is unset.
set -euo pipefail

pc=$1
pcd=$(dirname "$pc")/patchclockd
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
tree=$PC_KERNEL_TREE
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/kernel-test/fixtures
tmp=$(mktemp -d)
prefix="pc-e2e-$$/"
daemon_pid=
cleanup() {
	[ -z "$daemon_pid" ] || kill "$daemon_pid" 2>/dev/null || true
	git -C "$tree" for-each-ref --format='%(refname:short)' \
		"refs/heads/$prefix" | while read -r b; do
		git -C "$tree" branch -q -D "$b" >/dev/null 2>&1 || true
	done
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
export PATCHCLOCK_DB=$tmp/pc.db PATCHCLOCK_PROFILES=$top/data/profiles.ini
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
SECONDS=0

"$pc" ingest -q --tree "$tree" "$fx/nvdimm-attr.mbox" "$fx/nvdimm-noapply.mbox" \
	"$fx/nvdimm-breakprobe.mbox" >/dev/null
id_of() { "$pc" series --json | jq -r --arg s "$1" \
	'[.series[] | select(.subject | contains($s))][0].id'; }
attr=$(id_of "Export the data offset")
noapply=$(id_of 'Say "none"')
breakprobe=$(id_of "Refuse namespaces too small")
check "three series" "$("$pc" series --json | jq '.series | length')" 3

# Mapped to the LIBNVDIMM entries, judged against the nvdimm profile.
entries=$("$pc" show --json "$attr" | jq -r '[.series.entries[].name] | join(";")')
contains "attr entries" "$entries" "LIBNVDIMM PMEM: PERSISTENT MEMORY DRIVER"
contains "attr entries" "$entries" "LIBNVDIMM: NON-VOLATILE MEMORY DEVICE SUBSYSTEM"
"$pc" status --tree "$tree" --all --json --now "2023-01-20 12:00" >"$tmp/status.json"
check "attr: accepted (Dan's Applied), review rule met on both patches" \
	"$(jq -r --argjson id "$attr" '.series[] | select(.id == $id) |
		"\(.state) \([.patches[] | select(.reviewed)] | length)/\(.patches | length) \(.profile)"' \
		"$tmp/status.json")" \
	"accepted 2/2 Documentation/nvdimm/maintainer-entry-profile.rst"

# Applied with the list's trailers, built, booted, checked in the guest.
"$pc" apply --tree "$tree" --branch "${prefix}attr" --now "2023-01-20 12:00" \
	"$attr" >"$tmp/apply.out"
contains "attr applied" "$(cat "$tmp/apply.out")" "applied onto"
msg=$(git -C "$tree" log -1 --format=%B "${prefix}attr~1")
contains "trailer from the list" "$msg" \
	"Reviewed-by: Vishal Verma <vishal.l.verma@intel.com>"
contains "link" "$msg" \
	"Link: https://lore.kernel.org/r/20230110174123.1634021-2-alison@example.org"
check "author" "$(git -C "$tree" log -1 --format='%an <%ae> %ad' \
	--date=iso-strict "${prefix}attr~1")" \
	"Alison Contributor <alison@example.org> 2023-01-10T09:41:24-08:00"
set +e
"$pc" boot-test --tree "$tree" --quiet --json --now "2023-01-20 13:00" \
	--guest-check "$fx/nvdimm-attr.check" "$attr" >"$tmp/boot-attr.json"
rc=$?
set -e
check "attr boot test: exit" "$rc" 0
check "attr boot test: verdict" "$(jq -r .verdict "$tmp/boot-attr.json")" pass
check "attr guest check stored" "$(sqlite3 "$tmp/pc.db" "select
	json_extract(value, '$.result') from boot_tests, json_each(checks)
	where series_id = $attr and json_extract(value, '$.name') =
	'extra:nvdimm-attr.check'")" pass
"$pc" status --tree "$tree" --all --json --now "2023-01-21 12:00" >"$tmp/status.json"
check "attr tested" "$(jq -r --argjson id "$attr" \
	'.series[] | select(.id == $id) | .state' "$tmp/status.json")" tested

# Does not apply: no branch, the patch, file and hunk named.
set +e
"$pc" apply --tree "$tree" --branch "${prefix}noapply" --json \
	--now "2023-01-20 12:00" "$noapply" >"$tmp/noapply.json"
check "noapply: exit" "$?" 2
set -e
check "noapply: where" "$(jq -r '"\(.outcome) \(.failed_patch) \(.file)"' \
	"$tmp/noapply.json")" "failed 1 drivers/nvdimm/region_devs.c"
contains "noapply: reason" "$(jq -r .reason "$tmp/noapply.json")" \
	"patch 1 does not apply: drivers/nvdimm/region_devs.c, hunk '@@"
check "noapply: no branch" \
	"$(git -C "$tree" branch --list "${prefix}noapply")" ""

# Applies and builds, breaks pmem probing: the boot test says where.
"$pc" apply --tree "$tree" --branch "${prefix}breakprobe" \
	--now "2023-01-20 12:00" "$breakprobe" >/dev/null
set +e
"$pc" boot-test --tree "$tree" --quiet --json --now "2023-01-20 13:00" \
	"$breakprobe" >"$tmp/boot-bp.json"
check "breakprobe: exit" "$?" 2
set -e
check "breakprobe: verdict" "$(jq -r .verdict "$tmp/boot-bp.json")" fail
# Every --json above is doc/json.md's.
jd() { python3 "$top/tests/support/jsondoc.py" "$top/doc/json.md" "$@"; }
check "boot-test --json is doc/json.md's BootTest" \
	"$(jd BootTest "$tmp/boot-attr.json" "$tmp/boot-bp.json" && echo yes)" yes
check "apply --json is doc/json.md's Apply" \
	"$(jd Apply "$tmp/noapply.json" && echo yes)" yes
check "status --json is doc/json.md's Status" \
	"$(jd Status "$tmp/status.json" && echo yes)" yes
contains "breakprobe: reason" "$(jq -r .reason "$tmp/boot-bp.json")" \
	"check fsdax failed"

# The maintainers' digest reports the verdicts.
"$pc" digest --tree "$tree" --from patchclock@patchclock.test \
	--now "2023-01-23 12:00" >/dev/null
"$pc" send --dry-run --now "2023-01-24 12:00" --smtp smtp://localhost \
	--from patchclock@patchclock.test >"$tmp/mail.txt" || true
contains "digest: passed" "$(cat "$tmp/mail.txt")" "boot test passed"
contains "digest: failed boot" "$(cat "$tmp/mail.txt")" \
	"boot test failed: check fsdax failed"
contains "digest: not applied" "$(cat "$tmp/mail.txt")" \
	"boot test failed: patch 1 does not apply"
echo "e2e: CLI part done after ${SECONDS}s"

# The daemon does it by itself: a maildir with the attr series, [test]
# apply and reply on, a simulated clock from the day after Dan's reply.
db2=$tmp/daemon.db
mkdir -p "$tmp/spool/cur" "$tmp/spool/new" "$tmp/spool/tmp"
python3 "$top/tests/integration/split-mbox.py" "$fx/nvdimm-attr.mbox" \
	"$tmp/spool/new" >/dev/null
cat >"$tmp/d.conf" <<CONF
[general]
database = $db2
tree = $tree
from = patchclock@patchclock.test

[clock]
start = 2023-01-20 12:00
speed = 60

[test]
apply = yes
reply = yes
branch_prefix = ${prefix}d/
guest_check = $fx/nvdimm-attr.check

[source "nvdimm"]
type = maildir
path = $tmp/spool
poll = 1
CONF
"$pcd" -d -f "$tmp/d.conf" 2>"$tmp/daemon.log" &
daemon_pid=$!
verdict=
for _ in $(seq 600); do
	verdict=$(sqlite3 "$db2" "select verdict from boot_tests" 2>/dev/null || true)
	[ -z "$verdict" ] || break
	sleep 1
done
check "daemon: boot verdict" "$verdict" pass
for _ in $(seq 50); do
	n=$(sqlite3 "$db2" "select count(*) from outbox where action =
		'boot-report'" 2>/dev/null || echo 0)
	[ "$n" = 0 ] || break
	sleep 0.2
done
# To the author and the maintainer seen applying it (Dan's "Applied"),
# not every M: of the entry.
check "daemon: report in the thread" "$(sqlite3 "$db2" "select
	recipients from outbox where action = 'boot-report'")" \
	"alison@example.org dan.j.williams@intel.com"
contains "daemon: report says" "$(sqlite3 "$db2" "select message from outbox
	where action = 'boot-report'")" "The boot test passed."
contains "daemon: logged" "$(cat "$tmp/daemon.log")" "boot test passed"
kill -TERM "$daemon_pid"
wait "$daemon_pid" || check "daemon exit" "$?" 0
daemon_pid=

echo "e2e: ${SECONDS}s in all"
if [ "$fails" -ne 0 ]; then
	[ ! -f "$tmp/daemon.log" ] || tail -30 "$tmp/daemon.log" >&2
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "e2e: all checks passed"
