#!/bin/sh
# Integration: hostctl bench on a short run (one run of each, one
# scenario at -j 1 and -j 2): the goals' table has issue 32's four goals,
# each row with its figures, the figure beside it, the ratio, the goal
# and a verdict, or dashes and why (a kernel with no cold build
# recorded), and --json FILE has the same rows. Only the shape: the
# figures are whatever this machine gives. Slow (about 2 minutes: eight
# VMs, four raw QEMUs, two runs): suite 'bench', outside the default
# setup.
set -eu
out=$(mktemp -d /tmp/hostctl-it-bench-XXXXXX)
rc=0
"$HOSTCTL" bench --runs 1 --subset bch/flips-t4 --json "$out/bench.json" \
	> "$out/table" 2> "$out/err" || rc=$?
cat "$out/table"
if [ "$rc" -ne 0 ]; then
	cat "$out/err"
	echo "# hostctl bench exited $rc, want 0 (in $out)"
	exit 1
fi
/usr/bin/python3 - "$out/table" "$out/bench.json" <<'PY'
import json, re, sys
table = open(sys.argv[1]).read().splitlines()
j = json.load(open(sys.argv[2]))
bad = []
# A figure: "123 ms" or "12.5 s"; the ratio "1.23x"; the goal "<= ...".
fig = r"(\d+ ms|\d+\.\d s)"
row = re.compile(r"^([1-4]) {4}(.{38}) +" + r" +".join([fig] * 4) +
                 r" +(\d+\.\d\dx) +(<= [0-9.]+(?:x| ms| s)) +(ok|MISSED)$")
empty = re.compile(r"^4 {4}cold kernel build \(its manifest\) +- +- +- +- +- +<= 480 s +-$")
want = [("1", "boot: create called -> hello", "raw QEMU exec -> hello"),
        ("2", "fresh VM: restore called -> hello",
         "raw QEMU -incoming exec -> hello (restored)"),
        ("2", "fresh VM: end -> next start, restored", "raw QEMU -incoming"),
        ("2", "fresh VM: end -> next start, spare", "raw QEMU -incoming"),
        ("3", "run -j 2 'bch/flips-t4' (wall)", "run -j 1 'bch/flips-t4' (wall)"),
        ("4", "cold kernel build (its manifest)", "nothing")]
try:
    head = next(i for i, l in enumerate(table) if l.startswith("goal "))
except StopIteration:
    head = None
    bad.append("no goals table")
if head is not None:
    lines = table[head + 1:]
    if len(lines) != 2 * len(want):
        bad.append("%d lines after the header, want %d" % (len(lines), 2 * len(want)))
    for k, (no, what, beside) in enumerate(want):
        l = lines[2 * k] if 2 * k < len(lines) else ""
        b = lines[2 * k + 1] if 2 * k + 1 < len(lines) else ""
        m = row.match(l)
        if no == "4" and not m:
            # No cold build of this kernel recorded: dashes and why.
            if not empty.match(l) or "no cold build recorded" not in b:
                bad.append("row %d: %r / %r" % (k + 1, l, b))
            continue
        if not m or m.group(1) != no or m.group(2).strip() != what:
            bad.append("row %d: %r" % (k + 1, l))
        if not b.startswith("     beside: " + beside):
            bad.append("row %d's beside: %r" % (k + 1, b))
for l in table:
    if l.startswith("hostctl bench: load average"):
        if not re.match(r"^hostctl bench: load average \d+\.\d\d at the start, \d+\.\d\d at the end$", l):
            bad.append("load line %r" % l)
        break
else:
    bad.append("no load average line")
rows = j.get("rows", [])
if [r["id"] for r in rows] != ["boot", "restore", "restored-gap", "spare", "jobs", "build"]:
    bad.append("JSON rows %r" % [r.get("id") for r in rows])
for r in rows:
    if r["id"] == "build" and r["n"] == 0:
        if r["verdict"] != "-" or not r["note"].startswith("no cold build recorded"):
            bad.append("JSON build row %r" % r)
        continue
    if not (r["n"] == 1 and r["median_ms"] > 0 and r["beside_ms"] > 0 and
            r["ratio"] > 0 and r["verdict"] in ("ok", "MISSED")):
        bad.append("JSON row %r" % r)
if j.get("subset") != "bch/flips-t4" or j.get("runs") != 1 or j.get("load_start") is None:
    bad.append("JSON meta %r" % {k: v for k, v in j.items() if k != "rows"})
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
echo "# bench output: $out"
