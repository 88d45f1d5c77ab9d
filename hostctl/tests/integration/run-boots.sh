#!/bin/sh
# Integration: multi-boot scenarios. The boots fixtures show a power-off
# and a reset that are expected (and a fresh q35 boot after the power-off,
# with its own memory and an extra disk), a resume that does not come, and
# a power-off that does not come, each failing with the boot named; then
# hibernate/* passes with --keep, boot 2 of hibernate/resume resumed and
# boot 2 of hibernate/memory-map did not. summary.json and events.jsonl say
# which boot every step and event belongs to; disks go unless --keep.
# Crashes go through the judge as in a single boot: boots/expect-panic
# (boot 1 panics as declared) passes, its panic attributed to step 3
# (index 2) counted across the boots, and boots/crash (boot 0 panics, undeclared) is
# a crash; each has a bundle with a dump. No bundle for a boot that
# powered off or reset as its end says.
set -eu
out=$(mktemp -d /tmp/hostctl-it-boots-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/fix" \
	--scenarios "$SRCDIR/hostctl/tests/boots-fixtures" all > "$out/fix.ktap" || rc=$?
cat "$out/fix.ktap"
if [ "$rc" -ne 1 ]; then
	echo "# fixtures: hostctl run exited $rc, want 1 (two expected fails, a crash)"
	exit 1
fi
rc=0
"$HOSTCTL" run --format ktap --keep --output "$out/hib" 'hibernate/*' \
	> "$out/hib.ktap" || rc=$?
cat "$out/hib.ktap"
echo "# run directories: $out/fix $out/hib"
if [ "$rc" -ne 0 ]; then
	echo "# hibernate/*: hostctl run exited $rc, want 0"
	exit 1
fi
python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
bad = []
def load(run):
    s = json.load(open(os.path.join(out, run, "summary.json")))
    return {sc["name"]: sc for sc in s["scenarios"]}
def host_lines(run):
    lines = open(os.path.join(out, run, "events.jsonl")).read().splitlines()
    objs = [json.loads(l) for l in lines]
    return [o for o in objs if "host" in o and "ev" not in o]
fix = load("fix")
def want(by, name, verdict, reason=None):
    sc = by.get(name)
    if not sc:
        bad.append("%s did not run" % name)
        return None
    if sc["verdict"] != verdict:
        bad.append("%s: %s, want %s: %s" % (name, sc["verdict"], verdict, sc["reason"]))
    if reason and not sc["reason"].startswith(reason):
        bad.append("%s: reason %r, want it to start %r" % (name, sc["reason"], reason))
    return sc
sc = want(fix, "boots/fresh-after-poweroff", "pass")
if sc:
    b = sc.get("boots", [])
    if [x["ended"] for x in b] != ["poweroff", "running"]:
        bad.append("fresh-after-poweroff: ends %r" % b)
    if len(b) == 2 and (b[1].get("resumed") is not False or b[1]["machine"] != "q35"
                        or b[1]["memory_mib"] != 384 or "resumed" in b[0]):
        bad.append("fresh-after-poweroff: boots %r" % b)
    if [st["boot"] for st in sc["steps"]] != [0] * 4 + [1] * 6:
        bad.append("fresh-after-poweroff: step boots %r" % [st.get("boot") for st in sc["steps"]])
sc = want(fix, "boots/reboot-end", "pass")
if sc and [x["ended"] for x in sc.get("boots", [])] != ["reboot", "running"]:
    bad.append("reboot-end: ends %r" % sc.get("boots"))
want(fix, "boots/resume-expected", "fail",
     "boot 1: expected to resume the previous boot's image, but the guest booted afresh")
want(fix, "boots/poweroff-expected", "fail",
     "boot 0: expected the guest to power off after its steps; it kept running")
import subprocess
def bundle_of(sc):
    incs = [i for i in sc.get("incidents", []) if i["kind"] == "panic"]
    if len(incs) != 1 or not incs[0].get("bundle"):
        bad.append("%s: want one panic with a bundle: %r" % (sc["name"], sc.get("incidents")))
        return None
    d = os.path.join(out, "fix", incs[0]["bundle"])
    for f in ("console.log", "reports.txt", "events.jsonl", "stack.txt", "dump.txt"):
        if not os.path.exists(os.path.join(d, f)):
            bad.append("%s: bundle %s has no %s" % (sc["name"], d, f))
    dumps = glob.glob(os.path.join(d, "vmcore.*"))
    what = subprocess.run(["file", "-b"] + dumps[:1], capture_output=True,
                          text=True).stdout if dumps else ""
    if "kdump" not in what and "ELF" not in what:
        bad.append("%s: no dump in %s (file says %r)" % (sc["name"], d, what))
    return incs[0]
sc = want(fix, "boots/expect-panic", "pass")
if sc:
    inc = bundle_of(sc)
    if inc and (inc["step"] != 2 or "sysrq triggered crash" not in inc["title"]
                or "step 3 (panic through sysrq)" not in inc["summary"]):
        bad.append("expect-panic: attributed %r" % inc)
    if [(st["boot"], st["verdict"]) for st in sc["steps"] if st["verdict"] != "not run"][:3] != \
            [(0, "pass"), (1, "pass"), (1, "xfail")]:
        bad.append("expect-panic: steps %r" % sc["steps"])
    if [x["ended"] for x in sc.get("boots", [])] != ["running", "died"]:
        bad.append("expect-panic: ends %r" % sc.get("boots"))
sc = want(fix, "boots/crash", "crash", "boot 0: ")
if sc:
    inc = bundle_of(sc)
    if inc and inc["step"] != 0:
        bad.append("crash: attributed %r" % inc)
for name in ("boots/fresh-after-poweroff", "boots/reboot-end"):
    sc = fix.get(name)
    if sc and sc.get("incidents"):
        bad.append("%s: incidents %r" % (name, sc["incidents"]))
if len(glob.glob(os.path.join(out, "fix", "bundle-*"))) != 2:
    bad.append("bundles: %r, want the two panics'" % glob.glob(os.path.join(out, "fix", "bundle-*")))
if glob.glob(os.path.join(out, "fix", "disk-*")):
    bad.append("disk images left without --keep: %r" % glob.glob(os.path.join(out, "fix", "disk-*")))
hosts = host_lines("fix")
boots = [(h["scenario"], h["boot"]) for h in hosts if h["host"] == "boot"
         and h["scenario"] == "boots/fresh-after-poweroff"]
if boots != [("boots/fresh-after-poweroff", 0), ("boots/fresh-after-poweroff", 1)]:
    bad.append("events.jsonl boot lines: %r" % boots)

hib = load("hib")
for name in ("hibernate/resume", "hibernate/memory-map", "hibernate/test-resume",
             "hibernate/no-swap", "hibernate/alloc-failure",
             "hibernate/machine-change"):
    sc = want(hib, name, "pass")
    if sc and sc.get("incidents"):
        bad.append("%s: incidents %r" % (name, sc["incidents"]))
if glob.glob(os.path.join(out, "hib", "bundle-*")):
    bad.append("hibernate/*: bundles %r" % glob.glob(os.path.join(out, "hib", "bundle-*")))
for name, resumed in (("hibernate/resume", True), ("hibernate/memory-map", False),
                      ("hibernate/machine-change", False),
                      ("hibernate/alloc-failure", True)):
    sc = hib.get(name)
    if sc and [b.get("resumed") for b in sc.get("boots", [])] != [None, resumed]:
        bad.append("%s: resumed %r, want [None, %r]" % (name, sc.get("boots"), resumed))
ends = [(h["scenario"], h["boot"], h["resumed"]) for h in host_lines("hib")
        if h["host"] == "boot_end" and h["scenario"] == "hibernate/resume"]
if ends != [("hibernate/resume", 0, None), ("hibernate/resume", 1, True)]:
    bad.append("events.jsonl boot_end lines for hibernate/resume: %r" % ends)
kept = sorted(os.path.basename(p) for p in glob.glob(os.path.join(out, "hib", "disk-*")))
if "disk-hibernate-resume.img" not in kept:
    bad.append("--keep kept %r" % kept)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
