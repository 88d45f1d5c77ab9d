#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl's folders include only the layers below them
(docs/architecture.md, "Inside hostctl/"). The layers and what each may
use are read from the folders' meson.build files
(`hostctl_layer_deps = [hostctl_<lower>_dep, ...]`), the same lists
the libraries link and their check programs prove; this test holds the
headers to them too, so that a header of a higher layer is not even
included. Prints TAP.

Usage: layers.py HOSTCTL_SOURCE_DIR
"""
import glob
import os
import re
import sys


def layers(src):
    out = {}
    for mb in sorted(glob.glob(os.path.join(src, '*', 'meson.build'))):
        name = os.path.basename(os.path.dirname(mb))
        m = re.search(r'hostctl_layer_deps = \[(.*?)\]', open(mb).read(),
                      re.S)
        if m:
            out[name] = set(re.findall(r'hostctl_(\w+)_dep\b', m.group(1)))
    return out


def main():
    src = sys.argv[1]
    lay = layers(src)
    if not lay:
        print('1..0 # SKIP no layer folders under ' + src)
        return 0
    bad = []
    n = 0
    for layer, allowed in sorted(lay.items()):
        for path in sorted(glob.glob(os.path.join(src, layer, '*.[ch]'))):
            n += 1
            for i, line in enumerate(open(path), 1):
                m = re.match(r'#include "(\w+)/', line)
                if not m or m.group(1) == layer:
                    continue
                if m.group(1) in lay and m.group(1) not in allowed:
                    bad.append('%s:%d: %s includes %s, above it'
                               % (os.path.relpath(path, src), i, layer,
                                  line.strip()[len('#include '):]))
    print('1..1')
    for b in bad:
        print('# ' + b)
    print('%s 1 - %d files of %d layers include only the layers below them'
          % ('not ok' if bad else 'ok', n, len(lay)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
