#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.report: the dashboard, opened in a real browser.
#
# The nvdimm list of 2021, mapped against the 6.1 tree, plus two hostile
# mails (markup in a subject, an RFC 2047 name that decodes to markup),
# judged at 2021-08-01 by `patchclock report` and, on a replay, by the
# daemon ([report] html). Debian's chromium, headless, opens the pages:
#   - the front page's counts per entry (open, overdue, ready to apply,
#     needs review) are those of `patchclock status --all --json`;
#   - an entry's board holds its open series, each once;
#   - the hostile subject and name are shown as text: no <script>, no
#     element with an on* attribute, anywhere in any DOM;
#   - every relative link and resource of every page names a file of the
#     site; no console message;
#   - a second report replaces the first as a whole; a directory that is
#     not a report is refused and left alone;
#   - screenshots of the front, an entry and a series page (and the
#     front in dark mode at a phone's width) are kept in
#     build/test-artifacts/report/ for a person to look at.
# Exit 77 (skip) when $PC_KERNEL_TREE is unset or chromium is missing.
set -euo pipefail

pc=$1
data=$(cd "$2" && pwd)
pcd=$(dirname "$pc")/patchclockd
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
if ! command -v chromium >/dev/null; then
	echo "skip: chromium is not installed (contrib/install-deps --tests)"
	exit 77
