#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl runs, diff, flakes and gc on fixture run directories
(store-fixtures/results: four runs, the last on a kernel without a
patch, a --repeat run and a directory that is no run). Each command's
output against store-fixtures/<case>.out, and its exit code;
VLALAB_UPDATE_GOLDEN=1 rewrites the .out files. gc works on a copy.
TAP on stdout.

usage: test-store.py HOSTCTL FIXTURES_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

from tap import done, ok

hostctl, fixtures = os.path.abspath(sys.argv[1]), sys.argv[2]
update = os.environ.get("VLALAB_UPDATE_GOLDEN") == "1"
def run(*args, cwd=fixtures):
    return subprocess.run([hostctl, *args], capture_output=True, text=True,
                          cwd=cwd)


cases = [
    ("runs", ["runs"], 0),
    ("runs-other-dir", ["runs", "--results", "results"], 0),
    ("diff-regressed", ["diff", "20261203-020000-102", "20261204-020000-103"], 1),
    ("diff-clean", ["diff", "20261201-020000-100", "results/20261203-020000-102"], 0),
    ("diff-threshold", ["diff", "--threshold", "10", "--min-ms", "100",
                        "20261201-020000-100", "20261202-020000-101"], 1),
    ("diff-fixed", ["diff", "20261202-020000-101", "20261203-020000-102"], 0),
    ("flakes", ["flakes"], 0),
    ("flakes-last", ["flakes", "--last", "2"], 0),
]
for name, args, code in cases:
    p = run(*args)
    out_path = os.path.join(fixtures, name + ".out")
    if update:
        with open(out_path, "w") as f:
            f.write(p.stdout)
    want = open(out_path).read() if os.path.exists(out_path) else None
    ok(p.returncode == code, "%s: exit %d (got %d: %s)" %
       (name, code, p.returncode, p.stderr.strip()))
    ok(p.stdout == want, "%s: output as %s.out" % (name, name))

# Bad input: exit 2 with a reason.
for args, what in [
        (["diff", "20261201-020000-100", "nonesuch"], "no run directory"),
        (["diff", "20261201-020000-100", "20261130-020000-99"], "--repeat run"),
        (["diff", "--threshold", "x", "a", "b"], "give a percentage"),
        (["diff", "20261201-020000-100"], "too few arguments"),
        (["flakes", "--last", "0"], "give a number of runs"),
        (["gc"], "give --keep N"),
        (["gc", "--keep", "-1"], "give a number of runs")]:
    p = run(*args)
    ok(p.returncode == 2 and what in p.stderr,
       "%s: exit 2, '%s' (got %d: %s)" % (" ".join(args), what, p.returncode,
                                         p.stderr.strip()))

# gc on a copy: keeps the newest N and results/latest, removes only runs.
tmp = tempfile.mkdtemp(prefix="vlalab-gc-")
shutil.copytree(os.path.join(fixtures, "results"),
                os.path.join(tmp, "results"), symlinks=True)
before = sorted(os.listdir(os.path.join(tmp, "results")))
p = run("gc", "--keep", "1", "--dry-run", cwd=tmp)
ok(p.returncode == 0 and sorted(os.listdir(os.path.join(tmp, "results"))) == before
   and p.stdout.count("would remove results/") == 4,
   "gc --dry-run removes nothing and names 4 runs")
# Make the newest run not the one latest points to: latest is kept too.
os.makedirs(os.path.join(tmp, "results", "20261205-020000-104"))
shutil.copy(os.path.join(tmp, "results", "20261201-020000-100", "summary.json"),
            os.path.join(tmp, "results", "20261205-020000-104"))
p = run("gc", "--keep", "1", cwd=tmp)
left = sorted(os.listdir(os.path.join(tmp, "results")))
ok(p.returncode == 0 and left == ["20261204-020000-103", "20261205-020000-104",
                                  "latest", "not-a-run"],
   "gc --keep 1 keeps the newest, latest's and what is no run: %s" % left)
p = run("runs", cwd=tmp)
ok(p.returncode == 0 and p.stdout.endswith("2 runs in results\n"),
   "runs after gc: 2")
shutil.rmtree(tmp)

done()
