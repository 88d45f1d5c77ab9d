#!/bin/sh
# Integration: the SSH port (docs/repro.md). `hostctl repro --no-shell`
# keeps ftrace/cached-filter's VM after step 4; then `hostctl exec` returns
# the guest command's exit status with stdout and stderr apart, `hostctl
# pull` fetches a file whose SHA-256 matches the guest's own sha256sum
# (mode 0644 less the umask), the client key and the VM's SSH and console
# sockets are root's alone (0600, in folders of mode 0700),
# `hostctl push` sends one whose SHA-256 the guest agrees with, an exec
# into the VM while another session holds it fails at once naming the
# holder (and the next one after it is served), `hostctl ls` says the
# scenario and step the VM is at, a state file that pins another host
# key is refused with a clear error, and a line on repro's stdin tears
# the VM down with no QEMU left.
set -eu
exec python3 - "$HOSTCTL" "$(dirname "$0")" <<'PY'
import json, os, re, subprocess, sys, tempfile, hashlib

hostctl = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from repro_vm import CACHE as cache, fail, hold, done
out = tempfile.mkdtemp(prefix="hostctl-it-ssh-")
rp, dom = hold(hostctl, 4)

# Modes: the keys and the sockets (root logins) root's alone; a pulled
# file as the user expects (0644 under umask 022).
for path, want in ((os.path.join(cache, "ssh"), 0o700),
                   (os.path.join(cache, "ssh", "client_ed25519"), 0o600),
                   (os.path.join(cache, "vms"), 0o700),
                   (os.path.join(cache, "vms", dom + ".ssh"), 0o600),
                   (os.path.join(cache, "vms", dom + ".con"), 0o600)):
    mode = os.stat(path).st_mode & 0o7777
    print("# mode %04o %s" % (mode, path))
    if mode != want:
        fail("'%s' is mode %04o, want %04o" % (path, mode, want))

def run(*args):
    return subprocess.run([hostctl] + list(args), capture_output=True, timeout=300)

