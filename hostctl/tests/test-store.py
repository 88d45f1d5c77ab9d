#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl runs, diff, flakes, report and gc on fixture run directories
(store-fixtures/results: four runs, the last on a kernel without a
patch, a --repeat run and a directory that is no run; repro-results:
two runs with a repro's run between them; exec-results: two runs with
two of hostctl run --exec's between them). Each command's output against
store-fixtures/<case>.out, and its exit code; VLALAB_UPDATE_GOLDEN=1
rewrites the .out files. gc works on a copy. The results root is
$VLALAB_RESULTS=results, relative to the folder each command runs in.
TAP on stdout.

usage: test-store.py HOSTCTL FIXTURES_DIR"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from tap import done, ok

hostctl, fixtures = os.path.abspath(sys.argv[1]), sys.argv[2]
update = os.environ.get("VLALAB_UPDATE_GOLDEN") == "1"
env = dict(os.environ, VLALAB_RESULTS="results")


def run(*args, cwd=fixtures, env=env):
    return subprocess.run([hostctl, *args], capture_output=True, text=True,
                          cwd=cwd, env=env)


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
    # One run locator: a run id, latest (the default), or a folder.
    ("report-id", ["report", "20261204-020000-103"], 0),
    ("report-latest", ["report"], 0),
    ("report-id", ["report", "results/20261204-020000-103"], 0),
    # A repro's run: marked in runs, left out of flakes.
    ("runs-repro", ["runs", "--results", "repro-results"], 0),
    ("flakes-repro", ["flakes", "--results", "repro-results"], 0),
    ("report-repro", ["report", "--results", "repro-results",
                      "20261205-020000-201"], 0),
    # hostctl run --exec's runs: marked in runs, left out of flakes (their
    # exec/command went pass then fail: no flip of a scenario).
    ("runs-exec", ["runs", "--results", "exec-results"], 0),
    ("flakes-exec", ["flakes", "--results", "exec-results"], 0),
]
for name, args, code in cases:
    p = run(*args)
    out_path = os.path.join(fixtures, name + ".out")
    if update and args[-1] != "results/20261204-020000-103":
        with open(out_path, "w") as f:
            f.write(p.stdout)
    want = open(out_path).read() if os.path.exists(out_path) else None
    ok(p.returncode == code, "%s: exit %d (got %d: %s)" %
       (name, code, p.returncode, p.stderr.strip()))
    ok(p.stdout == want, "%s: output as %s.out" % (name, name))

# A run not found: one line, one wording, whichever verb.
where = "in 'results' (a run id, 'latest' or a folder)\n"
for verb, args in [("report", ["report", "nonesuch"]),
                   ("report", ["report", "--html", "/nonexistent", "nonesuch"]),
                   ("export", ["export", "--junit", "/nonexistent/j.xml",
                               "nonesuch"]),
                   ("diff", ["diff", "20261201-020000-100", "nonesuch"])]:
    p = run(*args)
    want = "hostctl %s: no run 'nonesuch' %s" % (verb, where)
    ok(p.returncode == 2 and p.stderr == want,
       "%s: exit 2, %r (got %d: %r)" % (" ".join(args), want, p.returncode,
                                        p.stderr))

# A results root that is not there: one line and exit 2 when given; the
# default one (the cache's results/) holds no run until a run makes it.
for args in (["runs", "--results", "/no/such"],
             ["flakes", "--results", "/no/such"]):
    p = run(*args)
    ok(p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1
       and "'/no/such'" in p.stderr,
       "%s: exit 2, one line (got %d: %r)" % (" ".join(args), p.returncode,
                                              p.stderr))
tmp = tempfile.mkdtemp(prefix="vlalab-root-")
bare = dict(os.environ, VLALAB_CACHE=tmp)
bare.pop("VLALAB_RESULTS", None)
p = run("runs", env=bare)
ok(p.returncode == 0 and p.stdout == "0 runs in %s/results\n" % tmp,
   "runs: the default root is the cache's results/ (got %d: %r %r)" %
   (p.returncode, p.stdout, p.stderr))
p = run("report", "latest", env=bare)
ok(p.returncode == 2 and p.stderr == "hostctl report: no run 'latest' in "
   "'%s/results' (a run id, 'latest' or a folder)\n" % tmp,
   "report: latest of the default root (got %d: %r)" % (p.returncode,
                                                          p.stderr))
shutil.rmtree(tmp)

# A repro's run is no run to compare.
p = run("diff", "--results", "repro-results", "20261205-010000-200",
        "20261205-020000-201")
ok(p.returncode == 2 and "is a repro's run (steps 1-2 of 3 of dsa/b)" in
   p.stderr, "diff refuses a repro's run (got %d: %r)" % (p.returncode,
                                                          p.stderr))

# Nor is a run of hostctl run --exec, either side.
for pair in (["20261205-010000-200", "20261205-013000-300"],
             ["20261205-014000-301", "20261205-030000-202"]):
    p = run("diff", "--results", "exec-results", *pair)
    ok(p.returncode == 2 and p.stdout == "" and
       "is a run of hostctl run --exec '" in p.stderr and
       "not a run of scenarios to compare" in p.stderr,
       "diff refuses a run --exec's run %s (got %d: %r)" %
       (" ".join(pair), p.returncode, p.stderr))


# A read-only verb whose reader went away stops quietly, killed by
# SIGPIPE as git is (status 141 in a shell), even when started with
# SIGPIPE ignored (as Python, and what it starts with restore_signals
# off, has it): no message, no exit code that looks like an error of its
# own. Its standard output: a pipe whose reading end is closed.
def closed_pipe(*args, restore):
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([hostctl, *args], stdout=w,
                              stderr=subprocess.PIPE, text=True,
                              cwd=fixtures, env=env,
                              restore_signals=restore)
    finally:
        os.close(w)


for args in (["runs"], ["flakes", "--results", "exec-results"], ["report", "20261204-020000-103"],
             ["diff", "20261203-020000-102", "20261204-020000-103"],
             ["list"], ["help"]):
    for restore in (True, False):
        p = closed_pipe(*args, restore=restore)
        ok(p.returncode == -signal.SIGPIPE and p.stderr == "",
           "%s into a closed pipe (SIGPIPE %s): killed by SIGPIPE, "
           "quietly (got %d: %r)" % (" ".join(args), "default" if restore
                                     else "ignored", p.returncode, p.stderr))

# Bad input: exit 2 with a reason.
for args, what in [
        (["diff", "20261201-020000-100", "nonesuch"], "no run 'nonesuch'"),
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
