#!/bin/sh
# Integration: a guest whose vCPU the host starves is not called hung
# (docs/crashes.md, "Detection"). The silence bound (VM_SILENCE_MS, 15 s)
# counts without the time QEMU's vCPU threads waited for a host CPU
# (their run_delay, hostctl/vm/silence.c); under load 15-25 the ftrace
# scenarios ended "no heartbeat for 15 s" although the guest was fine.
# A fake guest (fake-guest.sh) sends a heartbeat every second; starve/sleep
# begins its step and passes it 30 s later. Meanwhile the test moves the
# guest's vCPU thread ("CPU 0/TCG") into a cpu cgroup of its own with a
# quota of 1 ms a second for STARVE_S (22) seconds: the guest sends
# nothing for 22 s, past the bound, because the host did not run it.
#  - starve/sleep passes, and the vCPU's run_delay grew by 18 s or more
#    (else the test did not starve it, and says so);
#  - starve/spin, a real hang (the heartbeats stop, the vCPU spins),
#    still ends `timeout`, "not even a heartbeat", within twice the
#    bound however loaded the host (the spinning vCPU waits for a host
#    CPU too, and at most the bound is discounted): 45 s at most from
#    its begin. Its timeout is long (600 s), so the silence bound comes
#    first.
# On the old code (wall time) starve/sleep ended `timeout`, "no heartbeat
# for 15 s". Needs root and the cgroup v1 cpu controller (or exits 77,
# saying why); the quota is lifted and the cgroup removed on every exit.
set -eu
. "$(dirname "$0")/fake-guest.sh"
STARVE_S=22
BEAT_WORK=3000
cpu=/sys/fs/cgroup/cpu
if [ "$(id -u)" != 0 ] || [ ! -w "$cpu/tasks" ] ||
	[ ! -e "$cpu/cpu.cfs_quota_us" ]; then
	echo "# skip: needs root and the cgroup v1 cpu controller at $cpu" \
		"(a cgroup of its own for QEMU's vCPU thread)"
	exit 77
fi
out=$(mktemp -d /tmp/hostctl-it-starve-XXXXXX)
cg=$cpu/$(basename "$out")
tid=
pid=
cleanup() {
	[ -n "$tid" ] && echo "$tid" > "$cpu/tasks" 2>/dev/null
	[ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && kill "$pid"
	return 0
}
trap cleanup EXIT
trap 'exit 1' INT TERM

mkdir -p "$out/scenarios/starve"
for name in sleep spin; do
	cat > "$out/scenarios/starve/$name.json" <<JSON
{"description": "fake guest: starve/$name", "seed": "none",
 "timeout_ms": 600000, "step_timeout_ms": 600000,
 "steps": [{"kind": "read", "path": "/proc/version", "match": "Linux"}]}
JSON
done
root="$out/root"
fake_root "$root" 1
cat >> "$root/init" <<'INIT'
# Each beat costs the vCPU some work (BEAT_WORK iterations of the shell,
# about 30 ms of a host CPU under TCG), as guestd's does in a busy guest:
# at the quota's 1 ms a second, a beat of a bare echo (about 10 ms) still
# came every 10 s, within the bound, and the old code passed.
(while :; do
	i=0
	while [ $i -lt BEAT_WORK ]; do i=$((i + 1)); done
	echo '{"ev":"heartbeat","t_us":2}' >&3
	sleep 1
done) &
hb=$!
begin() {
	echo "{\"ev\":\"scenario_begin\",\"t_us\":4,\"scenario\":\"$1\",\"nsteps\":1}" >&3
	echo "{\"ev\":\"step_begin\",\"t_us\":5,\"scenario\":\"$1\",\"step\":0,\"kind\":\"read\"}" >&3
}
while read -r line <&3; do
	case "$line" in
	*'"shutdown"'*)
		echo '{"ev":"bye","t_us":3}' >&3
		sleep 1
		poweroff -f ;;
	*'"starve/sleep"'*)
		begin starve/sleep
		sleep 30
		echo '{"ev":"step_end","t_us":6,"scenario":"starve/sleep","step":0,"verdict":"pass","duration_us":1}' >&3
		echo '{"ev":"scenario_end","t_us":7,"scenario":"starve/sleep","verdict":"pass","duration_us":3}' >&3 ;;
	*'"starve/spin"'*)
		begin starve/spin
		kill $hb
		while :; do :; done ;;
	esac
