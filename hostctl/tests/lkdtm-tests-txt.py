#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check scenarios/lkdtm/ against the kernel's own LKDTM expectations.

tools/testing/selftests/lkdtm/tests.txt in the unpacked tree (the cache's
trees/patched, which `hostctl build` creates) says, per test, what its
selftest (run.sh) counts as success:
  - "#TEST reason": skipped there, because it takes the system down (or
    hangs it, or corrupts memory when the protection fails);
  - "TEST": an oops with a call trace, which the writing process does not
    survive but the kernel does;
  - "TEST text": a dmesg line matching the ERE `text` (case-insensitive),
    with "repeat:N" to write the test N times from N processes.
Each scenario that writes a test to provoke-crash/DIRECT must agree:
commented tests expect a fatal incident, bare ones a survived incident, and
texts must be what a kmsg_expect or the expected incident looks for. A
scenario declaring xfail that disagrees is reported as a TODO. TAP output; exit 77 when
the tree is not unpacked yet.
"""
import glob
import json
import os
import re
import sys

DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"

# tests.txt texts that name a report kind rather than a log line we match.
KIND_TEXT = {
    "detected buffer overflow": "fortify",
    "call trace:": None,  # any survived incident
}


def load_tests_txt(path):
    tests = {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        name, _, text = line.partition(" ")
        commented = name.startswith("#")
        tests[name.lstrip("#")] = (commented, text)
    return tests


def writes(sc):
    """The LKDTM tests a scenario writes, with the step kinds used."""
    out = []
    for st in sc.get("steps", []):
        if st.get("kind") in ("write", "fork_write") and st.get("path") == DIRECT:
            out.append((st["value"].strip(), st["kind"]))
    return out


def patterns(sc):
    """Every regex the scenario looks for: kmsg_expect matches, the title."""
    pats = [st["match"] for st in sc.get("steps", [])
            if st.get("kind") == "kmsg_expect" and not st.get("absent")]
    inc = sc.get("expect_incident")
    if inc and inc.get("title"):
        pats.append(inc["title"])
    return pats


def agree(test, commented, text, sc):
    """None when the scenario agrees with tests.txt, else why not."""
    inc = sc.get("expect_incident")
    if commented:
        if not inc or inc.get("survives", True):
            return ("tests.txt skips %s (%s), so a fatal incident is "
                    "expected, but the scenario expects %s" %
                    (test, text or "crashes the system",
                     "a survived incident" if inc else "no incident"))
        return None
    repeat = 1
    m = re.match(r"repeat:(\d+) (.*)", text)
    if m:
        repeat, text = int(m.group(1)), m.group(2)
    n = writes(sc)
    if len([w for w in n if w[0] == test]) < repeat:
        return "tests.txt writes %s %d times, the scenario fewer" % (test, repeat)
    if repeat > 1 and any(k != "fork_write" for t, k in n if t == test):
        return ("tests.txt writes %s from %d processes; use fork_write "
                "for a new pid each time" % (test, repeat))
    if not text:
        text = "call trace:"
    for alt in text.split("|"):
        if alt.lower() in KIND_TEXT:
            kind = KIND_TEXT[alt.lower()]
            if inc and inc.get("survives") and (kind is None or
                                                inc.get("kind") == kind):
                return None
            continue
        for p in patterns(sc):
            if re.search(alt, p, re.I):
                return None
    return ("tests.txt expects '%s' for %s; the scenario expects %s" %
            (text, test, json.dumps(inc) if inc else
             "only its kmsg_expect steps %s" % patterns(sc)))


def main():
    srcdir = os.environ.get("SRCDIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..")
    cache = os.environ.get("VLALAB_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or
        os.path.join(os.path.expanduser("~"), ".cache"), "vlalab")
    txt = os.path.join(cache, "trees", "patched", "tools", "testing",
                       "selftests", "lkdtm", "tests.txt")
    if not os.path.exists(txt):
        print("1..0 # SKIP no unpacked tree: %s (run hostctl build)" % txt)
        return 77
    tests = load_tests_txt(txt)
    files = sorted(glob.glob(os.path.join(srcdir, "scenarios", "lkdtm",
                                          "*.json")))
    results = []
    for f in files:
        sc = json.load(open(f, encoding="utf-8"))
        name = "lkdtm/" + os.path.basename(f)[:-5]
        names = sorted({t for t, _ in writes(sc)})
        if not names:
            results.append((False, name, "writes no test to %s" % DIRECT, ""))
        for test in names:
            if test not in tests:
                results.append((False, name, "%s is not in tests.txt" % test,
                                ""))
                continue
            why = agree(test, *tests[test], sc)
            # An xfail scenario that disagrees is a TODO; one that agrees
            # just says it is xfail (meson counts "ok # TODO" as a failure).
            todo = ""
            if sc.get("xfail") and why:
                todo = " # TODO xfail: %s" % sc["xfail"]
            elif sc.get("xfail"):
                why = "xfail: %s" % sc["xfail"]
            results.append((why is None or why.startswith("xfail: "),
                            "%s (%s)" % (name, test), why or "", todo))
    print("TAP version 13")
    print("1..%d" % len(results))
    bad = 0
    for i, (good, what, why, todo) in enumerate(results, 1):
        print("%s %d - %s agrees with tests.txt%s" %
              ("ok" if good else "not ok", i, what, todo))
        if why:
            print("# " + why)
        if not good and not todo:
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
