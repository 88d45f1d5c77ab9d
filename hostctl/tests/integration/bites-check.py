#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Whether one declared bite held in a hostctl run (bites.sh runs each
scenario on a kernel built without the patch; hostctl/tests/bites-check-test.py
tries this on summary.json files made there).

usage: bites-check.py DIR SCENARIO_FILE SCENARIO PATCH
       bites-check.py --pass DIR SCENARIO

DIR holds the run's summary.json. With PATCH (the series file name), the
bites entry of SCENARIO_FILE whose "patch" names it (the file name or its
number prefix) says what must have happened (docs/kernel.md, "Every test
bites"): the kernel manifest's "without" lists PATCH; SCENARIO did not
pass; its first step that did not pass is the entry's "step"; and that
step's failure says the entry's "reason" (a substring of the step's "got"
or "reason", whitespace runs taken as one space), or, for "incident", an
incident attributed to the step has a title that the regex matches (the
kernel died: a scenario that is an "error" counts then). An "error" with a
"reason" counts only when the kernel was tainted 'D' (an oops killed the
step's process). With --pass, SCENARIO must pass.
Exit 0 and one line when all holds; 1 and one line saying what did not;
2 for bad usage or a scenario file without such an entry."""
import json
import os
import re
import sys


def squash(t):
    return " ".join((t or "").split())


def cut(t):
    t = squash(t)
    return t if len(t) <= 160 else t[:157] + "..."


def find_bite(doc, patch):
    """The bites entry of the scenario document @doc for the series file
    @patch (its "patch" is @patch or a prefix of it), or a string saying
    why there is none."""
    for b in doc.get("bites") or []:
        if not isinstance(b, dict):
            continue
        p = b.get("patch")
        if isinstance(p, str) and p and (p == patch or patch.startswith(p)):
            if not isinstance(b.get("step"), int) or \
                    (b.get("reason") is None) == (b.get("incident") is None):
                return "its bites entry for %s is not one step and its reason: %s" % (
                    patch, json.dumps(b))
            return b
    return "no bites entry for %s" % patch


def first_failing(sc):
    return next((st for st in sc.get("steps") or [] if st.get("verdict") != "pass"), None)


def where(first):
    if first is None:
        return "no step failed"
    w = "step %d (%s '%s', %s)" % (first.get("index", -1) + 1, first.get("kind"),
                                    first.get("name"), first.get("verdict"))
    if first.get("expected") or first.get("got"):
        w += ": expected %s; got %s" % (cut(first.get("expected")), cut(first.get("got")))
    elif first.get("reason"):
        w += ": " + cut(first["reason"])
    return w


def judge(summary, name, patch, bite):
    """None when the run @summary shows @bite (a bites entry) for the
    scenario @name without @patch; else one line saying what it showed."""
    sc = {s.get("name"): s for s in summary.get("scenarios") or []}.get(name)
    if sc is None:
        return "%s: not in summary.json" % name
    without = summary.get("kernel", {}).get("without") or []
    if patch not in without:
        return "%s: the kernel manifest lists %r left out, not %s" % (name, without, patch)
    step = bite["step"]
    v = sc.get("verdict")
    first = first_failing(sc)
    oops = any("tainted the kernel 'D'" in l for l in sc.get("leaks") or [])
    if v in ("pass", "skip", "xfail") or (v == "error" and not oops and "incident" not in bite):
        return "%s without %s: verdict %s, want a failure at step %d; reason: %s" % (
            name, patch, v, step + 1, cut(sc.get("reason")))
    if first is None or first.get("index") != step:
        return "%s without %s: verdict %s, but the first step that did not pass is %s, want step %d" % (
            name, patch, v, where(first), step + 1)
    if "incident" in bite:
        try:
            rx = re.compile(bite["incident"])
        except re.error as e:
            return "%s: bad incident regex '%s': %s" % (name, bite["incident"], e)
        incs = sc.get("incidents") or []
        if not any(i.get("step") == step and rx.search(i.get("title") or "") for i in incs):
            return "%s without %s: %s, but no incident at step %d has a title matching '%s'; incidents: %s" % (
                name, patch, v, step + 1, bite["incident"],
                [(i.get("step") + 1 if isinstance(i.get("step"), int) else None, i.get("title")) for i in incs])
        return None
    want = squash(bite["reason"])
    if want not in squash(first.get("got")) and want not in squash(first.get("reason")):
        return "%s without %s: %s at the declared %s, but its failure does not say '%s'" % (
            name, patch, v, where(first), want)
    return None


def load_summary(d, name):
    try:
        with open(os.path.join(d, "summary.json")) as f:
            return json.load(f), None
    except (OSError, ValueError) as e:
        return None, "%s: no readable summary.json in %s: %s" % (name, d, e)


def main(argv):
    if len(argv) == 4 and argv[1] == "--pass":
        d, name = argv[2], argv[3]
        summary, why = load_summary(d, name)
        sc = None if why else {s.get("name"): s for s in summary.get("scenarios") or []}.get(name)
        if not why and sc is None:
            why = "%s: not in %s/summary.json" % (name, d)
        if not why and sc.get("verdict") != "pass":
            why = "%s with the whole series: verdict %s, want pass; %s; reason: %s" % (
                name, sc.get("verdict"), where(first_failing(sc)), cut(sc.get("reason")))
        print("# " + (why or "%s with the whole series: pass" % name))
        return 1 if why else 0
    if len(argv) != 5 or argv[1].startswith("-"):
        print("usage: bites-check.py DIR SCENARIO_FILE SCENARIO PATCH | --pass DIR SCENARIO",
              file=sys.stderr)
        return 2
    d, sfile, name, patch = argv[1:5]
    try:
        with open(sfile) as f:
            bite = find_bite(json.load(f), patch)
    except (OSError, ValueError) as e:
        print("bites-check.py: %s: %s" % (sfile, e), file=sys.stderr)
        return 2
    if isinstance(bite, str):
        print("bites-check.py: %s: %s" % (sfile, bite), file=sys.stderr)
        return 2
    summary, why = load_summary(d, name)
    why = why or judge(summary, name, patch, bite)
    if why:
        print("# " + why)
        return 1
    first = first_failing({s.get("name"): s for s in summary["scenarios"]}[name])
    print("# %s without %s: %s at %s; says %s" % (
        name, patch, {s.get("name"): s for s in summary["scenarios"]}[name].get("verdict"),
        where(first), "an incident titled /%s/" % bite["incident"] if "incident" in bite
        else "'%s'" % bite["reason"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