fi
tree=$PC_KERNEL_TREE
top=$(cd "$(dirname "$0")/../.." && pwd)
art=$(cd "$(dirname "$pc")/.." && pwd)/test-artifacts/report
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$art"
rm -f "$art"/*.png
# shellcheck source=tests/support/checks.sh
. "$(dirname "$0")/../support/checks.sh"
export PATCHCLOCK_PROFILES=$top/data/profiles.ini PATCHCLOCK_PAGER=cat
db=$tmp/pc.db
now="2021-08-01 00:00"
cat >"$tmp/pc.conf" <<EOF
[general]
database = $db
tree = $tree
from = patchclock@localhost
archive = https://lore.kernel.org/nvdimm/%s/
EOF
export PATCHCLOCK_CONFIG=$tmp/pc.conf

# browse OUT URL [SHOT WIDTHxHEIGHT]: the DOM after load into OUT, the
# console into OUT.log, a screenshot when asked.
browse() {
	local out=$1 url=$2 shot=${3:-} size=${4:-1280,1000}
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/chromium" --enable-logging=stderr --v=0 \
		--dump-dom "$url" >"$out" 2>"$out.log" || true
	if [ -n "$shot" ]; then
		chromium --headless --no-sandbox --disable-gpu \
			--hide-scrollbars --user-data-dir="$tmp/chromium" \
			--window-size="$size" --screenshot="$shot" "$url" \
			>/dev/null 2>&1 || true
	fi
	if grep -q ':CONSOLE' "$out.log"; then
		echo "FAIL: console messages on $url:" >&2
		grep ':CONSOLE' "$out.log" >&2
		fails=$((fails + 1))
	fi
}

# Two hostile mails: markup in the subject; a From name that decodes to
# markup. Both are real patches to drivers/nvdimm, so they are mapped.
hostile() { # ID FROM SUBJECT
	cat <<EOF
From: $2
To: nvdimm@lists.linux.dev
Subject: $3
Date: Mon, 26 Jul 2021 10:00:0$1 +0000
Message-ID: <hostile$1@example.org>

Signed-off-by: A U Thor <author@example.org>
---
 drivers/nvdimm/pmem.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/drivers/nvdimm/pmem.c b/drivers/nvdimm/pmem.c
--- a/drivers/nvdimm/pmem.c
+++ b/drivers/nvdimm/pmem.c
@@ -1,3 +1,4 @@
 a
+b
 c
 d
EOF
}
hostile 1 "A U Thor <author@example.org>" \
	'[PATCH] <script>alert(1)</script> "><img src=x onerror=alert(2)>' \
	>"$tmp/h1.eml"
# "<img src=x onerror=alert(3)>" as an RFC 2047 word
hostile 2 "=?UTF-8?B?PGltZyBzcmM9eCBvbmVycm9yPWFsZXJ0KDMpPg==?= <evil@example.org>" \
	"[PATCH] nvdimm: =?UTF-8?Q?=3Cscript=3Ealert(4)=3C/script=3E?=" \
	>"$tmp/h2.eml"
"$pc" ingest -q --db "$db" \
	"$data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz" \
	"$tmp/h1.eml" "$tmp/h2.eml" >/dev/null

site=$tmp/site
"$pc" report --now "$now" --html "$site" --title "nvdimm@lists.linux.dev" \
	>"$tmp/report.out"
cat "$tmp/report.out"
"$pc" status --all --json --now "$now" >"$tmp/status.json"

# The front page against status --json.
browse "$tmp/front.dom" "file://$site/index.html" "$art/front.png"
python3 - "$tmp/front.dom" "$tmp/status.json" >"$tmp/front.out" <<'EOF' || true
import html.parser, json, sys

class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.row, self.count = {}, None, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-entry" in a:
            self.row = a["data-entry"]
            self.rows[self.row] = {}
        elif self.row and "data-count" in a:
            self.count = a["data-count"]
    def handle_data(self, d):
        if self.row and self.count and d.strip():
            self.rows[self.row][self.count] = int(d)
            self.count = None
    def handle_endtag(self, tag):
        if tag == "tr":
            self.row = None

p = Rows()
p.feed(open(sys.argv[1]).read())
closed = {"superseded", "accepted", "applied", "tested"}
want = {}
for v in json.load(open(sys.argv[2]))["series"]:
    if v["state"] in closed or not v["governing_entry"]:
        continue
    c = want.setdefault(v["governing_entry"],
                        {"open": 0, "overdue": 0, "ready": 0,
                         "needs-review": 0})
    c["open"] += 1
    c["overdue"] += "overdue" in v["flags"]
    c["needs-review"] += "needs-review" in v["flags"]
    # ready to apply, as the v_ready_to_apply view says
    c["ready"] += (v["state"] == "reviewed" and
                   "incomplete" not in v["flags"])
bad = 0
for e in sorted(set(want) | set(p.rows)):
    if want.get(e) != p.rows.get(e):
        print(f"BAD {e}: page {p.rows.get(e)}, status {want.get(e)}")
        bad += 1
print(f"{len(p.rows)} entries on the front page, {bad} differ")
with open(sys.argv[1] + ".rows", "w") as out:
    for e in sorted(p.rows):
        r = p.rows[e]
        out.write(f"{e}|{r['open']}|{r['overdue']}|{r['ready']}|"
                  f"{r['needs-review']}\n")
EOF
cat "$tmp/front.out"
check "front page counts are status --json's" \
	"$(grep -c '^BAD' "$tmp/front.out" || true)" 0
check "the front page lists entries" \
	"$(grep -c ' 0 differ' "$tmp/front.out")" 1

# The views say the same once the verdicts at that now are stored
# (digest stores them; report and status never write).
"$pc" digest --now "$now" --from patchclock@localhost >/dev/null
check "v_entry_report agrees with the front page" "$(sqlite3 "$db" \
	"SELECT entry, open, overdue, ready, needs_review FROM v_entry_report
	WHERE open > 0 ORDER BY entry" | LC_ALL=C sort | md5sum)" \
	"$(LC_ALL=C sort "$tmp/front.dom.rows" | md5sum)"

# An entry: its board holds its open series, each once.
entry=$(grep -o 'entries/libnvdimm-non-volatile[^"]*\.html' \
	"$site/index.html" | head -n 1)
browse "$tmp/entry.dom" "file://$site/$entry" "$art/entry.png" 1280,2400
check "entry board: each open series once" "$(python3 - "$tmp/entry.dom" <<'EOF'
import re, sys
dom = open(sys.argv[1]).read()
cards = re.findall(r'data-card="(\d+)"', dom)
opened = re.search(r'<span data-count="open">(\d+)</span>', dom)
print("ok" if opened and len(cards) == len(set(cards)) == int(opened.group(1))
      else f"{len(cards)} cards ({len(set(cards))} distinct), open "
           f"{opened.group(1) if opened else '?'}")
EOF
)" ok

# The hostile series, and a real one.
hid=$(jq -r '.series[] | select(.anchor_message_id == "hostile1@example.org") | .id' \
	"$tmp/status.json")
browse "$tmp/hostile.dom" "file://$site/series/$hid.html" \
	"$art/series-hostile.png" 1000,1400
real=$(jq -r '[.series[] | select(.governing_entry != null and
	(.patches | length) > 2)][0].id' "$tmp/status.json")
browse "$tmp/series.dom" "file://$site/series/$real.html" "$art/series.png" \
	1000,2000
contains "the hostile subject is text" "$(cat "$tmp/hostile.dom")" \
	'&lt;script&gt;alert(1)&lt;/script&gt;'

# No markup from mail in any page: parse every page as a browser would
# and look for scripts and event handlers; every relative link resolves.
check "no script, no on* attribute, every link resolves" "$(python3 - \
	"$site" "$tmp"/*.dom <<'EOF'
import html.parser, os, sys, urllib.parse

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.bad, self.links = [], []
    def handle_starttag(self, tag, attrs):
        if tag in ("script", "iframe", "object", "embed"):
            self.bad.append(f"<{tag}>")
        for k, v in attrs:
            if k.startswith("on"):
                self.bad.append(f"<{tag} {k}=>")
            if k in ("href", "src") and v:
                self.links.append(v)

site, doms, problems, pages = sys.argv[1], sys.argv[2:], [], 0
files = [os.path.join(d, f) for d, _, fs in os.walk(site) for f in fs
         if f.endswith(".html")]
for path in files + doms:
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    pages += 1
    problems += [f"{path}: {b}" for b in p.bad]
    if path in doms:
        continue
    for l in p.links:
        u = urllib.parse.urlparse(l)
        if u.scheme in ("http", "https") or l.startswith("#"):
            continue
        if u.scheme:
            problems.append(f"{path}: link {l}")
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(path),
                                               urllib.parse.unquote(u.path)))
        if not target.startswith(site) or not os.path.isfile(target):
            problems.append(f"{path}: {l} does not resolve")
print("ok" if not problems and pages > 100 else
      f"{pages} pages; " + "; ".join(problems[:5]))
EOF
)" ok

# Dark mode on a phone's width: the same front page.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$tmp/chromium" --blink-settings=preferredColorScheme=0 \
	--window-size=390,900 --screenshot="$art/front-dark-phone.png" \
	"file://$site/index.html" >/dev/null 2>&1 || true

# On a phone (390 px), nothing is out of sight (issue 37: 4 of 9 columns
# showed, the age histogram clipped): a test page, not the site's, frames
# each page at that width and measures every cell, card and chart.
phone() { # PAGE: "overflow N of width W ..."
	cat >"$tmp/measure.html" <<EOM
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="file://$1"
style="width:390px;height:900px;border:0"></iframe><script>
document.getElementById('f').onload = function () {
	var d = this.contentDocument, out = [], w = d.documentElement.clientWidth;
	d.querySelectorAll('td, th, svg.chart, .card').forEach(function (e) {
		var r = e.getBoundingClientRect();
		if (r.width > 0 && r.right > w + 1)
			out.push(e.tagName + ':' + Math.round(r.right));
	});
	var p = document.createElement('pre');
	p.id = 'result';
	p.textContent = 'overflow ' + out.length + ' of width ' + w + ' ' +
		out.slice(0, 5).join(' ');
	document.body.appendChild(p);
};
</script></body></html>
EOM
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/chromium" --allow-file-access-from-files \
		--virtual-time-budget=5000 --dump-dom "file://$tmp/measure.html" \
		2>/dev/null | sed -n 's/.*<pre id="result">\([^<]*\).*/\1/p'
}
for page in index.html "$entry"; do
	got=$(phone "$site/$page")
	check "on a phone, $page shows everything" "${got%% of*}" "overflow 0"
