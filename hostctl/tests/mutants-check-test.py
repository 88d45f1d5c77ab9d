#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The mutants' check (hostctl/tests/integration/mutants-check.py) on
summary.json files shaped as hostctl writes them, without a kernel: a
titled catch needs verdict fail, the declared first failing step (or none)
and the title at its step; a catch without a title needs fail at its step.
Then every titled "Caught-by:" of kernel/mutants/ has its first failing
step in mutants-first-fail, and no line there is stale; and docs/kernel.md's
table of mutants names the steps the Caught-by: lines do. TAP on stdout.

usage: mutants-check-test.py SRCDIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

src = sys.argv[1]
check = os.path.join(src, "hostctl/tests/integration/mutants-check.py")
n = bad = 0


def ok(cond, what):
    global n, bad
    n += 1
    bad += 0 if cond else 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))


MUTANT = "edac-inject-overflow.patch"
NAME = "edac/correctable-error"
TITLE = "KASAN: slab-out-of-bounds Write in thunderx_lmc_inject_ecc_write"


def summary(verdict="fail", failing=(16,), nsteps=17, incidents=((9, TITLE),),
            patches=("0001-x.patch", MUTANT), reason="step 16 failed"):
    steps = [{"index": i, "kind": "write", "name": "step %d" % i,
              "verdict": "fail" if i in failing else "pass",
              "duration_us": 1, "expected": "", "got": "", "reason": ""}
             for i in range(nsteps)]
    incs = [{"kind": "kasan", "title": t, "guilty": t.split(" in ")[-1],
             "corrupted": False, "fatal": False, "ts": 12.5, "step": s,
             "after_step": False, "summary": "%s step %d -> %s" % (NAME, s, t)}
            for s, t in incidents]
    return {"run_id": "fixture", "complete": True, "accelerator": "tcg",
            "clock": "wall",
            "kernel": {"flavour": "debug", "patches": [{"name": p} for p in patches]},
            "scenarios": [{"name": NAME, "verdict": verdict, "duration_ms": 1,
                           "reason": reason, "steps": steps, "incidents": incs}]}


work = tempfile.mkdtemp(prefix="vlalab-test-mutants-")


def run(s, step=9, first="16", title=TITLE, mutant=MUTANT):
    d = tempfile.mkdtemp(dir=work)
    if s is not None:
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump(s, f)
    args = [sys.executable, check, d, NAME, str(step), mutant, first]
    if title:
        args.append(title)
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    return p.returncode, (p.stdout + p.stderr).strip()


