#!/bin/sh
# Integration: a fake guest (busybox sh as /init, no guestd) sends ESC, BEL,
# OSC 52 (a terminal's clipboard write), C1 controls and \r, JSON-escaped,
# in every string of the protocol it can, and prints a console line with C1
# controls that the classifier turns into an incident title. Names and
# kinds with a control character must be refused by the decoder (the
# scenario ends in error); texts are kept, and must leave escaped. The run
# goes with --format ktap to a pipe and stderr on a pty, so one run shows
# the live progress line and the plain line (stderr), the streamed KTAP
# (stdout, results.ktap) and --junit; hostctl report and hostctl-fmt's
# text, KTAP, JUnit and HTML of its summary.json are checked too. No output
# may hold a control byte but newline and tab (the pty's own "\r\e[K" of
# the live line aside), and a KTAP reader that splits on \r (or on any of
# Python's line ends) must see no extra result line.
set -eu
. "$(dirname "$0")/fake-guest.sh"
: "${HOSTCTL_FMT:?HOSTCTL_FMT must name hostctl-fmt}"
out=$(mktemp -d /tmp/hostctl-it-term-XXXXXX)

mkdir -p "$out/scenarios/term"
for name in a-console b-texts c-step-name d-subtest-name e-kind f-scenario; do
	cat > "$out/scenarios/term/$name.json" <<JSON
{"description": "terminal injection: $name", "seed": "none", "timeout_ms": 60000,
 "steps": [{"kind": "read", "path": "/proc/version", "match": "Linux"}]}
JSON
done

root="$out/root"
fake_root "$root" 1
mkdir -p "$root/ev"
# Each scenario's events, and the console line, made here: busybox's echo
# and the shell's quoting stay out of the payloads' way.
python3 - "$root" <<'PY'
import json, sys
root = sys.argv[1]
# ESC (colour, erase screen), BEL, OSC 52 (set the clipboard), C1 CSI and
# NEL, DEL, U+2028, and \r before forged KTAP results.
P = ("\x1b[31mRED\x1b[0m bell\x07 \x1b]52;c;cHduZWQ=\x07 c1\x9b2J nel\x85 "
     "del\x7f ls\u2028 \rok 99 - forged\rnot ok 98 - forged\nsecond line")
R = "why\rok 97 - forged \x1b]52;c;cHduZWQ=\x07\x9b"

def ev(what, **kw):
    return dict(ev=what, t_us=5, **kw)

def write(name, events):
    with open("%s/ev/%s.jsonl" % (root, name), "w") as f:
        for e in events:
            # ensure_ascii: every control goes out as \u00XX (raw ones
            # are refused before decoding).
            f.write(json.dumps(e, ensure_ascii=True) + "\n")

def begin(sc, kind="read", name=None, scname=None):
    step = dict(scenario=sc, step=0, kind=kind)
    if name is not None:
        step["name"] = name
    return [ev("scenario_begin", scenario=scname or sc, nsteps=1),
            ev("step_begin", **step)]

def end(sc):
    return [ev("step_end", scenario=sc, step=0, verdict="pass", duration_us=1),
            ev("scenario_end", scenario=sc, verdict="pass", duration_us=3)]

sc = "term/a-console"
write("a-console", begin(sc) + end(sc))
sc = "term/b-texts"
write("b-texts", begin(sc) + [
    ev("subtest", scenario=sc, step=0, index=0, name="plain", verdict="fail", reason=P),
    ev("subtest", scenario=sc, step=0, index=1, name="skipped", verdict="skip", reason=R),
    ev("subtest", scenario=sc, step=0, index=2, name="x", verdict="xfail", reason=R),
    ev("kmsg", scenario=sc, step=0, seq=1, ts_us=1, prio=3, msg=P),
    ev("step_end", scenario=sc, step=0, verdict="fail", duration_us=1,
       expected=P, got=P, reason=P),
    ev("scenario_end", scenario=sc, verdict="fail", duration_us=3, reason=P)])