# exec: the status, stdout and stderr apart.
p = run("exec", dom, "--", "sh", "-c", "echo to-out; echo to-err >&2; exit 7")
print("# exec: rc %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr))
if p.returncode != 7:
    fail("exec exit status %d, want 7" % p.returncode)
if p.stdout != b"to-out\n" or p.stderr != b"to-err\n":
    fail("exec mixed or lost its streams")
# The argument is passed as is, quotes and all.
p = run("exec", dom, "--", "printf", "%s|", "a b", "it's")
if p.stdout != b"a b|it's|":
    fail("exec quoting: got %r" % p.stdout)
# The state the steps left is there: step 4 cached the filter.
p = run("exec", dom, "--", "cat", "/sys/kernel/tracing/set_ftrace_filter")
if b"*:mod:trace_printk" not in p.stdout:
    fail("the filter step 4 wrote is not there: %r" % p.stdout)

# pull: the same bytes as the guest's own sha256sum says.
dest = os.path.join(out, "busybox")
p = run("pull", dom, "/bin/busybox", dest)
if p.returncode != 0:
    fail("pull failed: %s" % p.stderr.decode(errors="replace"))
else:
    if os.stat(dest).st_mode & 0o7777 != 0o644 & ~os.umask(os.umask(0)):
        fail("pulled file is mode %04o" % (os.stat(dest).st_mode & 0o7777))
    local = hashlib.sha256(open(dest, "rb").read()).hexdigest()
    g = run("exec", dom, "--", "sha256sum", "/bin/busybox").stdout.split()
    print("# pull: local %s, guest %s" % (local, g[0].decode() if g else "?"))
    if not g or g[0].decode() != local:
        fail("pulled file's SHA-256 differs from the guest's")
p = run("pull", dom, "/no/such/file", os.path.join(out, "x"))
if p.returncode == 0 or b"no such file" not in p.stderr:
    fail("pull of a missing file: rc %d, %r" % (p.returncode, p.stderr))

# push: a file of the host's lands in the guest with the same SHA-256.
src = os.path.join(out, "push-src")
with open(src, "wb") as f:
    f.write(os.urandom(200000) + b"vlalab push\n")
local = hashlib.sha256(open(src, "rb").read()).hexdigest()
p = run("push", src, dom + ":/tmp/pushed")
if p.returncode != 0:
    fail("push failed: %s" % p.stderr.decode(errors="replace"))
g = run("exec", dom, "--", "sha256sum", "/tmp/pushed").stdout.split()
print("# push: local %s, guest %s" % (local, g[0].decode() if g else "?"))
if not g or g[0].decode() != local:
    fail("pushed file's SHA-256 differs in the guest")
# Over an existing file, and a missing folder refused clearly.
p = run("push", src, dom + ":/tmp/pushed")
if p.returncode != 0:
    fail("push over an existing file failed: %r" % p.stderr)
p = run("push", src, dom + ":/no/such/dir/x")
print("# push to a missing folder: rc %d, %r" % (p.returncode, p.stderr))
if p.returncode == 0 or b"no such folder" not in p.stderr:
    fail("push to a missing folder: rc %d, %r" % (p.returncode, p.stderr))

# Held: while one session holds the VM (the port takes one connection
# at a time), a second exec says who holds it, at once and with a
# non-zero exit, instead of waiting unseen in the socket's backlog; ls
# still answers; the next exec after the holder ends is served.
holder = subprocess.Popen([hostctl, "exec", dom, "--", "sh", "-c",
                           "echo held; sleep 120"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
line = holder.stdout.readline()
if line != b"held\n":
    fail("the holding exec said %r" % line)
try:
    p = subprocess.run([hostctl, "exec", dom, "--", "uname", "-a"],
                       capture_output=True, timeout=20)
    print("# exec while held: rc %d, %r" % (p.returncode, p.stderr))
    want = ("hostctl exec: VM '%s' is in use by another SSH session "
            "(hostctl exec, pid %d); try again when it ends\n"
            % (dom, holder.pid)).encode()
    if p.returncode == 0 or p.stdout or p.stderr != want:
        fail("exec into a held VM: rc %d, %r, want %r"
             % (p.returncode, p.stderr, want))
except subprocess.TimeoutExpired:
    fail("exec into a held VM blocked for 20 s without a word")
p = subprocess.run([hostctl, "ls"], capture_output=True, timeout=20)
if p.returncode != 0 or dom.encode() not in p.stdout:
    fail("ls while the VM is held: rc %d, %r" % (p.returncode, p.stdout))
holder.terminate()
holder.wait(timeout=60)
p = run("exec", dom, "--", "echo", "free")
if p.returncode != 0 or p.stdout != b"free\n":
    fail("exec once the holder ended: rc %d, %r" % (p.returncode, p.stderr))

# ls: the VM, with the scenario and the step it stopped at.
p = run("ls")
print("# ls:\n" + p.stdout.decode(errors="replace"))
row = [l for l in p.stdout.decode().splitlines() if dom in l]
if not row or not re.search(r"ftrace/cached-filter\s+4/4\s", row[0]):
    fail("hostctl ls does not say ftrace/cached-filter at step 4/4")

# A wrong pinned host key: a state file for the same socket that pins
# another key is refused, and says so.
state = json.load(open(os.path.join(cache, "vms", dom + ".json")))
wrong = os.path.join(out, "wrong")
subprocess.run(["dropbearkey", "-t", "ed25519", "-f", wrong], check=True,
               capture_output=True)
pub = subprocess.run(["dropbearkey", "-y", "-f", wrong], check=True,
                     capture_output=True).stdout.decode()
line = [l for l in pub.splitlines() if l.startswith("ssh-ed25519 ")][0]
open(wrong + ".pub", "w").write(line + "\n")
fake = dict(state, domain=dom + "-wrongkey", label="wrongkey",
            host_key=wrong + ".pub")
fake_path = os.path.join(cache, "vms", fake["domain"] + ".json")
json.dump(fake, open(fake_path, "w"))
try:
    p = run("exec", fake["domain"], "--", "true")
finally:
    os.unlink(fake_path)
print("# wrong key: rc %d, %r" % (p.returncode, p.stderr))
if p.returncode == 0 or b"is not the one pinned" not in p.stderr:
    fail("a wrong pinned host key was not refused clearly")
# And the right one still works after the refusal.
if run("exec", dom, "--", "true").returncode != 0:
    fail("exec after the refused connection failed")

# A connection dropped without a word, the next one at once: the guest's
# relay must see where the next one starts even when its port never says
# the first one hung up, and hostctl must skip what the first one's
# dropbear still sends (common/proto.h, guestd/sshport.c). Without that,
# the next handshake times out or reads a stale banner.
import socket
sockpath = state["socket"]
for i in range(5):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sockpath)
    s.sendall(b"VLALAB-SSH-1\n" + os.urandom(8).hex().encode() + b"\n"
              + b"SSH-2.0-vlalab-test\r\n")
    s.settimeout(60)
    got = b""
    while b"SSH-2.0-" not in got:
        more = s.recv(256)
        if not more:
            break
        got += more
    s.close()
    p = run("exec", dom, "--", "echo", "again")
    if p.returncode != 0 or p.stdout != b"again\n":
        fail("exec %d right after a dropped connection (got %r): rc %d, %r"
             % (i, got, p.returncode, p.stderr))
        break
print("# 5 connections dropped mid-handshake, each next one served")

# A line on stdin: teardown, the state file gone, no QEMU of it left.
rp.stdin.write(b"\n")
rp.stdin.close()
rest = rp.stdout.read()
sys.stdout.write(rest.decode(errors="replace"))
rc = rp.wait(timeout=300)
print("# repro exited %d" % rc)
if os.path.exists(os.path.join(cache, "vms", dom + ".json")):
    fail("the VM's state file outlived it")
ps = subprocess.run(["ps", "-eo", "args"], capture_output=True).stdout.decode()
if dom in ps:
    fail("a process still names %s" % dom)
done()
PY
