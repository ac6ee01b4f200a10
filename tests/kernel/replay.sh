#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel.replay: the clock over a real archive (issue 4, "Interfaces").
#
#   tests/kernel/replay.sh PATCHCLOCK TEST_DATA_DIR
#
# The lore-nvdimm slice (2,317 messages of nvdimm@lists.linux.dev, May to
# December 2021) is ingested into a fresh database against a sparse clone
# of the 6.1 tree with the libnvdimm profile port applied
# (kernel-test/patches/profile/0001-0002: ping after 1 week, office hours
# 8:00am-5:00pm Pacific, non-author review, new features before -rc4).
# `patchclock status --all --json` then replays it at eight "now"s, in
# order, on the same database, as a daemon would, and the verdicts of
# nine named series (by anchor Message-ID: series IDs are not stable) are
# checked against states established by reading their threads by hand.
# Each check says how. Also checked: the incremental path (a second run
# at the same now judges nothing; a later now judges fewer series than
# --full; an incremental verdict equals a --full one at the same now).
#
# Conventions of the hand checks: times are the mails' Date headers; "Z"
# is UTC; the LIBNVDIMM profile's zone is America/Los_Angeles (PDT, UTC-7,
# until Sun 2021-11-07 02:00; PST, UTC-8, after). Release dates are
# data/kernel-releases', each at 14:00 Pacific. The profile states no
# holidays, so US holidays count as business days. "1 week" is 7 local
# calendar days (PC_BIZ_WEEKS, lib/sla/bizclock.h): `due` is the posting's
# wall time 7 days on, and `act_at` is the next office-hours opening at or
# after it, which is also where "5 business days from the next opening"
# lands for every series below.
#
# The tree comes from $PC_KERNEL_TREE (kernel-test/prepare-tree) and is
# never modified; everything is made in a temporary directory removed on
# exit. Exit 77 (skip) only when $PC_KERNEL_TREE is unset. ~17 s.
set -euo pipefail

cli=$1
data=$2
if [ -z "${PC_KERNEL_TREE:-}" ]; then
	echo "skip: \$PC_KERNEL_TREE is not set (kernel-test/prepare-tree)"
	exit 77
fi
tree=$PC_KERNEL_TREE
top=$(cd "$(dirname "$0")/../.." && pwd)
patches=$top/kernel-test/patches/profile
releases=$top/data/kernel-releases
mbox=$data/corpus/lore-nvdimm/nvdimm-2021-05_2021-12.mboxrd.gz
export PATCHCLOCK_PROFILES=$top/data/profiles.ini
unset PATCHCLOCK_DB PATCHCLOCK_RELEASES

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fails=0
fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

[ -r "$mbox" ] || {
	echo "FAIL: no corpus at $mbox" >&2
	exit 1
}

# ---- the tree with the ported profile, and the archive ---------------

# The clone technique of tests/kernel/profile.sh: MAINTAINERS, .mailmap
# and Documentation/ are what mapping and profiles read, and the source
# directories the slice's patches touch: a patch whose files are not in
# the tree is another project's (ndctl's), in no kernel queue.
mapfile -t series < <(find "$patches" -name '0*.patch' ! -name '0000-*' | sort)
[ "${#series[@]}" -eq 2 ] || fail "expected 2 patches in $patches"
git clone -q --shared --no-checkout "$tree" "$tmp/k"
git -C "$tmp/k" sparse-checkout set --no-cone /MAINTAINERS /.mailmap \
	/Documentation/ /drivers/ /include/ /fs/ /mm/ /arch/ /block/ /lib/ \
	/kernel/ /tools/testing/nvdimm/ /tools/testing/selftests/
git -C "$tmp/k" -c advice.detachedHead=false checkout -q baseline
git -C "$tmp/k" -c user.name=patchclock -c user.email=patchclock@localhost \
	am -q "${series[@]}"