sc = "term/c-step-name"
write("c-step-name", begin(sc, name="n\x1b]52;c;cHduZWQ=\x07\x9b\rnot ok 96 - forged") + end(sc))
sc = "term/d-subtest-name"
write("d-subtest-name", begin(sc) + [
    ev("subtest", scenario=sc, step=0, index=0, name="s\rok 95 - forged\x1b[2J",
       verdict="pass")] + end(sc))
sc = "term/e-kind"
write("e-kind", begin(sc, kind="read\x1b]52;c;cHduZWQ=\x07\r") + end(sc))
sc = "term/f-scenario"
write("f-scenario", begin(sc, scname=sc + "\x07\r\x1b[2J") + end(sc))
# A console line the classifier reads as a BUG: report.c drops C0 and
# ANSI escapes but not C1 (UTF-8 C2 9B, C2 85) nor a raw 0x9b byte.
with open(root + "/bug.txt", "wb") as f:
    f.write(b"BUG: evil \xc2\x9b2J c1 \xc2\x85 nel \x9b raw at here\n")
PY
cat >> "$root/init" <<'INIT'
(while :; do echo '{"ev":"heartbeat","t_us":2}' >&3; sleep 1; done) &
while read -r line <&3; do
	case "$line" in
	*'"shutdown"'*)
		echo '{"ev":"bye","t_us":3}' >&3
		sleep 1
		poweroff -f ;;
	*'"term/a-console"'*)
		# A whole scenario before term/b-texts ends: its incident is
		# on the console by then, in one of the two.
		cat /bug.txt
		cat /ev/a-console.jsonl >&3 ;;
	*'"term/'*)
		name=${line#*'"term/'}
		cat "/ev/${name%%'"'*}.jsonl" >&3 ;;
	esac
done
INIT
(cd "$root" && find . | cpio -H newc -o 2>/dev/null | gzip -1) > "$out/term.cpio.gz"

# The run: stdout (KTAP) to a file, stderr on a pty 300 columns wide,
# raw (no \n -> \r\n), read as it comes.
rc=0
python3 - "$out" "$HOSTCTL" <<'PY' || rc=$?
import fcntl, os, select, struct, subprocess, sys, termios, tty
out, hostctl = sys.argv[1], sys.argv[2]
master, slave = os.openpty()
tty.setraw(slave)
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 300, 0, 0))
with open(out + "/stdout", "wb") as so:
    p = subprocess.Popen([hostctl, "run", "--format", "ktap",
                          "--output", out + "/run",
                          "--scenarios", out + "/scenarios",
                          "--initrd", out + "/term.cpio.gz",
                          "--junit", out + "/junit.xml", "all"],
                         stdin=subprocess.DEVNULL, stdout=so, stderr=slave)
os.close(slave)
got = b""
while True:
    r, _, _ = select.select([master], [], [], 1)
    if r:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if not data:
            break
        got += data
    elif p.poll() is not None:
        break
p.wait()
open(out + "/stderr.pty", "wb").write(got)
sys.exit(p.returncode)
PY
echo "# hostctl run exited $rc; run directory: $out/run"
# The live line's "\r\e[K" as a line break, for the log.
sed 's/\r\x1b\[K/\n/g' "$out/stderr.pty" | grep -v '^$' | sed 's/^/# stderr: /' |
	head -60
"$HOSTCTL" report "$out/run" > "$out/report.txt" || true
for mode in text ktap junit html; do
	"$HOSTCTL_FMT" "$mode" "$out/run/summary.json" > "$out/fmt.$mode"
done

python3 - "$out" "$rc" <<'PY'
import json, os, re, sys
out, rc = sys.argv[1], int(sys.argv[2])
bad = []
if rc != 1:
    bad.append("the run exited %d, want 1 (scenarios failed)" % rc)

