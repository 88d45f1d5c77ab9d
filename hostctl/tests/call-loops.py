#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""No two files of hostctl/, kbuild/, common/ or guestd/ call each other,
directly or round a loop (docs/architecture.md, "Inside hostctl/"). Reads
the object files meson built: file A depends on file B when A.o has an
undefined symbol that B.o of the same program defines. Prints TAP; the
edges of any loop go in diagnostics.

Usage: call-loops.py BUILD_ROOT
"""
import collections
import glob
import os
import subprocess
import sys

# meson's object directories, by the program they link into (a symbol
# resolves only within its program): hostctl's main and layer libraries
# with kbuild's library and common's; guestd's main and guestd-core, which
# compiles common's sources itself (objects named .._common_X.c.o).
PROGRAMS = {
    'hostctl': {
        'hostctl': ['hostctl/hostctl.p', 'hostctl/libhostctl-*.a.p'],
        'kbuild': ['kbuild/libkbuild.a.p'],
        'common': ['common/libvlalab-common.a.p'],
    },
    'guestd': {
        'guestd': ['guestd/guestd.p', 'guestd/libguestd-core.a.p'],
    },
}


def objects(root, dirs_of):
    """{'folder/file.c': path of its object} for one program."""
    objs = {}
    for folder, dirs in dirs_of.items():
        for d in dirs:
            # glob's '*' leaves out the names that begin with a dot.
            for o in glob.glob(os.path.join(root, d, '*.o'),
                               include_hidden=True):
                name = os.path.basename(o)[:-len('.o')]
                if name.startswith('.._'):
                    # guestd's copy of common/X.c: .._common_X.c
                    top, _, rest = name[len('.._'):].partition('_')
                    objs[top + '/' + rest] = o
                else:
                    objs[folder + '/' + name] = o
    return objs


def graph(objs):
    defs, uses = {}, collections.defaultdict(set)
    by_path = {o: f for f, o in objs.items()}
    # One nm for all: -A puts "PATH:" before each symbol line.
    out = subprocess.run(['nm', '-A'] + sorted(by_path), capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        cut = line.find('.o:') + len('.o')
        path, rest = line[:cut], line[cut + 1:]
        f = by_path.get(path)
        p = rest.split()
        if f is None:
            continue
        if len(p) == 3 and p[1] in 'TDBR':
            defs[p[2]] = f
        elif len(p) == 2 and p[0] == 'U':
            uses[f].add(p[1])
    g = {f: set() for f in objs}
    why = {}
    for f, syms in uses.items():
        for s in sorted(syms):
            t = defs.get(s)
            if t and t != f:
                g[f].add(t)
                why.setdefault((f, t), s)
    return g, why


def loops(g):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def main():
    progs = {p: objects(sys.argv[1], d) for p, d in PROGRAMS.items()}
    missing = [p for p, objs in progs.items()
               if not any(f.startswith(p + '/') for f in objs)]
    if missing:
        print('1..0 # SKIP no %s object files under %s'
              % (' or '.join(missing), sys.argv[1]))
        return 0
    print('1..%d' % len(progs))
    bad = 0
    for n, (prog, objs) in enumerate(progs.items(), 1):
        g, why = graph(objs)
        found = loops(g)
        for comp in found:
            for a in comp:
                for b in sorted(g[a] & set(comp)):
                    print('# %s -> %s (%s)' % (a, b, why[(a, b)]))
        folders = sorted({f.split('/')[0] + '/' for f in objs})
        print('%s %d - %s: no call loops among its %d files of %s'
              % ('not ok' if found else 'ok', n, prog, len(objs),
                 ', '.join(folders)))
        bad += bool(found)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
