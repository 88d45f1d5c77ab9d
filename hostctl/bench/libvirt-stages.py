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
       libvirt-stages.py --self-test   (TAP: the stages of a small log)
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


def stages(path):
    """{kind: {stage: [ms per start]}} and {kind: starts} of @path."""
    table = {}
    count = {}
    for kind, lines in starts(path):
        count[kind] = count.get(kind, 0) + 1
        stages = table.setdefault(kind, {})
        seen = {}
        for (t0, lab), (t1, _) in zip(lines, lines[1:]):
            seen[lab] = round(seen.get(lab, 0) + (t1 - t0) * 1000, 1)
        seen['total: qemuProcessStart -> last line'] = \
            round((lines[-1][0] - lines[0][0]) * 1000, 1)
        for lab, ms in seen.items():
            stages.setdefault(lab, []).append(ms)
    return table, count


SELF = """\
2026-12-07 05:03:10.100+0000: 7: debug : qemuProcessStart:8130 : vm=0x1 name=a migrateFrom=<null>
2026-12-07 05:03:10.110+0000: 7: debug : qemuProcessLaunch:7877 : Waiting for monitor to show up
2026-12-07 05:03:10.111+0000: 8: debug : qemuMonitorOpen:1 : another thread, not a stage
2026-12-07 05:03:10.250+0000: 7: debug : qemuProcessLaunch:7905 : Verifying and updating provided guest CPU
2026-12-07 05:03:10.260+0000: 7: debug : qemuProcessLaunch:7909 : Detecting IOThread PIDs
2026-12-07 05:03:10.300+0000: 7: debug : qemuProcessStartCPUs:3165 : Using lock state '<null>'
2026-12-07 05:03:20.000+0000: 9: debug : qemuProcessStart:8130 : vm=0x2 name=b migrateFrom=stdio migrateFd=15
2026-12-07 05:03:20.100+0000: 9: debug : qemuMigrationDstWaitForCompletion:2057 : Waiting for incoming migration to complete
2026-12-07 05:03:20.400+0000: 8: debug : qemuProcessHandleMigrationStatus:1437 : Migration of domain 0x2 b changed state to completed
2026-12-07 05:03:20.450+0000: 9: debug : qemuProcessFinishStartup:8096 : Writing domain status to disk
"""


def self_test():
    import tempfile
    with tempfile.NamedTemporaryFile('w', suffix='.log') as f:
        f.write(SELF)
        f.flush()
        table, count = stages(f.name)
    boot, rest = table.get('boot', {}), table.get('restore', {})
    checks = [
        (count == {'boot': 1, 'restore': 1}, 'one boot, one restore'),
        (boot.get('qemuProcessLaunch: Waiting for monitor to show up') ==
         [140.0], 'a stage lasts to the next line of its thread'),
        (boot.get('qemuProcessLaunch: Verifying and updating provided '
                  'guest CPU') == [10.0], 'the CPU check'),
        (boot.get('total: qemuProcessStart -> last line') == [200.0],
         'a boot ends at qemuProcessStartCPUs'),
        (rest.get('qemuMigrationDstWaitForCompletion: Waiting for '
                  'incoming migration to complete') == [300.0],
         'a restore waits until the event thread says completed'),
    ]
    for i, (good, name) in enumerate(checks, 1):
        print(f"{'ok' if good else 'not ok'} {i} - {name}")
    print(f'1..{len(checks)}')
    return all(good for good, _ in checks)


def main():
    if sys.argv[1:] == ['--self-test']:
        sys.exit(0 if self_test() else 1)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    table, count = stages(sys.argv[1])
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
