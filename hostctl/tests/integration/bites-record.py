#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The record of verified bites, and which bites a run checks
(docs/kernel.md, "Every test bites"; bites.sh runs this, and
hostctl/tests/bites-record-test.py tries the selection without a kernel).

usage: bites-record.py [--mutants] [--line LINE] select CACHE SRCDIR BUDGET < LIST
       bites-record.py [--mutants] record CACHE SRCDIR DIR SCENARIO PATCH [EXPECT]

The record, CACHE/bites/records.json ({"version": 1, "bites": [...]}),
holds one entry per verified bite and kernel line: the line ("6.1" when
an entry has none: it was written before lines), the patch (its series
file name), the scenario, the sha256 of the patch file and of scenarios/SCENARIO.json, the
key of the kernel built without the patch (and the patches left out with
it), and what the run without it showed: the first failing step (from 0,
as "bites" declares it), the verdict and what the failure said. It is
rewritten whole, under CACHE/bites/records.lock, through a temporary file
renamed over it.

select reads hostctl list --bites lines ("PATCH SCENARIO STEP") on stdin
and prints one line per bite, "ACTION PATCH SCENARIO WHY":
  check  a record exists but the patch, the scenario file or the kernel
         key differs from it; or there is none and the kernel without
         the patch is cached, or is one of the first BUDGET incremental
         builds (in the patched flavour's object tree) this run may make
  skip   the record matches: nothing to do
  leave  no record, and its kernel would be a build beyond BUDGET (or a
         cold one): left to meson test --setup full --suite bites-full
The key comes from "$HOSTCTL build --key" with the record's left-out
patches (or the patch alone) on --line's line (default 6.1); nothing is
built. A patch file is the line's own (kernel/patches/LINE/) where it has
one. record writes the entry
for one bite that bites-check.py found held in DIR (a run's results).
With --mutants, the same for kernel/mutants/ (mutants.sh --records): the
record is CACHE/bites/mutants.json, PATCH a mutant's file name, its kernel
the series with the mutant, and each LIST line "MUTANT SCENARIO STEP KEY
CACHED EXPECT" carries that kernel's key, whether it is cached (yes or
no) and the first failing step mutants-first-fail expects, which counts
as part of the scenario (its hash covers the file and EXPECT).
Exit 0, or 2 for bad usage or an unreadable file."""
import fcntl
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

VERSION = 1
DEFAULT_LINE = "6.1"
# The kernel line select works on (--line); record takes it from the run.
LINE = DEFAULT_LINE
FULL = "meson test -C build --setup full --suite bites-full"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


# The record's file name under CACHE/bites/: records.json, or
# mutants.json with --mutants (main() sets it).
NAME = "records.json"


def records_path(cache):
    return os.path.join(cache, "bites", NAME)


def scenario_sha256(src, scen, expect=""):
    """The scenario's hash: its file's, or with @expect (a mutant's
    expected first failing step) the file's and @expect's."""
    h = sha256(os.path.join(src, "scenarios", scen + ".json"))
    if not expect:
        return h
    return hashlib.sha256(("%s\nexpect %s\n" % (h, expect)).encode()).hexdigest()


def patch_path(src, patch, line=DEFAULT_LINE):
    """The patch file: a mutant's, or the line's own port of the series
    patch where the line has one, else the shared one."""
    if NAME == "mutants.json":
        return os.path.join(src, "kernel", "mutants", patch)
    own = os.path.join(src, "kernel", "patches", line, patch)
    if line != DEFAULT_LINE and os.path.exists(own):
        return own
    return os.path.join(src, "kernel", "patches", patch)


def rec_key(r):
    """A record's key: (patch, scenario) for the mutants; (patch,
    scenario, line) for the bites, 6.1 when it names none."""
    if NAME == "mutants.json":
        return (r.get("patch"), r.get("scenario"))
    return (r.get("patch"), r.get("scenario"), r.get("line") or DEFAULT_LINE)


def load(cache):
    """The records of @cache, keyed by rec_key(); {} when there is no
    file. A file of another version is not read (its bites are checked as
    if new)."""
    try:
        with open(records_path(cache)) as f:
            doc = json.load(f)
    except FileNotFoundError:
        return {}
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        return {}
    return {rec_key(r): r
            for r in doc.get("bites") or [] if isinstance(r, dict)}


def save(cache, entry):
    """Adds or replaces @entry in @cache's records, atomically, under the
    records' lock (two runs at once lose neither entry)."""
    d = os.path.join(cache, "bites")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, NAME[:-len(".json")] + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        recs = load(cache)
        recs[rec_key(entry)] = entry
        doc = {"version": VERSION,
               "bites": [recs[k] for k in sorted(recs, key=lambda k: tuple(str(x) for x in k))]}
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".records.")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, records_path(cache))
        except BaseException:
            os.unlink(tmp)
            raise


