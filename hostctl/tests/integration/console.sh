#!/bin/sh
# Integration: hostctl console (docs/repro.md). `hostctl repro --no-shell`
# keeps ftrace/cached-filter's VM; `hostctl console VM` runs in a
# pseudo-terminal, a line written to /dev/kmsg through `hostctl exec`
# shows on it, a second attacher is turned away while the first is
# attached, ^] detaches cleanly (exit 0, the terminal restored), and the
# run's console log got the same line meanwhile (the run owns the stream).
set -eu
exec python3 - "$HOSTCTL" "$(dirname "$0")" <<'PY'
import json, os, pty, re, select, subprocess, sys, termios, time

hostctl = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from repro_vm import CACHE as cache, fail, hold, done
rp, dom = hold(hostctl, 2)

def read_until(fd, pat, secs):
    """What @fd (a pty master) says until @pat matches or @secs pass."""
    got, end = b"", time.time() + secs
    while time.time() < end and not re.search(pat, got):
        r, _, _ = select.select([fd], [], [], end - time.time())
        if not r:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    return got

pid, fd = pty.fork()
if pid == 0:
    os.execv(hostctl, [hostctl, "console", dom])
got = read_until(fd, rb"\^\] detaches", 30)
print("# attach: %r" % got[-200:])
if b"attached to" not in got:
    fail("hostctl console did not attach")
# The client's terminal is raw while attached.
if termios.tcgetattr(fd)[3] & termios.ICANON:
    fail("the terminal is not raw while attached")

# A second user is turned away.
p = subprocess.run([hostctl, "console", dom], stdin=subprocess.DEVNULL,
                   capture_output=True, timeout=60)
print("# second attacher: rc %d, %r" % (p.returncode, p.stdout + p.stderr))
if p.returncode == 0 or b"another user is attached" not in p.stderr:
    fail("a second attacher was not turned away")

mark = "vlalab-console-%d" % os.getpid()
p = subprocess.run([hostctl, "exec", dom, "--", "sh", "-c",
                    "echo %s > /dev/kmsg" % mark],
                   capture_output=True, timeout=300)
if p.returncode != 0:
    fail("exec failed: %r" % p.stderr)
got = read_until(fd, mark.encode(), 60)
print("# console: %r" % got[-200:])
if mark.encode() not in got:
    fail("the kmsg line never showed on the console")

# Typed input reaches the console (the getty-less guest echoes nothing,
# but the stream must take it), then ^] detaches.
os.write(fd, b"\r\x1d")
got = read_until(fd, rb"detached|went away", 30)
print("# detach: %r" % got[-200:])
_, status = os.waitpid(pid, 0)
rc = os.waitstatus_to_exitcode(status)
if rc != 0 or b"detached" not in got:
    fail("^] did not detach cleanly: exit %d" % rc)
os.close(fd)

# The run's own log has the line too: it kept writing while attached.
state = json.load(open(os.path.join(cache, "vms", dom + ".json")))
log = os.path.join(state["run_dir"], "console-%s.log" % state["label"])

rp.stdin.write(b"\n")
rp.stdin.close()
sys.stdout.write(rp.stdout.read().decode(errors="replace"))
rc = rp.wait(timeout=300)
print("# repro exited %d" % rc)
if not os.path.exists(log):
    fail("no console log %s" % log)
elif mark.encode() not in open(log, "rb").read():
    fail("%s lacks the line shown to the attached user" % log)
else:
    print("# %s has the line too" % log)
done()
PY
