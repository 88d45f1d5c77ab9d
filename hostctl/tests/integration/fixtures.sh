#!/bin/sh
# Integration: the selftest fixtures. expect-wrong fails with expected vs
# got in summary.json; crash (sysrq c) is a crash with the console attached;
# the scenarios after it run on a fresh VM and pass; nic-eth0 shows the
# domain's virtio-net NIC is eth0 in the guest; bridge-steps runs guestd's
# netlink steps against dsa_loop.
set -eu
out=$(mktemp -d /tmp/hostctl-it-fixtures-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" \
	--scenarios "$SRCDIR/hostctl/tests/scenarios-fixtures" all > "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 1 ]; then
	echo "# hostctl run exited $rc, want 1 (a fail and a crash)"
	exit 1
fi
python3 - "$out/run" <<'PY'
import json, os, sys
run = sys.argv[1]
s = json.load(open(os.path.join(run, "summary.json")))
by = {sc["name"]: sc for sc in s["scenarios"]}
bad = []
def want(name, verdict):
    sc = by.get(name)
    if not sc:
        bad.append("%s did not run" % name)
        return None
    if sc["verdict"] != verdict:
        bad.append("%s: %s, want %s: %s" % (name, sc["verdict"], verdict, sc["reason"]))
    return sc
sc = want("selftest/expect-wrong", "fail")
if sc:
    st = [x for x in sc["steps"] if x["verdict"] == "fail"]
    if not st or "NotLinux" not in st[0]["expected"] or "Linux" not in st[0]["got"]:
        bad.append("expect-wrong: no expected-vs-got in %r" % sc["steps"])
sc = want("selftest/crash", "crash")
if sc and "console" not in sc["reason"]:
    bad.append("crash: no console tail in the reason: %r" % sc["reason"])
want("selftest/recover-after-crash", "pass")
want("selftest/trivial-read", "pass")
want("selftest/nic-eth0", "pass")
want("selftest/bridge-steps", "pass")
# Runs go in name order: bridge-steps, crash, expect-wrong, nic-eth0,
# recover-after-crash, trivial-read. The scenarios after the crash ran on a fresh VM.
order = [sc["name"] for sc in s["scenarios"]]
if ("selftest/crash" in order and "selftest/recover-after-crash" in order and
        order.index("selftest/crash") > order.index("selftest/recover-after-crash")):
    bad.append("recover-after-crash ran before the crash: %r" % order)
if not os.path.exists(os.path.join(run, "console-vm2.log")):
    bad.append("no second VM (console-vm2.log) after the crash")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
