#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The bites' comparison (hostctl/tests/integration/bites-check.py, which
bites.sh runs on each scenario's summary.json without a patch) on
summary.json files shaped as hostctl writes them, without a kernel: a bite
holds only when the declared step fails first and its failure says the
declared reason (or an incident at it has a matching title); a timeout or
another failure at that step does not count. Then every bites entry of
scenarios/ names its patch in the series' form and one step. TAP on
stdout.

usage: bites-check-test.py SRCDIR"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

src = sys.argv[1]
check = os.path.join(src, "hostctl/tests/integration/bites-check.py")
n = bad = 0
P = "0003-net-dsa-loop-make-the-VLAN-table-follow-the-bridge.patch"


def ok(cond, what):
    global n, bad
    n += 1
    bad += 0 if cond else 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))


def step(i, verdict="pass", got="", reason="", kind="read"):
    return {"index": i, "kind": kind, "name": "s%d" % i, "verdict": verdict,
            "expected": "x" if got else "", "got": got, "reason": reason}


def summary(verdict, steps, without=(P,), incidents=(), leaks=()):
    sc = {"name": "t/one", "verdict": verdict, "reason": "r", "steps": steps,
          "leaks": list(leaks)}
    if incidents:
        sc["incidents"] = list(incidents)
    return {"kernel": {"without": list(without)}, "scenarios": [sc]}


tmp = tempfile.mkdtemp(prefix="bites-check-test-")


def run(summ, bite, *extra):
    """bites-check.py on @summ and a scenario file declaring @bite."""
    d = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summ, f)
    sfile = os.path.join(d, "one.json")
    with open(sfile, "w") as f:
        json.dump({"bites": [bite]}, f)
    p = subprocess.run([sys.executable, check, d, sfile, "t/one", P] + list(extra),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


try:
    vid = "'vid 100 members 0x0022 untagged 0x0001 pvid 0x0000\\n'"
    bite = {"patch": "0003", "step": 2, "reason": "members 0x0022  untagged 0x0001"}
    failed = summary("fail", [step(0), step(1), step(2, "fail", got=vid), step(3, "skip")])
    rc, out = run(failed, bite)
    ok(rc == 0 and "says 'members 0x0022  untagged 0x0001'" in out,
       "the declared step fails first and says the reason (whitespace runs as one): a bite")

    rc, out = run(failed, dict(bite, reason="members 0x0023"))
    ok(rc == 1 and "does not say 'members 0x0023'" in out,
       "the declared step fails first but says something else: no bite (%s)" % out.strip())

    timeout = summary("timeout", [step(0), step(1), step(
        2, "timeout", got="still running after 30000 ms",
        reason="step 2 (read) timed out after 30000 ms; killed process group 9")])
    rc, out = run(timeout, bite)
    ok(rc == 1 and "does not say" in out,
       "a timeout at the declared step is not the declared reason: no bite")

    rc, out = run(summary("fail", [step(0), step(1, "fail", got=vid), step(2, "skip")]), bite)
    ok(rc == 1 and "first step that did not pass is step 2" in out,
       "the reason at an earlier step: no bite")

    rc, out = run(summary("pass", [step(0), step(1), step(2)]), bite)
    ok(rc == 1 and "verdict pass" in out, "a pass: no bite")

    rc, out = run(summary("fail", failed["scenarios"][0]["steps"], without=()), bite)
    ok(rc == 1 and "left out" in out, "a kernel that has the patch: no bite")

    rc, out = run(summary("error", [step(0), step(1), step(2, "error", reason="guestd: " + vid)]), bite)
    ok(rc == 1 and "verdict error" in out, "an error without an oops: no bite")

    inc = {"patch": "0003", "step": 1, "incident": "^BUG: kernel NULL pointer dereference"}
    oops = summary("error", [step(0), step(1, "error", reason="the step's process died")],
                   incidents=[{"step": 1, "title": "BUG: kernel NULL pointer dereference, address: 0000000000000010"}],
                   leaks=["leak: 't/one' tainted the kernel 'D' (tainted 0 -> 128)"])
    rc, out = run(oops, inc)
    ok(rc == 0, "an incident at the declared step with a matching title: a bite (%s)" % out.strip())

    rc, out = run(oops, dict(inc, incident="^general protection fault"))
    ok(rc == 1 and "no incident at step 2 has a title matching" in out,
       "an incident with another title: no bite")

    moved = json.loads(json.dumps(oops))
    moved["scenarios"][0]["incidents"][0]["step"] = 0
    rc, out = run(moved, inc)
    ok(rc == 1, "the title at another step than the declared one: no bite")

    rc, out = run(failed, {"patch": "0003", "steps": [2]})
    ok(rc == 2 and "not one step and its reason" in out,
       "a scenario file in the old form (a list of steps): refused, exit 2")

    rc, out = run(failed, {"patch": "0005", "step": 2, "reason": "x"})
    ok(rc == 2 and "no bites entry for " + P in out, "no entry for the patch: exit 2")

    d = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summary("pass", [step(0)]), f)
    p = subprocess.run([sys.executable, check, "--pass", d, "t/one"],
                       stdout=subprocess.PIPE, text=True)
    ok(p.returncode == 0 and "with the whole series: pass" in p.stdout, "--pass: a pass")
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summary("fail", [step(0, "fail", got="no")]), f)
    p = subprocess.run([sys.executable, check, "--pass", d, "t/one"],
                       stdout=subprocess.PIPE, text=True)
    ok(p.returncode == 1 and "want pass" in p.stdout, "--pass: a failure")
