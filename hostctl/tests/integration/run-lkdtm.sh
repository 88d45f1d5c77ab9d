#!/bin/sh
# Integration: the ftrace family and every LKDTM scenario in one run. The
# run completes and exits 0; every LKDTM scenario gets its expected verdict
# with its incident attributed to its 'provoke' step, under a title that
# matches its expect_incident.title; each panic leaves a
# post-mortem bundle with a memory dump; the scenarios after each crash
# still pass; the state-leak audit gives no leak note to the ftrace family
# nor to an oops the scenario declared; and every scenario after one with
# an incident, fatal or survived, or any other verdict than pass, starts
# on a fresh VM.
set -eu
out=$(mktemp -d /tmp/hostctl-it-lkdtm-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" 'ftrace/*' 'lkdtm/*' > "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl run exited $rc, want 0"
	exit 1
fi
python3 - "$out/run" "$SRCDIR" <<'PY'
import glob, json, os, re, sys
run, src = sys.argv[1], sys.argv[2]
s = json.load(open(os.path.join(run, "summary.json")))
by = {sc["name"]: sc for sc in s["scenarios"]}
bad = []
files = sorted(glob.glob(os.path.join(src, "scenarios", "lkdtm", "*.json")))
if len(files) < 16:
    bad.append("want 16 lkdtm scenarios, found %d" % len(files))
for f in files:
    name = "lkdtm/" + os.path.basename(f)[:-5]
    want = json.load(open(f))
    sc = by.get(name)
    if not sc:
        bad.append("%s: not in the summary" % name)
        continue
    verdict = "xfail" if want.get("xfail") else "pass"
    if sc["verdict"] != verdict:
        bad.append("%s: %s, want %s: %s" % (name, sc["verdict"], verdict,
                                            sc.get("reason")))
        continue
    inc = want.get("expect_incident")
    if not inc or want.get("xfail"):
        if sc.get("incidents"):
            bad.append("%s: unexpected incidents %r" % (name, sc["incidents"]))
        continue
    got = sc.get("incidents") or []
    if len(got) != 1 or got[0]["kind"] != inc["kind"] or got[0]["step"] != 1:
        bad.append("%s: want one %s incident in step 2 (index 1), got %r" %
                   (name, inc["kind"], got))
        continue
    # Every expected crash names its title, and the judge's title for
    # the real one matches it (the patterns are POSIX EREs that read the
    # same in Python).
    if not inc.get("title"):
        bad.append("%s: its expect_incident names no title" % name)
    elif not re.search(inc["title"], got[0].get("title", "")):
        bad.append("%s: title %r does not match /%s/" %
                   (name, got[0].get("title"), inc["title"]))
    if not inc["survives"]:
        b = os.path.join(run, got[0].get("bundle") or "-")
        dumps = [p for p in glob.glob(os.path.join(b, "vmcore*"))
                 if os.path.getsize(p) > 0]
        if not os.path.isdir(b) or not dumps:
            bad.append("%s: no bundle with a memory dump (%s)" % (name, b))
    elif sc.get("leaks"):
        bad.append("%s: its declared incident made leak notes %r" %
                   (name, sc["leaks"]))
# One VM to start with, and a fresh one after each scenario that did not
# pass cleanly (an incident, or any verdict but pass: the xfail of
# cfi-forward-proto too), and for each scenario on another image than
# the one before it ("image": "cloud", e.g. ftrace/trace-cmd-mod).
order = [x["name"] for x in s["scenarios"]]
unclean = [n for n in order
           if by[n].get("incidents") or by[n]["verdict"] != "pass"]
def image(name):
    return json.load(open(os.path.join(src, "scenarios", name + ".json"))).get("image", "initramfs")
want_vms, fresh, prev = 0, True, None
for n in order:
    if fresh or image(n) != prev:
        want_vms += 1
    fresh, prev = n in unclean, image(n)
vms = len(glob.glob(os.path.join(run, "console-vm*.log")))
if vms != want_vms:
    bad.append("%d VMs, want %d: one, one after each of %r, one for each change of image" % (vms, want_vms, unclean))
for name, sc in by.items():
    if name.startswith("ftrace/"):
        if sc["verdict"] != "pass":
            bad.append("%s: %s" % (name, sc["verdict"]))
        if sc.get("leaks"):
            bad.append("%s: leaks %r" % (name, sc["leaks"]))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
