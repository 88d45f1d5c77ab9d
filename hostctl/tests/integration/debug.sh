#!/bin/sh
# Integration: the seed families on the debug flavour (docs/kernel.md,
# "Flavours"): KASAN, SLUB debugging, DEBUG_OBJECTS, lockdep and
# might-sleep checks on the patched kernel. Scenarios that drive each
# seed's patched path pass there with no incident: a wrong buffer size, a
# use-after-free, a lock-order bug or a leak on that path would be a
# titled incident attributed to its step, and fail the scenario. Every
# scenario on this flavour is `hostctl run --flavour debug all`; this runs
# one scenario a family, each the one a planted mutant of that family
# is caught by (kernel/mutants/, hostctl-debug-mutants in this suite):
# edac/correctable-error the inject_ecc write, ftrace/module-exists-boundary
# module_exists()'s buffer, bch/flips-t4 bch_encode() and bch_decode(),
# dsa/mdb-offload dsa_loop's MDB table, hibernate/resume the e820
# checksum saved and checked. So the same scenarios pass on the clean
# kernel and fail on the planted bugs.
set -eu
out=$(mktemp -d /tmp/hostctl-it-debug-XXXXXX)
rc=0
"$HOSTCTL" run --flavour debug --format ktap --output "$out/run" \
	ftrace/module-exists-boundary dsa/mdb-offload \
	edac/correctable-error hibernate/resume bch/flips-t4 \
	> "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl run --flavour debug exited $rc, want 0"
	exit 1
fi
/usr/bin/python3 - "$out/run" <<'PY'
import json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
bad = []
k = s.get("kernel", {})
if k.get("flavour") != "debug":
    bad.append("the kernel's flavour is %r, want 'debug'" % k.get("flavour"))
if not any(f.get("name") == "flavours/debug/debug.config" for f in k.get("fragments", [])):
    bad.append("the kernel's fragments lack flavours/debug/debug.config")
families = set()
for sc in s["scenarios"]:
    families.add(sc["name"].split("/")[0])
    if sc["verdict"] != "pass":
        bad.append("%s: %s: %s" % (sc["name"], sc["verdict"], sc.get("reason")))
    for i in sc.get("incidents", []):
        bad.append("%s: incident %s at step %s" % (sc["name"], i.get("title"), i.get("step")))
for f in ("ftrace", "dsa", "edac", "hibernate", "bch"):
    if f not in families:
        bad.append("no %s scenario ran" % f)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
