#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# Writes fuzz-netlink's seeds: one datagram each of a VLAN dump, an MDB
# dump and an ACK with an extack message, laid out as the kernel sends
# them (and as guestd/tests/test-nl.c builds them), with sequence 1 and
# port 0 as the harness expects. Run it here to rewrite them.
import struct

def pad(b):
    return b + b'\0' * (-len(b) % 4)

def attr(typ, payload, nested=False):
    return pad(struct.pack('<HH', 4 + len(payload), typ | (0x8000 if nested else 0)) + payload)

def msg(typ, payload, flags=0, seq=1, pid=0):
    payload = pad(payload)
    return struct.pack('<IHHII', 16 + len(payload), typ, flags, seq, pid) + payload

RTM_NEWLINK, RTM_GETMDB, NLMSG_ERROR, NLMSG_DONE = 16, 86, 2, 3
AF_BRIDGE = 7

def link(index, name, vlans):
    ifi = struct.pack('<BBHiII', AF_BRIDGE, 0, 1, index, 0, 0)
    spec = b''.join(attr(2, struct.pack('<HH', flags, vid)) for vid, flags in vlans)
    return msg(RTM_NEWLINK, ifi + attr(3, name + b'\0') + attr(26, spec, True))

def mdb_entry(port, state, flags, vid, addr, proto):
    e = struct.pack('<IBBH', port, state, flags, vid) + addr.ljust(16, b'\0')
    return attr(1, e + struct.pack('>H', proto) + b'\0\0' + attr(1, struct.pack('<I', 250)))

def mdb(bridge, entries):
    bpm = struct.pack('<BxxxI', AF_BRIDGE, bridge)
    return msg(RTM_GETMDB, bpm + attr(1, attr(1, b''.join(entries), True), True))

done = msg(NLMSG_DONE, struct.pack('<i', 0))
seeds = {
    'vlans': link(3, b'lan1', [(1, 4), (10, 6)]) + link(4, b'lan2', [(5, 0)]) + done,
    'mdbs': mdb(9, [mdb_entry(3, 1, 1, 10, bytes([239, 1, 1, 1]), 0x0800),
                    mdb_entry(4, 0, 0, 10, bytes([239, 1, 1, 1]), 0x0800),
                    mdb_entry(3, 1, 1, 0, bytes([1, 0, 0x5e, 1, 2, 3]), 0),
                    mdb_entry(9, 0, 0, 0, bytes([0xff, 0x0e] + [0] * 13 + [1]), 0x86dd)]) + done,
    'ack': msg(NLMSG_ERROR, struct.pack('<i', -22) + struct.pack('<IHHII', 16, 16, 5, 1, 0)
               + attr(1, b'VLAN is out of range\0'), flags=0x300),
}
for name, data in seeds.items():
    with open(name, 'wb') as f:
        f.write(data)