db=$tmp/replay.db
"$cli" ingest --db "$db" --tree "$tmp/k" --quiet "$mbox" >"$tmp/ingest.out"
# The counts the corpus MANIFEST states: 2,317 messages, 8 duplicates.
grep -q 'read 2317, new 2309, duplicates 8,' "$tmp/ingest.out" ||
	fail "ingest: $(cat "$tmp/ingest.out")"
# Status runs judge only; the copy is the starting point of the --full
# runs below.
cp "$db" "$tmp/ingested.db"

# status DB NOW OUT ARG...: `patchclock status` at NOW into OUT. status
# writes nothing; then a judging pass that stores (digest, queueing no
# reply) keeps the verdicts, as the daemon's passes do, so that the next
# status judges incrementally from them.
status() {
	local d=$1 now=$2 out=$3
	shift 3
	if ! "$cli" status --db "$d" --tree "$tmp/k" --releases "$releases" \
		--now "${now}T00:00:00Z" --all "$@" >"$out" 2>"$out.err"; then
		fail "status --now $now $*: $(cat "$out.err")"
		echo '[]' >"$out"
	fi
	if [[ " $* " != *" --json "* ]] &&
		! "$cli" digest --db "$d" --tree "$tmp/k" --releases "$releases" \
			--now "${now}T00:00:00Z" --no-replies \
			--from pc@patchclock.test >/dev/null 2>"$out.err"; then
		fail "digest --now $now: $(cat "$out.err")"
	fi
}

# judged FILE: "N HOW" from a text run's summary line.
judged() {
	sed -n 's/^[0-9]* series shown, judged at .* UTC (\([0-9]*\) judged now, \(.*\))$/\1 \2/p' "$1"
}

# ---- the replay ------------------------------------------------------

# In order, on one database. At each now a text run judges (its summary
# says how many), then a --json run at the same now lists the verdicts.
nows=(2021-06-01 2021-06-08 2021-07-15 2021-09-10 2021-10-01 2021-10-23
	2021-11-07 2021-11-20 2022-01-15)
declare -A njudged
for t in "${nows[@]}"; do
	status "$db" "$t" "$tmp/$t.txt"
	status "$db" "$t" "$tmp/$t.json" --json
	n='' how=''
	read -r n how < <(judged "$tmp/$t.txt") || true
	njudged[$t]=${n:-?}
	if [ "$t" = "${nows[0]}" ]; then
		[ "${how:-}" = "all again" ] ||
			fail "$t: the first run on a fresh database says '${how:-}'"
	else
		[ "${how:-}" = "incrementally" ] ||
			fail "$t: a later now was judged '${how:-}', not incrementally"
	fi
done

# is NOW ANCHOR JQ WANT: the jq expression over the one verdict of the
# series anchored at ANCHOR, in the run at NOW, must print WANT.
is() {
	local got
	got=$(jq -r --arg a "$2" "[.series[] | select(.anchor_message_id == \$a)] |
		if length == 1 then .[0] | ($3) else \"<\(length) verdicts>\" end" \
		"$tmp/$1.json")
	[ "$got" = "$4" ] || fail "at $1 <$2>: $3 is '$got', want '$4'"
}

# verdict NOW ANCHOR STATE FLAGS TURN ENTRY
verdict() {
	is "$1" "$2" .state "$3"
	is "$1" "$2" '.flags | join(" ")' "$4"
	is "$1" "$2" '.turn // "nobody"' "$5"
	is "$1" "$2" .governing_entry "$6"
}

# absent NOW ANCHOR: no verdict (posted after now).
absent() {
	local n
	n=$(jq --arg a "$2" '[.series[] | select(.anchor_message_id == $a)] | length' "$tmp/$1.json")
	[ "$n" = 0 ] || fail "at $1 <$2>: $n verdicts for a series posted later"
}

nv=Documentation/nvdimm/maintainer-entry-profile.rst
e_nv="LIBNVDIMM: NON-VOLATILE MEMORY DEVICE SUBSYSTEM"

