#!/bin/sh
# Integration: hostctl run --exec CMD (docs/running.md, "One command"),
# three boots of the initramfs under TCG. `cat /proc/version` prints the
# guest's version on stdout and exits 0; a command that writes an ESC
# sequence and a line on stderr and exits 3 comes out escaped (no ESC
# byte reaches the terminal), its streams apart, and hostctl exits 3; a
# command that panics the guest (sysrq c) is judged a crash as in a run:
# one "crash" line on stderr and exit 125. Each run directory has a
# summary.json marked "exec" that hostctl report reads.
set -eu
exec python3 - "$HOSTCTL" <<'PY'
import json, os, subprocess, sys, tempfile

hostctl = sys.argv[1]
out = tempfile.mkdtemp(prefix="hostctl-it-exec-")
bad, n = [], 0


def check(cond, what):
    global n
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    if not cond:
        bad.append(what)


def run(name, cmd):
    d = os.path.join(out, name)
    p = subprocess.run([hostctl, "run", "--accel", "tcg", "--output", d,
                        "--exec", cmd], capture_output=True, timeout=900)
    print("# %s: rc %d\n# stdout %r\n# stderr %r"
          % (cmd, p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
    return p, d


def summary(d):
    try:
        with open(os.path.join(d, "summary.json")) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("# summary.json: %s" % e)
        return {}


p, d = run("version", "cat /proc/version")
check(p.returncode == 0, "cat /proc/version exits 0")
check(p.stdout.startswith(b"Linux version ") and p.stdout.count(b"\n") == 1,
      "its stdout is the guest's /proc/version alone")
s = summary(d)
check(s.get("exec") == "cat /proc/version" and
      [x.get("name") for x in s.get("scenarios", [])] == ["exec/command"],
      "summary.json is an exec run's")
r = subprocess.run([hostctl, "report", d], capture_output=True, timeout=60)
check(r.returncode == 0, "hostctl report reads it")

p, d = run("esc", "printf 'a\\033]0;owned\\007b\\n'; echo to-err >&2; exit 3")
check(p.returncode == 3, "a command that exits 3: hostctl exits 3")
check(b"\x1b" not in p.stdout and b"\x07" not in p.stdout and
      p.stdout == b"a\\x1b]0;owned\\x07b\n", "its ESC sequence comes out escaped")
check(p.stderr == b"to-err\n", "its stderr apart, alone")

p, d = run("panic", "echo c > /proc/sysrq-trigger")
check(p.returncode == 125, "a guest panic: exit 125")
lines = p.stderr.decode(errors="replace").splitlines()
check(sum(l.startswith("hostctl run: --exec: crash: ") for l in lines) == 1,
      "one line says the kernel crashed")
s = summary(d)
check([x.get("verdict") for x in s.get("scenarios", [])] == ["crash"],
      "summary.json judges it a crash")

print("1..%d" % n)
if not bad:
    subprocess.run(["rm", "-rf", out])
sys.exit(1 if bad else 0)
PY
