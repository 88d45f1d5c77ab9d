#!/bin/sh
# Integration: `hostctl lava job` for two ftrace scenarios, run by LAVA's
# own dispatcher, lava-run (lava-dispatcher), on the qemu device of
# lava-fixtures/qemu-device.yaml, and `hostctl lava fetch` of lava-run's
# log: both pass, as in a local run (docs/lava.md). The job names its
# scenarios in a comment, for lava fetch --server N.
set -eu
if ! command -v lava-run > /dev/null; then
	echo "# SKIP: no lava-run: apt-get install lava-dispatcher (./bootstrap does)"
	exit 77
fi
out=$(mktemp -d /tmp/hostctl-it-lava-XXXXXX)
"$HOSTCTL" lava job --out "$out/job" ftrace/cached-filter ftrace/notrace-mod
grep -q "vlalab.framed=ttyS0" "$out/job/job.yaml"
# The scenarios in order, for a fetch by the job's id alone (the server
# keeps the job's comments in its original_definition).
if ! grep -qx '# vlalab-scenarios: \["ftrace/cached-filter","ftrace/notrace-mod"\]' \
	"$out/job/job.yaml"; then
	echo "# job.yaml does not name its scenarios: $out/job/job.yaml"
	exit 1
fi
rc=0
timeout 900 lava-run --job-id "$$" --output-dir "$out/lava" \
	--device "$SRCDIR/hostctl/tests/lava-fixtures/qemu-device.yaml" \
	"$out/job/job.yaml" > "$out/lava-run.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '"case": "job".*"result": "pass"' "$out/lava-run.log"; then
	tail -20 "$out/lava-run.log"
	echo "# lava-run exited $rc or its job did not pass: $out/lava-run.log"
	exit 1
fi
rc=0
"$HOSTCTL" lava fetch --results "$out/res" "$out/job" "$out/lava-run.log" || rc=$?
echo "# run directory: $out/res"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl lava fetch exited $rc, want 0"
	exit 1
fi
python3 - "$out/res" <<'PY'
import glob, json, sys
(path,) = glob.glob(sys.argv[1] + "/*/summary.json")
v = {sc["name"]: sc["verdict"] for sc in json.load(open(path))["scenarios"]}
want = {"ftrace/cached-filter": "pass", "ftrace/notrace-mod": "pass"}
if v != want:
    sys.exit("# verdicts %r, want %r" % (v, want))
PY
rm -rf "$out"
