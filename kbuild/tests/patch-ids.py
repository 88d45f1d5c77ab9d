#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every commit id the patch series name is in kernel/patches/ids.txt with
the same subject (docs/kernel.md, "Commit ids").

Both lines' patches (kernel/patches/*.patch, kernel/patches/<line>/*.patch)
and the cover letters (kernel/patches/*.cover) are read: in a patch's
message (above its first `---`), each `Fixes: <id> ("<subject>")` tag and
each `<id> ("<subject>")` reference, wrapped or not, and the stable form's
`commit <id> upstream.` line, whose subject is the patch's own. An id may
be abbreviated (12 or more hex digits) where the record has it in full.
An id the record calls unconfirmed must be named in docs/kernel.md, and
every id of the record must still be used. TAP.
"""

import glob
import os
import re
import sys

src = sys.argv[1]
pdir = os.path.join(src, 'kernel', 'patches')

record = {}
if not os.path.exists(os.path.join(pdir, 'ids.txt')):
    print('1..1\nnot ok 1 - no kernel/patches/ids.txt')
    sys.exit(1)
with open(os.path.join(pdir, 'ids.txt')) as f:
    for n, l in enumerate(f, 1):
        if l.startswith('#') or not l.strip():
            continue
        parts = l.rstrip('\n').split('\t')
        if len(parts) != 3 or not re.fullmatch(r'[0-9a-f]{12,40}', parts[0]) \
                or not re.match(r'(confirmed|unconfirmed) \S', parts[2]):
            print('1..1\nnot ok 1 - ids.txt:%d: want "<id>\\t<subject>\\t'
                  '(un)confirmed <where>"' % n)
            sys.exit(1)
        record[parts[0]] = (parts[1], parts[2].split(' ', 1)[0])
with open(os.path.join(src, 'docs', 'kernel.md')) as f:
    kernel_md = f.read()

REF = re.compile(r'\b([0-9a-f]{12,40}) \("(.+?)"\)')


def unwrap(text):
    return re.sub(r'\s*\n\s*', ' ', text)


refs = []  # (file, id, subject)
files = sorted(glob.glob(os.path.join(pdir, '*.patch')) +
               glob.glob(os.path.join(pdir, '*', '*.patch')) +
               glob.glob(os.path.join(pdir, '*.cover')))
for path in files:
    rel = os.path.relpath(path, src)
    with open(path) as f:
        text = f.read()
    head, _, body = text.partition('\n\n')
    if path.endswith('.patch'):
        body = body.split('\n---\n', 1)[0]
    for m in REF.finditer(unwrap(body)):
        refs.append((rel, m.group(1), m.group(2)))
    m = re.search(r'^commit ([0-9a-f]+) upstream\.$', body, re.M)
    if m:
        subj = re.search(r'^Subject: (.*(?:\n .*)*)', head, re.M).group(1)
        subj = re.sub(r'^\[[^]]*\]\s*', '', unwrap(subj))
        refs.append((rel, m.group(1), subj))
    if body.startswith('commit ') and \
            not re.match(r'commit [0-9a-f]{40} upstream\.\n', body):
        refs.append((rel, body.split('\n', 1)[0], '(a backport whose first '
                     'line is not "commit <40 hex digits> upstream.")'))

print('1..%d' % (len(refs) + len(record)))
bad = 0
used = set()
for i, (rel, cid, subj) in enumerate(refs, 1):
    hits = [k for k in record if k.startswith(cid) or cid.startswith(k)]
    why = None
    if len(hits) != 1:
        why = 'not in kernel/patches/ids.txt' if not hits else 'ambiguous'
    else:
        used.add(hits[0])
        want, state = record[hits[0]]
        if want != subj:
            why = 'subject "%s", ids.txt has "%s"' % (subj, want)
        elif state == 'unconfirmed' and cid[:12] not in kernel_md:
            why = 'unconfirmed, and docs/kernel.md does not say so'
    print('%s %d - %s: %s ("%s")%s' % ('not ok' if why else 'ok', i, rel,
                                       cid, subj, ': ' + why if why else ''))
    bad += bool(why)
for j, cid in enumerate(sorted(record), len(refs) + 1):
    ok = cid in used
    print('%s %d - ids.txt: %s is named by a patch or cover letter' %
          ('ok' if ok else 'not ok', j, cid))
    bad += not ok
sys.exit(1 if bad else 0)
