#!/bin/sh
# Integration: what guestd wrote before a step that panics the kernel
# reaches the host, however far behind the host was reading
# (docs/protocol.md, "Acknowledgements").
# A guest's events go through QEMU, which holds what its socket to the host
# cannot take in the guest's virtqueue: guestd's write() returned, but the
# host has not got it. A panic stops the guest; the host reads the socket
# dry, calls the guest dead and stops reading, and what QEMU still held
# (the step that panicked, the steps before it) is lost: 'got no incident',
# or one blamed on an earlier step (lkdtm/corrupt-stack-strong in a
# 'run all', once). Made certain here, not left to chance:
#  - backlog/panic sleeps 3 s, writes 330 kmsg lines (more than the socket
#    holds: each is its own write and its own skb), then panics
#    (sysrq 'c');
#  - hostctl is stopped (SIGSTOP) while the guest sleeps, so the lines
#    fill the socket and the rest waits in QEMU;
#  - if the guest panics while hostctl is stopped (QEMU's monitor socket
#    holds the events hostctl has not read), QEMU is stopped too before
#    hostctl goes on, so that QEMU cannot refill the socket while hostctl
#    reads it dry; QEMU goes on once hostctl asks it for something (the
#    memory dump, after it called the guest dead) or exits.
# With the host's acknowledgements the guest cannot panic while hostctl is
# stopped: the crash step waits until the host read its step_begin. The
# test checks that (within 20 s of the stop, 3 s of sleep included; the
# old code panicked about 1 s after the sleep), then that the scenario
# passes with its incident in step 2 (crash), all 330 lines and the
# crash step's step_begin in events.jsonl. Root's, for ss -p and signals to
# QEMU; 77 without it.
set -eu
if [ "$(id -u)" -ne 0 ] || ! command -v ss > /dev/null; then
	echo "# needs root and ss (iproute2) to watch QEMU's monitor socket; skipped"
	exit 77
fi
out=$(mktemp -d /tmp/hostctl-it-backlog-XXXXXX)
mkdir -p "$out/scenarios/backlog"
cat > "$out/scenarios/backlog/panic.json" <<'JSON'
{"description": "a backlog of events in QEMU when the kernel panics",
 "seed": "none", "timeout_ms": 60000, "step_timeout_ms": 20000,
 "steps": [
  {"kind": "sleep", "name": "wait", "ms": 3000},
  {"kind": "write", "name": "flood", "path": "/dev/kmsg",
   "value": "backlog line\n", "repeat": 330},
  {"kind": "write", "name": "crash", "path": "/proc/sysrq-trigger",
   "value": "c"}],
 "expect_incident": {"kind": "panic", "title": "sysrq triggered crash",
  "survives": false, "step": "crash"}}
JSON
# --clock wall: a guest that sleeps under icount sleep=off races through
# its sleep in no time, before the host can be stopped.
"$HOSTCTL" run --format ktap --clock wall --output "$out/run" \
	--scenarios "$out/scenarios" backlog/panic > "$out/ktap" 2> "$out/err" &
pid=$!
qemu=
stopped=
panicked=no
# Whatever happens to this script, neither is left stopped.
trap 'kill -CONT $pid $qemu 2>/dev/null || :' EXIT
# QEMU's side of its monitor socket: $3 what libvirt sent that QEMU has
# not read, $4 what QEMU sent that libvirt has not read.
monitor_q() {
	ss -xnp 2>/dev/null | awk -v p="pid=$qemu," -v f="$1" \
		'index($0, p) && /monitor\.sock/ { print $f; exit }'
}
while kill -0 $pid 2>/dev/null; do
	if grep -q '"name":"wait"' "$out/run/events.jsonl" 2>/dev/null; then
		kill -STOP $pid
		stopped=$(date +%s)
		break
	fi
	sleep 0.05
done
if [ -n "$stopped" ]; then
	for p in /proc/[0-9]*; do
		[ "$(awk '{ print $4 }' "$p/stat" 2>/dev/null)" = $pid ] || continue
		tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q 'guest=vlalab-' &&
			qemu=${p#/proc/}
	done
	while [ -n "$qemu" ] && [ $(($(date +%s) - stopped)) -lt 20 ]; do
		if [ "$(monitor_q 4)" != 0 ] && [ -n "$(monitor_q 4)" ]; then
			panicked=yes
			break
		fi
		sleep 0.1
	done
	if [ $panicked = yes ]; then
		kill -STOP $qemu
		kill -CONT $pid
		while kill -0 $pid 2>/dev/null &&
			[ "$(monitor_q 3)" = 0 ] &&
			[ $(($(date +%s) - stopped)) -lt 120 ]; do
			sleep 0.1
		done
		kill -CONT $qemu 2>/dev/null || :
	else
		kill -CONT $pid
	fi
fi
rc=0
wait $pid || rc=$?
cat "$out/ktap"
cat "$out/err" >&2
echo "# hostctl stopped while the guest slept: ${stopped:+yes}; QEMU $qemu;" \
	"the guest panicked meanwhile: $panicked; exit $rc"
echo "# run directory: $out/run"
python3 - "$out/run" "$rc" "$stopped" "$qemu" "$panicked" <<'PY'
import json, os, sys
run, rc, stopped, qemu, panicked = sys.argv[1:]
bad = []
if not stopped or not qemu:
    bad.append("hostctl was not stopped while the guest slept, or its QEMU not found")
if panicked == "yes":
    bad.append("the guest panicked while hostctl was stopped: the crash step "
               "began before the host read its step_begin")
if rc != "0":
    bad.append("hostctl: exit %s, want 0" % rc)
try:
    sc = json.load(open(os.path.join(run, "summary.json")))["scenarios"][0]
    got = sc.get("incidents") or []
    if sc["verdict"] != "pass" or len(got) != 1 or got[0].get("step") != 2:
        bad.append("backlog/panic: %s, incidents %r: %r"
                   % (sc["verdict"], got, (sc.get("reason") or "")[:200]))
except Exception as e:
    bad.append("summary.json: %r" % e)
lines, crash_begun = 0, False
try:
    with open(os.path.join(run, "events.jsonl")) as f:
        for l in f:
            e = json.loads(l)
            if e.get("ev") == "kmsg" and e.get("msg") == "backlog line":
                lines += 1
            if e.get("ev") == "step_begin" and e.get("name") == "crash":
                crash_begun = True
except Exception as e:
    bad.append("events.jsonl: %r" % e)
print("# events.jsonl: %d of 330 lines, the crash step's step_begin: %s"
      % (lines, crash_begun))
if lines != 330:
    bad.append("%d of the 330 lines the guest wrote before the panic came" % lines)
if not crash_begun:
    bad.append("no step_begin of the crash step")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