try:
    rc, out = run(summary())
    ok(rc == 0, "titled: fail, first failing step 16, title at 9 holds (%s)" % out)
    for v in ("error", "crash", "timeout", "pass", "xfail"):
        rc, out = run(summary(verdict=v))
        ok(rc == 1 and "want fail" in out, "titled: verdict %s is refused (%s)" % (v, out))
    rc, out = run(summary(failing=(5, 16)))
    ok(rc == 1 and "first step that did not pass is 5" in out,
       "titled: a step failing before the declared one is refused (%s)" % out)
    rc, out = run(summary(failing=(15,)))
    ok(rc == 1 and "want 16" in out, "titled: another first failing step is refused (%s)" % out)
    rc, out = run(summary(failing=()))
    ok(rc == 1 and "is none, want 16" in out,
       "titled: no failing step where one is declared is refused (%s)" % out)
    rc, out = run(summary(failing=()), first="none")
    ok(rc == 0, "titled: none declared and every step that ran passed holds (%s)" % out)
    rc, out = run(summary(), first="none")
    ok(rc == 1 and "want none" in out, "titled: a failing step where none is declared is refused (%s)" % out)
    rc, out = run(summary(incidents=((10, TITLE),)))
    ok(rc == 1 and "no incident titled" in out, "titled: the title at another step is refused (%s)" % out)
    rc, out = run(summary(incidents=((9, "KASAN: slab-out-of-bounds Read in thunderx_lmc_inject_ecc_write"),)))
    ok(rc == 1 and "no incident titled" in out, "titled: another title is refused (%s)" % out)
    rc, out = run(summary(patches=("0001-x.patch",)))
    ok(rc == 1 and "do not include the mutant" in out, "a kernel without the mutant is refused (%s)" % out)
    rc, out = run(None)
    ok(rc == 1 and "no readable summary.json" in out, "no summary.json is refused (%s)" % out)
    rc, out = run(summary(failing=(18,), nsteps=20, incidents=()), step=18, first="18", title="")
    ok(rc == 0, "untitled: fail at the step holds (%s)" % out)
    rc, out = run(summary(verdict="crash", failing=(18,), nsteps=20, incidents=()),
                  step=18, first="18", title="")
    ok(rc == 1 and "want fail" in out, "untitled: a crash is refused (%s)" % out)
    rc, out = run(summary(failing=(17,), nsteps=20, incidents=()), step=18, first="18", title="")
    ok(rc == 1 and "want 18" in out, "untitled: another first failing step is refused (%s)" % out)
    rc, out = run(summary(), step=9, first="16", title="")
    ok(rc == 2, "untitled: FIRST other than STEP is a usage error (%s)" % out)

    # Every titled Caught-by: has its line in mutants-first-fail, and
    # every line there names a titled Caught-by: of a mutant that exists.
    decl = {}
    with open(os.path.join(src, "hostctl/tests/integration/mutants-first-fail")) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                decl[(w[0], w[1])] = w[2]
    titled = set()
    mdir = os.path.join(src, "kernel/mutants")
    for m in sorted(os.listdir(mdir)):
        if not m.endswith(".patch"):
            continue
        with open(os.path.join(mdir, m)) as f:
            for line in f:
                c = re.match(r"^Caught-by: (\S+) ([0-9]+) (.+)$", line.rstrip("\n"))
                if c:
                    titled.add((m, c.group(1)))
    missing = sorted(titled - set(decl))
    ok(not missing, "each titled Caught-by: declares its first failing step (missing: %s)" % missing)
    stale = sorted(set(decl) - titled)
    ok(not stale, "each declaration is a titled Caught-by: (stale: %s)" % stale)
    badval = sorted(k for k, v in decl.items() if v != "none" and not v.isdigit())
    ok(not badval, "each declared step is an index or none (%s)" % badval)

    # docs/kernel.md's table of mutants names each catch's step as the
    # Caught-by: line does ("`SCENARIO`: N" or "`SCENARIO`: incident at N").
    steps = {}
    for m in sorted(os.listdir(mdir)):
        if m.endswith(".patch"):
            with open(os.path.join(mdir, m)) as f:
                for line in f:
                    c = re.match(r"^Caught-by: (\S+) ([0-9]+)", line)
                    if c:
                        steps[(m[:-len(".patch")], c.group(1))] = int(c.group(2))
    seen = {}
    row = None
    with open(os.path.join(src, "docs/kernel.md")) as f:
        for line in f:
            r = re.match(r"^\| `([a-z0-9-]+)`", line)
            if r and (r.group(1) + ".patch") in os.listdir(mdir):
                row = r.group(1)
            elif not line.startswith("| |"):
                row = None if not line.startswith("|") else row
            if row is None or not line.startswith("|"):
                continue
            for sc, st in re.findall(r"`([a-z0-9-]+/[a-z0-9-]+)`: (?:incident at )?([0-9]+)", line):
                seen[(row, sc)] = int(st)
    wrong = sorted("%s %s: docs %d, Caught-by %s" % (k[0], k[1], v, steps.get(k))
                   for k, v in seen.items() if steps.get(k) != v)
    ok(seen and not wrong, "docs/kernel.md's mutant table has each Caught-by: step (%d rows; %s)"
       % (len(seen), wrong or "all agree"))
    unnamed = sorted("%s %s" % k for k in set(steps) - set(seen))
    ok(not unnamed, "and names every Caught-by: scenario (missing: %s)" % unnamed)
finally:
    shutil.rmtree(work, ignore_errors=True)
print("1..%d" % n)
sys.exit(1 if bad else 0)
