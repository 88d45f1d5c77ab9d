#!/bin/sh
# Integration: the seed-003 scenarios (issue 5) on the patched kernel with
# the ThunderX LMC model: `hostctl run 'edac/*'` runs every file of
# scenarios/edac/ and each one passes, with its steps.
set -eu
out=$(mktemp -d /tmp/hostctl-it-edac-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" 'edac/*' > "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl run 'edac/*' exited $rc, want 0"
	exit 1
fi
python3 - "$out/run" "$SRCDIR/scenarios/edac" <<'PY'
import json, os, sys
run, area = sys.argv[1], sys.argv[2]
s = json.load(open(os.path.join(run, "summary.json")))
want = sorted("edac/" + f[:-5] for f in os.listdir(area) if f.endswith(".json"))
got = sorted(sc["name"] for sc in s["scenarios"])
bad = []
if got != want:
    bad.append("ran %r, want %r" % (got, want))
for sc in s["scenarios"]:
    if sc["verdict"] != "pass":
        bad.append("%s: %s: %s" % (sc["name"], sc["verdict"], sc["reason"]))
    elif not sc["steps"]:
        bad.append("%s: passed without steps" % sc["name"])
    # A scenario with boots has VMs of its own and no cleanup list; every
    # other one unloads what it loaded.
    if sc.get("boots"):
        if "cleanup_failed" in sc:
            bad.append("%s: has boots and a cleanup" % sc["name"])
    elif sc.get("cleanup_failed", True):
        bad.append("%s: cleanup failed, or none: %s" % (sc["name"], sc.get("cleanup_reason")))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
