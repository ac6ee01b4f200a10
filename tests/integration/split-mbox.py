#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Splits an mbox into one file per message, independently of patchclock.

usage: split-mbox.py MBOX OUTDIR [mboxo|mboxrd]

MBOX may be gzip-compressed. From_ lines are the strict form that git,
b4, lore and public-inbox write ("From SENDER Www Mmm dd hh:mm:ss yyyy")
at the start of the file or after an empty line. The From_ line and the
one empty line that mbox appends to each message are dropped; in mboxrd
(the default when the first From_ line says "From mboxrd@") one '>' is
removed from every ">+From " line. Writes OUTDIR/00001.eml, ... and prints
the number of messages.

usage: split-mbox.py --join OUT FILE...

Writes FILEs (one message each) as an mboxrd file, the inverse of the
above.
"""
import gzip
import os
import re
import sys

FROM_ = re.compile(rb"^From \S+ +\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}$")
QUOTED = re.compile(rb"^>(>*From )")
TO_QUOTE = re.compile(rb"^(>*From )")


def split(path, outdir, fmt):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    lines = data.split(b"\n")
    # A final LF leaves an empty last element that is not a line.
    last_nl = lines[-1] == b""
    if last_nl:
        lines.pop()
    msgs, cur, prev_blank = [], None, True
    for i, line in enumerate(lines):
        if prev_blank and FROM_.match(line):
            if fmt is None:
                fmt = "mboxrd" if line.startswith(b"From mboxrd@") else "mboxo"
            if cur is not None:
                msgs.append(cur)
            cur = []
            prev_blank = False
            continue
        prev_blank = line == b""
        if cur is None:
            sys.exit(f"{path}: line {i + 1}: no From_ line before mail")
        cur.append(line)
    if cur is not None:
        msgs.append(cur)
    os.makedirs(outdir, exist_ok=True)
    for n, m in enumerate(msgs, 1):
        if fmt == "mboxrd":
            m = [QUOTED.sub(rb"\1", line) for line in m]
        body = b"\n".join(m)
        is_last = n == len(msgs)
        if not is_last or last_nl:
            body += b"\n"
        if body.endswith(b"\n\n"):
            body = body[:-1]
        with open(os.path.join(outdir, f"{n:05d}.eml"), "wb") as f:
            f.write(body)
    print(len(msgs))


def join(out, files):
    with open(out, "wb") as f:
        for path in files:
            with open(path, "rb") as m:
                data = m.read()
            f.write(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n")
            lines = data.split(b"\n")
            f.write(b"\n".join(TO_QUOTE.sub(rb">\1", x) for x in lines))
            if not data.endswith(b"\n"):
                f.write(b"\n")
            f.write(b"\n")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--join":
        join(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) in (3, 4):
        split(sys.argv[1], sys.argv[2],
              sys.argv[3] if len(sys.argv) == 4 else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