done
INIT
sed -i "s/BEAT_WORK/$BEAT_WORK/" "$root/init"
(cd "$root" && find . | cpio -H newc -o 2>/dev/null | gzip -1) > "$out/starve.cpio.gz"

"$HOSTCTL" run --format ktap --output "$out/run" --scenarios "$out/scenarios" \
	--initrd "$out/starve.cpio.gz" starve/sleep starve/spin \
	> "$out/ktap" 2> "$out/err" &
pid=$!
# Until starve/sleep's step begins: boot time is not the test's; polled.
began=
while kill -0 $pid 2>/dev/null; do
	if grep -q '"step_begin".*"starve/sleep"' "$out/run/events.jsonl" \
		2>/dev/null; then
		began=yes
		break
	fi
	sleep 0.2
done
# The guest's QEMU (hostctl is its subreaper, so its parent) and its vCPU.
qemu=
for p in /proc/[0-9]*; do
	[ "$(awk '{ print $4 }' "$p/stat" 2>/dev/null)" = $pid ] || continue
	tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q 'guest=vlalab-' &&
		qemu=${p#/proc/}
done
for t in /proc/${qemu:-0}/task/*; do
	[ "$(cat "$t/comm" 2>/dev/null)" = "CPU 0/TCG" ] && tid=${t##*/}
done 2>/dev/null
delay0=0
delay1=0
if [ -n "$began" ] && [ -n "$tid" ]; then
	delay0=$(cut -d' ' -f2 "/proc/$tid/schedstat")
	mkdir "$cg"
	echo 1000000 > "$cg/cpu.cfs_period_us"
	echo 1000 > "$cg/cpu.cfs_quota_us"
	echo "$tid" > "$cg/tasks"
	echo "# starving QEMU $qemu's vCPU thread $tid for $STARVE_S s"
	sleep $STARVE_S
	delay1=$(cut -d' ' -f2 "/proc/$tid/schedstat" 2>/dev/null || echo 0)
	echo "$tid" > "$cpu/tasks" 2>/dev/null || true
	rmdir "$cg"
fi
tid=
rc=0
wait $pid || rc=$?
pid=
cat "$out/ktap"
cat "$out/err" >&2
echo "# hostctl: exit $rc; run directory: $out/run"
python3 - "$out" "$rc" "$began" "$qemu" "$delay0" "$delay1" <<'PY'
import json, os, sys
out, rc, began, qemu = sys.argv[1:5]
starved = (int(sys.argv[6]) - int(sys.argv[5])) / 1e9
bad = []
if not began:
    bad.append("starve/sleep's step never began (exit %s)" % rc)
elif not qemu:
    bad.append("no QEMU of hostctl's found")
print("# the vCPU waited %.1f s for a host CPU" % starved)
if rc != "1":
    bad.append("hostctl: exit %s, want 1 (starve/spin's timeout)" % rc)
if began and starved < 18:
    bad.append("the vCPU waited %.1f s, not starved past the bound" % starved)
try:
    s = json.load(open(os.path.join(out, "run", "summary.json")))
    sc = {x["name"]: x for x in s["scenarios"]}
    for name, want, reason in [("starve/sleep", "pass", ""),
                               ("starve/spin", "timeout", "not even a heartbeat")]:
        x = sc.get(name, {})
        print("# %s: %s after %s ms: %s" % (name, x.get("verdict"),
              x.get("duration_ms"), x.get("reason", "")))
        if x.get("verdict") != want or reason not in x.get("reason", ""):
            bad.append("%s: %s (%r), want %s %s" % (name, x.get("verdict"),
                       x.get("reason"), want, reason))
    # Twice the bound, and a few turns of a loaded host's loop.
    if sc.get("starve/spin", {}).get("duration_ms", 0) > 45000:
        bad.append("starve/spin: its hang took %s ms, bound 2 x 15 s"
                   % sc["starve/spin"]["duration_ms"])
except Exception as e:
    bad.append("summary.json: %r" % e)
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
