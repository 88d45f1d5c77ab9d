#!/bin/sh
# Integration (suite reliability): kill -9 of hostctl mid-run. With the
# fake guest (fake-guest.sh) in the middle of reliability/hang's step,
# SIGKILL hostctl and its process group; then within 5 s no QEMU of the run may be left, the run
# directory must hold a valid summary.json marked incomplete, the slot's
# lock must be free, and a next run on the same libvirt root must pass.
# Results stream: reliability/good, which ended before the kill, is
# already in the KTAP on stdout and in results.ktap, and its plain line
# on stderr. Then the same with SIGTERM: hostctl ends the run itself,
# summary.json and results.ktap both say it is incomplete, and it exits 3
# (docs/nightly.md).
set -eu
. "$(dirname "$0")/fake-guest.sh"
out=$(mktemp -d /tmp/hostctl-it-kill9-XXXXXX)
cache=${VLALAB_CACHE:-$HOME/.cache/vlalab}
make_scenarios "$out/scenarios" hang good
make_reliability_initrd "$out/fake.cpio.gz"

# Start a run of both scenarios into $out/$1, in the background ($pid,
# the leader of a process group of its own),
# and return once reliability/hang's step is open: its step_begin is in
# events.jsonl (a poll of a file, bounded, as nothing else tells this
# shell).
start_hang() {
	setsid "$HOSTCTL" run --format ktap --output "$out/$1" \
		--scenarios "$out/scenarios" --initrd "$out/fake.cpio.gz" \
		all > "$out/ktap-$1" 2> "$out/err-$1" &
	pid=$!
	i=0
	until grep -q '"step_begin","t_us":5,"scenario":"reliability/hang"' \
		"$out/$1/events.jsonl" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 3000 ] || ! kill -0 $pid 2>/dev/null; then
			echo "# $1: reliability/hang never began"
			cat "$out/err-$1"
			exit 1
		fi
		sleep 0.1
	done
}

start_hang run
run_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$out/run/summary.json")
qemus=$(qemu_pids "$run_id")
lock=$(ls -l /proc/$pid/fd | sed -n 's|.* -> \(.*/locks/libvirt-[0-9]*\.lock\)$|\1|p')
echo "# killing hostctl $pid (run $run_id; QEMU $qemus; lock $lock)"
# The whole process group, as a shell's job control or a test runner's
# timeout kills: the watchdog (in a session of its own) must outlive it.
kill -9 -$pid
wait $pid || true

# QEMU gets 5 s to go.
left=$qemus
i=0
while [ -n "$left" ] && [ $i -lt 50 ]; do
	left=
	for q in $qemus; do
		[ -e /proc/$q ] && ! grep -q '^State:.*Z' /proc/$q/status && left="$left $q"
	done
	[ -n "$left" ] || break
	i=$((i + 1))
	sleep 0.1
done

bad=0
if [ -z "$qemus" ]; then
	echo "# no QEMU found for run $run_id before the kill"
	bad=1
fi
if [ -n "$left" ]; then
	echo "# QEMU still running 5 s after kill -9:$left"
	bad=1
fi
python3 - "$out/run/summary.json" <<'PY' || bad=1
import json, sys
s = json.load(open(sys.argv[1]))
by = {sc["name"]: sc for sc in s["scenarios"]}
bad = []
if s.get("complete") is not False:
    bad.append("complete is %r, want false" % s.get("complete"))
if set(by) != {"reliability/hang", "reliability/good"}:
    bad.append("scenarios %r" % sorted(by))
for b in bad:
    print("# summary.json: " + b)
sys.exit(1 if bad else 0)
PY
for f in "$out/ktap-run" "$out/run/results.ktap"; do
	if ! grep -q '^1\.\.2$' "$f" ||
		! grep -q '^ok 1 reliability/good$' "$f"; then
		echo "# $f lacks the plan or reliability/good's test:"
		sed 's/^/#   /' "$f"
		bad=1
	fi
done
if ! grep -Eq '^\[1/2\] reliability/good pass [0-9]+\.[0-9] s$' "$out/err-run"; then
	echo "# no plain progress line for reliability/good on stderr:"
	sed 's/^/#   /' "$out/err-run"
	bad=1
fi
slot_root=
if [ -z "$lock" ]; then
	echo "# hostctl held no slot lock"
	bad=1
elif ! flock -n "$lock" true; then
	echo "# stale lock: $lock is still held"
	bad=1
else
	n=$(basename "$lock" .lock)
	n=${n#libvirt-}
	slot_root=$cache/libvirt
	[ "$n" = 0 ] || slot_root=$cache/libvirt-$n
fi
if [ -n "$slot_root" ]; then
	rc=0
	"$HOSTCTL" run --format ktap --output "$out/next" \
		--connect "qemu:///embed?root=$slot_root" \
		--scenarios "$out/scenarios" --initrd "$out/fake.cpio.gz" \
		reliability/good > "$out/ktap-next" || rc=$?
	if [ $rc != 0 ]; then
		echo "# the next run on $slot_root exited $rc"
		cat "$out/ktap-next"
		bad=1
	fi
fi

start_hang term
kill -TERM $pid
rc=0
wait $pid || rc=$?
if [ $rc != 3 ]; then
	echo "# SIGTERM: hostctl exited $rc, want 3"
	cat "$out/err-term"
	bad=1
fi
python3 - "$out/term/summary.json" <<'PY' || bad=1
import json, sys
s = json.load(open(sys.argv[1]))
bad = []
if s.get("complete") is not False:
    bad.append("complete is %r, want false" % s.get("complete"))
# reliability/good ran first and passed; the hang was cut short.
got = {sc["name"]: sc["verdict"] for sc in s["scenarios"]}
want = {"reliability/good": "pass", "reliability/hang": "error"}
if got != want:
    bad.append("verdicts %r, want %r" % (got, want))
for b in bad:
    print("# SIGTERM: summary.json: " + b)
sys.exit(1 if bad else 0)
PY
if [ "$(tail -n 1 "$out/term/results.ktap")" != \
	"# incomplete: hostctl did not finish this run" ]; then
	echo "# SIGTERM: results.ktap does not end incomplete:"
	sed 's/^/#   /' "$out/term/results.ktap"
	bad=1
fi
[ $bad = 0 ] && rm -rf "$out"
exit $bad
