#!/bin/sh
# Integration: hostctl run --keep-vm-on-fail and repro's default step
# (docs/repro.md), on selftest/fail-at-3 (repro-fixtures: step 1 sets the
# domain name, step 3 of 4 fails).
#
# 1. `run --keep-vm-on-fail=600`: the run says why the scenario failed
#    (the step, expected and got) and then keeps the failing VM and prints
#    the `hostctl shell` command; `hostctl ls` shows it at step 3 of 4,
#    `hostctl exec` reaches it; then a line on standard input ends the
#    timed hold long before its 600 s, the run exits 1 (a fail), and
#    leaves no QEMU and no state file.
# 2. `repro --no-shell` without --until-step, in the same folder: it finds
#    that stored run, says it stops at step 3, runs steps 1-3 without the
#    cleanup list (exec sees step 1's domain name). Then the guest's
#    kernel panics (sysrq c) while repro holds it: repro says it died, and
#    the run has a panic incident with its bundle (the verdict stays the
#    failed step's).
set -eu
exec python3 - "$HOSTCTL" "$SRCDIR/hostctl/tests/integration/repro-fixtures" <<'PY'
import json, os, re, select, subprocess, sys, tempfile, time

hostctl, fixtures = sys.argv[1], sys.argv[2]
cache = os.environ.get("VLALAB_CACHE") or os.path.expanduser("~/.cache/vlalab")
work = tempfile.mkdtemp(prefix="hostctl-it-keep-vm-")
# Its runs' results in it, not in the cache's results root.
os.environ["VLALAB_RESULTS"] = os.path.join(work, "results")
bad = []
KEEP_S = 600

def fail(msg):
    print("# " + msg)
    bad.append(msg)

def run(*args):
    return subprocess.run([hostctl] + list(args), capture_output=True,
                          timeout=300, cwd=work)

def read_until(p, pattern, bound):
    """p's output until @pattern; @bound only turns a hang into a fail."""
    global seen
    seen, deadline = b"", time.time() + bound
    while time.time() < deadline:
        r, _, _ = select.select([p.stdout], [], [], deadline - time.time())
        if not r:
            break
        chunk = os.read(p.stdout.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
        m = re.search(pattern, seen)
        if m:
            sys.stdout.write(seen.decode(errors="replace"))
            return m
    sys.stdout.write(seen.decode(errors="replace"))
    return None

def gone(dom):
    if os.path.exists(os.path.join(cache, "vms", dom + ".json")):
        fail("%s's state file outlived it" % dom)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True).stdout
    if dom.encode() in ps:
        fail("a process still names %s" % dom)

# 1. run --keep-vm-on-fail=SECONDS
rp = subprocess.Popen([hostctl, "run", "--keep-vm-on-fail=%d" % KEEP_S,
                       "--scenarios", fixtures, "selftest/fail-at-3"],
                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                      stderr=subprocess.STDOUT, cwd=work)
m = read_until(rp, rb"keeping (\S+) for %d s or until a line on standard input: "
               rb"hostctl shell (\S+)\n" % KEEP_S, 900)
if not m:
    fail("run --keep-vm-on-fail never said it kept the VM")
    rp.kill()
    sys.exit(1)
t_kept, dom = time.time(), m.group(2).decode()
# The reason comes before the hold, not after it.
held = seen[:m.start()]
if not re.search(rb"step 3 \S+.*: fail\n\s+expected: .*\n\s+got: ", held):
    fail("the failure's step, expected and got are not said before the hold")
p = run("ls")
print("# ls:\n" + p.stdout.decode(errors="replace"))
row = [l for l in p.stdout.decode().splitlines() if dom in l]
if not row or not re.search(r"selftest/fail-at-3\s+3/4\s", row[0]):
    fail("hostctl ls does not say selftest/fail-at-3 at step 3/4")
p = run("exec", dom, "--", "cat", "/proc/sys/kernel/ostype")
print("# exec in the kept VM: rc %d, %r" % (p.returncode, p.stdout))
if p.returncode != 0 or p.stdout != b"Linux\n":
    fail("hostctl exec did not reach the kept VM: %r" % p.stderr)
# A line on standard input ends the timed hold too.
rp.stdin.write(b"\n")
rp.stdin.flush()
rest = rp.stdout.read()
rc = rp.wait(timeout=300)
waited = time.time() - t_kept
sys.stdout.write(rest.decode(errors="replace"))
rp.stdin.close()
print("# run exited %d, %.1f s after keeping the VM" % (rc, waited))
if rc != 1:
    fail("run --keep-vm-on-fail exited %d, want 1 (a fail)" % rc)
if waited > KEEP_S / 2:
    fail("the line on standard input did not end the hold (%.1f s)" % waited)
gone(dom)

# 2. repro's default: the stored run's failing step.
rp = subprocess.Popen([hostctl, "repro", "--no-shell", "--scenarios", fixtures,
                       "selftest/fail-at-3"], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=work)
m = read_until(rp, rb"\) is up: 'hostctl shell (\S+)'", 900)
if not m:
    fail("hostctl repro --no-shell never said the VM was up")
    rp.kill()
    sys.exit(1)
dom = m.group(1).decode()
if not re.search(rb"up to step 3, where selftest/fail-at-3 failed in run \d", seen):
    fail("repro did not say it stops where the stored run failed")
p = run("ls")
row = [l for l in p.stdout.decode().splitlines() if dom in l]
print("# ls: %r" % row)
if not row or not re.search(r"selftest/fail-at-3\s+3/3\s", row[0]):
    fail("repro did not stop at step 3 (hostctl ls: %r)" % row)
p = run("exec", dom, "--", "cat", "/proc/sys/kernel/domainname")
print("# domain name in repro's VM: %r" % p.stdout)
if p.stdout != b"vlalab-repro\n":
    fail("step 1's state is not there, or the cleanup list ran: %r" % p.stdout)
# The kernel dies while repro holds the VM: repro says so, and the
# crash judge makes the incident and its bundle. The exec that panics it
# never gets an answer; it goes once repro has seen the crash.
ex = subprocess.Popen([hostctl, "exec", dom, "--", "sh", "-c",
                       "echo c > /proc/sysrq-trigger"], cwd=work,
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
m = read_until(rp, rb"died \(.*\); the crash judge follows", 600)
ex.kill()
ex.wait()
if not m:
    fail("repro did not say the guest died")
rest = rp.stdout.read()
sys.stdout.write(rest.decode(errors="replace"))
rc = rp.wait(timeout=600)
rp.stdin.close()
print("# repro exited %d" % rc)
gone(dom)
run_dir = re.search(rb"results: (\S+)", rest)
summary = json.load(open(os.path.join(run_dir.group(1).decode(), "summary.json"))) if run_dir else {}
sc = (summary.get("scenarios") or [{}])[0]
incs = [i for i in sc.get("incidents", []) if i.get("kind") == "panic" and i.get("bundle")]
print("# after the crash: verdict %s, incidents %r" %
      (sc.get("verdict"), [(i.get("kind"), i.get("bundle")) for i in sc.get("incidents", [])]))
# The verdict stays the failed step's; the panic is its incident.
if not incs:
    fail("the crash during the hold gave no panic incident with a bundle")
elif not os.path.exists(os.path.join(run_dir.group(1).decode(), incs[0]["bundle"], "console.log")):
    fail("the crash's bundle has no console.log")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
