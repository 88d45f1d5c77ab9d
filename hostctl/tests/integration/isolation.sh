#!/bin/sh
# Integration: a guest is reused only after a clean pass (issue 11, "no
# cascades"). a-dirty-pass leaves a marker in /run and passes, so
# b-sees-dirt runs on the same VM and finds it; c-dirty-fail leaves one
# and fails, so d-needs-clean runs on a fresh VM and finds none;
# e-fresh asks for a fresh VM (fresh_vm) and finds none either, although
# d passed and left a marker. summary.json names each scenario's VM and
# why it was a fresh one.
set -eu
out=$(mktemp -d /tmp/hostctl-it-isolation-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" \
	--scenarios "$SRCDIR/hostctl/tests/isolation-fixtures" all > "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
python3 - "$out/run" "$rc" <<'PY'
import json, os, sys
run, rc = sys.argv[1], int(sys.argv[2])
s = json.load(open(os.path.join(run, "summary.json")))
by = {sc["name"]: sc for sc in s["scenarios"]}
want = [
    ("isolation/a-dirty-pass", "pass", "vm1", "the run's first VM"),
    ("isolation/b-sees-dirt", "pass", "vm1", None),
    ("isolation/c-dirty-fail", "fail", "vm1", None),
    ("isolation/d-needs-clean", "pass", "vm2",
     "after isolation/c-dirty-fail: fail"),
    ("isolation/e-fresh", "pass", "vm3",
     "isolation/e-fresh asks for a fresh VM"),
]
bad = []
if rc != 1:
    bad.append("hostctl run exited %d, want 1 (c-dirty-fail fails)" % rc)
for name, verdict, vm, fresh in want:
    sc = by.get(name)
    if not sc:
        bad.append("%s did not run" % name)
        continue
    got = (sc["verdict"], sc.get("vm"), sc.get("fresh_vm"))
    if got != (verdict, vm, fresh):
        bad.append("%s: got %r, want %r (%s)" % (name, got, (verdict, vm, fresh),
                                                sc["reason"]))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
