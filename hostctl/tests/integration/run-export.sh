#!/bin/sh
# Integration: hostctl run --junit --kcidb on the real kernel writes both
# files at the end of the run: the KCIDB file validates against KCIDB's
# 5.3 schema (Debian's python3-jsonschema), with the real manifest's
# series and build; the JUnit file parses with one testcase per scenario.
set -eu
out=$(mktemp -d /tmp/hostctl-it-run-export-XXXXXX)
rc=0
"$HOSTCTL" run --format ktap --output "$out/run" --junit "$out/j.xml" \
	--kcidb "$out/k.json" 'ftrace/*' > "$out/ktap" || rc=$?
cat "$out/ktap"
echo "# run directory: $out/run"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl run exited $rc, want 0"
	exit 1
fi
/usr/bin/python3 - "$out" "$SRCDIR/hostctl/tests/schemas/kcidb-v5.3.schema.json" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET
import jsonschema
out, schema = sys.argv[1], json.load(open(sys.argv[2]))
s = json.load(open(os.path.join(out, "run", "summary.json")))
k = json.load(open(os.path.join(out, "k.json")))
bad = []
try:
    jsonschema.validate(k, schema, format_checker=jsonschema.FormatChecker())
except jsonschema.ValidationError as e:
    bad.append("KCIDB: %s" % e.message)
n = len(s["scenarios"])
# A test per step, those that never began (SKIP) too.
steps = sum(len(sc["steps"]) + len(sc.get("steps_not_run", []))
            for sc in s["scenarios"])
if len(k["tests"]) != n + steps:
    bad.append("KCIDB: %d tests, want %d" % (len(k["tests"]), n + steps))
co = k["checkouts"][0]
if len(co.get("patchset_files", [])) != len(s["kernel"]["patches"]) or \
   len(co.get("patchset_hash", "")) != 64:
    bad.append("KCIDB checkout: %r" % co)
if k["builds"][0].get("compiler") != s["kernel"]["compiler"]:
    bad.append("KCIDB build: %r" % k["builds"][0])
cases = ET.parse(os.path.join(out, "j.xml")).getroot().findall("testsuite/testcase")
if len(cases) != n:
    bad.append("JUnit: %d testcases, want %d" % (len(cases), n))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
echo "ok 1 - run --junit --kcidb: both valid"
rm -rf "$out"
