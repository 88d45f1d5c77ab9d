#!/usr/bin/env python3
"""Keep docs/judge-audit.md's table from rotting.

usage: judge-audit.py SRCDIR BUILDDIR

Each row of the table names a rule of the judge, where the code keeps it
(`path:function`), the tests that fail without it and the mutation that
showed it. This checks, for every row, that each `path` exists and
defines `function`, that each test is in meson's test list (BUILDDIR's
meson-info/intro-tests.json), and that each quoted case ("...") is
written, word for word, in a file under a tests folder, so that renaming
a test or a case, or a function, fails here. TAP output, exit 1 on any
failure.
"""
import json
import os
import re
import sys

TEST_DIRS = ("hostctl/tests", "guestd/tests", "common/tests")


def rows(doc):
    """The table's rows: (line number, [cells]) after its header."""
    out, seen_head = [], False
    for n, line in enumerate(open(doc, encoding="utf-8"), 1):
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not seen_head:
            seen_head = cells[:2] == ["rule", "where in code"]
            continue
        if set(cells[0]) <= set("-: "):
            continue
        out.append((n, cells))
    return out


def test_texts(src):
    texts = []
    for d in TEST_DIRS:
        for root, _, files in os.walk(os.path.join(src, d)):
            for f in files:
                try:
                    texts.append(open(os.path.join(root, f),
                                      encoding="utf-8").read())
                except (UnicodeDecodeError, OSError):
                    pass
    return texts


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    src, build = sys.argv[1], sys.argv[2]
    doc = os.path.join(src, "docs", "judge-audit.md")
    intro = os.path.join(build, "meson-info", "intro-tests.json")
    names = {t["name"] for t in json.load(open(intro))}
    texts = test_texts(src)
    table = rows(doc)
    n = 0
    bad = 0

    def check(cond, what):
        nonlocal n, bad
        n += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
        bad += not cond

    check(len(table) >= 40, "docs/judge-audit.md: the table has %d rows"
          % len(table))
    for line, cells in table:
        where = "docs/judge-audit.md:%d" % line
        if len(cells) != 4:
            check(False, "%s: 4 cells, not %d" % (where, len(cells)))
            continue
        code = re.findall(r"`([^`:]+):([A-Za-z_][A-Za-z0-9_]*)`", cells[1])
        check(code, "%s: names code as `path:function`" % where)
        for path, fn in code:
            p = os.path.join(src, path)
            text = open(p, encoding="utf-8").read() if os.path.isfile(p) \
                else ""
            check(re.search(r"\b%s\s*\(" % re.escape(fn), text) or
                  re.search(r"\b%s\[\]" % re.escape(fn), text),
                  "%s: %s defines %s" % (where, path, fn))
        tests = re.findall(r'`([A-Za-z0-9_.-]+)`(?:\s*"([^"]+)")?',
                           cells[2])
        check(tests, "%s: names a test" % where)
        for name, case in tests:
            check(name in names, "%s: test '%s' is in meson's list"
                  % (where, name))
            if case:
                check(any(case in t for t in texts),
                      "%s: case \"%s\" is in a test's source" % (where, case))
        check(cells[3] not in ("", "-"), "%s: says its mutation" % where)
    print("1..%d" % n)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
