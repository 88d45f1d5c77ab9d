#!/bin/sh
# Integration, suite cloud: the locally built cloud image (images/cloud/)
# boots with our kernel through cloud-init and runs scenarios
# (docs/repro.md, "Cloud images").
#
# 1. The fixtures of cloud-fixtures/cloud, in one run: a scenario without
#    an image passes on the initramfs; the next, with "image": "cloud",
#    gets a fresh VM of the cloud image (the run says why) and finds
#    systemd as PID 1 and the modules disk on /lib/modules; the last, on
#    that VM, has a trace_cmd step that expects a function the module
#    does not have, and must fail (the step bites).
# 2. The ftrace family on the cloud image (--image cloud:PATH): every
#    scenario passes but those whose kselftest programs only the
#    initramfs carries, which skip; ftrace/trace-cmd-mod among the passes.
#    (On the initramfs, hostctl-run-ftrace runs the same family.)
# 3. --image refuses a missing file and one that is not a qcow2, naming
#    it, before anything is built.
#
# The image must be built (images/cloud/build.sh: 16 min cold, a cache hit
# after; the test images-cloud-build before this one builds it). Building
# needs root (debootstrap), finding it cached does not: the suite skips
# only for a user other than root with no image in the cache.
set -eu
cache=${VLALAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vlalab}
out=$(mktemp -d /tmp/hostctl-it-cloud-XXXXXX)
brc=0
"$SRCDIR/images/cloud/build.sh" "$cache" >"$out/image" 2>"$out/image.err" || brc=$?
if [ "$brc" -ne 0 ]; then
	if [ "$(id -u)" -ne 0 ] && grep -q 'debootstrap needs root' "$out/image.err"; then
		echo "1..0 # SKIP the cloud image is not in $cache and building it needs root"
		rm -rf "$out"
		exit 77
	fi
	echo "# images/cloud/build.sh exited $brc: $(tail -n 1 "$out/image.err")"
	exit 1
fi
img=$(tail -n 1 "$out/image")
rc=0
"$HOSTCTL" run --format ktap --output "$out/mixed" \
	--scenarios "$SRCDIR/hostctl/tests/integration/cloud-fixtures" 'cloud/*' \
	>"$out/mixed.ktap" 2>"$out/mixed.err" || rc=$?
cat "$out/mixed.ktap"
echo "# fixtures: exit $rc (want 1: the bites fixture fails)"
rc2=0
"$HOSTCTL" run --format ktap --output "$out/ftrace" --image "cloud:$img" \
	'ftrace/*' >"$out/ftrace.ktap" 2>"$out/ftrace.err" || rc2=$?
cat "$out/ftrace.ktap"
echo "# ftrace family on the cloud image: exit $rc2 (want 0)"
python3 - "$out" "$rc" "$rc2" "$HOSTCTL" <<'PY'
import json, os, subprocess, sys
out, rc, rc2, hostctl = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
bad = []
def summary(name):
    return json.load(open(os.path.join(out, name, "summary.json")))
def by_name(s):
    return {sc["name"]: sc for sc in s["scenarios"]}

if rc != 1:
    bad.append("the fixtures' run exited %d, want 1" % rc)
m = by_name(summary("mixed"))
want = {"cloud/a-initramfs": "pass", "cloud/b-systemd": "pass",
        "cloud/c-trace-cmd-bites": "fail"}
for name, v in want.items():
    got = m.get(name, {}).get("verdict")
    if got != v:
        bad.append("%s: %s (%s), want %s" % (name, got, m.get(name, {}).get("reason"), v))
fresh = m.get("cloud/b-systemd", {}).get("fresh_vm") or ""
if "cloud image" not in fresh:
    bad.append("cloud/b-systemd: fresh_vm %r, want the image switch" % fresh)
bites = m.get("cloud/c-trace-cmd-bites", {})
steps = bites.get("steps") or [{}]
got = steps[0].get("got") or ""
if "trace_printk_irq_work" not in got:
    bad.append("the bites fixture's step got %r, want the recorded trace_printk_irq_work" % got)
vms = sorted(f for f in os.listdir(os.path.join(out, "mixed")) if f.startswith("cloud-vm"))
if vms:
    bad.append("overlays left in the run directory: %r" % vms)

if rc2 != 0:
    bad.append("the ftrace family on the cloud image exited %d, want 0" % rc2)
f = by_name(summary("ftrace"))
if f.get("ftrace/trace-cmd-mod", {}).get("verdict") != "pass":
    bad.append("ftrace/trace-cmd-mod did not pass on the cloud image")
for name, sc in f.items():
    ok = ("pass", "skip") if sc.get("reason", "").startswith("needs the initramfs") else ("pass",)
    if sc["verdict"] not in ok:
        bad.append("%s: %s: %s" % (name, sc["verdict"], sc.get("reason")))
npass = sum(1 for sc in f.values() if sc["verdict"] == "pass")
print("# ftrace on the cloud image: %d pass, %d skip" % (npass, len(f) - npass))
if npass < 6:
    bad.append("only %d ftrace scenarios passed on the cloud image" % npass)

for arg, want in (("cloud:/nonexistent/x.qcow2", "No such file"),
                  ("cloud:/etc/hostname", "is not a qcow2 image")):
    p = subprocess.run([hostctl, "run", "--image", arg, "ftrace/cached-filter"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 2 or want not in p.stderr:
        bad.append("--image %s: exit %d, %r" % (arg, p.returncode, p.stderr))
    else:
        print("# --image %s: %s" % (arg, p.stderr.strip()))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