def decide(rec, cur):
    """What to do for one bite: ("check" | "skip" | "need-build", why).
    @rec is its record or None; @cur holds the current "patch_sha256",
    "scenario_sha256", "kernel_key" and "cached" (the key's build is in
    the cache). "need-build" (no record, kernel not cached) is for
    select() to turn into a check or a leave by the budget."""
    if rec is None:
        if cur["cached"]:
            return "check", "no record; its kernel is cached (no build)"
        return "need-build", "no record"
    for field, what in (("patch_sha256", "the patch changed"),
                        ("scenario_sha256", "the scenario file changed"),
                        ("kernel_key", "its kernel changed (key)")):
        if rec.get(field) != cur[field]:
            return "check", "%s since the record (%.12s, now %.12s)" % (
                what, rec.get(field) or "none", cur[field])
    return "skip", "the record matches (verified %s: step %d, %s)" % (
        rec.get("verified", "?"), rec.get("step", -1) + 1, rec.get("verdict", "?"))


def select(bites, records, current, budget, incremental):
    """The action for each bite of @bites ((patch, scenario) pairs, in
    series order): a list of (action, patch, scenario, why). @current
    maps a pair to decide()'s @cur; @budget is how many kernels not in
    the cache this run may build for bites without a record (one per
    patch, whatever its bites; to the first patches of @bites), @incremental whether such a build is
    incremental (the patched flavour's object tree exists) rather than
    cold. A patch whose kernel is built anyway (a record that differs)
    costs no budget for its other bites."""
    out = []
    building = set()
    for patch, scen in bites:
        a, why = decide(records.get((patch, scen)), current[(patch, scen)])
        if a == "check" and not current[(patch, scen)]["cached"]:
            building.add(patch)
        out.append([a, patch, scen, why])
    spent = 0
    for o in out:
        if o[0] != "need-build":
            continue
        patch = o[1]
        if patch in building:
            o[0], o[3] = "check", "no record; its kernel is built for another check"
        elif incremental and spent < budget:
            building.add(patch)
            spent += 1
            o[0], o[3] = "check", "no record; an incremental build of its kernel (%d of at most %d this run)" % (
                spent, budget)
        else:
            o[0] = "leave"
            o[3] = "no record, and its kernel is not cached: %s (%s)" % (
                "a build beyond this run's budget of %d" % budget if incremental
                else "a cold build (no object tree of the patched flavour)", FULL)
    return [tuple(o) for o in out]


def kernel_key(hostctl, without):
    """(key, cached) of the patched flavour without @without, from
    hostctl build --key (which builds nothing)."""
    argv = [hostctl, "build", "--key"]
    if LINE != DEFAULT_LINE:
        argv += ["--line", LINE]
    for p in without:
        argv += ["--without-patch", p]
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    f = dict(l.split(": ", 1) for l in out.splitlines() if ": " in l)
    return f["key"], f.get("cached") == "yes"


