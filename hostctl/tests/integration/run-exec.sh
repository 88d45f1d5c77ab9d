#!/bin/sh
# Integration: hostctl run --exec CMD (README, "Running scenarios"),
# four boots of the initramfs under TCG. `cat /proc/version` prints the
# guest's version on stdout and exits 0; a command that writes an ESC
# sequence and a line on stderr and exits 3 comes out escaped (no ESC
# byte reaches the terminal), its streams apart, and hostctl exits 3; a
# command that panics the guest (sysrq c) is judged a crash as in a run:
# one "crash" line on stderr and exit 125. Each run directory has a
# summary.json marked "exec" that hostctl report reads. A fourth boot:
# the first line of `echo started; sleep 600` arrives while the command
# still runs, and SIGINT then ends hostctl with 130.
set -eu
exec python3 - "$HOSTCTL" <<'PY'
import json, os, signal, subprocess, sys, tempfile

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

# Streamed as it runs: the first line comes while the command still runs;
# then SIGINT ends the run cleanly with 128 + 2, as a shell's.
d = os.path.join(out, "int")
p = subprocess.Popen([hostctl, "run", "--accel", "tcg", "--output", d,
                      "--exec", "echo started; sleep 600"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
first = p.stdout.readline()
check(first == b"started\n" and p.poll() is None,
      "the first line comes while the command runs")
p.send_signal(signal.SIGINT)
try:
    rest, err = p.communicate(timeout=300)
except subprocess.TimeoutExpired:
    p.kill()
    rest, err = p.communicate()
print("# interrupted: rc %s, stderr %r" % (p.returncode, err[-2000:]))
check(p.returncode == 130, "SIGINT: exit 130")
check(err.decode(errors="replace").count("hostctl run: --exec: interrupted") == 1,
      "one line says it was interrupted")

print("1..%d" % n)
if not bad:
    subprocess.run(["rm", "-rf", out])
sys.exit(1 if bad else 0)
PY
