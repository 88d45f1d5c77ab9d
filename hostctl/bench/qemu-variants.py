#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where libvirt's boot time goes (docs/performance.md, "Boot parity"):
boot QEMU by hand with libvirt's command line (from a domain log of the
embedded root, <root>/log/qemu/<domain>.log, as libvirt 9.0 generates it
for hostctl's domain XML), with one part of it left out at a time, and
with bench's raw command line (hostctl/vm/rawqemu.c), in a shuffled
order each round so that the load weighs on all alike; print each
variant's exec -> guestd hello (median, min, max). QEMU runs as the
vlalab user, as libvirt's does; the console and guestd's port are
socket pairs this script holds. -S and the QMP handshake are not
replayed: they are the create call's, which bench measures.

usage: qemu-variants.py BZIMAGE INITRAMFS ROUNDS [VARIANT...]
"""
import os, socket, subprocess, sys, time, select, random, json, statistics, pwd
K = sys.argv[1]; I = sys.argv[2]; N = int(sys.argv[3]); only = sys.argv[4:]
FW = "/usr/share/qemu/qboot.rom"
APPEND = "console=ttyS0 panic=-1 rdinit=/init quiet loglevel=5"
def base(machine="q35"):
    return ["qemu-system-x86_64", "-name", "vlalab-raw", "-machine", machine, "-accel", "tcg",
            "-cpu", "qemu64", "-m", "512", "-smp", "1", "-nodefaults", "-no-user-config",
            "-display", "none", "-bios", FW, "-kernel", K, "-initrd", I, "-append", APPEND]
CON = ["-chardev", "socket,id=con,fd=3", "-serial", "chardev:con"]
CONPTY = ["-chardev", "pty,id=con", "-device", "isa-serial,chardev=con,id=serial0,index=0"]
VS = ["-device", "virtio-serial-pci,id=vs"]
VSRP = ["-device", "pcie-root-port,port=8,chassis=1,id=pci.1,bus=pcie.0,multifunction=on,addr=0x1",
        "-device", "pcie-root-port,port=9,chassis=2,id=pci.2,bus=pcie.0,addr=0x1.0x1",
        "-device", "virtio-serial-pci,id=vs,bus=pci.1,addr=0x0"]
VSRP1 = ["-device", "pcie-root-port,port=8,chassis=1,id=pci.1,bus=pcie.0,addr=0x1",
        "-device", "virtio-serial-pci,id=vs,bus=pci.1,addr=0x0"]
CHAN = ["-chardev", "socket,id=chan,fd=4", "-device", "virtserialport,bus=vs.0,nr=1,chardev=chan,name=org.vlalab.guestd.0"]
MON = ["-chardev", "socket,id=charmonitor,fd=5,server=on,wait=off", "-mon", "chardev=charmonitor,id=monitor,mode=control"]
MISC = ["-overcommit", "mem-lock=off", "-rtc", "base=utc", "-no-shutdown", "-boot", "strict=on",
        "-audiodev", "id=audio1,driver=none", "-msg", "timestamp=on"]
MEMB = ["-object", "memory-backend-ram,id=pc.ram,size=536870912"]
VMCI = ["-device", "vmcoreinfo"]
SANDBOX = ["-sandbox", "on,obsolete=deny,elevateprivileges=deny,spawn=deny,resourcecontrol=deny"]
PANIC = ["-device", "pvpanic,ioport=1285"]
def libvirt(drop=(), machine="q35"):
    b = base(machine)
    if "membackend" not in drop:
        b[b.index("-machine")+1] = machine + ",usb=off,dump-guest-core=off,memory-backend=pc.ram"
        b += MEMB
    a = b + (MON if "mon" not in drop else [])
    a += MISC if "misc" not in drop else []
    a += (VS if machine == "pc" or "rootport" in drop else (VSRP1 if "rootport2" in drop else VSRP))
    a += CONPTY if "pty" not in drop else CON
    a += CHAN
    a += VMCI if "vmcoreinfo" not in drop else []
    a += SANDBOX if "sandbox" not in drop else []
    a += PANIC if "pvpanic" not in drop else []
    return a
V = {
 "raw": base() + CON + VS + CHAN,
 "raw+rootports": base() + CON + VSRP + CHAN,
 "libvirt": libvirt(),
 "lv-rootports": libvirt(["rootport"]),
 "lv-spare-rootport": libvirt(["rootport2"]),
 "lv-pvpanic": libvirt(["pvpanic"]),
 "lv-vmcoreinfo": libvirt(["vmcoreinfo"]),
 "lv-sandbox": libvirt(["sandbox"]),
 "lv-pty": libvirt(["pty"]),
 "lv-mon": libvirt(["mon"]),
 "lv-misc+membackend": libvirt(["misc", "membackend"]),
 "raw-pc": base("pc") + CON + VS + CHAN,
 "libvirt-pc": libvirt(machine="pc"),
}
for d in ("pvpanic", "vmcoreinfo", "sandbox", "pty", "mon"):
    V["pc-lv-" + d] = libvirt([d], machine="pc")
V["pc-lv-misc+membackend"] = libvirt(["misc", "membackend"], machine="pc")
pw = pwd.getpwnam("vlalab")
def demote():
    os.initgroups("vlalab", pw.pw_gid); os.setgid(pw.pw_gid); os.setuid(pw.pw_uid)
def boot(argv):
    con = socket.socketpair(); chan = socket.socketpair()
    mon = socket.socket(socket.AF_UNIX); mon.bind("\0i32mon%d" % os.getpid()); mon.listen(1)
    fds = {3: con[1].fileno(), 4: chan[1].fileno(), 5: mon.fileno()}
    def pre():
        for t, f in fds.items():
            os.dup2(f, t + 100)
        for t in fds:
            os.dup2(t + 100, t); os.set_inheritable(t, True)
        demote()
    t0 = time.monotonic()
    p = subprocess.Popen(argv, preexec_fn=pre, pass_fds=(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, close_fds=False, start_new_session=True)
    con[1].close(); chan[1].close()
    buf = b""; res = None
    while time.monotonic() - t0 < 120:
        r, _, _ = select.select([chan[0], con[0]], [], [], 1)
        if con[0] in r:
            con[0].recv(65536)
        if chan[0] in r:
            d = chan[0].recv(65536)
            if not d: break
            buf += d
            done = False
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    ev = json.loads(line)
                except Exception:
                    continue
                if ev.get("type") == "hello":
                    res = time.monotonic() - t0
                    done = True; break
            if done: break
    p.kill(); err = p.communicate()[1]
    mon.close(); con[0].close(); chan[0].close()
    if res is None: print("FAIL", argv, err.decode()[-500:], file=sys.stderr)
    return res
names = only or list(V)
res = {n: [] for n in names}
for r in range(N):
    order = names[:]; random.shuffle(order)
    for n in order:
        t = boot(V[n])
        if t: res[n].append(t)
    print("round", r + 1, os.getloadavg()[0], file=sys.stderr, flush=True)
print("load %.2f" % os.getloadavg()[0])
for n in names:
    v = res[n]
    if v: print("%-22s median %6.0f ms  min %6.0f  max %6.0f  n=%d" % (n, statistics.median(v)*1000, min(v)*1000, max(v)*1000, len(v)))
