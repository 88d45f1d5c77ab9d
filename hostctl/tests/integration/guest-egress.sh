#!/bin/sh
# Integration: the guest reaches no network (issue 28). A listener on the
# host's 127.0.0.1 waits; egress/no-nic, on a VM without a NIC (the
# default), finds no eth0 to configure and fails to connect to its own
# 127.0.0.1, to 10.0.2.2 (what QEMU's user network maps to the host's
# 127.0.0.1) and to 192.0.2.1 (TEST-NET-1, the outside); egress/nic, on a
# VM with the NIC of "nic": true, configures eth0 as a hostile guest would
# (10.0.2.15/24, default via 10.0.2.2) and fails the same connects:
# that NIC's backend reaches nothing. The listener must have had no
# connection. dsa/load, with the NIC as dsa_loop's master, still passes,
# and the run switches VMs where the NIC differs.
set -eu
out=$(mktemp -d /tmp/hostctl-it-egress-XXXXXX)
exec python3 - "$HOSTCTL" "$SRCDIR" "$out" <<'PY'
import json, os, shutil, socket, subprocess, sys
hostctl, src, out = sys.argv[1:4]

# The host's listener: whatever reaches it queues in its backlog, so a
# non-blocking accept() after the run sees any connection that was made.
lis = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
lis.bind(("127.0.0.1", 0))
lis.listen(16)
lis.setblocking(False)
port = lis.getsockname()[1]

def connects(addr, port, within=5000):
    return {"kind": "connect", "name": "no TCP connect to %s port %d" % (addr, port),
            "addr": addr, "port": port, "expect": "fail", "within_ms": within}

tries = [connects("127.0.0.1", port), connects("10.0.2.2", port),
         connects("192.0.2.1", 80)]
config = {"kind": "addr_add", "dev": "eth0", "addr": "10.0.2.15/24",
          "gateway": "10.0.2.2"}
scen = os.path.join(out, "scenarios")
os.makedirs(os.path.join(scen, "egress"))
os.makedirs(os.path.join(scen, "dsa"))
with open(os.path.join(scen, "egress", "no-nic.json"), "w") as f:
    json.dump({"description": "a VM without a NIC reaches nothing",
               "seed": "none", "step_timeout_ms": 20000,
               "steps": [dict(config, name="there is no eth0 to configure",
                              expect_errno="ENODEV")] + tries}, f)
with open(os.path.join(scen, "egress", "nic.json"), "w") as f:
    json.dump({"description": "the NIC of \"nic\": true reaches nothing",
               "seed": "none", "nic": True, "step_timeout_ms": 20000,
               "steps": [dict(config, name="configure eth0 as a hostile guest would")]
               + tries}, f)
shutil.copy(os.path.join(src, "scenarios", "dsa", "load.json"),
            os.path.join(scen, "dsa", "load.json"))

run = os.path.join(out, "run")
p = subprocess.run([hostctl, "run", "--format", "ktap", "--output", run,
                    "--scenarios", scen, "all"], capture_output=True, text=True)
sys.stdout.write(p.stdout)
sys.stderr.write(p.stderr)
print("# run directory: %s" % run)
bad = []
got = 0
while True:
    try:
        c, peer = lis.accept()
    except BlockingIOError:
        break
    got += 1
    c.close()
if got:
    bad.append("the host's listener on 127.0.0.1 port %d had %d connection(s) from the guest" % (port, got))
if p.returncode != 0:
    bad.append("hostctl run exited %d, want 0" % p.returncode)
try:
    s = json.load(open(os.path.join(run, "summary.json")))
except (OSError, ValueError) as e:
    s = {"scenarios": []}
    bad.append("no summary.json: %s" % e)
by = {sc["name"]: sc for sc in s["scenarios"]}
for name in ("egress/no-nic", "egress/nic", "dsa/load"):
    sc = by.get(name)
    if not sc:
        bad.append("%s did not run" % name)
        continue
    if sc["verdict"] != "pass":
        bad.append("%s: %s: %s" % (name, sc["verdict"], sc["reason"]))
    for st in sc["steps"]:
        print("# %s: %s: %s (%s)" % (name, st["name"], st["verdict"], st.get("got") or ""))
        # A cleanup step guarded by if_exists skips when nothing is left.
        if st["verdict"] != "pass" and not (st.get("cleanup") and st["verdict"] == "skip"):
            bad.append("%s: step '%s': %s: expected %s, got %s" % (
                name, st["name"], st["verdict"], st.get("expected"), st.get("got")))
vm = {n: by[n].get("vm") for n in by}
if by.get("egress/nic") and by.get("egress/no-nic") and vm.get("egress/nic") == vm.get("egress/no-nic"):
    bad.append("egress/nic and egress/no-nic ran on one VM (%s)" % vm.get("egress/nic"))
if by.get("egress/nic") and by.get("dsa/load") and vm.get("egress/nic") != vm.get("dsa/load"):
    bad.append("dsa/load and egress/nic, both with a NIC, did not share a VM: %r" % vm)
for b in bad:
    print("# FAIL: %s" % b)
sys.exit(1 if bad else 0)
PY