done

# Every feed is Atom (RFC 4287): an id, a title and an updated time on
# the feed and on each entry, each entry's link naming a page of the
# site; an entry's feed lists its overdue and ready series.
check "the feeds are Atom" "$(python3 - "$site" <<'EOF'
import os, sys, xml.etree.ElementTree as ET
A = "{http://www.w3.org/2005/Atom}"
site, problems, feeds, items = sys.argv[1], [], 0, 0
for d, _, fs in os.walk(site):
    for f in fs:
        if not f.endswith(".atom"):
            continue
        path = os.path.join(d, f)
        feeds += 1
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            problems.append(f"{path}: {e}")
            continue
        if root.tag != A + "feed":
            problems.append(f"{path}: not a feed")
        for el in [root] + root.findall(A + "entry"):
            for need in ("id", "title", "updated"):
                if el.find(A + need) is None or not el.find(A + need).text:
                    problems.append(f"{path}: no {need}")
        for e in root.findall(A + "entry"):
            items += 1
            href = e.find(A + "link").get("href")
            if not os.path.isfile(os.path.normpath(os.path.join(d, href))):
                problems.append(f"{path}: {href} does not resolve")
print("ok" if not problems and feeds > 50 and items > 0 else
      f"{feeds} feeds, {items} items; " + "; ".join(problems[:5]))