# ---- 1. new, then overdue: nobody ever answered ----------------------
# "[PATCH] nvdimm/test: Fix corruption due to memory overflow", Santosh
# Sivaraj, Date: Fri, 4 Jun 2021 12:38:28 +0530 = 07:08:28Z = Fri 00:08:28
# PDT. Only tools/testing/nvdimm/test/ndtest.c: MAINTAINERS maps it to
# LIBNVDIMM: NON-VOLATILE (F: tools/testing/nvdimm/, P: the profile) and
# THE REST. zcat | grep for its Message-ID finds no In-Reply-To or
# References to it and no later version: never answered in the slice.
# A fix ("Fix" in the subject), so no cycle check (posted after -rc4).
#   due    = Fri 06-04 00:08:28 PDT + 7 days = Fri 06-11 00:08:28 PDT
#          = 2021-06-11T07:08:28Z
#   act_at = next opening: Fri 06-11 08:00 PDT = 2021-06-11T15:00:00Z
#            (= 5 business days from the first opening, Fri 06-04 08:00)
#   overdue by, at 2021-07-15T00:00Z = Wed 07-14 17:00 PDT: business days
#     from Fri 06-11 00:08 PDT: Fri 06-11 (1) + 06-14..07-09 (20) +
#     Mon 07-12..Wed 07-14, whose office hours end at now (3) = 24;
#   at 2022-01-15T00:00Z = Fri 01-14 16:00 PST: the 155 weekdays
#     2021-06-11..2022-01-13 + 8 of Friday's 9 office hours = 155 8/9.
a1=20210604070828.2747433-1-santosh@fossix.org
absent 2021-06-01 $a1
verdict 2021-06-08 $a1 new "needs-review" maintainers "$e_nv"
is 2021-06-08 $a1 .profile "$nv"
is 2021-06-08 $a1 .zone America/Los_Angeles
is 2021-06-08 $a1 .posted_at 2021-06-04T07:08:28Z
is 2021-06-08 $a1 .due_at 2021-06-11T07:08:28Z
is 2021-06-08 $a1 .act_at 2021-06-11T15:00:00Z
is 2021-06-08 $a1 .overdue_business_days null
verdict 2021-07-15 $a1 new "overdue needs-review" maintainers "$e_nv"
is 2021-07-15 $a1 .overdue_business_days 24
is 2021-07-15 $a1 .first_response_at null
verdict 2022-01-15 $a1 new "overdue needs-review" maintainers "$e_nv"
is 2022-01-15 $a1 '.overdue_business_days * 9 | round' 1403

# ---- 2. late for the cycle; new, then reviewed -----------------------
# "[PATCH] tools/testing/nvdimm: use vzalloc() instead of
# vmalloc()/memset(0)", Wu Bo, Date: Mon, 31 May 2021 09:48:35 +0800 =
# 05-31 01:48:35Z = Sun 05-30 18:48:35 PDT: 4 h 49 min after v5.13-rc4
# (2021-05-30 14:00 PDT = 21:00Z). A cleanup: no "fix" in the subject, no
# Fixes: or Cc: stable in the patch, not an RFC, so a feature posted
# after "Before -rc4": late; it misses the 5.14 merge window, lands 5.15.
# Replies: Wu Bo's own "Friendly ping ..." (06-04 08:48:37 +0800, the
# author: no response) and Santosh Sivaraj's "LGTM, Reviewed-by: Santosh
# S <santosh@fossix.org>" (06-04 12:18:32 +0530 = 06:48:32Z).
#   due    = Sun 05-30 18:48:35 PDT + 7 days = Sun 06-06 18:48:35 PDT
#          = 2021-06-07T01:48:35Z
#   act_at = Mon 06-07 08:00 PDT = 2021-06-07T15:00:00Z
# At 06-01: no reply yet: new, not yet due, the maintainers' turn. At
# 06-08: the one patch has a non-author Reviewed-by given on the list:
# reviewed. Santosh does not apply patches to the nvdimm tree and his
# "LGTM" asks the author for nothing, so the patch still waits on the
# maintainers, who have let the due time pass: overdue, their turn
# (doc/design.md, "Who applies it, and whose turn it is").
a2=1622425715-146012-1-git-send-email-wubo40@huawei.com
verdict 2021-06-01 $a2 new "late-for-cycle needs-review" maintainers "$e_nv"
is 2021-06-01 $a2 .due_at 2021-06-07T01:48:35Z
is 2021-06-01 $a2 .act_at 2021-06-07T15:00:00Z
is 2021-06-01 $a2 .feature_deadline_at 2021-05-30T21:00:00Z
is 2021-06-01 $a2 .lands_in 5.15
verdict 2021-06-08 $a2 reviewed "overdue late-for-cycle" maintainers "$e_nv"
is 2021-06-08 $a2 .first_response_at 2021-06-04T06:48:32Z
is 2021-06-08 $a2 '.patches[0].reviewed_by.name' "Santosh S"

