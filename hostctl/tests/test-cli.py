#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The command line's own errors and version, against what they must
print: an unknown option, a missing or an unwanted argument is one line
on stderr with the hostctl VERB: prefix and where to look, exit 2, and
getopt's own message is not printed; --version and the version verb print
'hostctl' and the build's git describe (or the project version outside
git). TAP on stdout.

usage: test-cli.py HOSTCTL"""
import re
import subprocess
import sys

from tap import done, ok

hostctl = sys.argv[1]

errors = [
    (["run", "--frobnicate", "all"],
     "hostctl run: unrecognized option '--frobnicate'; see 'hostctl help run'\n"),
    (["run", "--output"],
     "hostctl run: option '--output' needs an argument; see 'hostctl help run'\n"),
    (["run", "--keep=1", "all"],
     "hostctl run: option '--keep' takes no argument; see 'hostctl help run'\n"),
    (["run", "--ke", "all"],
     "hostctl run: option '--ke' is ambiguous; see 'hostctl help run'\n"),
    (["--frobnicate"],
     "hostctl: unrecognized option '--frobnicate'; see 'hostctl help'\n"),
    (["frobnicate"],
     "hostctl: unknown verb 'frobnicate'; see 'hostctl help'\n"),
    (["build", "-x"],
     "hostctl build: unrecognized option '-x'; see 'hostctl help build'\n"),
    (["build", "extra"],
     "hostctl build: unexpected argument 'extra'; see 'hostctl help build'\n"),
    (["list", "--bites"],
     "hostctl list: option '--bites' needs an argument; see 'hostctl help list'\n"),
    (["pull", "--bogus", "vm1", "/a"],
     "hostctl pull: unrecognized option '--bogus'; see 'hostctl help pull'\n"),
    (["exec", "--cache"],
     "hostctl exec: option '--cache' needs an argument; see 'hostctl help exec'\n"),
    (["run", "--exec"],
     "hostctl run: option '--exec' needs an argument; see 'hostctl help run'\n"),
    (["run", "--exec", "true", "all"],
     "hostctl run: --exec runs a command instead of scenarios: give no scenario names\n"),
    (["run", "--exec", "", "--accel", "tcg"],
     "hostctl run: --exec: an empty command\n"),
    # --line, the shared option, where a run is made (run/spec.h).
    (["repro", "--line", "5.10", "dsa/vlan-delete"],
     "hostctl run: --line: unknown kernel line '5.10' (known: 6.1, 6.12)\n"),
    (["compare", "--line", "5.10", "--baseline", "vanilla", "--candidate",
      "patched", "dsa/vlan-delete"],
     "hostctl compare: --line: unknown kernel line '5.10' (known: 6.1, 6.12)\n"),
    (["bench", "--line", "5.10", "--no-run-all"],
     "hostctl bench: --line: unknown kernel line '5.10' (known: 6.1, 6.12)\n"),
    # --subset: names and globs, split at commas and blanks.
    (["bench", "--subset", " , "],
     "hostctl bench: --subset ' , ' is not 1..16 names or globs\n"),
    (["bench", "--subset", ",".join(["bch/*"] * 17)],
     "hostctl bench: --subset '%s' is not 1..16 names or globs\n"
     % ",".join(["bch/*"] * 17)),
]
for args, want in errors:
    p = subprocess.run([hostctl, *args], capture_output=True, text=True,
                       timeout=60)
    what = "hostctl " + " ".join(args)
    ok(p.returncode == 2, "%s: exit %d, want 2" % (what, p.returncode))
    ok(p.stderr == want and p.stdout == "",
       "%s: one line on stderr, nothing on stdout (%r)" % (what, p.stderr))

version = re.compile(r"hostctl (\d+\.\d+\.\d+|[0-9a-f]{7,40}|\S+-g[0-9a-f]{7,40})"
                     r"(-dirty)?\n\Z")
for args in (["--version"], ["version"]):
    p = subprocess.run([hostctl, *args], capture_output=True, text=True,
                       timeout=60)
    what = "hostctl " + " ".join(args)
    ok(p.returncode == 0 and p.stderr == "", "%s: exit 0, quiet" % what)
    ok(version.match(p.stdout) is not None,
       "%s: 'hostctl' and the git describe (%r)" % (what, p.stdout))
p = subprocess.run([hostctl, "version", "extra"], capture_output=True,
                   text=True, timeout=60)
ok(p.returncode == 2, "hostctl version extra: exit 2")
done()
