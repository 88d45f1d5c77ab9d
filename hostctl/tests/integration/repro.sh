#!/bin/sh
# Integration: `hostctl repro ftrace/cached-filter --until-step 4` driven
# through a pseudo-terminal: the steps and verdicts are printed, a shell
# opens in the guest with step 4's cached filter in place, `cat` reads it
# back, `exit` ends the shell, and the VM is torn down cleanly (the run
# directory printed, its state file gone, no QEMU of it left).
# (Step 4 writes the cached '*:mod:trace_printk' entry; after step 2 the
# filter is still empty.)
set -eu
exec python3 - "$HOSTCTL" <<'PY'
import os, pty, re, select, subprocess, sys, time

hostctl = sys.argv[1]
cache = os.environ.get("VLALAB_CACHE") or os.path.expanduser("~/.cache/vlalab")
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
if not expect(rb"results: (\S+)", 600):
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
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