def main_select(cache, src, budget):
    hostctl = os.environ.get("HOSTCTL")
    if not hostctl:
        print("bites-record.py: HOSTCTL must name the hostctl binary", file=sys.stderr)
        return 2
    # This line's records, keyed (patch, scenario) as select() takes them.
    records = {(k[0], k[1]): r for k, r in load(cache).items()
               if NAME == "mutants.json" or k[2] == LINE}
    bites, current, keys = [], {}, {}
    for line in sys.stdin:
        w = line.split()
        if len(w) < 2:
            continue
        patch, scen = w[0], w[1]
        rec = records.get((patch, scen))
        if len(w) >= 5:
            key, cached, expect = w[3], w[4] == "yes", " ".join(w[5:])
        else:
            without = tuple(rec.get("without") or [patch]) if rec else (patch,)
            if without not in keys:
                keys[without] = kernel_key(hostctl, without)
            (key, cached), expect = keys[without], ""
        bites.append((patch, scen))
        current[(patch, scen)] = {
            "patch_sha256": sha256(patch_path(src, patch, LINE)),
            "scenario_sha256": scenario_sha256(src, scen, expect),
            "kernel_key": key, "cached": cached}
    obj = "patched" if LINE == DEFAULT_LINE else "patched@" + LINE
    incremental = os.path.exists(os.path.join(cache, "obj", obj, ".config"))
    # Bites in series order (its file names start with their number), so
    # that the budget goes to the same patches on every machine; mutants
    # in the order given.
    if NAME == "records.json":
        bites.sort()
    for a, patch, scen, why in select(bites, records, current, budget, incremental):
        print("%s %s %s %s" % (a, patch, scen, why))
    return 0


def main_record(cache, src, d, scen, patch, expect=""):
    with open(os.path.join(d, "summary.json")) as f:
        summary = json.load(f)
    sc = {s.get("name"): s for s in summary.get("scenarios") or []}[scen]
    kernel = summary.get("kernel") or {}
    line = kernel.get("line") or DEFAULT_LINE
    first = next((st for st in sc.get("steps") or [] if st.get("verdict") != "pass"), {})
    titles = [i.get("title") for i in sc.get("incidents") or []
              if i.get("step") == first.get("index")]
    says = " ".join((first.get("got") or first.get("reason") or "").split())
    if titles:
        says = "incident: " + titles[0]
    # A mutant caught by an incident's title: the first one, where it was.
    inc = next((i for i in sc.get("incidents") or [] if i.get("title")), None)
    if expect and inc:
        says = "incident at step %s: %s; %s" % (
            inc["step"] + 1 if isinstance(inc.get("step"), int) else "none", inc["title"], says)
    entry = {
        "patch": patch, "scenario": scen,
        "patch_sha256": sha256(patch_path(src, patch, line)),
        "scenario_sha256": scenario_sha256(src, scen, expect),
        "kernel_key": kernel.get("key"),
        "step": first.get("index", -1), "verdict": sc.get("verdict"),
        "says": says[:200],
        "verified": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if NAME == "records.json":
        # The patches left out with it: select asks for this kernel's key.
        entry["without"] = kernel.get("without") or [patch]
        entry["line"] = line
    save(cache, entry)
    return 0


def main(argv):
    global NAME, LINE
    if len(argv) > 1 and argv[1] == "--mutants":
        NAME = "mutants.json"
        argv = argv[:1] + argv[2:]
    if len(argv) > 2 and argv[1] == "--line":
        LINE = argv[2]
        argv = argv[:1] + argv[3:]
    try:
        if len(argv) == 5 and argv[1] == "select":
            return main_select(argv[2], argv[3], int(argv[4]))
        if len(argv) in (7, 8) and argv[1] == "record":
            return main_record(*argv[2:])
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        print("bites-record.py %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    print("usage: bites-record.py [--mutants] [--line LINE] select CACHE SRCDIR BUDGET < LIST | "
          "record CACHE SRCDIR DIR SCENARIO PATCH [EXPECT]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
