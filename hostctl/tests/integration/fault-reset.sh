#!/bin/sh
# Integration: a fault a scenario leaves armed is put back by guestd's
# runner, however the scenario ended (fault-fixtures/fault/).
# a-killed-while-armed is killed by its timeout while failslab is live;
# its cleanup list runs in the same boot after the runner's reset and
# reads every attribute back at the kernel's defaults, no task marked.
# b-armed-at-end passes with a fault armed for a step that never comes;
# c-inherits-nothing runs on the same VM after it (a pass keeps the VM)
# and finds the defaults too. Without the reset, a's cleanup and c read
# probability 100.
set -eu
out=$(mktemp -d /tmp/hostctl-it-fault-reset-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" \
	--scenarios "$SRCDIR/hostctl/tests/integration/fault-fixtures" 'fault/*' \
	> "$out/ktap" || rc=$?
cat "$out/ktap"
if [ "$rc" -ne 1 ]; then
	echo "# hostctl run exited $rc, want 1 (a timeout)"
	exit 1
fi
python3 - "$out/run" <<'PY'
import json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
by = {sc["name"]: sc for sc in s["scenarios"]}
bad = []
a = by.get("fault/a-killed-while-armed")
b = by.get("fault/b-armed-at-end")
c = by.get("fault/c-inherits-nothing")
if not a or a["verdict"] != "timeout":
    bad.append("a-killed-while-armed: %r, want timeout" % (a and a["verdict"]))
elif "step 3 (sleep)" not in a["reason"]:
    bad.append("a-killed-while-armed: not killed in the armed step: %s" % a["reason"])
elif a.get("cleanup_failed") is not False:
    bad.append("a-killed-while-armed: its cleanup list failed: %s: %s" %
               (a.get("cleanup_step"), a.get("cleanup_reason")))
for name, sc in (("b-armed-at-end", b), ("c-inherits-nothing", c)):
    if not sc or sc["verdict"] != "pass":
        bad.append("%s: %r, want pass: %s" % (name, sc and sc["verdict"], sc and sc["reason"]))
if b and c and (b.get("vm") != c.get("vm") or c.get("fresh_vm") is not None):
    bad.append("c-inherits-nothing did not run on b's VM: %r after %r" %
               ((c.get("vm"), c.get("fresh_vm")), b.get("vm")))
for x in bad:
    print("# " + x)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
