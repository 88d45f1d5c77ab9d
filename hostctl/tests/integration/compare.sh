#!/bin/sh
# Integration: hostctl compare on two flavours that exist (patched as the
# baseline, debug as the candidate), one round, bch/bench-encode
# (docs/evidence.md). The table must come out on the terminal and in
# compare.json and compare.svg; both flavours pass; the bench row has a
# ratio inside its 95% CI; under TCG the clock is icount. The debug
# kernel (KASAN and the rest) must cost more instructions than the
# patched one: a ratio above 1 that the CI calls significant. Slow (two
# kernels, two guests): suite 'compare', outside the default setup.
set -eu
out=$(mktemp -d /tmp/hostctl-it-compare-XXXXXX)
rc=0
"$HOSTCTL" compare --baseline patched --candidate debug --rounds 1 \
	--output "$out/cmp" bch/bench-encode > "$out/table" || rc=$?
cat "$out/table"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl compare exited $rc, want 0"
	exit 1
fi
grep -q "^bch/bench-encode #2 encode 4 MiB" "$out/table" ||
	{ echo "# no bench row in the table"; exit 1; }
grep -q "reference only" "$out/table" ||
	{ echo "# the seed's figures are not marked as reference"; exit 1; }
/usr/bin/python3 - "$out/cmp" <<'PY'
import json, os, sys
t = json.load(open(os.path.join(sys.argv[1], "compare.json")))
bad = []
if t["baseline"] != "patched" or t["candidate"] != "debug":
    bad.append("flavours %r/%r" % (t["baseline"], t["candidate"]))
if t["accelerator"] == "tcg" and t["clock"] != "icount":
    bad.append("TCG without icount: %r" % t["clock"])
for v in t["verdicts"]:
    if v["baseline"] != ["pass"] or v["candidate"] != ["pass"]:
        bad.append("verdicts %r" % v)
rows = t["bench"]
if len(rows) != 1:
    bad.append("%d bench rows, want 1" % len(rows))
else:
    r = rows[0]
    if not r["ci_lo"] <= r["ratio"] <= r["ci_hi"]:
        bad.append("ratio %r outside [%r, %r]" % (r["ratio"], r["ci_lo"], r["ci_hi"]))
    if not (r["ratio"] > 1 and r["significant"]):
        bad.append("debug not significantly slower than patched: %r" % r)
svg = open(os.path.join(sys.argv[1], "compare.svg")).read()
if not svg.startswith("<svg") or "bch/bench-encode" not in svg:
    bad.append("compare.svg lacks the chart")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
echo "# compare directory: $out/cmp"
