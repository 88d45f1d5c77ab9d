#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl/tests/README.md's table of which tests cover which file stays
current: every .c file of hostctl/ (but tests/) has its row, every row
names a file that is there, every test a row names (or a glob of names,
golden-xml-*) is one meson knows, and every unit test program of
hostctl/tests/ is named in some row. Meson's tests are read from the
build's meson-info/intro-tests.json. Prints TAP.

Usage: tests-map.py HOSTCTL_SRCDIR BUILD_ROOT
"""
import fnmatch
import json
import os
import re
import sys

ROW = re.compile(r'^\| `([^`]+\.c)` \|(.*)\|(.*)\|\s*$')
# A test name or a glob of them: the other quoted words of a row (a
# function, a file) have a dot, parentheses or a slash.
TEST = re.compile(r'^[a-z0-9*][a-z0-9*-]*$')


def sources(srcdir):
    out = []
    for top, dirs, files in os.walk(srcdir):
        rel = os.path.relpath(top, srcdir)
        if rel == 'tests' or rel.startswith('tests' + os.sep):
            dirs[:] = []
            continue
        dirs.sort()
        for f in sorted(files):
            if f.endswith('.c'):
                out.append(os.path.normpath(os.path.join(rel, f)))
    return out


def table(readme):
    rows = {}
    if not os.path.exists(readme):
        print('# no %s' % readme)
        return rows
    with open(readme) as f:
        for line in f:
            m = ROW.match(line)
            if m:
                names = re.findall(r'`([^`]+)`', m.group(2) + m.group(3))
                rows[m.group(1)] = [n for n in names if TEST.match(n)]
    return rows


def main():
    srcdir, build = sys.argv[1], sys.argv[2]
    readme = os.path.join(srcdir, 'tests', 'README.md')
    intro = os.path.join(build, 'meson-info', 'intro-tests.json')
    rows = table(readme)
    files = sources(srcdir)
    with open(intro) as f:
        tests = json.load(f)
    known = {t['name'] for t in tests}
    here = os.path.join(os.path.abspath(build), 'hostctl', 'tests', 'test-')
    programs = sorted(t['name'] for t in tests
                      if t['cmd'] and t['cmd'][0].startswith(here))

    print('1..%d' % (len(files) + 3))
    n = 0
    bad = 0

    def point(cond, what, why=()):
        nonlocal n, bad
        n += 1
        print('%sok %d - %s' % ('' if cond else 'not ', n, what))
        for w in why:
            print('#   ' + w)
        bad += not cond

    for f in files:
        point(f in rows, '%s has a row in tests/README.md' % f,
              () if f in rows else ['add "| `%s` | ... | ... |"' % f])
    gone = sorted(set(rows) - set(files))
    point(not gone, 'every row names a .c file of hostctl/',
          ['no such file: ' + g for g in gone])
    unknown = sorted({name for names in rows.values() for name in names
                      if not fnmatch.filter(known, name)})
    point(not unknown, 'every test a row names is one of meson\'s',
          ['meson has no test ' + u for u in unknown])
    named = {name for names in rows.values() for name in names}
    unnamed = [p for p in programs if p not in named]
    point(not unnamed and programs,
          'every unit test program of hostctl/tests/ is in some row',
          ['named in no row: ' + u for u in unnamed] or
          ([] if programs else ['no test program found under ' + here]))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
