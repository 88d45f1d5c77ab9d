#!/bin/sh
# Sourced by the integration tests with fake guests (its variables start
# with fg_). fake_root DIR VERSION lays out a fake guest's root: busybox,
# and an /init that mounts /proc, /sys and /dev, opens guestd's port as fd
# 3 and says hello with protocol VERSION; the caller appends the rest.
# For the reliability tests, make_reliability_initrd FILE builds a fake guest
# (busybox sh as /init, no guestd) that answers hello and shutdown like
# guestd and each scenario by its name:
#   reliability/good   one read step that passes;
#   reliability/flood  one step whose kmsg events are /flood.jsonl (made
#                      by make_flood), then a pass;
#   reliability/hang   begins its step and never ends it (heartbeats go on).
# The hostile test's approach (hostile.sh), with valid events only.
busybox=$(command -v busybox || echo /bin/busybox)

fake_root() {
	mkdir -p "$1/bin" "$1/proc" "$1/sys" "$1/dev"
	cp "$busybox" "$1/bin/busybox"
	echo "$2" > "$1/version"
	cat > "$1/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for p in /sys/class/virtio-ports/*; do
	[ "$(cat "$p/name")" = org.vlalab.guestd.0 ] && port=/dev/${p##*/}
done
exec 3<>"$port"
echo "{\"ev\":\"hello\",\"t_us\":1,\"version\":$(cat /version),\"release\":\"$(uname -r)\",\"proc_version\":\"fake\",\"cmdline\":\"fake\",\"config_digest\":\"\",\"boot_ms\":1}" >&3
INIT
	chmod +x "$1/init"
}

# make_flood FILE N: N valid kmsg events of reliability/flood, step 0; the
# sequence numbers skip 17 after the first half (17 records dropped).
make_flood() {
	python3 - "$1" "$2" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    for i in range(n):
        seq = i if i < n // 2 else i + 17
        f.write('{"ev":"kmsg","t_us":%d,"scenario":"reliability/flood",'
                '"step":0,"seq":%d,"ts_us":%d,"prio":6,'
                '"msg":"flood record %d: the quick brown fox jumps over the lazy dog"}\n'
                % (10 + i, seq, 10 + i, i))
PY
}

# make_reliability_initrd FILE [FLOOD]: the fake guest's initramfs, with FLOOD as
# /flood.jsonl when given.
make_reliability_initrd() {
	fg_root=$(mktemp -d "${TMPDIR:-/tmp}/hostctl-fake-root-XXXXXX")
	fake_root "$fg_root" 1
	[ $# -gt 1 ] && cp "$2" "$fg_root/flood.jsonl"
	cat >> "$fg_root/init" <<'INIT'
beat() { while :; do echo '{"ev":"heartbeat","t_us":2}' >&3; sleep 1; done; }
beat &
hb=$!
begin() { # begin NAME: scenario_begin and step_begin of step 0
	echo "{\"ev\":\"scenario_begin\",\"t_us\":4,\"scenario\":\"$1\",\"nsteps\":1}" >&3
	echo "{\"ev\":\"step_begin\",\"t_us\":5,\"scenario\":\"$1\",\"step\":0,\"kind\":\"read\"}" >&3
}
pass() { # pass NAME: step 0 and the scenario pass
	echo "{\"ev\":\"step_end\",\"t_us\":6,\"scenario\":\"$1\",\"step\":0,\"verdict\":\"pass\",\"duration_us\":1}" >&3
	echo "{\"ev\":\"scenario_end\",\"t_us\":7,\"scenario\":\"$1\",\"verdict\":\"pass\",\"duration_us\":3}" >&3
}
while read -r line <&3; do
	case "$line" in
	*'"shutdown"'*)
		echo '{"ev":"bye","t_us":3}' >&3
		sleep 1
		poweroff -f ;;
	*'"reliability/good"'*)
		begin reliability/good
		pass reliability/good ;;
	*'"reliability/flood"'*)
		# No heartbeat in the middle of a line: the flood is data enough.
		kill $hb
		begin reliability/flood
		cat /flood.jsonl >&3
		pass reliability/flood
		beat &
		hb=$! ;;
	*'"reliability/hang"'*)
		begin reliability/hang ;;
	esac
done
INIT
	(cd "$fg_root" && find . | cpio -H newc -o 2>/dev/null | gzip -1) > "$1"
	rm -rf "$fg_root"
}

# make_scenarios DIR NAME...: one read step each (the fake guest only looks
# at the name), with long timeouts for the flood and the hang: the hang's
# step must still be open when kill9.sh's signal comes, however loaded
# the host.
make_scenarios() {
	fg_dir=$1/reliability
	shift
	mkdir -p "$fg_dir"
	for fg_name in "$@"; do
		cat > "$fg_dir/$fg_name.json" <<JSON
{"description": "fake guest: $fg_name", "seed": "none", "timeout_ms": 600000,
 "step_timeout_ms": 600000,
 "steps": [{"kind": "read", "path": "/proc/version", "match": "Linux"}]}
JSON
	done
}

# qemu_pids RUN_ID: the QEMUs of that run's domains (vlalab-RUN_ID-N).
qemu_pids() {
	for fg_p in /proc/[0-9]*; do
		cat "$fg_p/cmdline" 2>/dev/null | tr '\0' ' ' |
			grep -q "guest=vlalab-$1-" && echo "${fg_p#/proc/}"
	done
	return 0
}
