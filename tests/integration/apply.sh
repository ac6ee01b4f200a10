#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# patchclock apply on a small real git repository made by the test: a
# 2-patch series with a cover letter, a Reviewed-by given on the list to
# the cover letter (it applies to every patch), an Acked-by on patch 2,
# a bot's suggested tag (not carried) and a tag given by someone it
# does not name (not carried), and a base-commit: line. The commits get
# the mails' authors, dates, titles and messages, the list's trailers
# once each after the patch's own, and a Link: per patch; the base is
# the base-commit; the work tree and HEAD are untouched; the outcome is
# stored and 'status' reports the series applied. A second apply to the
# same branch is refused; an incomplete series is refused; a series that
# does not apply leaves no branch and names the patch, file and hunk.
#
# usage: apply.sh PATCHCLOCK TEST_DATA_DIR
set -euo pipefail

pc=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patchclock-apply.XXXXXX")
trap '[[ -n ${KEEP:-} ]] || rm -rf "$tmp"' EXIT
export PATCHCLOCK_PROFILES="" PATCHCLOCK_RELEASES="" PATCHCLOCK_DB=$tmp/pc.db
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"

repo=$tmp/repo
git init -q -b main "$repo"
git -C "$repo" config user.name T
git -C "$repo" config user.email t@x
mkdir -p "$repo/drivers/widget"
printf 'a\nb\nc\n' >"$repo/drivers/widget/w.c"
printf 'WIDGET\nM:\tMay Tainer <may@example.org>\nS:\tMaintained\nF:\tdrivers/widget/\n' \
	>"$repo/MAINTAINERS"
git -C "$repo" add -A
git -C "$repo" commit -q -m base
base=$(git -C "$repo" rev-parse HEAD)
# A later commit on main: the series must go onto its base-commit.
echo x >"$repo/other"
git -C "$repo" add other
git -C "$repo" commit -q -m later

# hdr ID SUBJECT DATE [IRT] then a body on stdin
mail() {
	printf 'From: %s\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n' \
		"${5:-A U Thor <author@example.com>}" "$2" "$3" "$1"
	[[ -z ${4:-} ]] || printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$4" "$4"
	printf '\n'
	cat
	printf '\n'
}
{
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	mail c0@x "[PATCH 0/2] widget: spin faster" \
		"Mon, 01 Jan 2024 10:00:00 +0100" <<'EOF'
Two patches.

base-commit: BASE
EOF
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	mail p1@x "[PATCH 1/2] widget: add a2" \
		"Mon, 01 Jan 2024 10:00:01 +0100" c0@x <<'EOF'
Add a line.

Signed-off-by: A U Thor <author@example.com>
---
 drivers/widget/w.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/drivers/widget/w.c b/drivers/widget/w.c
index 1111111..2222222 100644
--- a/drivers/widget/w.c
+++ b/drivers/widget/w.c
@@ -1,3 +1,4 @@
 a
+a2
 b
 c
-- 
2.39.2
EOF
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	mail p2@x "[PATCH 2/2] widget: add d" \
		"Mon, 01 Jan 2024 10:00:02 +0100" c0@x <<'EOF'
Add another line.

Signed-off-by: A U Thor <author@example.com>
---
diff --git a/drivers/widget/w.c b/drivers/widget/w.c
--- a/drivers/widget/w.c
+++ b/drivers/widget/w.c
@@ -2,3 +2,4 @@
 a2
 b
 c
+d
EOF
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	mail r1@x "Re: [PATCH 0/2] widget: spin faster" \
		"Tue, 02 Jan 2024 09:00:00 +0000" c0@x \
		"R Viewer <rv@example.org>" <<'EOF'
> Two patches.

Reviewed-by: R Viewer <rv@example.org>
EOF
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	mail r2@x "Re: [PATCH 2/2] widget: add d" \
		"Tue, 02 Jan 2024 09:30:00 +0000" p2@x \
		"May Tainer <may@example.org>" <<'EOF'
Acked-by: May Tainer <may@example.org>
Reviewed-by: Someone Else <else@example.org>
EOF
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	mail r3@x "Re: [PATCH 1/2] widget: add a2" \
		"Tue, 02 Jan 2024 10:00:00 +0000" p1@x \
		"kernel test robot <lkp@intel.com>" <<'EOF'
If you fix the issue, kindly add following tag where applicable
| Reported-by: kernel test robot <lkp@intel.com>
EOF
} | sed "s/BASE/$base/" >"$tmp/series.mbox"
"$pc" ingest -q "$tmp/series.mbox"

out=$("$pc" apply --tree "$repo" --now "2024-01-05 12:00" 1)
check "summary" "${out%% (*}" \
	"apply: series 1 applied onto ${base:0:12} as branch patchclock/1-v1"
