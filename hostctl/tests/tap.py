# SPDX-License-Identifier: GPL-2.0-only
"""TAP for hostctl's Python tests: ok() each check, done() at the end."""
import sys

_n = 0
_failed = 0


def ok(cond, what):
    global _n, _failed
    _n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (_n, what))
    if not cond:
        _failed += 1


def done():
    print("1..%d" % _n)
    sys.exit(1 if _failed else 0)
