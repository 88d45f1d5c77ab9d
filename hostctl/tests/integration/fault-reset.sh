#!/bin/sh
# Integration: a scenario killed while a fault step's failslab is live
# (fault-fixtures/fault/a-*, a scenario timeout during the armed step)
# must not leave it armed: the next scenario in the same boot (b-*) finds
# failslab and fail_page_alloc at the kernel's defaults and no task marked.
# Without guestd's runner reset, b-* reads probability 100 and fails.
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
b = by.get("fault/b-inherits-nothing")
if not a or a["verdict"] != "timeout":
    bad.append("a-killed-while-armed: %r, want timeout" % (a and a["verdict"]))
elif "step 2 (sleep)" not in a["reason"]:
    bad.append("a-killed-while-armed: not killed in the armed step: %s" % a["reason"])
if not b or b["verdict"] != "pass":
    bad.append("b-inherits-nothing: %r, want pass: %s" % (b and b["verdict"], b and b["reason"]))
for x in bad:
    print("# " + x)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
