#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where the time inside virDomainCreateXML()/virDomainRestoreFlags() goes.

Reads the embedded libvirt driver's debug log of a hostctl run, written
with

    LIBVIRT_LOG_FILTERS="1:qemu.qemu_process 1:qemu.qemu_migration 3:*" \
    LIBVIRT_LOG_OUTPUTS="1:file:/tmp/libvirt.log" hostctl bench ...

(those two modules log one line per stage of a domain's start, few enough
not to slow it), splits it into domain starts (qemuProcessStart), each a
boot or a restore (migrateFrom=stdio), and prints, per kind, the median,
min and max over the starts of each stage: the time from one stage's line
to the next line of the same thread. The monitor's replies are not
logged with these filters: a stage that talks to QEMU includes them.

Usage: libvirt-stages.py LOG
"""

import re
import statistics
import sys
from datetime import datetime

LINE = re.compile(r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\+0000: (\d+): '
                  r'\w+ : (\w+):\d+ : (.*)$')
END = ('qemuProcessStartCPUs', 'qemuProcessStop')


def label(func, msg):
    msg = re.sub(r"uuid=[\w-]+|vm=0x[0-9a-f]+|name='?[\w-]+'?|pid=\d+|id=-?\d+|"
                 r"def=\S+|PID \d+|on \d+|"
                 r"0x[0-9a-f]+|/\S+|fd:\d+|'[^']*'", '', msg)
    msg = ' '.join(msg.split())[:60]
    return f'{func}: {msg}'


def starts(path):
    """Yield (kind, [(seconds, label)]) for each domain start in @path."""
    cur, kind, tid = None, None, None
    with open(path, errors='replace') as f:
        for raw in f:
            m = LINE.match(raw.rstrip('\n'))
            if not m:
                continue
            ts, thread, func, msg = m.groups()
            t = datetime.strptime(ts, '%Y-%m-%d %H:%M:%S.%f').timestamp()
            if func == 'qemuProcessStart':
                if cur:
                    yield kind, cur
                kind = 'restore' if 'migrateFrom=stdio' in msg else 'boot'
                cur, tid = [(t, label(func, ''))], thread
                continue
            if cur is None:
                continue
            if thread == tid or 'changed state to completed' in msg:
                cur.append((t, label(func, msg)))
            if thread == tid and func in END:
                yield kind, cur
                cur = None
    if cur:
        yield kind, cur


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    table = {}
    count = {}
    for kind, lines in starts(sys.argv[1]):
        count[kind] = count.get(kind, 0) + 1
        stages = table.setdefault(kind, {})
        seen = {}
        for (t0, lab), (t1, _) in zip(lines, lines[1:]):
            seen[lab] = seen.get(lab, 0) + (t1 - t0) * 1000
        seen['total: qemuProcessStart -> last line'] = \
            (lines[-1][0] - lines[0][0]) * 1000
        for lab, ms in seen.items():
            stages.setdefault(lab, []).append(ms)
    for kind in sorted(table):
        print(f'{kind}: {count[kind]} starts (ms: median min max)')
        rows = sorted(table[kind].items(),
                      key=lambda kv: -statistics.median(kv[1]))
        for lab, v in rows:
            if statistics.median(v) < 5 and not lab.startswith('total'):
                continue
            print(f'  {statistics.median(v):7.0f} {min(v):7.0f} '
                  f'{max(v):7.0f}  {lab}')


if __name__ == '__main__':
    main()
