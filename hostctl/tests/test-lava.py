#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl lava fetch on a recorded console: lava-fixtures/ftrace-console.log
is the serial console of the job 'hostctl lava job' wrote for the
ftrace scenarios but trace-cmd-mod (the cloud image's), booted by
qemu-system-x86_64 with the job's kernel, initramfs and command line
(docs/lava.md, "Recorded log"), and requests.jsonl that job's requests.
The console, and the same wrapped as LAVA's own log, fetch to 8 passes,
as a local run of those scenarios; a frame dropped, forged or cut off
makes the run red with the scenarios it touches error, never pass. A
kernel BUG (report/corpus/bug.log's) written into the console during a
step goes through the crash judge a local run uses: the scenario gets the
incident with the classifier's title, and fails (the guest survived) or
crashes (the log ends in it), as a local run. lava-fixtures/
lkdtm-lava-run.log is lava-run's own log of a job of lkdtm/array-bounds
and lkdtm/corrupt-stack (lkdtm-requests.jsonl): both pass with their
expected incidents, the titles of a local run. Each scenario's part of
the console is its VM's console log, vm1, vm2, ..., as in a local run,
which the exports read, and its events in events.jsonl carry that label. TAP on stdout.

usage: test-lava.py HOSTCTL FIXTURES_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

from tap import done, ok

try:
    from lava_common.log import dump
except ImportError:
    import yaml

    def dump(data):
        """lava_common/log.py's dump(), where lava-dispatcher is not."""
        return yaml.dump(data, default_flow_style=True, default_style='"',
                         width=10**6)[:-1]

hostctl, fixtures = sys.argv[1:3]
with open(os.path.join(fixtures, "ftrace-console.log"), "rb") as f:
    console = f.read().decode("utf-8", "replace")
lines = console.splitlines(keepends=True)
frames = [i for i, l in enumerate(lines) if l.startswith("VLALAB1 ")]


hosts = set()


def fetch(text, tmp, name, requests="requests.jsonl"):
    job = os.path.join(tmp, "job")
    os.makedirs(job, exist_ok=True)
    with open(os.path.join(fixtures, requests)) as f, \
            open(os.path.join(job, "requests.jsonl"), "w") as g:
        g.write(f.read())
    log = os.path.join(tmp, name)
    with open(log, "w") as f:
        f.write(text)
    res = os.path.join(tmp, "res-" + name)
    p = subprocess.run([hostctl, "lava", "fetch", "--results", res, job, log],
                       capture_output=True, text=True, timeout=60)
    verdicts = {}
    incidents.clear()
    steps.clear()
    for d in os.listdir(res) if os.path.isdir(res) else []:
        with open(os.path.join(res, d, "summary.json")) as f:
            for sc in json.load(f)["scenarios"]:
                verdicts[sc["name"]] = sc["verdict"]
                hosts.add(sc.get("host"))
                incidents[sc["name"]] = [i["title"]
                                         for i in sc.get("incidents", [])]
                steps[sc["name"]] = [st["verdict"]
                                     for st in sc.get("steps", [])]
    return p, verdicts


def payload(line):
    return json.loads(line.split(" ", 3)[3])


def bug_during(scenario, step):
    """The lines of report/corpus/bug.log's kernel BUG, their kernel
    timestamps moved into @scenario's step @step (0-based) by the hello's
    clock marker, and where in the console they go: after its step_begin."""
    hello = payload(lines[frames[0]])
    off = hello["clock_t0_us"] - hello["clock_ts_us"]
    at = next(i for i in frames if '"step_begin"' in lines[i] and
              payload(lines[i]).get("scenario") == scenario and
              payload(lines[i]).get("step") == step)
    end = next(i for i in frames if i > at and '"step_end"' in lines[i])
    mid = (payload(lines[at])["t_us"] + payload(lines[end])["t_us"]) / 2
    with open(os.path.join(fixtures, "..", "report", "corpus",
                           "bug.log")) as f:
        bug = f.read().splitlines()
    first = next(i for i, l in enumerate(bug) if "cut here" in l)
    last = next(i for i, l in enumerate(bug) if "end trace" in l)
    t0 = float(re.match(r"\[\s*([0-9.]+)\]", bug[first]).group(1))
    out = []
    for l in bug[first:last + 1]:
        m = re.match(r"\[\s*([0-9.]+)\](.*)", l)
        out.append("[%12.6f]%s\n" % ((mid - off) / 1e6 + float(m.group(1))
                                      - t0, m.group(2)))
    return at + 1, out


incidents = {}
steps = {}
# Each scenario's step verdicts in the local base run of the same kernel
# (/work/wt/base-run/summary.json, 2026-12-07): its steps, pass but the
# skips at these indexes (cleanup steps with nothing to clean up).
BASE_STEPS = {"ftrace/cache-remove-clear": (27, ()),
              "ftrace/cached-filter": (15, (10,)),
              "ftrace/filter-loaded-module": (18, ()),
              "ftrace/module-exists-boundary": (20, (15,)),
              "ftrace/module-exists-branch": (15, ()),
              "ftrace/notrace-mod": (19, (14,)),
              "ftrace/selftests": (8, (3,)),
              "ftrace/selftests-samples": (1, ())}


def frame(seq, payload):
    crc = zlib.crc32(("%d %s" % (seq, payload)).encode())
    return "VLALAB1 %d %08x %s\n" % (seq, crc, payload)


with tempfile.TemporaryDirectory() as tmp:
    p, v = fetch(console, tmp, "console.log")
    ok(p.returncode == 0, "the recorded console: exit %d, want 0 (%s)"
       % (p.returncode, p.stderr.strip()))
    ok(len(v) == 8 and set(v.values()) == {"pass"},
       "8 scenarios, all pass, as a local run: %r" % v)
    ok(hosts == {"lava-run"},
       "each scenario's host is the dispatcher run by hand: %r" % hosts)
    want = {n: ["skip" if i in sk else "pass" for i in range(k)]
            for n, (k, sk) in BASE_STEPS.items()}
    ok(steps == want,
       "each step's verdict in summary.json, as the local run's: %r"
       % {n: v for n, v in steps.items() if v != want.get(n)})

    # A job submitted to a server: its id names the host; a file with
    # anything but a number in it names none of it.
    for content, want in (("4711\n", "lava job 4711"),
                          ("47\x1b]0;x\n", "lava-run")):
        with open(os.path.join(tmp, "job", "lava-job-id"), "w") as f:
            f.write(content)
        hosts.clear()
        p, v = fetch(console, tmp, "console-%d.log" % len(want))
        ok(p.returncode == 0 and hosts == {want},
           "lava-job-id %r: host %r, want %r" % (content, hosts, want))
    os.unlink(os.path.join(tmp, "job", "lava-job-id"))

    # LAVA's log: a record a line, the console's in "target" records,
    # each '"' with a backslash before it (lava_dispatcher/shell.py's
    # ShellLogger), each record a YAML flow mapping, every scalar
    # double-quoted with YAML's escapes (lava_common/log.py's dump());
    # lava-run prints them, a server's log is a YAML list of them.
    def record(lvl, msg):
        return dump({"dt": "2026-12-07T05:01:00.000000", "lvl": lvl,
                     "msg": msg})

    def wrap(lines, prefix=""):
        lava = [record("info", "VLALAB1 0 00000000 {}"),
                record("results", {"case": "validate", "result": "pass"})]
        lava += [record("target", l.rstrip("\r\n").replace('"', '\\"'))
                 for l in lines]
        return "".join(prefix + r + "\n" for r in lava)

    for prefix, name in (("", "lava-run.log"), ("- ", "job.yaml")):
        p, v = fetch(wrap(lines, prefix), tmp, name)
        ok(p.returncode == 0 and len(v) == 8 and set(v.values()) == {"pass"},
           "LAVA's log (%s): its target lines alone, 8 passes (%s)"
           % (name, p.stderr.strip()))

    # What YAML escapes and JSON does not: kernel text with bytes beyond
    # ASCII and controls ("\xE9", "\a", "\x7F", "\U0001F600"), and a
    # frame whose payload holds UTF-8 (its CRC over those bytes).
    odd = "[    2.000000] vlalab: caf\u00e9 \u00b5s \a\x7f \U0001f600 \u2028.\n"
    k = next(i for i in frames if '"ev":"kmsg"' in lines[i])
    seq, _, pl = lines[k].split(" ", 3)[1:]
    utf = frame(int(seq), pl.rstrip("\r\n").replace("Linux", "Lin\u00fcx"))
    text = lines[:k] + [utf, odd] + lines[k + 1:]
    p, v = fetch(wrap(text, "- "), tmp, "escapes.yaml")
    res = os.path.join(tmp, "res-escapes.yaml")
    with open(os.path.join(res, os.listdir(res)[0], "console-lava.log"),
              encoding="utf-8") as f:
        con = f.read()
    ok(p.returncode == 0 and set(v.values()) == {"pass"} and odd in con,
       "YAML's escapes decoded: the frame in UTF-8 taken, the kernel's "
       "line kept whole (%s)" % p.stderr.strip())

    # A line that looks like a record but is not one (a bad escape):
    # it may have been a console line, so the run is red, said once.
    text = wrap(lines, "- ") + '- {"dt": "x", "lvl": "target", "msg": "\\q"}\n'
    p, v = fetch(text, tmp, "bad.yaml")
    ok(p.returncode == 1 and set(v.values()) == {"pass"} and
       "1 lines look like LAVA's records" in p.stderr,
       "a record not read: exit 1, said: %r" % p.stderr)

    # The frame of ftrace/selftests' scenario_begin goes missing.
    lost = next(i for i in frames
                if '"scenario_begin"' in lines[i] and "ftrace/selftests" in lines[i])
    p, v = fetch("".join(lines[:lost] + lines[lost + 1:]), tmp, "gap.log")
    ok(p.returncode == 1 and "missing" in p.stderr,
       "a lost frame: exit 1, said on stderr")
    ok(v.get("ftrace/selftests") == "error" and
       v.get("ftrace/selftests-samples") == "error" and
       v.get("ftrace/notrace-mod") == "pass",
       "the scenarios from the gap on are error, those before pass: %r" % v)

    # A test prints a frame of its own, well made, before guestd's next.
    first_end = next(i for i in frames if '"scenario_end"' in lines[i])
    seq = int(lines[first_end].split()[1])
    forged = frame(seq, lines[first_end].split(" ", 3)[3].rstrip("\r\n")
                   .replace('"verdict":"pass"', '"verdict":"fail"'))
    text = "".join(lines[:first_end] + [forged] + lines[first_end:])
    p, v = fetch(text, tmp, "forged.log")
    ok(p.returncode == 1 and "again" in p.stderr,
       "a forged frame: exit 1, the replay said on stderr")
    ok(len(v) == 8 and set(v.values()) == {"error"},
       "the forged verdict and every scenario after it are error: %r" % v)

    # A frame with a kernel message written into it.
    mid = frames[len(frames) // 2]
    broken = lines[mid][:30] + "\n[   5.000000] oops\n" + lines[mid][30:]
    p, v = fetch("".join(lines[:mid] + [broken] + lines[mid + 1:]), tmp,
                 "damaged.log")
    ok(p.returncode == 1 and "damaged" in p.stderr,
       "a damaged frame: exit 1, said on stderr")

    # The log ends in the middle of ftrace/selftests.
    cut = next(i for i in frames
               if '"step_end"' in lines[i] and "ftrace/selftests" in lines[i])
    p, v = fetch("".join(lines[:cut]) + lines[cut][:40], tmp, "cut.log")
    ok(p.returncode == 1 and v.get("ftrace/selftests") not in (None, "pass")
       and v.get("ftrace/selftests-samples") == "error",
       "a log cut short: exit 1, the open scenario not pass: %r" % v)

    # A kernel BUG during ftrace/cached-filter's fourth step; the guest
    # lives on and its steps pass: an unexpected incident fails it.
    at, bug = bug_during("ftrace/cached-filter", 3)
    p, v = fetch("".join(lines[:at] + bug + lines[at:]), tmp, "bug.log")
    want = ["kernel BUG in lkdtm_BUG"]
    ok(p.returncode == 1 and v.get("ftrace/cached-filter") == "fail" and
       incidents.get("ftrace/cached-filter") == want and
       list(v.values()).count("pass") == 7 and
       sum(map(len, incidents.values())) == 1,
       "a BUG the guest survived: its incident %r, fail, the others pass "
       "without one: %r %r" % (want, v, incidents))
    res = os.path.join(tmp, "res-bug.log")
    run = os.path.join(res, os.listdir(res)[0])
    with open(os.path.join(run, "console-lava.log")) as f:
        con = f.read()
    ok("lkdtm_BUG+0x5/0x10" in con and "VLALAB1 " not in con,
       "the run's console-lava.log: the kernel's text without the frames")

    # Each scenario's part of the console is its VM's console log, as in
    # a local run (vm1, vm2, ... in order): the exports find it there,
    # and the JUnit tail of the failed scenario is its own.
    with open(os.path.join(run, "summary.json")) as f:
        vms = {sc["name"]: sc.get("vm") for sc in json.load(f)["scenarios"]}
    parts = {}
    for name, vm in vms.items():
        path = os.path.join(run, "console-%s.log" % vm)
        parts[name] = open(path).read() if vm and os.path.exists(path) \
            else None
    ok(list(vms.values()) == ["vm%d" % i for i in range(1, 9)] and
       None not in parts.values() and "".join(parts.values()) in con and
       [n for n, t in parts.items() if "lkdtm_BUG+0x5" in t] ==
       ["ftrace/cached-filter"],
       "a console log per scenario, the BUG in ftrace/cached-filter's "
       "alone: %r" % vms)
    # events.jsonl names the VM summary.json gives each scenario, so that
    # what joins the two by VM label (report, export, diff) finds it.
    with open(os.path.join(run, "events.jsonl")) as f:
        events = [json.loads(line) for line in f]
    wrong = [(e.get("vm"), e.get("scenario")) for e in events
             if e.get("vm") not in vms.values() or
             (e.get("scenario") and e.get("vm") != vms.get(e["scenario"]))]
    ok(events and not wrong,
       "events.jsonl: each event's vm is its scenario's in summary.json: "
       "%d of %d wrong, %r" % (len(wrong), len(events), wrong[:3]))
    junit = os.path.join(tmp, "bug.xml")
    p = subprocess.run([hostctl, "export", "--junit", junit, run],
                       capture_output=True, text=True, timeout=60)
    cases = {}
    if p.returncode == 0:
        for tc in ET.parse(junit).iter("testcase"):
            out = tc.find("system-out")
            cases[tc.get("name")] = out.text if out is not None else ""
    failed = [n for n, t in cases.items() if t and "Call Trace:" in t]
    ok(p.returncode == 0 and failed and
       all(n.endswith("cached-filter") for n in failed),
       "hostctl export --junit: the failed scenario's console tail, its "
       "own BUG: %r (%s)" % (failed or cases, p.stderr.strip()))

    # The log ends in the BUG: the guest died in that step, a crash.
    p, v = fetch("".join(lines[:at] + bug), tmp, "bug-died.log")
    ok(p.returncode == 1 and v.get("ftrace/cached-filter") == "crash" and
       incidents.get("ftrace/cached-filter") == want,
       "a BUG that ended the log: its incident, crash: %r %r"
       % (v, incidents))

    # A real job under lava-run: a UBSAN report the guest survives, then
    # a panic that ends the job, each the scenario's expect_incident.
    with open(os.path.join(fixtures, "lkdtm-lava-run.log")) as f:
        p, v = fetch(f.read(), tmp, "lkdtm.log", "lkdtm-requests.jsonl")
    want = {"lkdtm/array-bounds":
            ["UBSAN: array-index-out-of-bounds in lkdtm_ARRAY_BOUNDS"],
            "lkdtm/corrupt-stack":
            ["kernel panic: stack-protector: Kernel stack is corrupted in: "
             "lkdtm_CORRUPT_STACK"]}
    ok(p.returncode == 0 and set(v.values()) == {"pass"} and
       incidents == want,
       "lava-run's lkdtm job: the expected incidents, as locally, pass: "
       "%r %r (%s)" % (v, incidents, p.stderr.strip()))
done()