# ---- 3. superseded by v2 ---------------------------------------------
# "[PATCH] libnvdimm/pmem: Fix blk_cleanup_disk() usage", Dan Williams,
# Mon, 7 Jun 2021 16:31:02 -0700 (23:31:02Z). "[PATCH v2]" of it follows
# at 16:52:43 -0700, In-Reply-To v1, "Changes in v2 Improve the
# changelog." No reply to v1 itself. From 06-08 on, v1 is superseded:
# nobody's turn. drivers/nvdimm/pmem.c is LIBNVDIMM PMEM's (F:
# drivers/nvdimm/pmem*) and LIBNVDIMM's (drivers/nvdimm/*), but it says
# "Fixes: 87eb73b2ca7c ("nvdimm-pmem: convert to
# blk_alloc_disk/blk_cleanup_disk")", patch 17 of Christoph Hellwig's
# block series of 05-21 (section 5), which Jens Axboe took into the
# block tree: a fix of a commit posted here in the last ten weeks goes
# through the tree that took it, so that series' governing entry, BLOCK
# LAYER, governs (and Jens applied it: section 4).
e_block="BLOCK LAYER"
a3=162310861219.1571453.6561642225122047071.stgit@dwillia2-desk3.amr.corp.intel.com
absent 2021-06-01 $a3
verdict 2021-06-08 $a3 superseded "needs-review" nobody "$e_block"
verdict 2022-01-15 $a3 superseded "needs-review" nobody "$e_block"

# ---- 4. v2 of it: new, then reviewed (a foreign "Applied") -----------
# Posted Mon 2021-06-07 16:52:43 PDT (23:52:43Z), inside office hours.
#   due = act_at = Mon 06-14 16:52:43 PDT = 2021-06-14T23:52:43Z
# At 06-08T00:00Z (06-07 17:00 PDT) nothing has answered it. Then, on
# 06-08: Christoph Hellwig 07:36:27 +0200 (05:36:27Z) "Reviewed-by:
# Christoph Hellwig", Sachin Sant 11:13:31 +0530 "Tested-by", and Jens
# Axboe 15:26:50 -0600 (21:26:50Z) "Applied, thanks.". Jens is M: of
# BLOCK LAYER, which governs it as it does v1 (Dan had asked Jens to
# take it through the block tree): accepted, nobody's turn.
a4=162310994435.1571616.334551212901820961.stgit@dwillia2-desk3.amr.corp.intel.com
verdict 2021-06-08 $a4 new "needs-review" maintainers "$e_block"
is 2021-06-08 $a4 .due_at 2021-06-14T23:52:43Z
is 2021-06-08 $a4 .act_at 2021-06-14T23:52:43Z
verdict 2021-07-15 $a4 accepted "" nobody "$e_block"
is 2021-07-15 $a4 .first_response_at 2021-06-08T05:36:27Z
is 2021-07-15 $a4 '.patches[0].reviewed_by.name' "Christoph Hellwig"

