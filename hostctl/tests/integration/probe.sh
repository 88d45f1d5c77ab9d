#!/bin/sh
# Integration (issue 27): libvirt's probe of QEMU's capabilities costs a
# run its own time and no more, once per libvirt root.
#
# A cache of the test's own, sharing the real one's kernel builds and
# images but none of its libvirt roots, so that every root is new. Two
# runs of ftrace/cached-filter at once (each takes a root of its own, and
# each probes), then two more one after the other (each on the first
# root again, which must not probe again), the first started on one CPU
# and the second on another: libvirt 9.0 found its cache outdated
# whenever the CPU that opened the driver changed ("host cpuid
# changed"). Checked: every run passes; the first two each print the one
# line that says libvirt probed, and how long it took; the later two
# print none; and libvirt's log has no "Failed to terminate process",
# the 40 s wait for a probe QEMU left a zombie under hostctl.
set -eu
real=${VLALAB_CACHE:-$HOME/.cache/vlalab}
# Short: libvirt's channel socket paths under the root must fit 108 bytes.
out=$(mktemp -d /tmp/hp-XXXXXX)
cache=$out/c
mkdir "$cache"
for e in "$real"/*; do
	case ${e##*/} in
	libvirt* | vms | locks | uses.log) ;; # the roots, and their claims
	# hostctl refuses a private folder that is a link: a copy, the
	# same key, so that the image the key is built into stays cached.
	ssh) cp -a "$e" "$cache/" ;;
	*) ln -s "$e" "$cache/" ;;
	esac
done
unset VLALAB_CACHE LIBVIRT_DEFAULT_URI

# The CPUs this test may use: the first two, for the runs in sequence.
cpus=$(python3 -c 'import os; print(" ".join(str(c) for c in sorted(os.sched_getaffinity(0))))')
all=$(echo "$cpus" | tr ' ' ',')
first=${cpus%% *}
second=$(echo "$cpus" | cut -d' ' -f2)

# run NAME [CPU]: one run, started on CPU when given (then free to move);
# its exit code and wall time in $out/NAME.rc.
run() {
	start=$(date +%s%N)
	rc=0
	if [ $# -gt 1 ]; then
		taskset -c "$2" taskset -c "$all" "$HOSTCTL" run --cache "$cache" \
			--format ktap --output "$out/$1" ftrace/cached-filter \
			>"$out/$1.ktap" 2>"$out/$1.err" || rc=$?
	else
		"$HOSTCTL" run --cache "$cache" --format ktap \
			--output "$out/$1" ftrace/cached-filter \
			>"$out/$1.ktap" 2>"$out/$1.err" || rc=$?
	fi
	echo "$rc $(( ($(date +%s%N) - start) / 1000000 ))" >"$out/$1.rc"
}

run a &
pa=$!
run b &
pb=$!
wait $pa $pb
run c "$first"
run d "$second"
echo "# run directories and logs: $out"

python3 - "$out" "$cache" <<'PY'
import os, re, sys
out, cache = sys.argv[1:]
bad = []
probe = re.compile(r"^hostctl: libvirt probed QEMU's capabilities in "
                   r"([0-9.]+) s ")
for name in "abcd":
    rc, ms = map(int, open(os.path.join(out, name + ".rc")).read().split())
    err = open(os.path.join(out, name + ".err")).read().splitlines()
    probed = [float(m.group(1)) for m in map(probe.match, err) if m]
    print("# run %s: exit %d in %.1f s, probe %s" %
          (name, rc, ms / 1000, "%.1f s" % probed[0] if probed else "none"))
    if rc != 0:
        bad.append("run %s exited %d: %s" % (name, rc, " | ".join(err[-5:])))
    if name in "ab" and len(probed) != 1:
        bad.append("run %s on a new root printed %d probe lines, want 1"
                   % (name, len(probed)))
    if name in "cd" and probed:
        bad.append("run %s probed again (%.1f s) on a root already probed"
                   % (name, probed[0]))
log = os.path.join(cache, "libvirt-hostctl.log")
waits = [l for l in open(log) if "Failed to terminate process" in l] \
    if os.path.exists(log) else []
if waits:
    bad.append("libvirt waited for %d zombie QEMUs: %s"
               % (len(waits), waits[0].strip()))
for b in bad:
    print("not ok - " + b)
if bad:
    sys.exit(1)
print("ok - two new roots probed once each, no zombie waits, no probe after")
PY
rm -rf "$out"
