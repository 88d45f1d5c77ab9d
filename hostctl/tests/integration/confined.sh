#!/bin/sh
# Integration: QEMU confined when hostctl runs as root (docs/architecture.md,
# "QEMU's user"). `hostctl repro --no-shell` holds ftrace/cached-filter's VM
# after step 1 (a run as any other, held as long as the test needs, so no
# sleep guesses when to look); its QEMU, found by the VM's name in its
# command line (the domain's, or for a restored VM its SSH socket's), must run as a user that is not root, in a seccomp filter
# (/proc/PID/status "Seccomp: 2"), without capabilities. From that user's
# credentials (uid, gid and groups, as QEMU has them), the kernel it booted
# must be readable (the check can read at all) and the cache's SSH private
# key must not. Not root: nothing to check, exit 77.
set -eu
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP hostctl confines QEMU only when it runs as root; QEMU already runs as $(id -un)"
	exit 77
fi
exec python3 - "$HOSTCTL" "$(dirname "$0")" <<'PY'
import os, subprocess, sys

hostctl = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from repro_vm import CACHE as cache, fail, hold, done

rp, dom = hold(hostctl, 1)

# The QEMU of this VM only: other people's QEMUs may run on this machine.
# A VM restored from a saved image keeps the image's domain name
# (vlalab-snap-KEY-N, docs/performance.md), and libvirt hands QEMU its
# sockets as descriptors: the VM's own is the one bound to its SSH socket,
# <cache>/vms/<domain>.ssh, found in /proc/net/unix by its inode.
ssh_inodes = set()
for line in open("/proc/net/unix").read().splitlines()[1:]:
    f = line.split()
    if len(f) >= 8 and f[7].endswith("/%s.ssh" % dom):
        ssh_inodes.add(f[6])
pid, argv = None, None
for d in os.listdir("/proc"):
    if not d.isdigit():
        continue
    try:
        args = open("/proc/%s/cmdline" % d, "rb").read().split(b"\0")
        fds = os.listdir("/proc/%s/fd" % d) if args and \
            b"qemu-system" in args[0] else []
        links = {os.readlink("/proc/%s/fd/%s" % (d, fd)) for fd in fds}
    except OSError:
        continue
    if args and b"qemu-system" in args[0] and (
            any(a.startswith(b"guest=%s," % dom.encode()) for a in args) or
            any("socket:[%s]" % i in links for i in ssh_inodes)):
        pid, argv = int(d), args
        break

if pid is None:
    fail("no QEMU process names the domain %s" % dom)
else:
    status = {}
    for line in open("/proc/%d/status" % pid):
        k, _, v = line.partition(":")
        status[k] = v.strip()
    print("# QEMU %d: Uid %s, Gid %s, Groups %s, Seccomp %s, CapEff %s" %
          (pid, status["Uid"], status["Gid"], status.get("Groups"),
           status.get("Seccomp"), status.get("CapEff")))
    uids = [int(x) for x in status["Uid"].split()]
    gids = [int(x) for x in status["Gid"].split()]
    groups = [int(x) for x in status.get("Groups", "").split()]
    if 0 in uids:
        fail("QEMU runs as root (Uid %s)" % status["Uid"])
    if 0 in gids or 0 in groups:
        fail("QEMU has the group root (Gid %s, Groups %s)" %
             (status["Gid"], status.get("Groups")))
    if status.get("Seccomp") != "2":
        fail("QEMU is not in a seccomp filter (Seccomp: %s, want 2)" %
             status.get("Seccomp"))
    if int(status.get("CapEff", "1"), 16) != 0:
        fail("QEMU has capabilities (CapEff %s)" % status.get("CapEff"))

    def can_read(path):
        """Whether QEMU's credentials can open @path for reading."""
        child = os.fork()
        if child == 0:
            try:
                os.setgroups(groups)
                os.setresgid(gids[0], gids[0], gids[0])
                os.setresuid(uids[0], uids[0], uids[0])
                open(path, "rb").close()
                os._exit(0)
            except PermissionError:
                os._exit(1)
            except BaseException:
                os._exit(2)
        _, st = os.waitpid(child, 0)
        if not os.WIFEXITED(st) or os.WEXITSTATUS(st) == 2:
            fail("the read check of %s could not run" % path)
        return os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0

    kernel = argv[argv.index(b"-kernel") + 1].decode() \
        if b"-kernel" in argv else None
    key = os.path.join(cache, "ssh", "client_ed25519")
    if not kernel or not can_read(kernel):
        fail("QEMU's user cannot read the kernel it booted (%s)" % kernel)
    else:
        print("# QEMU's user reads the kernel %s" % kernel)
    if not os.path.exists(key):
        fail("no SSH private key at %s" % key)
    elif can_read(key):
        fail("QEMU's user can read the cache's SSH private key %s" % key)
    else:
        print("# QEMU's user cannot read %s" % key)

rp.stdin.write(b"\n")
rp.stdin.close()
sys.stdout.write(rp.stdout.read().decode(errors="replace"))
rc = rp.wait(timeout=300)
print("# repro exited %d" % rc)
if rc != 0:
    fail("hostctl repro exited %d" % rc)
done()
PY
