#!/bin/sh
# Integration: `hostctl run all` on the real kernel and image passes every
# scenario (today: the ftrace family), and the run directory holds what
# issue 3 asks for.
set -eu
out=$(mktemp -d /tmp/hostctl-it-run-all-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" all > "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl run all exited $rc, want 0"
	exit 1
fi
python3 - "$out/run" <<'PY'
import json, os, sys
run = sys.argv[1]
s = json.load(open(os.path.join(run, "summary.json")))
bad = []
names = [sc["name"] for sc in s["scenarios"]]
ftrace = [n for n in names if n.startswith("ftrace/")]
if len(ftrace) < 5:
    bad.append("want the 5 ftrace scenarios, got %r" % ftrace)
for sc in s["scenarios"]:
    # The ftrace family must pass; later areas may skip on this kernel.
    ok = ("pass",) if sc["name"].startswith("ftrace/") else ("pass", "skip", "xfail")
    if sc["verdict"] not in ok:
        bad.append("%s: %s: %s" % (sc["name"], sc["verdict"], sc["reason"]))
    if sc["verdict"] == "pass" and not sc["steps"]:
        bad.append("%s: passed without steps" % sc["name"])
    if sc.get("cleanup_failed"):
        bad.append("%s: cleanup failed: %s" % (sc["name"], sc["cleanup_reason"]))
if s["accelerator"] not in ("kvm", "tcg"):
    bad.append("accelerator %r" % s["accelerator"])
if not isinstance(s["kernel"], dict):
    bad.append("kernel manifest missing")
events = open(os.path.join(run, "events.jsonl")).read().splitlines()
# Host lines ({"host": ...}) mark the boots of multi-boot scenarios.
kinds = [json.loads(l).get("ev") for l in events]
for ev in ("hello", "scenario_begin", "step_begin", "step_end", "scenario_end", "bye"):
    if ev not in kinds:
        bad.append("events.jsonl has no %s" % ev)
if not os.path.exists(os.path.join(run, "console-vm1.log")):
    bad.append("no console-vm1.log")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