check "parent is the base-commit" \
	"$(git -C "$repo" rev-parse patchclock/1-v1~2)" "$base"
check "authors, dates, titles" \
	"$(git -C "$repo" log --format='%an <%ae> %ad %s' --date=iso-strict \
		patchclock/1-v1~2..patchclock/1-v1)" \
	"A U Thor <author@example.com> 2024-01-01T10:00:02+01:00 widget: add d
A U Thor <author@example.com> 2024-01-01T10:00:01+01:00 widget: add a2"
check "message of patch 1" \
	"$(git -C "$repo" log -1 --format=%B patchclock/1-v1~1)" \
	"widget: add a2

Add a line.

Signed-off-by: A U Thor <author@example.com>
Reviewed-by: R Viewer <rv@example.org>
Link: https://lore.kernel.org/r/p1@x"
check "message of patch 2" \
	"$(git -C "$repo" log -1 --format=%B patchclock/1-v1)" \
	"widget: add d

Add another line.

Signed-off-by: A U Thor <author@example.com>
Reviewed-by: R Viewer <rv@example.org>
Acked-by: May Tainer <may@example.org>
Link: https://lore.kernel.org/r/p2@x"
check "content" "$(git -C "$repo" show patchclock/1-v1:drivers/widget/w.c |
	tr '\n' ' ')" "a a2 b c d "
check "HEAD and work tree untouched" \
	"$(git -C "$repo" log -1 --format=%s; git -C "$repo" status --porcelain)" \
	"later"
check "stored" "$(sqlite3 "$tmp/pc.db" "select outcome, branch,
	length(commits) from applies")" "applied|patchclock/1-v1|81"
"$pc" status --now "2024-01-06 12:00" --all --long >"$tmp/status.txt"
grep -q 'state:   applied' "$tmp/status.txt" ||
	check "status says applied" "$(grep state: "$tmp/status.txt")" applied

set +e
"$pc" apply --tree "$repo" 1 2>"$tmp/err" >/dev/null
check "again: refused" "$?" 64
set -e
grep -q "branch 'patchclock/1-v1' exists already" "$tmp/err" ||
	check "again: says why" "$(cat "$tmp/err")" "exists already"

# An incomplete series (2 of 3) and one that does not apply.
{
	echo "From mboxrd@z Thu Jan  1 00:00:00 1970"
	sed -e 's/\[PATCH 1\/2\] widget: add a2/[PATCH 1\/3] gadget: one/' \
		-e 's/<p1@x>/<q1@x>/; s/<c0@x>/<q0@x>/g' \
		-e 's/10:00:01 +0100/11:00:00 +0100/' \
		<(sed -n '/^Message-ID: <p1@x>/,$p' "$tmp/series.mbox" |
			sed '/^From mboxrd/,$d' |
			sed '1i From: A U Thor <author@example.com>\nSubject: [PATCH 1/2] widget: add a2\nDate: Mon, 01 Jan 2024 10:00:01 +0100')
} >"$tmp/incomplete.mbox"
"$pc" ingest -q "$tmp/incomplete.mbox"
set +e
"$pc" apply --tree "$repo" 2 2>"$tmp/err" >/dev/null
check "incomplete: refused" "$?" 64
set -e
grep -q 'has 1 of 3 patches' "$tmp/err" ||
	check "incomplete: says why" "$(cat "$tmp/err")" "has 1 of 3 patches"

sed -e 's/^ b$/ x/; s/<p1@x>/<z1@x>/; s/<c0@x>/<z0@x>/g; s/<p2@x>/<z2@x>/g' \
	-e 's/<r[123]@x>/<zr@x>/; s/spin faster/spin slower/' \
	-e 's/add a2/add z2/; s/add d$/add zd/; s/2024 10:00/2024 12:00/' \
	"$tmp/series.mbox" | sed '/^Message-ID: <zr@x>/,$d' >"$tmp/bad.mbox"
"$pc" ingest -q "$tmp/bad.mbox"
id=$("$pc" series --json | jq '[.series[] | select(.subject | test("slower"))][0].id')
set +e
"$pc" apply --tree "$repo" --json "$id" >"$tmp/bad.json"
check "does not apply: status" "$?" 2
set -e
check "does not apply: where" "$(jq -r '[.outcome, .failed_patch, .file,
	.hunk] | join("|")' "$tmp/bad.json")" \
	"failed|1|drivers/widget/w.c|@@ -1,3 +1,4 @@"
check "no branch left" "$(git -C "$repo" branch --list "patchclock/$id-*")" ""
check "apply --json is doc/json.md's Apply" "$(python3 \
	"$(dirname "$0")/../support/jsondoc.py" "$(dirname "$0")/../../doc/json.md" \
	Apply "$tmp/bad.json" && echo yes)" yes

if [[ $fails -ne 0 ]]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "apply: all checks passed"
