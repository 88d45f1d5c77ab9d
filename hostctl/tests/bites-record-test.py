#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The record of verified bites (hostctl/tests/integration/bites-record.py,
which bites.sh --records uses to choose the bites it checks) without a
kernel: which bites are selected with no record, a matching one, a changed
patch, a changed scenario file and a changed kernel key; the budget of
builds for bites without a record; the record's file, written whole and
read back; and select and record end to end, with a stub hostctl that
prints a key, for bites and for mutants (--mutants). TAP on stdout.

usage: bites-record-test.py SRCDIR"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from tap import done, ok

src = sys.argv[1]
tool = os.path.join(src, "hostctl/tests/integration/bites-record.py")
spec = importlib.util.spec_from_file_location("bites_record", tool)
br = importlib.util.module_from_spec(spec)
spec.loader.exec_module(br)


P1, P2, P3 = "0001-a.patch", "0002-b.patch", "0003-c.patch"


def cur(ph="p", sh="s", key="k", cached=True):
    return {"patch_sha256": ph, "scenario_sha256": sh, "kernel_key": key, "cached": cached}


def rec(patch, scen, ph="p", sh="s", key="k"):
    return {"patch": patch, "scenario": scen, "patch_sha256": ph,
            "scenario_sha256": sh, "kernel_key": key, "step": 4,
            "verdict": "fail", "verified": "2026-12-07T00:00:00Z"}


def actions(bites, records, current, budget=1, incremental=True):
    return {(p, s): (a, why) for a, p, s, why in
            br.select(bites, records, current, budget, incremental)}


# One bite, each way its record can stand.
B = [(P1, "x/one")]
R = {(P1, "x/one"): rec(P1, "x/one")}
for what, c, want, says in (
        ("a matching record", cur(), "skip", "the record matches"),
        ("a changed patch", cur(ph="p2"), "check", "the patch changed"),
        ("a changed scenario file", cur(sh="s2"), "check", "the scenario file changed"),
        ("a changed kernel key", cur(key="k2"), "check", "its kernel changed"),
        ("a changed kernel key, not cached", cur(key="k2", cached=False), "check", "changed")):
    a, why = actions(B, R, {B[0]: c}, budget=0)[B[0]]
    ok(a == want and says in why, "%s: %s (%s)" % (what, a, why))

# No record.
a, why = actions(B, {}, {B[0]: cur()}, budget=0)[B[0]]
ok(a == "check" and "cached" in why, "no record, its kernel cached: checked, no budget used (%s)" % why)
a, why = actions(B, {}, {B[0]: cur(cached=False)}, budget=1)[B[0]]
ok(a == "check" and "incremental build" in why, "no record, not cached, budget 1: checked (%s)" % why)
a, why = actions(B, {}, {B[0]: cur(cached=False)}, budget=0)[B[0]]
ok(a == "leave" and "bites-full" in why and "budget of 0" in why,
   "no record, not cached, budget 0: left to bites-full, saying why (%s)" % why)
a, why = actions(B, {}, {B[0]: cur(cached=False)}, budget=5, incremental=False)[B[0]]
ok(a == "leave" and "cold build" in why, "no record, no object tree: a cold build, left (%s)" % why)

# The budget counts kernels, one per patch, in series order; a patch
# whose kernel is built anyway (its record differs) costs none.
B3 = [(P1, "x/one"), (P1, "x/two"), (P2, "y/one"), (P3, "z/one")]
C3 = {b: cur(cached=False) for b in B3}
A = actions(B3, {}, C3, budget=1)
ok([A[b][0] for b in B3] == ["check", "check", "leave", "leave"],
   "budget 1: both bites of the first patch, the later patches left: %s" % [A[b][0] for b in B3])
R3 = {(P2, "y/one"): rec(P2, "y/one")}
C3[(P2, "y/one")] = cur(sh="s2", cached=False)
B4 = B3 + [(P2, "y/two")]
C3[(P2, "y/two")] = cur(cached=False)
A = actions(B4, R3, C3, budget=1)
ok([A[b][0] for b in B4] == ["check", "check", "check", "leave", "check"],
   "a changed record's kernel is built anyway: its patch's new bite rides along, the budget goes to 0001: %s"
   % [A[b][0] for b in B4])
