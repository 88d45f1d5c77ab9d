#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every figure a shipped scenario measures is bounded: each bench step of
scenarios/ states "min" (above 0) and "max", and each stack_tracer stop
"min_bytes" (above 0) and "max_bytes", so that a kernel that did no work
(a bench timing 0 ns, a tracer that saw 0 bytes) or a reading that is no
measurement fails the scenario rather than passing with the figure
(docs/scenarios.md, "bench" and "stack_tracer"); the scenario's
description says why those bounds. TAP on stdout.

usage: figure-bounds.py SRCDIR"""
import json
import os
import sys

src = sys.argv[1]
n = bad = 0


def ok(cond, what):
    global n, bad
    n += 1
    bad += 0 if cond else 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))


def steps_of(doc):
    for st in doc.get("steps") or []:
        yield st
    for boot in doc.get("boots") or []:
        for st in boot.get("steps") or []:
            yield st


root = os.path.join(src, "scenarios")
found = 0
for dirpath, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        if not f.endswith(".json"):
            continue
        path = os.path.join(dirpath, f)
        name = os.path.relpath(path, root)[:-len(".json")]
        with open(path) as fh:
            doc = json.load(fh)
        for i, st in enumerate(steps_of(doc)):
            kind = st.get("kind")
            if kind == "bench":
                lo, hi = "min", "max"
            elif kind == "stack_tracer" and st.get("action") == "stop":
                lo, hi = "min_bytes", "max_bytes"
            else:
                continue
            found += 1
            have_lo, have_hi = st.get(lo), st.get(hi)
            ok(isinstance(have_lo, int) and have_lo > 0 and isinstance(have_hi, int),
               "%s step %d (%s): '%s' above 0 and '%s' (got %s, %s)"
               % (name, i, kind, lo, hi, have_lo, have_hi))
ok(found > 0, "scenarios/ measures figures (%d bench or stack_tracer stop steps)" % found)
print("1..%d" % n)
sys.exit(1 if bad else 0)
