#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Whether one "Caught-by:" line of a mutant held in a hostctl run
(mutants.sh runs each; hostctl/tests/mutants-check-test.py tries this on
recorded summary.json files).

usage: mutants-check.py DIR SCENARIO STEP MUTANT FIRST [TITLE]

DIR holds the run's summary.json; its kernel must carry the patch MUTANT.
SCENARIO must end as `fail` (not error, crash, timeout: those are other
troubles than the check catching the bug), and FIRST must be its first
step that did not pass (0-based), or "none" when every step that ran
passed and the scenario failed on the incident alone (a boot that could
not resume). Without TITLE, FIRST is STEP. With TITLE the scenario must
also hold an incident whose title starts with TITLE, attributed to STEP.
Exit 0 and one line when all holds; 1 and one line saying what did not."""
import json
import os
import sys


def check(d, name, step, m, first, title):
    try:
        with open(os.path.join(d, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        return "%s: no readable summary.json in %s: %s" % (name, d, e)
    patches = [p.get("name") for p in summary.get("kernel", {}).get("patches", [])]
    if m not in patches:
        return "%s: the kernel's patches do not include the mutant %s" % (name, m)
    sc = {s.get("name"): s for s in summary.get("scenarios", [])}.get(name)
    if sc is None:
        return "%s: not in %s/summary.json" % (name, d)
    steps = sc.get("steps") or []
    bad = next((st for st in steps if st.get("verdict") != "pass"), None)
    if sc.get("verdict") != "fail":
        return "%s with %s: verdict %s (%s), want fail" % (
            name, m, sc.get("verdict"), " ".join((sc.get("reason") or "").split())[:160])
    got = "none" if bad is None else "%d (%s)" % (bad.get("index", -1), bad.get("name"))
    if (bad is None) != (first is None) or (bad is not None and bad.get("index") != first):
        return "%s with %s: first step that did not pass is %s, want %s" % (
            name, m, got, "none" if first is None else first)
    if title:
        incs = sc.get("incidents") or []
        if not any(i.get("step") == step and (i.get("title") or "").startswith(title)
                   for i in incs):
            return "%s with %s: no incident titled '%s...' at step %d; incidents: %s" % (
                name, m, title, step, [(i.get("step"), i.get("title")) for i in incs])
    return None


def main(argv):
    if len(argv) not in (6, 7):
        print("usage: mutants-check.py DIR SCENARIO STEP MUTANT FIRST [TITLE]", file=sys.stderr)
        return 2
    d, name, m = argv[1], argv[2], argv[4]
    title = argv[6] if len(argv) == 7 else ""
    try:
        step = int(argv[3])
        first = None if argv[5] == "none" else int(argv[5])
    except ValueError:
        print("mutants-check.py: STEP and FIRST are step indices ('%s', '%s')"
              % (argv[3], argv[5]), file=sys.stderr)
        return 2
    if not title and first != step:
        print("mutants-check.py: without a title FIRST is STEP (%s, %s)"
              % (argv[5], argv[3]), file=sys.stderr)
        return 2
    why = check(d, name, step, m, first, title)
    if why:
        print("# " + why)
        return 1
    print("# %s with %s: fail, first step that did not pass %s%s" % (
        name, m, "none" if first is None else first,
        "; incident '%s' at step %d" % (title, step) if title else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
