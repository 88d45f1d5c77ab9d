#!/bin/sh
# Integration: hostctl run -j 2 (issue 17) gives the results -j 1 gives.
# The selection (hostctl/tests/jobs-fixtures): three scenarios that pass
# on the shared VM, one that fails (its lane's next scenario gets a fresh
# VM), and two with a disk whose images have one name (disk-jobs-disk-x):
# an exclusive resource, never used by two VMs at once. Checked: each
# scenario's verdict and step verdicts, and the exit code, are those of
# -j 1; at -j 2 two VMs did run at once (their lines interleave in
# events.jsonl), every line of events.jsonl names its VM, the two disk
# scenarios' VMs never overlap there, and results.ktap numbers each
# scenario once, 1 to 6, in the order they ended.
set -eu
out=$(mktemp -d /tmp/hostctl-it-jobs-XXXXXX)
fixtures="$SRCDIR/hostctl/tests/jobs-fixtures"
rc1=0
rc2=0
"$HOSTCTL" run -j 1 --format ktap --output "$out/j1" --scenarios "$fixtures" \
	all > "$out/ktap-j1" || rc1=$?
"$HOSTCTL" run -j 2 --format ktap --output "$out/j2" --scenarios "$fixtures" \
	all > "$out/ktap-j2" || rc2=$?
cat "$out/ktap-j2"
echo "# run directories: $out/j1 $out/j2"
python3 - "$out" "$rc1" "$rc2" <<'PY'
import json, os, re, sys
out, rc1, rc2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bad = []

def summary(d):
    s = json.load(open(os.path.join(out, d, "summary.json")))
    return {sc["name"]: sc for sc in s["scenarios"]}

def verdicts(by):
    return {n: (sc["verdict"], [st["verdict"] for st in sc.get("steps", [])])
            for n, sc in by.items()}

j1, j2 = summary("j1"), summary("j2")
if rc1 != 1 or rc2 != 1:
    bad.append("exit codes %d (-j 1), %d (-j 2); want 1 (jobs/fails fails)"
               % (rc1, rc2))
if len(j1) != 6:
    bad.append("-j 1 ran %d scenarios, want 6" % len(j1))
if verdicts(j1) != verdicts(j2):
    bad.append("verdicts differ: -j 1 %r, -j 2 %r" % (verdicts(j1), verdicts(j2)))

lines = [json.loads(l) for l in open(os.path.join(out, "j2", "events.jsonl"))]
unnamed = [l for l in lines if not re.fullmatch(r"vm[0-9]+", l.get("vm", ""))]
if unnamed:
    bad.append("events.jsonl lines without their VM: %r" % unnamed[:3])
span = {}
for i, l in enumerate(lines):
    a, b = span.get(l.get("vm"), (i, i))
    span[l.get("vm")] = (min(a, i), max(b, i))
def overlap(a, b):
    return (a in span and b in span and
            span[a][0] < span[b][1] and span[b][0] < span[a][1])
vms = sorted(span)
if not any(overlap(a, b) for a in vms for b in vms if a < b):
    bad.append("no two VMs ran at once at -j 2: %r" % span)
disk_vms = [set(b["vm"] for b in j2[n].get("boots", []) if b.get("vm"))
            for n in ("jobs-disk/x", "jobs/disk-x") if n in j2]
if len(disk_vms) != 2 or not all(disk_vms):
    bad.append("the disk scenarios name no VM: %r" % disk_vms)
elif any(overlap(a, b) for a in disk_vms[0] for b in disk_vms[1]):
    bad.append("the two scenarios of one disk image ran at once: %r"
               % {v: span.get(v) for v in disk_vms[0] | disk_vms[1]})

ktap = open(os.path.join(out, "j2", "results.ktap")).read()
nums = [int(m.group(1)) for m in re.finditer(r"^(?:not )?ok (\d+) ", ktap, re.M)]
names = re.findall(r"^(?:not )?ok \d+ (\S+)", ktap, re.M)
if "1..6" not in ktap.splitlines() or nums != list(range(1, 7)):
    bad.append("results.ktap: plan or numbers wrong: %r" % nums)
if sorted(names) != sorted(j1):
    bad.append("results.ktap: scenarios %r" % names)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
