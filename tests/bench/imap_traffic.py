#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Drives list traffic into a real IMAP folder and times patchclockd.

usage: imap_traffic.py --env IMAP_ENV --folder F --db DB --mbox MBOX
                       --count N --interval SECS --start EPOCH --speed X
                       --pids-file FILE [--idle SECS]

Takes the first N messages of MBOX (real list mail, gzip allowed), gives
every Message-ID, In-Reply-To and References id a fresh prefix and the
Date of the simulated clock at the moment it is sent, and APPENDs them
one at a time over IMAPS (one session), INTERVAL real seconds apart.
For each message it measures, from the server's APPEND OK:
  - stored:  until its row is in the database (the fetcher's work);
  - judged:  for a message that anchors a new series, until that series
             has a verdict (series_status): new mail to evaluated state.
While the traffic runs it samples the resident memory of patchclockd and
its children (pids re-read from PIDS_FILE's process tree) every second;
afterwards it measures their CPU use over IDLE quiet seconds.
Prints one summary (median, p90, max per measure; memory first, peak,
last; idle CPU %) and exits 0.
"""
import argparse
import email.utils
import gzip
import imaplib
import mailbox
import os
import re
import sqlite3
import ssl
import statistics
import time

ID = re.compile(rb"<([^<>\s]+)>")


def env_file(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                out[k] = v
    return out


def messages(path, n):
    if path.endswith(".gz"):
        tmp = "/tmp/imap_traffic.%d.mbox" % os.getpid()
        with gzip.open(path, "rb") as src, open(tmp, "wb") as dst:
            dst.write(src.read())
        path = tmp
    box = mailbox.mbox(path)
    out = []
    for key in box.iterkeys():
        out.append(box.get_bytes(key))
        if len(out) >= n:
            break
    if path.startswith("/tmp/imap_traffic."):
        os.unlink(path)
    return out


def rewrite(raw, prefix, date):
    head, sep, body = raw.partition(b"\n\n")
    lines = head.split(b"\n")
    out, msgid = [], None
    for line in lines:
        low = line.lower()
        if low.startswith((b"message-id:", b"in-reply-to:", b"references:")):
            line = ID.sub(lambda m: b"<" + prefix + m.group(1) + b">", line)
            if low.startswith(b"message-id:"):
                m = ID.search(line)
                msgid = m.group(1).decode("utf-8", "replace") if m else None
        elif low.startswith(b"date:"):
            line = b"Date: " + date.encode()
        elif line[:1] in (b" ", b"\t") and out and out[-1].lower().startswith(
                (b"references:", b"in-reply-to:")):
            line = ID.sub(lambda m: b"<" + prefix + m.group(1) + b">", line)
        out.append(line)
    return b"\r\n".join(out) + b"\r\n\r\n" + body.replace(b"\n", b"\r\n"), msgid


def tree_pids(root):
    pids, todo = [], [root]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            with open("/proc/%d/task/%d/children" % (p, p)) as f:
                todo.extend(int(x) for x in f.read().split())
        except OSError:
            pass
    return pids


def rss_kib(pids):
    total = 0
    for p in pids:
        try:
            with open("/proc/%d/status" % p) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_ticks(pids):
    total = 0
    for p in pids:
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def connect(env_path):
    """Logs in to the test server the env file describes."""
    env = env_file(env_path)
    ctx = ssl.create_default_context(cafile=env["IMAP_CA"])
    imap = imaplib.IMAP4_SSL(env["IMAP_HOST"], int(env["IMAPS_PORT"]),
                             ssl_context=ctx)
    imap.login(env["IMAP_USER"], env["IMAP_PASS"])
    return imap


def main():
    ap = argparse.ArgumentParser()
    for a in ("env", "folder", "db", "mbox", "pids-file"):
        ap.add_argument("--" + a, required=True)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--interval", type=float, default=0.25)
    ap.add_argument("--start", type=float, required=True)
    ap.add_argument("--speed", type=float, required=True)
    ap.add_argument("--idle", type=float, default=20)
    o = ap.parse_args()
    imap = connect(o.env)
    imap.create(o.folder)
    if o.count == 0:
        # Only make the folder, so that the daemon finds it at once.
        imap.logout()
        return
    db = sqlite3.connect("file:%s?mode=ro" % o.db, uri=True, timeout=5)
    with open(o.pids_file) as f:
        root = int(f.read().split()[0])

    msgs = messages(o.mbox, o.count)
    prefix = b"bench%d." % int(time.time())
    real0 = time.time()
    stored, judged, rss = [], [], []
    next_sample = 0
    for i, raw in enumerate(msgs):
        sim = o.start + (time.time() - real0) * o.speed
        data, msgid = rewrite(raw, prefix,
                              email.utils.formatdate(sim, usegmt=True))
        typ, _ = imap.append(o.folder, None, None, data)
        t0 = time.time()
        if typ != "OK" or not msgid:
            continue
        got_stored = got_judged = None
        deadline = t0 + 10
        while time.time() < deadline:
            row = db.execute(
                "SELECT m.id, s.id, st.series_id FROM messages m "
                "LEFT JOIN series s ON s.id = m.series_id "
                "AND s.anchor_id = m.id "
                "LEFT JOIN series_status st ON st.series_id = s.id "
                "WHERE m.msgid = ?", (msgid,)).fetchone()
            now = time.time()
            if row and got_stored is None:
                got_stored = now - t0
            if row and (row[1] is None or row[2] is not None):
                if row[1] is not None:
                    got_judged = now - t0
                break
            time.sleep(0.005)
        if got_stored is not None:
            stored.append(got_stored)
        if got_judged is not None:
            judged.append(got_judged)
        if time.time() >= next_sample:
            rss.append(rss_kib(tree_pids(root)))
            next_sample = time.time() + 1
        time.sleep(max(0, o.interval - (time.time() - t0)))
    rss.append(rss_kib(tree_pids(root)))
    sim_days = (time.time() - real0) * o.speed / 86400
    imap.logout()

    pids = tree_pids(root)
    c0, w0 = cpu_ticks(pids), time.time()
    time.sleep(o.idle)
    c1, w1 = cpu_ticks(tree_pids(root)), time.time()
    hz = os.sysconf("SC_CLK_TCK")
    idle_cpu = 100.0 * (c1 - c0) / hz / (w1 - w0)

    def line(name, v):
        print("%-28s n=%-4d median %6.3f s  p90 %6.3f s  max %6.3f s" %
              (name, len(v), pct(v, 0.5), pct(v, 0.9), max(v or [0])))

    print("messages appended: %d over %.0f s real = %.1f simulated days"
          % (len(msgs), time.time() - real0 - o.idle, sim_days))
    line("APPEND OK -> stored", stored)
    line("APPEND OK -> judged (new)", judged)
    print("RSS of patchclockd + fetcher: first %d KiB, peak %d KiB, "
          "last %d KiB" % (rss[0], max(rss), rss[-1]))
    print("idle CPU over %.0f s: %.2f %% of one core" % (o.idle, idle_cpu))


if __name__ == "__main__":
    main()
