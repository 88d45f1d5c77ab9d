#!/bin/sh
# Integration (suite reliability): bounded guest output and a full disk,
# with a fake guest (fake-guest.sh) that floods the channel with 100,000
# valid kmsg events, 17 sequence numbers skipped.
#  1. baseline: one short scenario; hostctl's peak RSS (VmHWM).
#  2. the flood, default bound: every event in events.jsonl, kmsg_dropped
#     17, nothing cut, and hostctl's peak RSS within 8 MiB of the baseline.
#  3. the flood, --events-max-mb 1: the run goes on (exit 0); the flood's
#     part of events.jsonl within 1 MiB, its first and last events kept,
#     a cut line whose bytes are exactly what is missing, events_cut_bytes
#     the same.
#  4. the flood into a 2 MiB tmpfs (as root; else a 2 MiB RLIMIT_FSIZE):
#     exit 3, "writing '.../events.jsonl': ...; the run stopped", no QEMU
#     of the run left, events.jsonl whole lines only, summary.json valid
#     and incomplete.
#  5. a real guest floods its serial console (/dev/console, 8,000 lines of
#     200 bytes, a minute or so under TCG) with --console-max-mb 1: the run
#     goes on (exit 0, the scenario passes, its later step too); the log
#     within 1 MiB, its first boot line and the flood's last line (written
#     after it) kept, one '[vlalab: N bytes cut]' mark, N equal to
#     console_cut_bytes and to the flood lines missing; hostctl's peak RSS
#     within 8 MiB of the baseline.
# Prints "# rss: NAME KB" lines, the figures of docs/reliability.md.
set -eu
. "$(dirname "$0")/fake-guest.sh"
out=$(mktemp -d /tmp/hostctl-it-reliability-XXXXXX)
n=100000
make_scenarios "$out/scenarios" good flood
make_flood "$out/flood.jsonl" $n
make_reliability_initrd "$out/fake.cpio.gz" "$out/flood.jsonl"

