#!/bin/sh
# Integration: `hostctl run 'bch/*'` boots the real kernel and image and
# every BCH-through-nandsim scenario passes (seed 005), with the numbers
# that make those passes mean something: exact corrected counts for each
# k, an EBADMSG at t+1, and random flips that were really corrected with
# none silently wrong.
set -eu
out=$(mktemp -d /tmp/hostctl-it-bch-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" 'bch/*' > "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl run 'bch/*' exited $rc, want 0"
	exit 1
fi
python3 - "$out/run" <<'PY'
import json, os, re, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
bad = []
want = {"bch/ecc-strength", "bch/flips-t4", "bch/flips-t8",
        "bch/uncorrectable-t4", "bch/uncorrectable-t8", "bch/random-bitflips",
        "bch/nandbiterrs-t4", "bch/nandbiterrs-t8",
        "bch/nandbiterrs-incremental-refused"}
got = {sc["name"] for sc in s["scenarios"]}
if not want <= got:
    bad.append("missing scenarios: %s" % sorted(want - got))
steps = {}
for sc in s["scenarios"]:
    if sc["verdict"] != "pass":
        bad.append("%s: %s: %s" % (sc["name"], sc["verdict"], sc["reason"]))
    if sc.get("cleanup_failed"):
        bad.append("%s: cleanup failed: %s" % (sc["name"], sc["cleanup_reason"]))
    for st in sc["steps"]:
        steps[(sc["name"], st["name"])] = st
for t in (4, 8):
    for k in range(1, t + 1):
        st = steps.get(("bch/flips-t%d" % t, "k=%d: EUCLEAN, %d corrected, data intact" % (k, k)))
        if not st or not st["got"].startswith("errno EUCLEAN, corrected %d, max_bitflips %d," % (k, k)):
            bad.append("flips-t%d k=%d: %r" % (t, k, st and st["got"]))
    st = steps.get(("bch/uncorrectable-t%d" % t, "page 1: EBADMSG, data not the pattern"))
    if not st or not st["got"].startswith("errno EBADMSG"):
        bad.append("uncorrectable-t%d: %r" % (t, st and st["got"]))
    st = steps.get(("bch/random-bitflips", "t%d: 20000 more reads: some corrected, none silent" % t))
    m = st and re.match(r"20000 reads: \d+ clean, (\d+) corrected \(\d+ bits\), \d+ failed, 0 silent$", st["got"])
    if not m or int(m.group(1)) < 1:
        bad.append("random-bitflips t%d: %r" % (t, st and st["got"]))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