A = actions(B3, {b: rec(*b) for b in B3}, {b: cur(cached=False) for b in B3}, budget=0)
ok(all(A[b][0] == "skip" for b in B3), "warm: every record matches, nothing built or run, kernels gc'd or not")

with tempfile.TemporaryDirectory() as t:
    cache = os.path.join(t, "cache")
    ok(br.load(cache) == {}, "no record file: no records")
    br.save(cache, rec(P1, "x/one"))
    br.save(cache, rec(P2, "y/one"))
    br.save(cache, rec(P1, "x/one", key="k9"))
    doc = json.load(open(os.path.join(cache, "bites", "records.json")))
    ok(doc["version"] == 1 and [(r["patch"], r["kernel_key"]) for r in doc["bites"]] == [(P1, "k9"), (P2, "k")],
       "saved whole: one entry per bite, the later replacing the earlier")
    ok(not [f for f in os.listdir(os.path.join(cache, "bites")) if f.startswith(".records.")],
       "no temporary file left beside the record")
    with open(os.path.join(cache, "bites", "records.json"), "w") as f:
        json.dump({"version": 2, "bites": [rec(P1, "x/one")]}, f)
    ok(br.load(cache) == {}, "a record of another version is not read")

    # End to end: a tree with one patch and one scenario, a stub hostctl.
    tree = os.path.join(t, "src")
    os.makedirs(os.path.join(tree, "kernel", "patches"))
    os.makedirs(os.path.join(tree, "scenarios", "x"))
    with open(os.path.join(tree, "kernel", "patches", P1), "w") as f:
        f.write("--- a\n+++ b\n")
    with open(os.path.join(tree, "scenarios", "x", "one.json"), "w") as f:
        f.write('{"name": "x/one"}\n')
    stub = os.path.join(t, "hostctl")
    with open(stub, "w") as f:
        f.write('#!/bin/sh\necho "key: kkk"\necho "cached: yes"\n')
    os.chmod(stub, 0o755)
    os.remove(os.path.join(cache, "bites", "records.json"))
    run = os.path.join(t, "run")
    os.makedirs(run)
    with open(os.path.join(run, "summary.json"), "w") as f:
        json.dump({"kernel": {"key": "kkk", "without": [P1]}, "scenarios": [{
            "name": "x/one", "verdict": "fail", "steps": [
                {"index": 0, "verdict": "pass"},
                {"index": 1, "verdict": "fail", "got": "members  0x0022", "reason": ""}]}]}, f)
    env = dict(os.environ, HOSTCTL=stub)
    r = subprocess.run([sys.executable, tool, "record", cache, tree, run, "x/one", P1], env=env)
    e = br.load(cache).get((P1, "x/one", "6.1")) or {}
    ok(r.returncode == 0 and e.get("step") == 1 and e.get("says") == "members 0x0022"
       and e.get("kernel_key") == "kkk" and e.get("without") == [P1],
       "record: the first failing step, what it said, the kernel's key and left-out patches: %s" % e)

    def sel():
        p = subprocess.run([sys.executable, tool, "select", cache, tree, "0"], env=env,
                           input="%s x/one 1\n" % P1, capture_output=True, text=True)
        return p.stdout.split(" ", 1)[0] if p.returncode == 0 else "exit %d: %s" % (p.returncode, p.stderr)

    ok(sel() == "skip", "select: the tree as recorded is skipped")
    with open(os.path.join(tree, "scenarios", "x", "one.json"), "w") as f:
        f.write('{"name": "x/one", "steps": []}\n')
    ok(sel() == "check", "select: a scenario edited by hand (no patch changed) is checked again")

    # Lines: a record per line; select --line asks for that line's key
    # and reads that line's own port of the patch where it has one.
    with open(stub, "w") as f:
        f.write('#!/bin/sh\ncase "$*" in *"--line 6.12"*) echo "key: k612";; *) echo "key: kkk";; esac\n'
                'echo "cached: yes"\n')
    os.makedirs(os.path.join(tree, "kernel", "patches", "6.12"))
    with open(os.path.join(tree, "kernel", "patches", "6.12", P1), "w") as f:
        f.write("--- a/net/dsa/dsa.c\n+++ b/net/dsa/dsa.c\n")
    r = subprocess.run([sys.executable, tool, "record", cache, tree, run, "x/one", P1], env=env)
    run612 = os.path.join(t, "run612")
    os.makedirs(run612)
    with open(os.path.join(run612, "summary.json"), "w") as f:
        json.dump({"kernel": {"key": "k612", "line": "6.12", "without": [P1]}, "scenarios": [{
            "name": "x/one", "verdict": "fail", "steps": [
                {"index": 0, "verdict": "fail", "got": "members 0x0033"}]}]}, f)
    r2 = subprocess.run([sys.executable, tool, "record", cache, tree, run612, "x/one", P1], env=env)
    recs = br.load(cache)
    e61, e612 = recs.get((P1, "x/one", "6.1")) or {}, recs.get((P1, "x/one", "6.12")) or {}
    ok(r.returncode == 0 and r2.returncode == 0 and e61.get("step") == 1 and e612.get("step") == 0
       and e612.get("line") == "6.12" and e612.get("kernel_key") == "k612",
       "record: a 6.12 run's bite is a record of its own beside 6.1's: %s" % sorted(recs))
    ok(e612.get("patch_sha256") == br.sha256(os.path.join(tree, "kernel", "patches", "6.12", P1))
       and e61.get("patch_sha256") == br.sha256(os.path.join(tree, "kernel", "patches", P1)),
       "record: 6.12's hash is of its own port of the patch, 6.1's of the shared file")

    def lsel(line):
        p = subprocess.run([sys.executable, tool, "--line", line, "select", cache, tree, "0"], env=env,
                           input="%s x/one 1\n" % P1, capture_output=True, text=True)
        return p.stdout.split(" ", 1)[0] if p.returncode == 0 else "exit %d: %s" % (p.returncode, p.stderr)

    ok(lsel("6.12") == "skip" and lsel("6.1") == "skip" and sel() == "skip",
       "select --line: each line's record matches its own key and patch file")
    with open(os.path.join(tree, "kernel", "patches", "6.12", P1), "a") as f:
        f.write("+x\n")
    ok(lsel("6.12") == "check" and lsel("6.1") == "skip",
       "select --line: a changed port is checked again on its line only")

    # Mutants: their own record, the key and expected first step given.
    M = "m-one.patch"
    os.makedirs(os.path.join(tree, "kernel", "mutants"))
    with open(os.path.join(tree, "kernel", "mutants", M), "w") as f:
        f.write("Caught-by: x/one 1 KASAN: x\n")
    r = subprocess.run([sys.executable, tool, "--mutants", "record", cache, tree, run, "x/one", M, "1"],
                       env=env)
    mrec = json.load(open(os.path.join(cache, "bites", "mutants.json")))["bites"]
    ok(r.returncode == 0 and (M, "x/one") not in br.load(cache)
       and [(e["patch"], e["step"], "without" in e) for e in mrec] == [(M, 1, False)],
       "record --mutants: its own file, not the bites', and no left-out patches: %s" % mrec)

    def msel(line):
        p = subprocess.run([sys.executable, tool, "--mutants", "select", cache, tree, "0"], env=env,
                           input=line, capture_output=True, text=True)
        return p.stdout.split(" ", 1)[0] if p.returncode == 0 else "exit %d: %s" % (p.returncode, p.stderr)

    ok(msel("%s x/one 0 kkk yes 1\n" % M) == "skip", "select --mutants: as recorded, skipped")
    ok(msel("%s x/one 0 kkk yes 2\n" % M) == "check",
       "select --mutants: another expected first step (mutants-first-fail) is checked again")
    ok(msel("%s x/one 0 kk2 no 1\n" % M) == "check", "select --mutants: another kernel key is checked again")

done()
