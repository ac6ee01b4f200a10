#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Self-test of tests/bench/mail-score, the judge of kernel.mail-judgement.

Builds a database holding an outbox (the columns the scorer reads) and a
labels file of two postings, runs the scorer on them and checks each
mail's verdict: a digest to the applier is right and catches the wait;
one to a reviewer's other address (an alias the labels give) is right;
one to a stranger is WRONG_RECIPIENT; a reminder four business days
after the due time is late; a digest after the wait ended is
ALREADY_ANSWERED. usage: mail-score-selftest.py [MAIL-SCORE]
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
SCORER = sys.argv[1] if len(sys.argv) > 1 else \
    os.path.join(HERE, "..", "bench", "mail-score")


def t(s):
    return int(datetime.strptime(s, "%Y-%m-%d %H:%M")
               .replace(tzinfo=timezone.utc).timestamp())


LABELS = [
    {"anchor": "<a@test>", "msgids": ["<a@test>"], "kind": "kernel",
     "subject": "[PATCH] foo: fix the bar", "version": 1,
     "posted": "2022-10-03T10:00:00Z", "author": "author@test",
     "appliers": ["maint@test"], "reviewers": ["rev@lst.test"],
     "profile": {"cadence_days": 7},
     "waits": [{"from": "2022-10-03T10:00:00Z", "to": "2022-10-20T12:00:00Z",
                "end": "APPLIED"}]},
    # The reviewer's own posting: the labels learn his other address.
    {"anchor": "<b@test>", "msgids": ["<b@test>"], "kind": "kernel",
     "subject": "[PATCH] baz: tidy", "version": 1,
     "posted": "2022-10-04T10:00:00Z", "author": "rev@lst.test",
     "author_aliases": ["rev@infradead.test"], "appliers": ["maint@test"],
     "reviewers": [], "profile": {"cadence_days": 7}, "waits": []},
]


def digest(to, when):
    body = ("Series waiting on you\n"
            "---------------------\n"
            "- [PATCH] foo: fix the bar\n"
            "  posted 2022-10-03 10:00 UTC, overdue by 1 business day\n"
            "  Message-ID: <a@test>\n")
    return ("From: patchclock@test\nTo: %s\nSubject: digest\n"
            "Date: %s\nContent-Type: text/plain\n\n%s" % (to, when, body))


def reminder(when):
    return ("From: patchclock@test\nTo: author@test\nCc: maint@test\n"
            "In-Reply-To: <a@test>\nReferences: <a@test>\n"
            "Subject: Re: [PATCH] foo: fix the bar\nDate: %s\n"
            "Content-Type: text/plain\n\nResend now.\n" % when)


MAILS = [  # (key, action, sent at, message, expected reason)
    ("d-maint", "digest", "2022-10-11 09:00",
     digest("maint@test", "Tue, 11 Oct 2022 09:00:00 +0000"), None),
    ("d-alias", "digest", "2022-10-11 09:00",
     digest("rev@infradead.test", "Tue, 11 Oct 2022 09:00:00 +0000"), None),
    ("d-stranger", "digest", "2022-10-11 09:00",
     digest("stranger@test", "Tue, 11 Oct 2022 09:00:00 +0000"),
     "WRONG_RECIPIENT"),
    ("r-late", "resend", "2022-10-14 11:00",
     reminder("Fri, 14 Oct 2022 11:00:00 +0000"), "OTHER"),
    ("d-after", "digest", "2022-10-24 09:00",
     digest("maint@test", "Mon, 24 Oct 2022 09:00:00 +0000"),
     "ALREADY_APPLIED"),
]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "t.db")
        labels = os.path.join(tmp, "labels.jsonl")
        with open(labels, "w", encoding="utf-8") as f:
            for lab in LABELS:
                f.write(json.dumps(lab) + "\n")
        db = sqlite3.connect(db_path)
        db.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY, key TEXT, "
                   "action TEXT, status TEXT, sent_at INTEGER, "
                   "send_after INTEGER, message BLOB)")
        db.execute("CREATE TABLE maint_people (addr TEXT, role TEXT)")
        for key, action, at, msg, _ in MAILS:
            db.execute("INSERT INTO outbox (key, action, status, sent_at, "
                       "send_after, message) VALUES (?, ?, 'sent', ?, ?, ?)",
                       (key, action, t(at), t(at), msg.encode()))
        db.commit()
        db.close()
        out = subprocess.run(
            [sys.executable, SCORER, "--db", db_path, "--labels", labels,
             "--start", "2022-10-01 00:00", "--until", "2022-11-01 00:00",
             "--json", "--verbose"], capture_output=True, text=True)
        if out.returncode:
            sys.exit("mail-score failed: %s" % out.stderr)
        got = json.loads(out.stdout)
    fails = []
    want_bad = {k: r for k, _, _, _, r in MAILS if r}
    bad = {u.get("key"): u.get("reason") for u in got["unjustified"]}
    if bad != want_bad:
        fails.append("unjustified %s, expected %s" % (bad, want_bad))
    if got["mails"] != len(MAILS) or got["justified"] != 2:
        fails.append("justified %s of %s, expected 2 of %d" %
                     (got["justified"], got["mails"], len(MAILS)))
    # The wait was owed once and the applier's digest caught it.
    if (got["owed"], got["got"]) != (1, 1):
        fails.append("recall %s of %s, expected 1 of 1" %
                     (got["got"], got["owed"]))
    for f in fails:
        print("FAIL:", f)
    if not fails:
        print("mail-score self-test: %d mails judged as expected" %
              len(MAILS))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