finally:
    shutil.rmtree(tmp)

# A recorded run: dsa/mdb-transitions on a kernel without 0005 (hostctl
# run --without-patch 0005 dsa/mdb-transitions, run 20261206-233213-1161,
# trimmed to the manifest's "without" and the scenario): the scenario's
# own bite holds there, and the same bite with another reason does not.
P5 = "0005-net-dsa-loop-add-MDB-offload.patch"
rec = os.path.join(src, "hostctl/tests/bites-fixtures/mdb-transitions-without-0005")
sfile = os.path.join(src, "scenarios/dsa/mdb-transitions.json")
p = subprocess.run([sys.executable, check, rec, sfile, "dsa/mdb-transitions", P5],
                   stdout=subprocess.PIPE, text=True)
ok(p.returncode == 0 and "permanent no_offload" in p.stdout,
   "recorded: dsa/mdb-transitions bites without 0005, for its reason")
with open(sfile) as f:
    doc = json.load(f)
for b in doc["bites"]:
    b["reason"] = "permanent offload"
tmp = tempfile.mkdtemp(prefix="bites-check-test-")
try:
    wrong = os.path.join(tmp, "mdb-transitions.json")
    with open(wrong, "w") as f:
        json.dump(doc, f)
    p = subprocess.run([sys.executable, check, rec, wrong, "dsa/mdb-transitions", P5],
                       stdout=subprocess.PIPE, text=True)
    ok(p.returncode == 1 and "does not say 'permanent offload'" in p.stdout,
       "recorded: the same run with a reason it does not say: no bite")
finally:
    shutil.rmtree(tmp)

# Every bites entry of scenarios/ is one step and its reason (the loader
# refuses the old form; this says so for bites-check.py's reading too).
files = sorted(glob.glob(os.path.join(src, "scenarios", "*", "*.json")))
entries = []
for f in files:
    with open(f) as fh:
        doc = json.load(fh)
    for b in doc.get("bites") or []:
        entries.append((os.path.relpath(f, src), b))
ok(len(entries) > 0, "scenarios/ declares bites (%d entries)" % len(entries))
for f, b in entries:
    ok(isinstance(b.get("step"), int) and "steps" not in b and
       (isinstance(b.get("reason"), str) and b["reason"]) != ("incident" in b),
       "%s: bites entry for %s: one step and a reason or an incident" % (f, b.get("patch")))

print("1..%d" % n)
sys.exit(1 if bad else 0)
