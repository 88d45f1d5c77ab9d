#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""images/cloud/seed.sh makes a NoCloud seed (an ISO 9660 'cidata' disk
from cloud-localds) whose user-data is cloud-config YAML that authorises
the client key for root, carries the host key and guestd byte for byte,
and enables guestd's systemd unit; and it refuses a client key file that
is no public key. TAP on stdout; 77 without cloud-localds or isoinfo.

usage: test-seed.py SEED_SH GUESTD"""
import base64, gzip, hashlib, os, shutil, subprocess, sys, tempfile

seed_sh, guestd = sys.argv[1], sys.argv[2]
for tool in ("cloud-localds", "isoinfo", "dropbearkey"):
    if not shutil.which(tool):
        print("1..0 # SKIP %s is not installed" % tool)
        sys.exit(77)
import yaml

n = 0
bad = 0
def ok(cond, what):
    global n, bad
    n += 1
    bad += 0 if cond else 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))

work = tempfile.mkdtemp(prefix="vlalab-test-seed-")
client = os.path.join(work, "client.pub")
open(client, "w").write("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHZsYWxhYnZsYWxhYnZsYWxhYnZsYWxhYnZsYWxhYnZs test\n")
hostkey = os.path.join(work, "host")
subprocess.run(["dropbearkey", "-t", "ed25519", "-f", hostkey], check=True,
               capture_output=True)
out = os.path.join(work, "seed.img")
p = subprocess.run([seed_sh, out, guestd, client, hostkey], capture_output=True, text=True)
ok(p.returncode == 0, "seed.sh makes a seed (%s)" % p.stderr.strip())
label = subprocess.run(["isoinfo", "-d", "-i", out], capture_output=True, text=True).stdout
ok("Volume id: cidata" in label, "the disk is labelled cidata, as NoCloud looks for")
def member(name):
    return subprocess.run(["isoinfo", "-i", out, "-R", "-x", "/" + name],
                          capture_output=True).stdout
ud = member("user-data")
ok(ud.startswith(b"#cloud-config\n"), "user-data is cloud-config")
try:
    cfg = yaml.safe_load(ud)
except yaml.YAMLError as e:
    cfg = {}
    print("# %s" % e)
ok(isinstance(cfg, dict) and cfg.get("ssh_pwauth") is False, "YAML, no password login")
files = {f["path"]: f for f in (cfg or {}).get("write_files", [])}
ak = files.get("/root/.ssh/authorized_keys", {})
ok(ak.get("content", "").strip() == open(client).read().strip(),
   "root's authorized_keys is the client key")
gd = files.get("/usr/local/sbin/guestd", {})
got = gzip.decompress(base64.b64decode(gd.get("content", ""))) if gd.get("encoding") == "gz+b64" else b""
stripped = os.path.join(work, "guestd")
subprocess.run(["strip", "--strip-debug", "-o", stripped, guestd], check=True)
want = open(stripped, "rb").read()
ok(hashlib.sha256(got).digest() == hashlib.sha256(want).digest()
   and gd.get("permissions") == "0755",
   "guestd is carried byte for byte without its debug information, executable")
# Small: guestd without its debug information, compressed, and little
# else (the keys, the unit, a few lines of config). Bounded by what the
# binary itself takes, since an ASan build's guestd is four times larger.
carried = len(gd.get("content", ""))
ok(len(want) < os.path.getsize(guestd) and len(ud) < carried + 16 * 1024,
   "so the user-data stays small (%d bytes, %d of them guestd's)" %
   (len(ud), carried))
hk = files.get("/etc/dropbear/dropbear_ed25519_host_key", {})
ok(base64.b64decode(hk.get("content", "")) == open(hostkey, "rb").read(),
   "the pinned host key is carried")
unit = files.get("/etc/systemd/system/vlalab-guestd.service", {}).get("content", "")
ok("ExecStart=/usr/local/sbin/guestd" in unit and
   ["systemctl", "enable", "--now", "--no-block", "vlalab-guestd.service"] in cfg.get("bootcmd", []),
   "guestd's unit is written, enabled and started without waiting")
mods = cfg.get("cloud_init_modules", [])
ok("write-files" in mods and "bootcmd" in mods and
   mods.index("write-files") < mods.index("bootcmd") and "mounts" in mods,
   "the init stage writes the files, mounts the modules, then starts guestd")
slow = {"ssh", "locale", "users-groups", "apt-configure", "grub-dpkg", "keys-to-console", "growpart"}
ran = set(mods) | set(cfg.get("cloud_config_modules", [None])) | set(cfg.get("cloud_final_modules", [None]))
ok(not (ran & slow) and None not in ran,
   "every stage's modules are listed, none of the slow ones (%s)" % sorted(ran & slow))
md = member("meta-data").decode()
ok("instance-id: vlalab-" in md, "meta-data has an instance id")
# A client key file that is no public key is refused, and says so.
open(client, "w").write("-----BEGIN OPENSSH PRIVATE KEY-----\n")
p = subprocess.run([seed_sh, out + "2", guestd, client, hostkey], capture_output=True, text=True)
ok(p.returncode != 0 and "not an OpenSSH public key" in p.stderr and not os.path.exists(out + "2"),
   "a private key as client key is refused")
shutil.rmtree(work)
print("1..%d" % n)
sys.exit(1 if bad else 0)
