#!/bin/sh
# Integration: cleanup lists in a real guest (cleanup-fixtures/cleanup/).
# a-fails fails a main step, b-times-out is killed by its timeout: both
# cleanup lists still run, all of their steps (a's guarded rmmod is skip),
# and check their own work. c-clean passes and its cleanup undoes what it
# did, so d-cleanup-fails, next in the same guest (c's marker), finds it
# clean. d passes but its cleanup fails: summary.json and KTAP say which
# step and why, and e-fresh runs on a fresh VM (without it, e finds d's
# leftovers and c's marker, and fails).
set -eu
out=$(mktemp -d /tmp/hostctl-it-cleanup-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" \
	--scenarios "$SRCDIR/hostctl/tests/integration/cleanup-fixtures" 'cleanup/*' \
	> "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 1 ]; then
	echo "# hostctl run exited $rc, want 1 (a fail and a timeout)"
	exit 1
fi
python3 - "$out/run" <<'PY'
import json, os, sys
run = sys.argv[1]
s = json.load(open(os.path.join(run, "summary.json")))
by = {sc["name"]: sc for sc in s["scenarios"]}
bad = []
def want(name, verdict, cleanup_failed):
    sc = by.get(name)
    if not sc:
        bad.append("%s did not run" % name)
        return None
    if sc["verdict"] != verdict:
        bad.append("%s: %s, want %s: %s" % (name, sc["verdict"], verdict, sc["reason"]))
    if cleanup_failed is not None and sc.get("cleanup_failed") != cleanup_failed:
        bad.append("%s: cleanup_failed %r, want %r: %s" % (name, sc.get("cleanup_failed"),
                   cleanup_failed, sc.get("cleanup_reason")))
    return sc
def steps(sc, cleanup):
    return [(x["index"], x["verdict"]) for x in sc["steps"] if x.get("cleanup", False) == cleanup]
sc = want("cleanup/a-fails", "fail", False)
if sc and steps(sc, True) != [(4, "skip"), (5, "pass"), (6, "pass")]:
    bad.append("a-fails: cleanup steps %r, want 4 skip, 5 and 6 pass" % steps(sc, True))
if sc and steps(sc, False) != [(0, "pass"), (1, "pass"), (2, "fail")]:
    bad.append("a-fails: main steps %r" % steps(sc, False))
sc = want("cleanup/b-times-out", "timeout", False)
if sc and steps(sc, True) != [(3, "pass"), (4, "pass")]:
    bad.append("b-times-out: cleanup steps %r" % steps(sc, True))
c = want("cleanup/c-clean", "pass", False)
sc = want("cleanup/d-cleanup-fails", "pass", True)
if sc and (sc.get("cleanup_step") != 3 or "ENOENT" not in sc.get("cleanup_reason", "")):
    bad.append("d-cleanup-fails: cleanup_step %r, reason %r" % (sc.get("cleanup_step"),
               sc.get("cleanup_reason")))
if sc and steps(sc, True) != [(3, "fail"), (4, "pass")]:
    bad.append("d-cleanup-fails: cleanup steps %r" % steps(sc, True))
if sc and c and (sc.get("vm") != c.get("vm") or sc.get("fresh_vm") is not None):
    bad.append("d-cleanup-fails did not reuse c-clean's VM: %r %r" % (sc.get("vm"),
               sc.get("fresh_vm")))
e = want("cleanup/e-fresh", "pass", None)
if e and "cleanup_failed" in e:
    bad.append("e-fresh has no cleanup list, yet says cleanup_failed")
if e and e.get("fresh_vm") != "after cleanup/d-cleanup-fails: its cleanup failed":
    bad.append("e-fresh: fresh_vm %r" % e.get("fresh_vm"))
if e and sc and e.get("vm") == sc.get("vm"):
    bad.append("e-fresh ran on d's VM %r" % e.get("vm"))
# The cleanup steps' events are numbered after the main steps.
begins = [json.loads(l) for l in open(os.path.join(run, "events.jsonl"))
          if '"ev":"scenario_begin"' in l]
nc = {ev["scenario"]: ev.get("ncleanup") for ev in begins}
if nc.get("cleanup/a-fails") != 3 or nc.get("cleanup/e-fresh") != 0:
    bad.append("scenario_begin ncleanup: %r" % nc)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
grep -q '^# cleanup failed: step 4 (write' "$out/ktap" || {
	echo "# the KTAP output does not say the cleanup failed"
	exit 1
}
rm -rf "$out"
