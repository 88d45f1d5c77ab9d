#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Each verb given too few or too many positional arguments, or an
unknown option: exit 2 with its usage on stderr, never a signal. None of
these reach a VM, the cache or libvirt. TAP on stdout.

usage: test-usage.py HOSTCTL"""
import subprocess
import sys
import tempfile

from tap import done, ok

hostctl = sys.argv[1]
cache = tempfile.mkdtemp(prefix="hostctl-usage-")

cases = [
    ["ls", "extra"],
    ["shell"],
    ["shell", "vm1", "extra"],
    ["console"],
    ["exec", "vm1"],
    ["pull", "vm1"],
    ["push", "a"],
    ["push", "a", "vm1:/b", "c"],
    ["repro"],
    ["pull", "--bogus", "vm1", "/a"],
]
for args in cases:
    p = subprocess.run([hostctl, args[0], "--cache", cache, *args[1:]],
                       capture_output=True, text=True, timeout=60)
    what = "hostctl " + " ".join(args)
    ok(p.returncode == 2,
       "%s: exit %d, want 2 (negative: killed by that signal)" %
       (what, p.returncode))
    ok("usage" in p.stderr.lower() or "unrecognized option" in p.stderr,
       "%s: says why on stderr (%r)" % (what, p.stderr.strip()[:120]))

# repro takes run's --flavour, and a flavour that is not there is refused
# with the known ones named, before anything boots.
p = subprocess.run([hostctl, "repro", "--cache", cache, "--flavour", "nosuch",
                    "ftrace/cached-filter"],
                   capture_output=True, text=True, timeout=60)
ok(p.returncode == 2, "hostctl repro --flavour nosuch: exit %d, want 2" %
   p.returncode)
ok("--flavour" in p.stderr and "debug" in p.stderr,
   "hostctl repro --flavour nosuch: names the known flavours (%r)" %
   p.stderr.strip()[:200])
done()
