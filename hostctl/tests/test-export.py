#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl export on a fixture run directory: the KCIDB file validates
against KCIDB's 5.3 schema (Debian's python3-jsonschema, with its format
checker), the JUnit file parses with one testsuite per area and one
testcase per scenario, in the elements and attributes Jenkins' and
GitLab's JUnit readers take, and bad input is exit 2. TAP on stdout.

usage: test-export.py HOSTCTL FIXTURES_DIR SCHEMA"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from tap import done, ok
import xml.etree.ElementTree as ET

try:
    import jsonschema
except ImportError:
    print("1..0 # SKIP python3-jsonschema is not installed (./bootstrap installs it)")
    sys.exit(0)

hostctl, fixtures, schema_path = sys.argv[1:4]
def run(*args):
    return subprocess.run([hostctl, *args], capture_output=True, text=True)


tmp = tempfile.mkdtemp(prefix="vlalab-export-")
run_dir = os.path.join(fixtures, "mixed")
junit = os.path.join(tmp, "j.xml")
kcidb = os.path.join(tmp, "k.json")
p = run("export", "--junit", junit, "--kcidb", kcidb, "--cache", tmp, run_dir)
ok(p.returncode == 0, "export exits 0: %s" % p.stderr.strip())
summary = json.load(open(os.path.join(run_dir, "summary.json")))
scenarios = summary["scenarios"]

# KCIDB: valid against the schema, formats checked too.
schema = json.load(open(schema_path))
doc = json.load(open(kcidb, encoding="utf-8"))
try:
    jsonschema.validate(doc, schema, format_checker=jsonschema.FormatChecker())
    ok(True, "KCIDB validates against the 5.3 schema")
except jsonschema.ValidationError as e:
    ok(False, "KCIDB validates against the 5.3 schema: %s" % e.message)
ok(doc["version"] == {"major": 5, "minor": 3}, "KCIDB version 5.3")
tests = doc["tests"]
nsteps = sum(len(s["steps"]) for s in scenarios)
ok(len(tests) == len(scenarios) + nsteps,
   "one test per scenario and per step (%d)" % len(tests))
by_path = {t["path"]: t for t in tests}
want = {"ftrace.filter-loaded-module": "PASS", "fixtures.expect-wrong": "FAIL",
        "edac.inject": "SKIP", "fixtures.crash": "FAIL",
        "fixtures.slow": "FAIL", "fixtures.broken": "MISS",
        "fixtures.known-bug": "DONE", "lkdtm.cfi": "FAIL"}
got = {k: by_path.get("vlalab." + k, {}).get("status") for k in want}
ok(got == want, "status mapping: %s" % got)
ok(len({t["id"] for t in tests}) == len(tests), "test ids are unique")
hosts = {k: by_path.get("vlalab." + k, {}).get("environment", {})
         .get("misc", {}).get("host") for k in
         ("ftrace.filter-loaded-module", "fixtures.expect-wrong", "edac.inject")}
ok(hosts == {"ftrace.filter-loaded-module": "embedded",
             "fixtures.expect-wrong": "qemu+tcp://127.0.0.1/system",
             "edac.inject": None},
   "KCIDB: each test's environment names its host: %s" % hosts)
mf = summary["kernel"]
digest = hashlib.sha256("".join(p["sha256"] + "\n" for p in mf["patches"])
                        .encode()).hexdigest()
co = doc["checkouts"][0]
ok(co.get("patchset_hash") == digest, "patchset_hash over the series")
ok([f["name"] for f in co.get("patchset_files", [])] ==
   [p["name"] for p in mf["patches"]], "patchset_files name the series")
b = doc["builds"][0]
ok(b.get("compiler") == mf["compiler"] and b["checkout_id"] == co["id"] and
   all(t["build_id"] == b["id"] for t in tests), "build: compiler, ids")
crash = by_path["vlalab.fixtures.crash"]
ok("Kernel panic" in crash.get("log_excerpt", ""), "crash test has the console tail")
ok("log_url" not in by_path["vlalab.fixtures.broken"],
   "a VM label that is not vmN names no file")

# JUnit: parses; the reader's structure; one testcase per scenario.
root = ET.parse(junit).getroot()
ok(root.tag == "testsuites", "JUnit root is testsuites")
suites = root.findall("testsuite")
areas = []
for s in scenarios:
    a = s["name"].split("/")[0]
    if a not in areas:
        areas.append(a)