# ---- 5. reviewed, then accepted by a mapped maintainer's "Applied" ---
# "simplify gendisk and request_queue allocation for bio based drivers",
# Christoph Hellwig, cover + 26 patches, Fri 2021-05-21 07:50:50 +0200.
# Its patches touch block/ and drivers/block/ (BLOCK LAYER, M: Jens
# Axboe), drivers/nvdimm/ and more. The governing entry is the one
# covering most of the series' 30 files (policyset.h; THE REST aside):
# BLOCK LAYER with 14 (LIBNVDIMM: NON-VOLATILE 4; counted with
# `select entry, files from series_entries`), which has no profile: the
# default policy. Hannes Reinecke asked questions on 13/26, 14/26 and
# 18/26 (Sun 05-23); Christoph answered them on Mon 05-24, below each
# patch, from 09:25:57 to 09:29:50 +0200: the ball is back with the
# maintainers from the last of those answers (07:29:50Z), since while a
# question below one patch is unanswered, an answer below another does
# not give it back (the list's labels, too, have the wait begin at
# 07:29). Ulf Hansson replied to the cover letter on Wed 05-26
# 00:41:37 +0200 with "Reviewed-by: Ulf Hansson", which applies to all
# 26 patches (and Hannes Reinecke, Luis Chamberlain, Coly Li, Geert
# Uytterhoeven tagged single patches); the tags ask the author for
# nothing, and Ulf's "May I ask what else you have in the pipe for the
# next steps?" is curiosity about later work, which the series does not
# wait on (Christoph's answer to it restarts nothing). So at 06-01 it
# is reviewed and waits on Jens: the maintainers' turn, posted before
# -rc4 so not late, and overdue: BLOCK LAYER has no profile, so one
# week from 05-24T07:29:50Z, in UTC. Then Jens Axboe, Tue 06-01
# 07:48:09 -0600 (13:48:09Z), to the cover: "Applied, thanks." Jens is
# M: of BLOCK LAYER, a mapped entry: accepted from then on, nobody's
# turn.
a5=20210521055116.1053587-1-hch@lst.de
verdict 2021-06-01 $a5 reviewed "overdue" maintainers "$e_block"
is 2021-06-01 $a5 .due_at 2021-05-31T07:29:50Z
for t in 2021-06-08 2021-10-01 2022-01-15; do
	verdict $t $a5 accepted "" nobody "$e_block"
done

# ---- 6. changes requested, then superseded (default policy) ----------
# "[PATCH v8 0/7] fsdax,xfs: Add reflink&dedupe support for fsdax",
# Shiyang Ruan, Sun, 29 Aug 2021 20:25:10 +0800 (12:25:10Z). Mapped to
# FILESYSTEM DIRECT ACCESS (DAX) (fs/dax.c), FILESYSTEMS (VFS), THE REST,
# IOMAP, XFS: none has a P: line in 6.1 or a map entry, so the default
# policy (1 week, UTC, Monday-Friday all day) under the entry covering
# most of its changed lines, each file's lines counted for its most
# specific entries: fs/dax.c (321 of 518 lines) and include/linux/dax.h
# are FILESYSTEM DIRECT ACCESS (DAX)'s ("F: fs/dax.c", before the VFS's
# glob of fs/), 336 lines; XFS FILESYSTEM has 153 (though 8 of the 14
# files), the VFS 51. Dan Williams, M: of FILESYSTEM DAX, is whom the
# fs/dax.c rework waits on.
#   due    = Sun 2021-08-29 12:25:10Z + 7 days = 2021-09-05T12:25:10Z
#   act_at = next business day's opening: Mon 2021-09-06T00:00:00Z
# Christoph Hellwig answered 3/7 first (Thu 09-02 09:27:19 +0200 =
# 07:27:19Z), and on 6/7 at 09:43:08 +0200 wrote "Please split the new
# dax infrastructure from the XFS changes." (and "Please comment this").
# 6/7 carries no review tag, so not every patch is reviewed: changes-
# requested. The last human mail before 09-10 is Darrick J. Wong's on 6/7
# (09-02 08:33:09 -0700): the author's turn. v9 came Wed 09-15 18:44:53
# +0800 ("[PATCH v9 0/8] ...", "Changes from V8"): superseded after.
a6=20210829122517.1648171-1-ruansy.fnst@fujitsu.com
absent 2021-07-15 $a6
verdict 2021-09-10 $a6 changes-requested "needs-review" author \
	"FILESYSTEM DIRECT ACCESS (DAX)"