def controls(name, data):
    """The control characters in @data: none but newline and tab."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return ["%s: not UTF-8 (%s)" % (name, e)]
    found = sorted({"U+%04X" % ord(c) for c in text
                    if (ord(c) < 0x20 and c not in "\n\t")
                    or 0x7f <= ord(c) <= 0x9f or c in "\u2028\u2029"})
    return ["%s: control characters %s" % (name, " ".join(found))] if found else []

files = {
    "stdout (--format ktap)": "stdout",
    "results.ktap": "run/results.ktap",
    "--junit": "junit.xml",
    "hostctl report": "report.txt",
    "text": "fmt.text",
    "KTAP": "fmt.ktap",
    "JUnit": "fmt.junit",
    "HTML": "fmt.html",
}
for name, path in files.items():
    data = open(os.path.join(out, path), "rb").read()
    if not data:
        bad.append("%s: empty" % name)
    bad += controls(name, data)
# The pty: the live line's own "\r\e[K" aside.
pty = open(os.path.join(out, "stderr.pty"), "rb").read()
if b"\r\x1b[K[vm" not in pty or b"term/b-texts: step 1/1 read" not in pty:
    bad.append("no live progress line on the pty")
if b"] term/b-texts fail" not in pty:
    bad.append("no plain line for term/b-texts on stderr")
bad += controls("progress (pty)", pty.replace(b"\r\x1b[K", b""))

# KTAP: splitting on \r, or on every line end Python knows, finds the
# result lines a \n split finds, no more.
def results(lines):
    return [l for l in lines if re.match(r"\s*(not )?ok \d+", l)]
for path in ("stdout", "run/results.ktap", "fmt.ktap"):
    text = open(os.path.join(out, path), "rb").read().decode("utf-8", "replace")
    want = results(text.split("\n"))
    for how, lines in (("\\r", re.split(r"[\r\n]", text)),
                       ("splitlines()", text.splitlines())):
        got = results(lines)
        if got != want:
            bad.append("%s split on %s: %d result lines, %d on \\n: %r" %
                       (path, how, len(got), len(want),
                        [l for l in got if l not in want][:3]))
    if "forged" in text and not re.search(r"\\x0dok 9\d - forged", text):
        bad.append("%s: no escaped \\r before a forged line" % path)

# A console title may hold bytes that are not UTF-8 (a raw 0x9b).
s = json.loads(open(os.path.join(out, "run", "summary.json"), "rb").read()
               .decode("utf-8", "surrogateescape"))
by = {sc["name"]: sc for sc in s["scenarios"]}
for name, field in (("c-step-name", "step_begin: field 'name'"),
                    ("d-subtest-name", "subtest: field 'name'"),
                    ("e-kind", "step_begin: field 'kind'"),
                    ("f-scenario", "scenario_begin: field 'scenario'")):
    sc = by["term/" + name]
    if sc["verdict"] != "error" or field + " holds control character U+00" not in sc["reason"]:
        bad.append("%s: %s: %r, want the decoder's refusal" %
                   (name, sc["verdict"], sc["reason"]))
sc = by["term/b-texts"]
if sc["verdict"] != "fail" or "\x1b]52;c;" not in sc["reason"]:
    bad.append("b-texts: %s: %r, want fail with its reason kept" %
               (sc["verdict"], sc["reason"]))
incs = [i for n in ("term/a-console", "term/b-texts")
        for i in by[n].get("incidents", []) if "evil" in i["title"]]
if not incs:
    bad.append("no incident from the console's BUG line")
text = open(os.path.join(out, "fmt.text"), encoding="utf-8",
            errors="replace").read()
for want in ("\\x1b]52;c;cHduZWQ=\\x07", "\\xc2\\x9b2J", "\\xc2\\x85",
             "\\x0dok 99 - forged", "incident: "):
    if want not in text:
        bad.append("text: no %r" % want)
for b in bad:
    print("# " + b)
print("# checked: %s, the pty" % ", ".join(files))
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
