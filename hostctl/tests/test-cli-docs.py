#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The bash completion script and the man page the build generates
(hostctl/docgen/) against the verb table: every verb of 'hostctl help'
and every option row of each verb's help is in the script's arm for that
verb and in the man page's section for it, and the script offers no
option the help does not list. Bash completes with it. `meson install
--destdir` puts both where bash-completion and man look. TAP on stdout.

usage: test-cli-docs.py HOSTCTL BUILDDIR COMPLETION_PATH MAN_PATH"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tap import done, ok

hostctl, builddir, compl_rel, man_rel = sys.argv[1:5]
compl_file = os.path.join(builddir, "hostctl", "docgen", "hostctl")
man_file = os.path.join(builddir, "hostctl", "docgen", "hostctl.1")


def run(*args):
    return subprocess.run([hostctl, *args], capture_output=True, text=True,
                          timeout=60).stdout


listing = run("help").split("Verbs:\n", 1)[1].split("\n\n", 1)[0]
verbs = [m.group(1) for m in re.finditer(r"^  (\w+)", listing, re.M)]
ok(len(verbs) >= 20 and "run" in verbs and "version" in verbs,
   "hostctl help lists the verbs (%d)" % len(verbs))

with open(compl_file) as f:
    compl = f.read()
with open(man_file) as f:
    man = f.read()

top = re.search(r"compgen -W '([^']*)'", compl)
ok(top is not None and set(verbs) <= set(top.group(1).split()),
   "completion: every verb after hostctl")
# The option rows of a verb's help: "  --name", "  -j, --name".
row = re.compile(r"^ {2,}(?:-\w, )?--([a-z][a-z0-9-]*)", re.M)
sections = re.split(r'^\.SS "hostctl ', man, flags=re.M)
for verb in verbs:
    helped = set(row.findall(run("help", verb))) if verb != "help" else set()
    arm = re.search(r"^\t%s\)\n\t\topts='([^']*)'" % re.escape(verb), compl,
                    re.M)
    offered = set(o[2:] for o in arm.group(1).split()) if arm else None
    ok(arm is not None, "completion: an arm for %s" % verb)
    ok(offered is not None and helped <= offered,
       "completion: %s's options (missing: %s)" %
       (verb, sorted(helped - (offered or set()))))
    ok(offered is not None and offered <= helped,
       "completion: no option %s's help does not list (extra: %s)" %
       (verb, sorted((offered or set()) - helped)))
    sec = [s for s in sections if re.match(re.escape(verb) + r'[ "]', s)]
    ok(len(sec) == 1, "man page: a section for %s" % verb)
    missing = [o for o in helped
               if not sec or "\\-\\-" + o.replace("-", "\\-") not in sec[0]]
    ok(sec and not missing, "man page: %s's options (missing: %s)" %
       (verb, missing))

ok(man.startswith(".TH HOSTCTL 1 "), "man page: its title line")
if shutil.which("man") and shutil.which("groff"):
    p = subprocess.run(["man", "--warnings", "-l", "-Tutf8", man_file],
                       capture_output=True, text=True, timeout=60)
    ok(p.returncode == 0 and p.stderr == "",
       "man page: man renders it without warnings (%r)" % p.stderr[:200])
else:
    print("# man or groff missing: the page is not rendered")


def complete(*words):
    script = ('source "$1"; shift; COMP_WORDS=("$@"); '
              'COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _hostctl; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    p = subprocess.run(["bash", "-c", script, "complete", compl_file,
                        *words], capture_output=True, text=True, timeout=60)
    return p.stdout.split()


ok(complete("hostctl", "rep") == ["report", "repro"],
   "bash: hostctl rep<TAB> offers report, repro")
ok(complete("hostctl", "run", "--form") == ["--format"],
   "bash: hostctl run --form<TAB> offers --format")
ok(complete("hostctl", "list", "--bi") == ["--bites"],
   "bash: hostctl list --bi<TAB> offers --bites")

dest = tempfile.mkdtemp(prefix="hostctl-install-")
p = subprocess.run(["meson", "install", "-C", builddir, "--no-rebuild",
                    "--quiet", "--tags", "doc", "--destdir", dest],
                   capture_output=True, text=True, timeout=120)
ok(p.returncode == 0, "meson install --destdir: exit %d (%s)" %
   (p.returncode, p.stderr.strip()[-200:]))
for rel, built in ((compl_rel, compl_file), (man_rel, man_file)):
    path = os.path.join(dest, rel.lstrip("/"))
    same = False
    if os.path.exists(path):
        with open(path) as a, open(built) as b:
            same = a.read() == b.read()
    ok(same, "meson install puts %s in place" % rel)
shutil.rmtree(dest, ignore_errors=True)
done()
