#!/bin/sh
# Integration: `hostctl repro ftrace/cached-filter --until-step 4` driven
# through a pseudo-terminal: the steps and verdicts are printed, a shell
# opens in the guest with step 4's cached filter in place, `cat` reads it
# back, `exit` ends the shell, and the VM is torn down cleanly (the run
# directory printed, its state file gone, no QEMU of it left). The run
# is recorded as a repro (issue 30): summary.json's repro_until_step and
# repro_steps, a closing line that says repro, and the results root's
# latest not moved to it.
# (Step 4 writes the cached '*:mod:trace_printk' entry; after step 2 the
# filter is still empty.)
set -eu
exec python3 - "$HOSTCTL" <<'PY'
import json, os, pty, re, select, shutil, subprocess, sys, tempfile, time

hostctl = sys.argv[1]
cache = os.environ.get("VLALAB_CACHE") or os.path.expanduser("~/.cache/vlalab")
# A results root of its own, with a latest that must stay where it is.
root = tempfile.mkdtemp(prefix="hostctl-it-repro-")
os.environ["VLALAB_RESULTS"] = root
os.symlink("20000101-000000-1", os.path.join(root, "latest"))
bad = []
pid, fd = pty.fork()
if pid == 0:
    os.execv(hostctl, [hostctl, "repro", "--until-step", "4",
                       "ftrace/cached-filter"])
buf = b""

def expect(pattern, bound):
    """Read the pty until @pattern; @bound only turns a hang into a fail."""
    global buf
    deadline = time.time() + bound
    while True:
        m = re.search(pattern, buf)
        if m:
            return m
        left = deadline - time.time()
        r = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
        if not r:
            return None
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return None
        if not chunk:
            return None
        buf += chunk

t0 = time.time()
m = expect(rb"shell in (vm\d+) \((\S+)\)", 900)
if not m:
    print(buf.decode(errors="replace"))
    print("# no shell from hostctl repro")
    sys.exit(1)
dom = m.group(2).decode()
for want in (rb"step 4 filter a module that is not loaded +write +pass",
             rb"step 3 .* +pass"):
    if not re.search(want, buf):
        bad.append("the steps printed lack %r" % want)
if not expect(rb"# $|# \x1b", 120) and not expect(rb"[#$] ", 5):
    bad.append("no shell prompt")
print("# shell prompt after %.1f s" % (time.time() - t0))
os.write(fd, b"cat /sys/kernel/tracing/set_ftrace_filter\r")
if not expect(rb"\*:mod:trace_printk", 60):
    bad.append("the cached filter entry did not come back")
os.write(fd, b"exit\r")
m = expect(rb"results: (\S+)", 600)
if not m:
    bad.append("no run directory printed after exit")
expect(rb"$^", 30)  # the rest, until hostctl closes the pty
_, status = os.waitpid(pid, 0)
print(buf.decode(errors="replace"))
rc = os.waitstatus_to_exitcode(status)
print("# hostctl repro exited %d" % rc)
if rc != 0:
    bad.append("hostctl repro exited %d, want 0 (steps 1-4 pass)" % rc)
if os.path.exists(os.path.join(cache, "vms", dom + ".json")):
    bad.append("the VM's state file outlived it")
ps = subprocess.run(["ps", "-eo", "args"], capture_output=True).stdout.decode()
if dom in ps:
    bad.append("a process still names %s" % dom)
if not re.search(rb"vlalab: repro ftrace/cached-filter, steps 1-4 of \d+: "
                 rb"pass in \S+ \(no verdict of the scenario\); results: ",
                 buf):
    bad.append("no closing line that says repro")
if re.search(rb"-> OK|PASS", buf):
    bad.append("the repro was reported as a pass of the scenario")
if m:
    run_dir = m.group(1).decode()
    try:
        summary = json.load(open(os.path.join(run_dir, "summary.json")))
    except (OSError, ValueError) as e:
        summary = {}
        bad.append("summary.json of %s: %s" % (run_dir, e))
    if summary.get("repro_until_step") != 4 or not summary.get("repro_steps"):
        bad.append("summary.json does not mark the repro: %r" %
                   {k: summary.get(k) for k in ("repro_until_step",
                                                "repro_steps")})
    if os.path.dirname(run_dir) != root:
        bad.append("the run is not in the results root %s: %s" %
                   (root, run_dir))
if os.readlink(os.path.join(root, "latest")) != "20000101-000000-1":
    bad.append("latest moved to the repro's run")
if not bad:
    shutil.rmtree(root)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
