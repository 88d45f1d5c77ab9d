#!/bin/sh
# Integration: fresh VMs restored from an image saved right after hello
# (hostctl/vm/snapshot.c) run scenarios exactly as booted ones do: the
# same verdicts, steps and events as with --no-restore, each VM with a
# boot id of its own and a sane clock. Then the fallback: images cut in
# half (a corrupt save) boot instead, told once, and the run still passes
# with the same verdicts.
# The images go to a folder of the test's own (VLALAB_SNAPSHOTS).
set -eu
out=$(mktemp -d /tmp/hostctl-it-restore-XXXXXX)
export VLALAB_SNAPSHOTS="$out/snapshots"
# One VM without a NIC, one with, and a kernel incident that sends the
# next scenario to a fresh VM.
scn='bch/flips-t4 dsa/cross-chip-mdb lkdtm/array-bounds lkdtm/buddy-init-on-alloc'
run() {
	name=$1
	shift
	rc=0
	# shellcheck disable=SC2086
	"$HOSTCTL" run --output "$out/$name" "$@" $scn \
		> "$out/$name.out" 2> "$out/$name.err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		cat "$out/$name.out" "$out/$name.err"
		echo "# hostctl run $* exited $rc, want 0 (in $out)"
		exit 1
	fi
}
run booted --no-restore
run first # makes the images, then restores
run restored
ls -l "$out/snapshots"
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
bad = []

def load(name):
    s = json.load(open(os.path.join(out, name, "summary.json")))
    # The guest's events; host lines have no "ev" (docs/protocol.md).
    ev = [e for e in (json.loads(l) for l in open(os.path.join(out, name, "events.jsonl")))
          if "ev" in e]
    return s, ev

def shape(s, ev):
    """What must not depend on how the VM came up."""
    scn = [(sc["name"], sc["verdict"],
            [(st["name"], st["kind"], st["verdict"]) for st in sc["steps"]])
           for sc in s["scenarios"]]
    seq = [(e["ev"], e.get("scenario"), e.get("step"), e.get("verdict"),
            e.get("phase")) for e in ev
           if e["ev"] not in ("kmsg", "heartbeat", "hello", "bye")]
    return scn, seq

def hellos(ev):
    return [e for e in ev if e["ev"] == "hello"]

booted = load("booted")
for name in ("first", "restored"):
    got = load(name)
    a, b = shape(*booted), shape(*got)
    if a[0] != b[0]:
        bad.append("%s: verdicts or steps differ from the booted run:\n%r\n%r" % (name, a[0], b[0]))
    if a[1] != b[1]:
        bad.append("%s: the events differ from the booted run" % name)
    err = open(os.path.join(out, name + ".err")).read()
    if "failed" in err:
        bad.append("%s: a failure on stderr: %s" % (name, err))

hb, hr = hellos(booted[1]), hellos(load("restored")[1])
if len(hr) < 3:
    bad.append("only %d VMs in the restored run, want 3 or more" % len(hr))
if any(h.get("restored") for h in hb):
    bad.append("--no-restore restored a VM")
if not all(h.get("restored") == 1 for h in hr):
    bad.append("a VM of the restored run was booted: %r" % [h.get("restored") for h in hr])
ids = [h.get("boot_id") for h in hb + hr]
if None in ids or len(set(ids)) != len(ids):
    bad.append("boot ids missing or shared: %r" % ids)
for h in hr:
    # The clock sample of the restored guest: ordered, and the printk
    # clock within a second of CLOCK_BOOTTIME, as in a booted guest.
    t0, ts, t1 = h.get("clock_t0_us"), h.get("clock_ts_us"), h.get("clock_t1_us")
    if not (t0 and ts and t1 and t0 <= t1 and abs(t0 - ts) < 1000000):
        bad.append("restored hello's clock sample: %r %r %r" % (t0, ts, t1))
    # The kernel log from its start again, after the new hello.
k = [e for e in load("restored")[1] if e["ev"] == "kmsg"]
if not any(e["seq"] == 0 for e in k):
    bad.append("the restored guests did not send the kernel log from its start")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
# The fallback: every image cut in half boots instead, and is made anew.
for f in "$out"/snapshots/*.save; do
	python3 -c "import os,sys; os.truncate(sys.argv[1], os.path.getsize(sys.argv[1]) // 2)" "$f"
done
run corrupt
if ! grep -q 'restoring a saved VM failed' "$out/corrupt.err"; then
	cat "$out/corrupt.err"
	echo "# a corrupt image: no word of the failure on stderr"
	exit 1
fi
if [ "$(grep -c 'restoring a saved VM failed' "$out/corrupt.err")" -ne 1 ]; then
	echo "# the failure told more than once"
	exit 1
fi
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
a = json.load(open(os.path.join(out, "booted", "summary.json")))
b = json.load(open(os.path.join(out, "corrupt", "summary.json")))
va = [(s["name"], s["verdict"]) for s in a["scenarios"]]
vb = [(s["name"], s["verdict"]) for s in b["scenarios"]]
ev = [json.loads(l) for l in open(os.path.join(out, "corrupt", "events.jsonl"))]
bad = []
if va != vb:
    bad.append("verdicts after a corrupt image: %r, want %r" % (vb, va))
if not any(not e.get("restored") for e in ev if e.get("ev") == "hello"):
    bad.append("no VM booted after a corrupt image")
for x in bad:
    print("# " + x)
sys.exit(1 if bad else 0)
PY
echo "# restored and booted runs agree; a corrupt image boots"
rm -rf "$out"