is 2021-09-10 $a6 .profile null
is 2021-09-10 $a6 .zone UTC
is 2021-09-10 $a6 .due_at 2021-09-05T12:25:10Z
is 2021-09-10 $a6 .act_at 2021-09-06T00:00:00Z
is 2021-09-10 $a6 .first_response_at 2021-09-02T07:27:19Z
verdict 2021-10-01 $a6 superseded "needs-review" nobody \
	"FILESYSTEM DIRECT ACCESS (DAX)"

# ---- 7. acknowledged, not yet accepted; accepted later ---------------
# "fix a pmem regression due to drain the block queue in del_gendisk",
# Christoph Hellwig, cover + 2 patches, Tue, 19 Oct 2021 09:36:39 +0200
# (07:36:39Z); a fix ("fix" in the subject, "Fixes:" in 1/2, which
# touches drivers/nvdimm/pmem.c), so no cycle check although posted after
# v5.15-rc4. Before 2021-10-23T00:00Z (Fri 10-22 17:00 PDT): Yi Zhang
# "Tested-by" (10-20 14:38:23 +0800 = 06:38:23Z, the first response),
# Adam Borowski "This breaks at least drivers/pci/p2pdma.c:222" on 2/2
# (10-21), Christoph "I've updated this patch ... nvdimm maintainers, can
# you please act on it ASAP?" (10-22 07:55:15 +0200), Adam "Thus:
# Tested-By." (10-22 10:52:48 +0200), and Dan Williams (M: of both
# LIBNVDIMM entries), Fri 10-22 08:43:58 -0700 (15:43:58Z): "Yes, I have
# been pulled in many directions this past week, but I do plan to get
# this queued for v5.15-rc7." A plan, not a statement that it is queued:
# not accepted. No review tag, nobody asks the author for anything (the
# breakage is already answered by "I've updated this patch"):
# acknowledged; the last human mail is Dan's: the author's turn. Then
# Dan, Mon 10-25 18:42:51 -0700: "Ok, this is passing all my tests and
# will be pushed out to -next tonight." and 10-26 "patch1 I'll push for
# v5.15-final and patch2 for v5.16-rc1". A maintainer reads that as
# accepted, but both are promises in the future tense, which intent.c
# deliberately does not take as "applied" (it would also take "I will
# queue it once the review is done"): patchclock keeps it acknowledged
# until `patchclock accept` says otherwise. The governing entry is
# LIBNVDIMM: NON-VOLATILE: of the files (drivers/nvdimm/pmem.c,
# include/linux/memremap.h, mm/memremap.c,
# tools/testing/nvdimm/test/iomap.c) it covers two, LIBNVDIMM PMEM and
# MEMORY MANAGEMENT one each. By lines: MEMORY MANAGEMENT's 59
# (mm/memremap.c) against the 76 of the LIBNVDIMM entries, whose
# maintainers are the same people (the tests' 43 lines and pmem.c's
# 33): the nvdimm maintainers' series. On Thu 10-28 the author posted
# "[PATCH v2] memremap: remove support for external pgmap refcounts", a
# new version of 2/2 touching three of the four files (Jaccard 3/4),
# with patch 1 pushed by Dan as promised: superseded by 2022-01-15.
a7=20211019073641.2323410-1-hch@lst.de
absent 2021-10-01 $a7
verdict 2021-10-23 $a7 acknowledged "needs-review" author "$e_nv"
is 2021-10-23 $a7 .first_response_at 2021-10-20T06:38:23Z
verdict 2022-01-15 $a7 superseded "needs-review" nobody "$e_nv"

