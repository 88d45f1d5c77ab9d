#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every verb's --help (and 'hostctl help VERB', and the verb table of
'hostctl help') against help/VERB.txt, byte for byte: the shared options
of cli/options.c print the lines each verb printed before. @SRCDIR@ in
a file is the source tree. TAP on stdout.

usage: test-help.py HOSTCTL SRCDIR HELPDIR"""
import os
import subprocess
import sys

from tap import done, ok

hostctl, srcdir, helpdir = sys.argv[1:4]

for name in sorted(os.listdir(helpdir)):
    verb = name[:-len(".txt")]
    with open(os.path.join(helpdir, name)) as f:
        want = f.read().replace("@SRCDIR@", srcdir)
    runs = [["help"]] if verb == "help" else [[verb, "--help"],
                                              ["help", verb]]
    for args in runs:
        p = subprocess.run([hostctl, *args], capture_output=True, text=True,
                           timeout=60)
        what = "hostctl " + " ".join(args)
        ok(p.returncode == 0, "%s: exit %d, want 0" % (what, p.returncode))
        ok(p.stdout == want, "%s: as help/%s" % (what, name))
        if p.stdout != want:
            for a, b in zip(p.stdout.splitlines(), want.splitlines()):
                if a != b:
                    print("# got:  %r\n# want: %r" % (a, b))
                    break
done()