EOF
)" ok

# The screenshots are real images.
for png in front entry series series-hostile front-dark-phone; do
	check "screenshot $png" "$(python3 -c '
import sys
b = open(sys.argv[1], "rb").read()
print("png" if b[:8] == b"\x89PNG\r\n\x1a\n" and len(b) > 20000 else len(b))
' "$art/$png.png" 2>&1)" png
done

# Written as a whole: a second report replaces the first; a directory
# that is not a report is refused and left as it was.
touch "$site/stale-file"
"$pc" report --now "$now" --html "$site" >/dev/null
check "second report replaces the first" \
	"$([ -e "$site/stale-file" ] && echo kept || echo gone)" gone
check "no temporary directory left" \
	"$(find "$tmp" -maxdepth 1 -name '.site.new-*' | wc -l)" 0
mkdir "$tmp/mine"
echo precious >"$tmp/mine/notes.txt"
set +e
"$pc" report --now "$now" --html "$tmp/mine" 2>"$tmp/mine.err" >/dev/null
rc=$?
set -e
check "a directory that is not a report: exit" "$rc" 1
contains "a directory that is not a report: why" "$(cat "$tmp/mine.err")" \
	"is not a patchclock report"
check "a directory that is not a report: untouched" \
	"$(cat "$tmp/mine/notes.txt")" precious

# The daemon writes it on its last pass of a replay.
cat >"$tmp/pcd.conf" <<EOF
[general]
database = $tmp/pcd.db
tree = $tree
archive = https://lore.kernel.org/nvdimm/%s/

[report]
html = $tmp/daemon-site
title = replay

[clock]
start = 2021-05-18 00:00
step = yes
until = 2021-06-15 00:00

[source "nvdimm"]
type = mbox
path = $data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
list_id = nvdimm.lists.linux.dev
replay = yes
EOF
"$pcd" -d -f "$tmp/pcd.conf" 2>"$tmp/pcd.log" ||
	check "patchclockd replay" "$(tail -n 3 "$tmp/pcd.log")" "exit 0"
check "the daemon wrote the report" \
	"$([ -f "$tmp/daemon-site/index.html" ] && echo yes)" yes
contains "judged at the replay's end" "$(cat "$tmp/daemon-site/index.html")" \
	"2021-06-15 00:00 UTC"

echo "screenshots: $art/front.png $art/entry.png $art/series.png" \
	"$art/series-hostile.png $art/front-dark-phone.png"
if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "report: all checks passed"