# ---- 8. due across the DST change and a weekend; an objection taken
#         back, then waiting on the maintainers again -----------------
# "[PATCH] nvdimm/pmem: Fix an error handling path in
# 'pmem_attach_disk()'", Christophe JAILLET, Sat, 6 Nov 2021 18:27:11
# +0100 = 17:27:11Z = Sat 10:27:11 PDT. US DST ends Sun 11-07 02:00.
#   due    = Sat 11-06 10:27:11 PDT + 7 days = Sat 11-13 10:27:11 PST
#          = 2021-11-13T18:27:11Z (an hour later in UTC than posted)
#   act_at = Mon 11-15 08:00 PST = 2021-11-15T16:00:00Z
# (at 11-07 00:00Z nobody has answered: new, those times). Ira Weiny (M: of LIBNVDIMM) replied Sun 11-07 09:11:57 -0800 (17:11:57Z,
# the first response: "I don't see this 'out' label..."); the author
# answered three times on 11-07 (once as "Marion & Christophe JAILLET",
# the same address); Ira's "Yes agreed ... Sorry for the noise" (Mon
# 11-08 08:14:16 -0800 = 16:14:16Z) is the last mail: he takes his
# objection back, and the patch waits on the maintainers again from
# then: due Mon 11-15 08:14:16 PST = 16:14:16Z, inside office hours, so
# act_at is the same; nothing more came: overdue, their turn. No
# Reviewed-by/Acked-by: acknowledged, needs review. Governed by
# LIBNVDIMM, as in 3.
a8=f1933a01d9cefe24970ee93d741babb8fe9c1b32.1636219557.git.christophe.jaillet@wanadoo.fr
absent 2021-10-23 $a8
verdict 2021-11-07 $a8 new "needs-review" maintainers "$e_nv"
is 2021-11-07 $a8 .due_at 2021-11-13T18:27:11Z
is 2021-11-07 $a8 .act_at 2021-11-15T16:00:00Z
for t in 2021-11-20 2022-01-15; do
	verdict $t $a8 acknowledged "overdue needs-review" maintainers "$e_nv"
	is $t $a8 .due_at 2021-11-15T16:14:16Z
	is $t $a8 .act_at 2021-11-15T16:14:16Z
	is $t $a8 .first_response_at 2021-11-07T17:11:57Z
done

# ---- 9. accepted by "Applied" from the entry's M:, then superseded ---
# "decouple DAX from block devices" (cover + 29 patches), Christoph
# Hellwig, Tue, 9 Nov 2021 09:32:40 +0100. The entry covering most
# changed lines governs: DEVICE DIRECT ACCESS (DAX) (353 lines in 3
# files, drivers/dax/; FILESYSTEM DIRECT ACCESS, the same maintainer's,
# 285), not XFS FILESYSTEM (238 lines in 12 files) or DEVICE-MAPPER (221
# in 7). No profile: the default policy, with no new-feature deadline,
# so no cycle verdict. Dan Williams, M: of LIBNVDIMM (and both DAX
# entries), replied Wed
# 11-17 09:23:44 -0800 (17:23:44Z, the first reply) to 02/29: "Applied,
# fixed the spelling of 'dependent' in the subject..." and at 09:43:46 to
# 03/29: "Applied.". Each "Applied" answers its own patch: 2 and 3 of 29
# are accepted at 11-20, not the series (partly-accepted: someone acted,
# so no mail), and the last word is Dan's: the author's turn. 02/29 has
# no review tag by then: needs-review. (On 11-22 Dan wrote "Unapplied,"
# to 03/29.)
# "decouple DAX from block devices v2", Mon 11-29 11:21:34 +0100, same
# author, "Changes since v1": superseded by 2022-01-15. By then the
# whole series is accepted, not part of it: on 12-08 Christoph's own fix
# "iomap: turn the byte variable in iomap_zero_iter into a ssize_t" says
# "Fixes: c6f40468657d ("fsdax: decouple zeroing from the iomap buffered
# I/O code")", its patch 18: it was committed (Dan had applied v2
# without a word on the list; he said so the next day).
a9=20211109083309.584081-1-hch@lst.de
verdict 2021-11-20 $a9 acknowledged "needs-review partly-accepted" author \
	"DEVICE DIRECT ACCESS (DAX)"
