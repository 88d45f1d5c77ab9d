# SPDX-License-Identifier: GPL-2.0-only
"""What the tests that reach a live VM share (ssh.sh, console.sh): a VM
held by `hostctl repro --no-shell`, and the tests' verdict lines."""
import os, re, select, subprocess, sys, time

CACHE = os.environ.get("VLALAB_CACHE") or os.path.expanduser("~/.cache/vlalab")
bad = []


def fail(msg):
    print("# " + msg)
    bad.append(msg)


def hold(hostctl, until_step):
    """Start repro on ftrace/cached-filter up to @until_step; return the
    process and the VM's domain once repro says it is up, or exit 1. The
    bound only turns a broken hostctl into a failure rather than a hang."""
    rp = subprocess.Popen([hostctl, "repro", "--no-shell", "--until-step",
                           str(until_step), "ftrace/cached-filter"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    seen, deadline, dom = b"", time.time() + 900, None
    while time.time() < deadline and dom is None:
        r, _, _ = select.select([rp.stdout], [], [], deadline - time.time())
        if not r:
            break
        chunk = os.read(rp.stdout.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
        m = re.search(rb"\) is up: 'hostctl shell (\S+)'", seen)
        if m:
            dom = m.group(1).decode()
    sys.stdout.write(seen.decode(errors="replace"))
    if dom is None:
        fail("hostctl repro --no-shell never said the VM was up")
        rp.kill()
        sys.exit(1)
    return rp, dom


def done():
    for b in bad:
        print("# " + b)
    sys.exit(1 if bad else 0)