ok([s.get("name") for s in suites] == areas, "one testsuite per area, in order")
cases = root.findall("testsuite/testcase")
ok(len(cases) == len(scenarios), "one testcase per scenario (%d)" % len(cases))
allowed = {
    "testsuites": {"name", "tests", "failures", "errors", "skipped", "time"},
    "testsuite": {"name", "tests", "failures", "errors", "skipped", "time"},
    "testcase": {"name", "classname", "time"},
    "failure": {"type", "message"}, "error": {"type", "message"},
    "skipped": {"message"}, "system-out": set(),
    "properties": set(), "property": {"name", "value"},
}
children = {"testsuites": {"testsuite"},
            "testsuite": {"testcase", "properties"},
            "properties": {"property"}, "property": set(),
            "testcase": {"properties", "failure", "error", "skipped",
                         "system-out"},
            "failure": set(), "error": set(), "skipped": set(),
            "system-out": set()}
bad = [e.tag for e in root.iter() if e.tag not in allowed or
       not set(e.attrib) <= allowed[e.tag] or
       any(c.tag not in children[e.tag] for c in e)]
ok(not bad, "only JUnit's elements and attributes: %s" % bad)
want = "Debian linux-source %s with vlalab's series, %s flavour, release %s" % (
    mf["source_version"], mf["flavour"], mf["release"])
ok(all([(p.get("name"), p.get("value")) for p in s.findall("properties/property")]
       == [("kernel", want)] for s in suites),
   "each testsuite names the kernel that ran: %s" % want)
ok(co.get("comment") == want and co.get("tree_name") == "debian-linux-source",
   "so does the KCIDB checkout")
ok(all(int(s.get("tests")) == len(s.findall("testcase")) for s in suites),
   "each testsuite counts its testcases")
fails = [c.get("name") for c in cases if c.find("failure") is not None]
ok(sorted(fails) == ["cfi", "crash", "expect-wrong", "slow"],
   "failures: fail, crash, timeout, xpass (%s)" % fails)
ew = [c for c in cases if c.get("name") == "expect-wrong"][0]
f = ew.find("failure")
ok("<got> & \"more\"" in f.get("message") and "failing step 1 'version'" in f.text,
   "failure has the reason (escaped) and the failing step")
host = {c.get("name"): [(p.get("name"), p.get("value"))
                       for p in c.findall("properties/property")]
        for c in cases if c.get("name") in ("filter-loaded-module",
                                            "expect-wrong", "inject")}
ok(host == {"filter-loaded-module": [("host", "embedded")],
            "expect-wrong": [("host", "qemu+tcp://127.0.0.1/system")],
            "inject": []},
   "each testcase's properties name its host, if any: %s" % host)
cr = [c for c in cases if c.get("name") == "crash"][0]
out = cr.find("system-out")
ok(out is not None and "Kernel panic" in out.text and "\x01" not in out.text,
   "console tail as system-out, control bytes cleaned")

# Bad input is exit 2, with a reason.
p = run("export", "--junit", junit, os.path.join(fixtures, "nothing-here"))
ok(p.returncode == 2 and "hostctl export: no run '%s' in '" %
   os.path.join(fixtures, "nothing-here") in p.stderr
   and p.stderr.endswith("' (a run id, 'latest' or a folder)\n"),
   "no run directory: exit 2, the locator's line (%r)" % p.stderr)
p = run("export", run_dir)
ok(p.returncode == 2 and "nothing to write" in p.stderr, "no format: exit 2")
p = run("export", "--junit", junit, os.path.join(fixtures, "repeat"))
ok(p.returncode == 2 and "--repeat run" in p.stderr, "a --repeat run: exit 2")
p = run("export", "--junit", os.path.join(tmp, "no/such/dir/j.xml"), run_dir)
ok(p.returncode == 2 and "writing JUnit" in p.stderr, "unwritable file: exit 2")

# A kernel of another line than 6.1: the line in the kernel's line of
# JUnit and the KCIDB checkout, and in the checkout's misc.
import shutil
line_dir = os.path.join(tmp, "line612")
shutil.copytree(run_dir, line_dir, symlinks=True)
s612 = json.load(open(os.path.join(line_dir, "summary.json")))
s612["kernel"]["line"] = "6.12"
json.dump(s612, open(os.path.join(line_dir, "summary.json"), "w"))
p = run("export", "--junit", junit, "--kcidb", kcidb, "--cache", tmp, line_dir)
want612 = "Debian linux-source %s (line 6.12) with vlalab's series, %s flavour, release %s" % (
    mf["source_version"], mf["flavour"], mf["release"])
props = [p2.get("value") for p2 in ET.parse(junit).getroot().findall("testsuite/properties/property")]
d612 = json.load(open(kcidb, encoding="utf-8"))
ok(p.returncode == 0 and props and all(v == want612 for v in props)
   and d612["checkouts"][0].get("comment") == want612,
   "a 6.12 kernel: JUnit and KCIDB name its line: %s" % (props[:1] or p.stderr))
ok(d612["checkouts"][0].get("misc", {}).get("line") == "6.12",
   "a 6.12 kernel: the KCIDB checkout's misc has its line")

subprocess.run(["rm", "-rf", tmp])
done()
