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
# Then the spare VM (lanes.c) waits paused: under icount an idle guest's
# clock runs through its timers as fast as the host goes, so a spare left
# running would take a core meanwhile. hostctl/tests/spare-fixtures run at
# -j 2 --clock icount: spare/a-busy-fails fails on one lane while
# spare/b-busy keeps the other, so spare/c-after takes the spare's VM,
# which waited while spare/a-busy-fails counted; from that VM's hello to
# its scenario_begin its clock must show under 1 s (a spare left running
# showed 197 s).
set -eu
out=$(mktemp -d /tmp/hostctl-it-jobs-XXXXXX)
fixtures="$SRCDIR/hostctl/tests/jobs-fixtures"
rc1=0
rc2=0
"$HOSTCTL" run -j 1 --format ktap --output "$out/j1" --scenarios "$fixtures" \
	all > "$out/ktap-j1" || rc1=$?
"$HOSTCTL" run -j 2 --format ktap --output "$out/j2" --scenarios "$fixtures" \
	all > "$out/ktap-j2" || rc2=$?
rc3=0
"$HOSTCTL" run -j 2 --clock icount --format ktap --output "$out/spare" \
	--scenarios "$SRCDIR/hostctl/tests/spare-fixtures" all \
	> "$out/ktap-spare" || rc3=$?
cat "$out/ktap-j2"
echo "# run directories: $out/j1 $out/j2 $out/spare"
python3 - "$out" "$rc1" "$rc2" "$rc3" <<'PY'
import json, os, re, sys
out, rc1, rc2, rc3 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
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
sp = summary("spare")
want = {"spare/a-busy-fails": "fail", "spare/b-busy": "pass",
        "spare/c-after": "pass"}
if rc3 != 1 or {n: sc["verdict"] for n, sc in sp.items()} != want:
    bad.append("spare run: exit %d, verdicts %r; want 1, %r"
               % (rc3, {n: sc["verdict"] for n, sc in sp.items()}, want))
after = sp.get("spare/c-after", {})
if not (after.get("fresh_vm") or "").startswith("after spare/a-busy-fails"):
    print("# spare/c-after did not follow spare/a-busy-fails on its lane "
          "(%r): the spare's wait is not checked" % after.get("fresh_vm"))
else:
    hello = begin = None
    for l in open(os.path.join(out, "spare", "events.jsonl")):
        e = json.loads(l)
        if e.get("vm") != after.get("vm") or begin is not None:
            continue
        if e.get("ev") == "hello":
            hello = e["t_us"]
        elif e.get("ev") == "scenario_begin" and hello is not None:
            begin = e["t_us"]
    if hello is None or begin is None:
        bad.append("spare run: no hello and scenario_begin of %s"
                   % after.get("vm"))
    elif begin - hello >= 1000000:
        bad.append("spare run: %s, the spare's VM, ran %.1f s of its clock "
                   "from its hello to spare/c-after: it did not wait paused"
                   % (after.get("vm"), (begin - hello) / 1e6))
    else:
        print("# the spare's VM: %.3f s of its clock from hello to its "
              "first scenario" % ((begin - hello) / 1e6))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
