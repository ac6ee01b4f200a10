#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks patchclock's --json output against doc/json.md.

    jsondoc.py DOC OBJECT FILE...   each FILE must be one OBJECT
    jsondoc.py DOC --lint            the page itself keeps its rules

The page's "### Name" sections hold tables of `field | type | meaning`;
a type is integer, number, string, boolean, time, an object's name,
enum(a b c), [T] (an array of T) or T? (T or null). A FILE fails when it
has a field its table does not name, lacks one it names, holds a value
of another type, an empty string, a time that is not ISO 8601 UTC, or a
Message-ID in angle brackets. With --seen FILE, the fields that held a
value (not null, not an empty array) are appended to FILE, one
"Object.field" a line, for a coverage report.
"""
import json
import re
import sys

TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
PRIMITIVE = {"integer", "number", "string", "boolean", "time"}


def read_doc(path):
    """{object name: {field: type}} from the page's tables."""
    objects, name = {}, None
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^### (\w+)\s*$", line)
        if m:
            name = m.group(1)
            continue
        if name is None:
            continue
        m = re.match(r"^\| `([a-z0-9_]+)` \| (.+?) \| .*\|\s*$", line)
        if m:
            objects.setdefault(name, {})[m.group(1)] = m.group(2).strip()
        elif line.startswith("## "):
            name = None
    return objects


def lint(objects):
    """The page's own rules: times in *_at fields only, known types."""
    errors = []

    def known(t):
        t = t[:-1] if t.endswith("?") else t
        if t.startswith("[") and t.endswith("]"):
            return known(t[1:-1])
        return t in PRIMITIVE or t in objects or t.startswith("enum(")

    for obj, fields in objects.items():
        for f, t in fields.items():
            base = t.rstrip("?")
            if not known(t):
                errors.append(f"{obj}.{f}: unknown type {t}")
            if (base == "time") != f.endswith("_at"):
                errors.append(f"{obj}.{f}: a time's name ends in _at, "
                              f"and only a time's ({t})")
    return errors


class Checker:
    def __init__(self, objects):
        self.objects = objects
        self.errors = []
        self.seen = set()

    def fail(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def check(self, value, t, where, field=None):
        if t.endswith("?"):
            if value is None:
                return
            t = t[:-1]
        if value is None:
            return self.fail(where, f"null, but {t} may not be null")
        if t.startswith("[") and t.endswith("]"):
            if not isinstance(value, list):
                return self.fail(where, f"not an array ({t})")
            for i, v in enumerate(value):
                self.check(v, t[1:-1], f"{where}[{i}]", field)
            return
        if t.startswith("enum("):
            words = t[5:-1].split()
            if value not in words:
                self.fail(where, f"{value!r} is not one of {words}")
            return
        if t in self.objects:
            return self.check_object(value, t, where)
        if t == "integer":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif t == "number":
            ok = isinstance(value, (int, float)) and \
                not isinstance(value, bool)
        elif t == "boolean":
            ok = isinstance(value, bool)
        elif t in ("string", "time"):
            ok = isinstance(value, str)
            if ok and value == "":
                return self.fail(where, "an empty string (null is meant)")
            if ok and t == "time" and not TIME.match(value):
                return self.fail(where, f"{value!r} is not an ISO 8601 "
                                 "UTC time")
            if ok and field and (field == "message_id" or
                                 field.endswith("_message_id")) and \
                    (value.startswith("<") or value.endswith(">")):
                return self.fail(where, f"Message-ID {value!r} in "
                                 "angle brackets")
        else:
            return self.fail(where, f"the page has no type {t}")
        if not ok:
            self.fail(where, f"{json.dumps(value)[:60]} is not {t}")

    def check_object(self, value, name, where):
        fields = self.objects[name]
        if not isinstance(value, dict):
            return self.fail(where, f"not an object ({name})")
        for k in value:
            if k not in fields:
                self.fail(f"{where}.{k}", f"not a field of {name} in the "
                          "page")
        for k, t in fields.items():
            if k not in value:
                self.fail(f"{where}.{k}", f"missing ({name} has it)")
                continue
            v = value[k]
            if v is not None and v != []:
                self.seen.add(f"{name}.{k}")
            self.check(v, t, f"{where}.{k}", k)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    objects = read_doc(argv[1])
    if argv[2] == "--lint":
        errors = lint(objects)
        for e in errors:
            print(f"doc/json.md: {e}")
        return 1 if errors else 0
    root, files, seen_file = argv[2], argv[3:], None
    if files[:1] == ["--seen"]:
        seen_file, files = files[1], files[2:]
    if root not in objects:
        print(f"jsondoc: the page has no object {root}")
        return 2
    c = Checker(objects)
    for f in files:
        try:
            value = json.load(open(f, encoding="utf-8"))
        except (OSError, ValueError) as e:
            c.fail(f, f"not JSON: {e}")
            continue
        if not isinstance(value, dict) or value.get("version") != 1:
            c.fail(f, 'the top level is not an object with "version": 1')
        c.check_object(value, root, f"{f}:{root}")
    for e in c.errors[:40]:
        print(e)
    if len(c.errors) > 40:
        print(f"... and {len(c.errors) - 40} more")
    if seen_file:
        with open(seen_file, "a", encoding="utf-8") as out:
            for s in sorted(c.seen):
                out.write(s + "\n")
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