is 2021-11-20 $a9 '[.patches[] | select(.accepted_at != null) | .index] | join(",")' 2,3
is 2021-11-20 $a9 .first_response_at 2021-11-17T17:23:44Z
is 2021-11-20 $a9 .lands_in null
verdict 2022-01-15 $a9 superseded "needs-review" nobody \
	"DEVICE DIRECT ACCESS (DAX)"

# ---- the incremental path --------------------------------------------

last=${nows[-1]}
# The same now again: nothing to judge.
status "$db" "$last" "$tmp/again.txt"
[ "$(judged "$tmp/again.txt")" = "0 incrementally" ] ||
	fail "a second run at $last: '$(tail -n 1 "$tmp/again.txt")', want 0 judged"
# --full judges every series; the incremental run at the last now judged
# fewer (only those touched by due times or versions since the previous
# now).
cp "$db" "$tmp/full.db"
status "$tmp/full.db" "$last" "$tmp/full.txt" --full
nfull='' how=''
read -r nfull how < <(judged "$tmp/full.txt") || true
nshown=$(jq '.series | length' "$tmp/$last.json")
if [ "${how:-}" != "all again" ] || [ "${nfull:-}" != "$nshown" ]; then
	fail "--full at $last: '$(tail -n 1 "$tmp/full.txt")', want $nshown judged, all again"
fi
[ "${njudged[$last]}" -lt "${nfull:-0}" ] 2>/dev/null ||
	fail "incremental run at $last judged ${njudged[$last]}, --full ${nfull:-?}"

# An incremental verdict is the verdict: at every now, the replay's
# verdicts equal those of a fresh database judged --full at that now.
# Lines "V <anchor>: ..." differ in state, flags, turn, entry or times;
# "O <anchor>: ..." only in how many business days they are overdue.
# shellcheck disable=SC2016 # $inc, $full, $i... are jq's variables
compare='def p: .series | map({anchor: .anchor_message_id, state, flags, turn,
		governing_entry, due: .due_at, act_at,
		first_response: .first_response_at, lands_in,
		od: (.overdue_business_days // 0 | . * 1000 | round / 1000)})
		| sort_by(.anchor);
	($inc[0] | p) as $i | ($full[0] | p) as $f |
	if ($i | length) != ($f | length) then
		"V \($i | length) verdicts incrementally, \($f | length) in full"
	else
		range($i | length) | $i[.] as $a | $f[.] as $b |
		if ($a | del(.od)) != ($b | del(.od)) then
			"V <\($a.anchor)>: \($a | del(.anchor) | tojson) incrementally, \($b | del(.anchor) | tojson) in full"
		elif $a.od != $b.od then
			"O <\($a.anchor)>: overdue by \($a.od) business days incrementally, \($b.od) in full"
		else empty end
	end'
for t in "${nows[@]}"; do
	cp "$tmp/ingested.db" "$tmp/fresh.db"
	status "$tmp/fresh.db" "$t" "$tmp/fresh.json" --json --full
	jq -r -n --slurpfile inc "$tmp/$t.json" \
		--slurpfile full "$tmp/fresh.json" "$compare" >"$tmp/diff.$t"
	mapfile -t v < <(sed -n 's/^V //p' "$tmp/diff.$t")
	mapfile -t o < <(sed -n 's/^O //p' "$tmp/diff.$t")
	if [ "${#v[@]}" -ne 0 ]; then
		fail "at $t, ${#v[@]} incremental verdict(s) differ from --full, e.g.:"
		printf '  %s\n' "${v[@]:0:3}" >&2
	fi
	if [ "${#o[@]}" -ne 0 ]; then
		fail "at $t, ${#o[@]} incremental 'overdue by' value(s) differ from --full, e.g.:"
		printf '  %s\n' "${o[@]:0:1}" >&2
	fi
done

if [ "$fails" -ne 0 ]; then
	echo "$fails check(s) failed" >&2
	exit 1
fi
echo "kernel.replay: all checks passed"
