#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl gc --cache on a scratch cache: fake builds and images, a
uses.log of five runs, a results folder whose latest run is one of them.
Kept: what the newest N runs used, results/latest's build and image, what
a process holds the lock of (this test, with flock), what the log does
not name unless it is older than the kept runs. --dry-run removes
nothing; an entry whose lock cannot be taken is exit 2. Every saved guest
of <cache>/snapshots goes but one a process holds. TAP on stdout.

usage: test-gc-cache.py HOSTCTL STORE_FIXTURES_DIR"""
import calendar
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from tap import done, ok

hostctl, fixtures = os.path.abspath(sys.argv[1]), sys.argv[2]
LATEST = "20261203-020000-102"
LATEST_KEY = json.load(open(os.path.join(
    fixtures, "results", LATEST, "summary.json")))["kernel"]["key"]
# Oldest first; every use long before the last hour.
USES = [("2026-11-01T00:00:00Z", "build", "locked", "run0"),
        ("2026-11-01T00:00:00Z", "build", LATEST_KEY, LATEST),
        ("2026-11-01T00:00:00Z", "image", "latesti", LATEST),
        ("2026-11-02T00:00:00Z", "build", "b1", "run1"),
        ("2026-11-02T00:00:00Z", "image", "i1", "run1"),
        ("2026-11-03T00:00:00Z", "build", "b2", "run2"),
        ("2026-11-03T00:00:00Z", "image", "i2", "run2"),
        ("2026-11-04T00:00:00Z", "build", "b3", "run3"),
        ("2026-11-04T00:00:00Z", "image", "i2", "run3")]
SIZES = {"b1": 300000, "i1": 100000, "old": 200000}


def stamp(iso):
    return calendar.timegm(time.strptime(iso, "%Y-%m-%dT%H:%M:%SZ"))


def scratch():
    """A cache and a results folder in a fresh directory."""
    top = tempfile.mkdtemp(prefix="vlalab-gc-cache-")
    cache = os.path.join(top, "cache")
    names = {(kind, key) for _, kind, key, _ in USES}
    names |= {("build", "old"), ("build", "new")}
    for kind, key in names:
        d = os.path.join(cache, kind + "s", key)
        os.makedirs(d)
        with open(os.path.join(d, "manifest.json" if kind == "build"
                               else "initramfs.cpio.gz"), "wb") as f:
            f.write(os.urandom(SIZES.get(key, 1000)))
    # Never in the log: one from before the kept runs, one from after.
    for key, iso in [("old", "2026-10-01T00:00:00Z"),
                     ("new", "2026-11-03T12:00:00Z")]:
        d = os.path.join(cache, "builds", key)
        for p in [os.path.join(d, "manifest.json"), d]:
            os.utime(p, (stamp(iso), stamp(iso)))
    # What an earlier gc renamed aside and could not remove.
    os.makedirs(os.path.join(cache, "builds", ".gc-zzz", "modules"))
    os.makedirs(os.path.join(cache, "obj", "patched"))
    os.makedirs(os.path.join(cache, "trees", "tree-0123456789ab"))
    os.makedirs(os.path.join(cache, "locks"))
    with open(os.path.join(cache, "uses.log"), "w") as f:
        f.writelines("%s %s %s %s\n" % u for u in USES)
    results = os.path.join(top, "results")
    os.makedirs(results)
    shutil.copytree(os.path.join(fixtures, "results", LATEST),
                    os.path.join(results, LATEST))
    os.symlink(LATEST, os.path.join(results, "latest"))
    return top, cache, results


def entries(cache):
    return sorted("%s/%s" % (sub, n) for sub in ["builds", "images"]
                  for n in os.listdir(os.path.join(cache, sub))
                  if not n.startswith("."))


def gc(cache, results, *args):
    return subprocess.run([hostctl, "gc", "--cache", cache, "--keep", "2",
                           "--results", results, *args],
                          capture_output=True, text=True)


top, cache, results = scratch()
# A running hostctl's use: a shared lock, held while gc runs.
held = open(os.path.join(cache, "locks", "build-locked.lock"), "w")
fcntl.flock(held, fcntl.LOCK_SH)
before = entries(cache)
p = gc(cache, results, "--dry-run")
ok(p.returncode == 0, "--dry-run: exit 0 (%d: %s)" % (p.returncode,
                                                      p.stderr.strip()))
ok(entries(cache) == before, "--dry-run removes nothing")
ok("would remove builds/b1 " in p.stdout, "--dry-run names what would go")

p = gc(cache, results)
out = p.stdout
ok(p.returncode == 0, "gc --cache --keep 2: exit 0 (%d: %s)" %
   (p.returncode, p.stderr.strip()))
left = entries(cache)
want = sorted(["builds/b2", "builds/b3", "images/i2",     # the last 2 runs
               "builds/" + LATEST_KEY, "images/latesti",  # results/latest
               "builds/locked",                           # in use
               "builds/new"])                             # not in the log, newer
ok(left == want, "kept: the last 2 runs', latest's, the locked one, an "
   "unlogged newer one: %s" % left)
ok("keep     builds/locked 0.0 MiB: in use by a running hostctl" in out,
   "the locked one is said to be in use")
ok("removed  builds/old 0.2 MiB (not in the log, older than the kept runs)"
   in out, "an entry the log never names goes only as older, and says so")
removed = [line.split()[1] for line in out.splitlines()
           if line.startswith("removed  ")]
ok(removed == ["builds/b1", "builds/old", "images/i1"],
   "removed largest first: %s" % removed)
ok("tree     obj/patched" in out and "tree     trees/tree-0123456789ab" in out
   and os.path.isdir(os.path.join(cache, "obj", "patched")),
   "object and source trees reported, left alone")
ok("(left over from an earlier gc)" in out and
   not os.path.exists(os.path.join(cache, "builds", ".gc-zzz")),
   "what an earlier gc left aside goes")
ok(not os.path.exists(os.path.join(cache, "locks", "build-b1.lock")),
   "a removed entry's lock file goes with it")
ok("removed 3 of 10 builds and images" in out, "the total: %s" %
   out.splitlines()[-1])
fcntl.flock(held, fcntl.LOCK_UN)
held.close()
shutil.rmtree(top)

# The saved guests restored VMs start from (<cache>/snapshots): every one
# goes but one a running hostctl holds; other files stay.
top, cache, results = scratch()
snaps = os.path.join(cache, "snapshots")
os.makedirs(snaps)
for name, size in [("0123abcd-0.save", 300000), ("0123abcd-1.save", 1000),
                   ("0123abcd-0.save.tmp", 1000), ("notes.txt", 10)]:
    with open(os.path.join(snaps, name), "wb") as f:
        f.write(os.urandom(size))
restoring = open(os.path.join(snaps, "0123abcd-1.lock"), "w")
fcntl.flock(restoring, fcntl.LOCK_SH)
env = {k: v for k, v in os.environ.items() if k != "VLALAB_SNAPSHOTS"}
p = subprocess.run([hostctl, "gc", "--cache", cache, "--keep", "2",
                    "--results", results, "--dry-run"],
                   capture_output=True, text=True, env=env)
ok(p.returncode == 0 and "would remove snapshots/0123abcd-0.save 0.3 MiB"
   in p.stdout and os.path.exists(os.path.join(snaps, "0123abcd-0.save")),
   "--dry-run names a saved guest and leaves it (%s)" % p.stderr.strip())
p = subprocess.run([hostctl, "gc", "--cache", cache, "--keep", "2",
                    "--results", results],
                   capture_output=True, text=True, env=env)
ok(p.returncode == 0, "with saved guests: exit 0 (%s)" % p.stderr.strip())
ok(sorted(os.listdir(snaps)) == ["0123abcd-0.save.tmp", "0123abcd-1.lock",
                                 "0123abcd-1.save", "notes.txt"],
   "the saved guest not in use goes, with its lock; the held one and other "
   "files stay: %s" % sorted(os.listdir(snaps)))
ok("keep     snapshots/0123abcd-1.save 0.0 MiB: in use by a running hostctl"
   in p.stdout and "removed 1 saved guest, 0.3 MiB freed" in p.stdout,
   "the held one is said to be in use, and the total said")
fcntl.flock(restoring, fcntl.LOCK_UN)
restoring.close()
shutil.rmtree(top)

# An entry that cannot be removed (its lock path is a folder, which root
# cannot open either): exit 2, and the others still go.
top, cache, results = scratch()
os.makedirs(os.path.join(cache, "locks", "build-b1.lock"))
p = gc(cache, results)
ok(p.returncode == 2 and "builds/b1': cannot take its lock" in p.stderr,
   "a removal that fails: exit 2 (%d: %s)" % (p.returncode, p.stderr.strip()))
ok("builds/b1" in entries(cache) and "images/i1" not in entries(cache),
   "it stays, the rest goes")
shutil.rmtree(top)

# Bad input: exit 2 and a reason, nothing removed.
top, cache, results = scratch()
with open(os.path.join(cache, "uses.log"), "a") as f:
    f.write("2026-11-05 build b4 run4\n")
before = entries(cache)
p = gc(cache, results)
ok(p.returncode == 2 and "uses.log:10: not a use" in p.stderr and
   entries(cache) == before, "a bad log line: exit 2, file:line, nothing "
   "removed (%s)" % p.stderr.strip())
p = subprocess.run([hostctl, "gc", "--keep", "1", cache],
                   capture_output=True, text=True)
ok(p.returncode == 2 and "goes with --cache only" in p.stderr,
   "a folder without --cache: exit 2")
shutil.rmtree(top)
done()
