#!/bin/sh
# Integration: a run outlives its reader (README, "Output into a pipe").
# Two runs of three short lkdtm scenarios under TCG, each with its
# standard output a pipe whose reader is already gone (as in `hostctl run
# all | head -3` once head has its lines), SIGPIPE at its default: the
# text report's run, then --format ktap's (whose KTAP on stdout ends
# there). Each goes on to its end: exit 0 (its verdicts'), a complete
# summary.json with the three passes, results.ktap with the three and its trailer, one
# line on stderr naming the run directory, and no QEMU of its left.
set -eu
exec python3 - "$HOSTCTL" <<'PY'
import json, os, shutil, subprocess, sys, tempfile

hostctl = sys.argv[1]
out = tempfile.mkdtemp(prefix="hostctl-it-pipe-")
names = ["lkdtm/array-bounds", "lkdtm/fortify-str-object",
         "lkdtm/usercopy-kernel"]
bad, n = [], 0


def check(cond, what):
    global n
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    if not cond:
        bad.append(what)


def qemus_of(d):
    """The pids of processes whose command line names @d."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if d.encode() in f.read():
                    pids.append(pid)
        except OSError:
            pass
    return pids


for fmt in ("text", "ktap"):
    d = os.path.join(out, fmt)
    r, w = os.pipe()
    os.close(r)
    # restore_signals (the default): SIGPIPE at its default, as a shell
    # starts hostctl.
    p = subprocess.run([hostctl, "run", "--accel", "tcg", "--format", fmt,
                        "--output", d, *names], stdout=w,
                       stderr=subprocess.PIPE, timeout=900)
    os.close(w)
    print("# %s: rc %d\n# stderr %r" % (fmt, p.returncode, p.stderr[-2000:]))
    check(p.returncode == 0,
          "%s: exit 0 (its verdicts'), not killed (got %d)" %
          (fmt, p.returncode))
    try:
        with open(os.path.join(d, "summary.json")) as f:
            s = json.load(f)
    except (OSError, ValueError) as e:
        s = {"scenarios": [], "error": str(e)}
    got = sorted((x["name"], x["verdict"]) for x in s["scenarios"])
    check(got == [(x, "pass") for x in names] and
          s.get("complete", True) is True,
          "%s: summary.json complete, three passes (got %r)" % (fmt, got))
    try:
        with open(os.path.join(d, "results.ktap")) as f:
            ktap = f.read()
    except OSError:
        ktap = ""
    oks = [l for l in ktap.splitlines() if l.startswith("ok ")]
    check(len(oks) == 3 and "# accelerator " in ktap and
          "# incomplete" not in ktap,
          "%s: results.ktap has the three results and its trailer" % fmt)
    check(b"its output's reader went away" in p.stderr and
          d.encode() in p.stderr,
          "%s: one line on stderr names the run directory" % fmt)
    check(qemus_of(d) == [], "%s: no QEMU of the run left" % fmt)

print("1..%d" % n)
if bad:
    sys.exit(1)
shutil.rmtree(out)
PY