# run_measured NAME HOSTCTL-ARGS...: hostctl run, its exit code in
# $out/NAME.rc and its peak RSS in kB (VmHWM, sampled every 0.1 s until
# it exits: a high-water mark, so the last sample holds the peak but for
# the last 0.1 s) in $out/NAME.hwm.
run_measured() {
	name=$1
	shift
	"$HOSTCTL" run --format ktap "$@" > "$out/$name.ktap" \
		2> "$out/$name.err" &
	pid=$!
	hwm=0
	while kill -0 $pid 2>/dev/null; do
		h=$(awk '/^VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null || true)
		[ -n "$h" ] && hwm=$h
		sleep 0.1
	done
	rc=0
	wait $pid || rc=$?
	echo $rc > "$out/$name.rc"
	echo $hwm > "$out/$name.hwm"
	echo "# rss: $name ${hwm} kB (exit $rc)"
	cat "$out/$name.err" >&2
}

fake="--scenarios $out/scenarios --initrd $out/fake.cpio.gz"
run_measured baseline $fake --output "$out/baseline" reliability/good
run_measured flood $fake --output "$out/flood" all
run_measured flood-1mb $fake --output "$out/flood-1mb" --events-max-mb 1 all
run_measured console-flood --output "$out/console-flood" --console-max-mb 1 \
	--scenarios "$SRCDIR/hostctl/tests/console-fixtures" all

full=$out/full
mkdir -p "$full"
if mount -t tmpfs -o size=2m tmpfs "$full" 2>/dev/null; then
	how=tmpfs
	run_measured full $fake --output "$full/run" all || true
else
	# Not root: a file size limit (4096 blocks of 512 bytes) makes write(2)
	# fail as a full disk does.
	how=rlimit
	(trap '' XFSZ; ulimit -f 4096; run_measured full $fake --output "$full/run" all)
fi
qemus=$(qemu_pids "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$full/run/summary.json" 2>/dev/null || echo none)")
cp -r "$full/run" "$out/full-run" 2>/dev/null || true
[ $how = tmpfs ] && umount "$full"

python3 - "$out" "$n" "$how" "$qemus" <<'PY'
import json, os, re, sys
out, n, how, qemus = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
bad = []

def rc(name):
    return int(open(os.path.join(out, name + ".rc")).read())

def hwm(name):
    return int(open(os.path.join(out, name + ".hwm")).read())

def summary(d):
    return json.load(open(os.path.join(out, d, "summary.json")))

def lines(d):
    data = open(os.path.join(out, d, "events.jsonl"), "rb").read()
    if data and not data.endswith(b"\n"):
        bad.append("%s: events.jsonl ends in half a line" % d)
    return data.split(b"\n")[:-1]

flood_bytes = sum(len(l) for l in open(os.path.join(out, "flood.jsonl"), "rb"))
flood_lines = sum(1 for l in open(os.path.join(out, "flood.jsonl"), "rb"))

# 1 and 2: all recorded, RSS flat.
for name in ("baseline", "flood"):
    if rc(name) != 0:
        bad.append("%s: exit %d, want 0" % (name, rc(name)))
s = summary("flood")
by = {sc["name"]: sc for sc in s["scenarios"]}
if s.get("complete") is not True:
    bad.append("flood: complete is %r" % s.get("complete"))
fl = by["reliability/flood"]
if fl["verdict"] != "pass" or fl.get("kmsg_dropped") != 17 or "events_cut_bytes" in fl:
    bad.append("flood: %r" % {k: fl.get(k) for k in ("verdict", "kmsg_dropped", "events_cut_bytes")})
kmsg = [json.loads(l) for l in lines("flood") if b'"ev":"kmsg"' in l]
if len(kmsg) != n or kmsg[0]["seq"] != 0 or kmsg[-1]["seq"] != n + 16:
    bad.append("flood: %d kmsg events recorded, want %d" % (len(kmsg), n))
if hwm("baseline") <= 0 or hwm("flood") > hwm("baseline") + 8192:
    bad.append("flood: peak RSS %d kB, baseline %d kB: grew more than 8 MiB"
               % (hwm("flood"), hwm("baseline")))

# 3: cut to the bound, and says how much.
if rc("flood-1mb") != 0:
    bad.append("flood-1mb: exit %d, want 0 (a cut is not a failure)" % rc("flood-1mb"))
fl = {sc["name"]: sc for sc in summary("flood-1mb")["scenarios"]}["reliability/flood"]
ls = lines("flood-1mb")
for l in ls:
    json.loads(l)
cuts = [o for o in map(json.loads, ls) if o.get("host") == "cut"]
kept = [json.loads(l) for l in ls if b'"ev":"kmsg"' in l]
kept_bytes = sum(len(l) + 1 for l in ls if b'"ev":"kmsg"' in l)
# events.jsonl names the VM in each line: {"vm":"vmN", then the guest's
# line after its '{'. What was cut counts those bytes too.
flood_vm = kept[0]["vm"] if kept else ""
flood_bytes += flood_lines * len('"vm":"%s",' % flood_vm)
part = sum(len(l) + 1 for l in ls) - sum(len(l) + 1 for l in ls if b'"reliability/good"' in l)
if len(cuts) != 1 or cuts[0]["bytes"] != fl.get("events_cut_bytes"):
    bad.append("flood-1mb: cut lines %r, events_cut_bytes %r" % (cuts, fl.get("events_cut_bytes")))
elif cuts[0]["bytes"] != flood_bytes - kept_bytes:
    bad.append("flood-1mb: cut %d bytes, but %d are missing" % (cuts[0]["bytes"], flood_bytes - kept_bytes))
if part > (1 << 20) + 4096:
    bad.append("flood-1mb: the flood's part is %d bytes, bound 1 MiB" % part)
if not kept or kept[0]["seq"] != 0 or kept[-1]["seq"] != n + 16:
    bad.append("flood-1mb: first and last events not both kept")
if fl["verdict"] != "pass":
    bad.append("flood-1mb: %s" % fl["verdict"])
print("# flood-1mb: events.jsonl %d bytes, %d kmsg events kept, %d bytes cut"
      % (os.path.getsize(os.path.join(out, "flood-1mb", "events.jsonl")), len(kept), fl.get("events_cut_bytes", 0)))

# 5: the console log stops at its bound, head, mark and tail.
name = "console-flood"
log = open(os.path.join(out, name, "console-vm1.log"), "rb").read()
sc = summary(name)["scenarios"][0]
marks = re.findall(rb"\[vlalab: (\d+) bytes cut\]\r?\n", log)
flood_line = b"console flood " + b"x" * 184 + b"\r\n"
if rc(name) != 0 or sc["verdict"] != "pass":
    bad.append("%s: exit %d, verdict %s: the run did not go on" % (name, rc(name), sc["verdict"]))
if len(log) > (1 << 20) + 64:
    bad.append("%s: console-vm1.log is %d bytes, bound 1 MiB" % (name, len(log)))
if not log.startswith(b"[    0.") or b"console flood done\r\n" not in log[-1024:]:
    bad.append("%s: the log lost its first boot line or the flood's last line" % name)
if len(marks) != 1 or int(marks[0]) != sc.get("console_cut_bytes"):
    bad.append("%s: marks %r, console_cut_bytes %r" % (name, marks, sc.get("console_cut_bytes")))
else:
    # Whole lines are cut, never one in two: the bytes cut are the flood's
    # missing lines, give or take a few lines that another print broke
    # into (kept, but no longer flood lines) or that came between.
    missing = (8000 - log.count(flood_line)) * len(flood_line)
    if abs(int(marks[0]) - missing) >= 4096:
        bad.append("%s: %s bytes cut, %d bytes of flood lines missing" % (name, marks[0].decode(), missing))
if hwm(name) > hwm("baseline") + 8192:
    bad.append("%s: peak RSS %d kB, baseline %d kB" % (name, hwm(name), hwm("baseline")))
print("# %s: console-vm1.log %d bytes, %d flood lines kept, %s bytes cut"
      % (name, len(log), log.count(flood_line), sc.get("console_cut_bytes")))

# 4: a full disk stops the run cleanly.
err = open(os.path.join(out, "full.err")).read()
want = "writing '%s/full/run/events.jsonl': %s; the run stopped" % (
    out, "No space left on device" if how == "tmpfs" else "File too large")
if rc("full") != 3:
    bad.append("full (%s): exit %d, want 3" % (how, rc("full")))
if want not in err:
    bad.append("full: stderr %r lacks %r" % (err, want))
if qemus.strip():
    bad.append("full: QEMUs left running: %s" % qemus)
try:
    s = summary("full-run")
    if s.get("complete") is not False:
        bad.append("full: summary.json complete %r" % s.get("complete"))
except Exception as e:
    bad.append("full: summary.json: %s" % e)
for l in lines("full-run"):
    json.loads(l)
print("# full (%s): %s" % (how, err.strip().splitlines()[-1] if err.strip() else ""))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
