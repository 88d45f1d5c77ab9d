#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""No two files of hostctl/ or kbuild/ call each other, directly or round
a loop (docs/architecture.md, "Inside hostctl/"). Reads the object files
meson built: file A depends on file B when A.o has an undefined symbol
that B.o defines. Prints TAP; the edges of any loop go in diagnostics.

Usage: call-loops.py BUILD_ROOT
"""
import collections
import glob
import os
import subprocess
import sys

# meson's object directories for hostctl's program and pure library,
# kbuild's library and common's.
OBJ_DIRS = {
    'hostctl': ['hostctl/hostctl.p', 'hostctl/libhostctl-pure.a.p',
                'hostctl/*/libhostctl-*.a.p'],
    'kbuild': ['kbuild/libkbuild.a.p'],
    'common': ['common/libvlalab-common.a.p'],
}


def objects(root):
    objs = {}
    for folder, dirs in OBJ_DIRS.items():
        for d in dirs:
            for o in glob.glob(os.path.join(root, d, '*.o')):
                name = os.path.basename(o)[:-len('.o')]
                objs[folder + '/' + name.replace('.._', '')] = o
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
    objs = objects(sys.argv[1])
    if not any(f.startswith('hostctl/') for f in objs):
        print('1..0 # SKIP no hostctl object files under ' + sys.argv[1])
        return 0
    g, why = graph(objs)
    found = loops(g)
    print('1..1')
    for comp in found:
        for a in comp:
            for b in sorted(g[a] & set(comp)):
                print('# %s -> %s (%s)' % (a, b, why[(a, b)]))
    print('%s 1 - no call loops among %d files of hostctl/, kbuild/ and common/'
          % ('not ok' if found else 'ok', len(objs)))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
