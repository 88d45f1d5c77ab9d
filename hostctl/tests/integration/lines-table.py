#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The table of docs/kernel.md, "Each fix on each line": every bite
(scenario and patch) on each kernel line, patched and vanilla, from
recorded results (issue 33, item 3).

usage: lines-table.py collect CACHE SRCDIR [RUN_DIR...]
       lines-table.py write SRCDIR
       lines-table.py check SRCDIR [HOSTCTL]

collect writes kernel/lines-table.json, the table's inputs, which git
keeps (the cache does not travel): the scenarios' bites on each line
(HOSTCTL=... hostctl list --bites all --line LINE), each one's record of
verified bites from CACHE/bites/records.json, when it holds the hashes of
this tree's patch file and scenario file (bites-record.py: the run
without the patch failed at the declared step and said the declared
reason, and the scenario passed with the whole series), and the verdict
of each bite's scenario in the RUN_DIRs' summary.json files (hostctl
runs of a line's whole series, e.g. 6.12's hibernate/*, whose fix is
upstream there). write rewrites the table in docs/kernel.md, between its
two marker comments, from that file alone; check exits 1 when the table
there is not what write would write, or, given HOSTCTL, when the file's
bites are not the scenarios' bites of today (then collect again).

"vanilla" is, for one bite, the line's series without that patch (and
without the patches that build on it, as bites.sh builds it): a kernel
without any patch cannot run these scenarios (dsa_loop's debugfs view is
0004, the LMC model 0012, and configs/edac.config needs 0012's symbols).
A bite that a line does not carry (0020 on 6.12: upstream's fix is in
the source) has that line's patched kernel as its vanilla one.
Exit 0; 1 (check) when the table or the bites are stale; 2 for bad
usage or an unreadable file."""
import importlib.util
import json
import os
import subprocess
import sys

# bites-record.py, beside this file: the record's hashes of a patch (the
# line's own port where it has one) and of a scenario file.
_spec = importlib.util.spec_from_file_location(
    "bites_record", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bites-record.py"))
br = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(br)

VERSION = 1
LINES = ("6.1", "6.12")
DATA = os.path.join("kernel", "lines-table.json")
DOC = os.path.join("docs", "kernel.md")
BEGIN = "<!-- lines-table: begin; written by hostctl/tests/integration/lines-table.py write -->"
END = "<!-- lines-table: end -->"


def list_bites(hostctl, line):
    """[(patch, scenario, step)] of hostctl list --bites all on @line."""
    out = subprocess.run([hostctl, "list", "--bites", "all", "--line", line],
                         check=True, capture_output=True, text=True).stdout
    return [(w[0], w[1], int(w[2])) for w in (l.split() for l in out.splitlines()) if len(w) == 3]


def current_bites(hostctl):
    """{line: [[patch, scenario, step], ...]}, sorted."""
    return {line: sorted([list(b) for b in list_bites(hostctl, line)]) for line in LINES}


def collect(cache, src, runs):
    hostctl = os.environ.get("HOSTCTL")
    if not hostctl:
        print("lines-table.py: HOSTCTL must name the hostctl binary", file=sys.stderr)
        return 2
    bites = current_bites(hostctl)
    try:
        with open(os.path.join(cache, "bites", "records.json")) as f:
            recs = json.load(f).get("bites") or []
    except FileNotFoundError:
        recs = []
    want = {(p, s, line) for line in LINES for p, s, _ in bites[line]}
    records = []
    for r in recs:
        k = (r.get("patch"), r.get("scenario"), r.get("line") or "6.1")
        # A record of this tree's patch and scenario file only: the cache
        # is shared, and another checkout's series may differ.
        if k in want and r.get("patch_sha256") == br.sha256(br.patch_path(src, k[0], k[2])) \
                and r.get("scenario_sha256") == br.scenario_sha256(src, k[1]):
            records.append({"line": k[2], "patch": k[0], "scenario": k[1],
                            "step": r.get("step"), "verdict": r.get("verdict"),
                            "says": r.get("says"), "verified": r.get("verified"),
                            "kernel_key": r.get("kernel_key"),
                            "without": r.get("without") or [k[0]]})
    scenarios = {s for line in LINES for _, s, _ in bites[line]}
    verdicts = []
    for d in runs:
        with open(os.path.join(d, "summary.json")) as f:
            summary = json.load(f)
        kernel = summary.get("kernel") or {}
        if kernel.get("without") or kernel.get("tree") or kernel.get("external"):
            continue
        for sc in summary.get("scenarios") or []:
            if sc.get("name") not in scenarios:
                continue
            verdicts.append({"line": kernel.get("line") or "6.1",
                             "flavour": kernel.get("flavour") or "patched",
                             "scenario": sc["name"], "verdict": sc.get("verdict"),
                             "run": summary.get("run_id") or os.path.basename(os.path.normpath(d)),
                             "kernel_key": kernel.get("key")})
    doc = {"version": VERSION, "bites": bites,
           "records": sorted(records, key=lambda r: (r["scenario"], r["patch"], r["line"])),
           "runs": sorted(verdicts, key=lambda v: (v["scenario"], v["line"], v["run"]))}
    with open(os.path.join(src, DATA) + ".tmp", "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(os.path.join(src, DATA) + ".tmp", os.path.join(src, DATA))
    print("lines-table.py: %s: %d bites, %d records, %d run verdicts" % (
        DATA, sum(len(v) for v in bites.values()), len(records), len(verdicts)))
    return 0


def number(p):
    return p.split("-", 1)[0]


def cell_patched(doc, line, scen, patch):
    """The scenario on the line's whole series: a run's verdict (the
    newest recorded), else the bite's record (which passed there)."""
    runs = [v for v in doc["runs"] if v["line"] == line and v["scenario"] == scen
            and v["flavour"] == "patched"]
    if runs:
        v = max(runs, key=lambda v: v["run"])
        return "%s (run %s)" % (v["verdict"], v["run"])
    if any(r for r in doc["records"] if r["line"] == line and r["scenario"] == scen):
        return "pass (bites.sh)"
    return "not recorded"


def cell_vanilla(doc, line, scen, patch):
    """The scenario without @patch on @line: its record, the patched
    kernel when the line does not carry the patch, or not recorded."""
    if not any(p == patch and s == scen for p, s, _ in doc["bites"][line]):
        return "no %s in the series (upstream has the fix): %s" % (
            number(patch), cell_patched(doc, line, scen, patch))
    for r in doc["records"]:
        if (r["line"], r["scenario"], r["patch"]) == (line, scen, patch):
            left = ", ".join(number(p) for p in r["without"])
            return "%s at step %d, as declared (without %s; %s)" % (
                r["verdict"], r["step"] + 1, left, (r["verified"] or "?")[:10])
    return "not recorded"


def render(doc):
    rows = sorted({(s, p) for line in LINES for p, s, _ in doc["bites"][line]})
    out = [BEGIN, "",
           "| scenario | patch | " + " | ".join(
               "%s patched | %s vanilla" % (l, l) for l in LINES) + " |",
           "| --- | --- | " + " | ".join("--- | ---" for _ in LINES) + " |"]
    for scen, patch in rows:
        cells = []
        for line in LINES:
            cells += [cell_patched(doc, line, scen, patch), cell_vanilla(doc, line, scen, patch)]
        out.append("| `%s` | %s | %s |" % (scen, number(patch), " | ".join(cells)))
    out += ["", END]
    return "\n".join(out) + "\n"


def read_doc(src):
    with open(os.path.join(src, DOC)) as f:
        text = f.read()
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < b:
        raise ValueError("%s: no table markers (%s ... %s)" % (DOC, BEGIN, END))
    return text, b, e + len(END) + 1


def load(src):
    with open(os.path.join(src, DATA)) as f:
        doc = json.load(f)
    if doc.get("version") != VERSION:
        raise ValueError("%s: version %r, want %d" % (DATA, doc.get("version"), VERSION))
    return doc


def write(src):
    doc = load(src)
    text, b, e = read_doc(src)
    with open(os.path.join(src, DOC), "w") as f:
        f.write(text[:b] + render(doc) + text[e:])
    return 0


def check(src, hostctl=None):
    doc = load(src)
    text, b, e = read_doc(src)
    bad = 0
    if text[b:e] != render(doc):
        print("# %s: the table is not what 'lines-table.py write' writes from %s" % (DOC, DATA))
        bad = 1
    if hostctl:
        cur = current_bites(hostctl)
        if cur != doc["bites"]:
            print("# %s: the bites changed since it was collected; run "
                  "'HOSTCTL=build/hostctl/hostctl hostctl/tests/integration/lines-table.py "
                  "collect CACHE . RUN...' then 'write'" % DATA)
            bad = 1
    print("%s - the table of docs/kernel.md is current" % ("not ok 1" if bad else "ok 1"))
    print("1..1")
    return bad


def main(argv):
    try:
        if len(argv) >= 4 and argv[1] == "collect":
            return collect(argv[2], argv[3], argv[4:])
        if len(argv) == 3 and argv[1] == "write":
            return write(argv[2])
        if len(argv) in (3, 4) and argv[1] == "check":
            return check(argv[2], argv[3] if len(argv) == 4 else None)
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        print("lines-table.py %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
