#!/bin/sh
# Integration: a remote libvirt host, with nothing shared but the
# connection (issue 34, item 1; docs/scale.md). The test starts a libvirt
# daemon of its own (libvirtd --listen, TCP on 127.0.0.1, auth_tcp none)
# in a mount namespace that gives it its own /run/libvirt, /etc/libvirt
# (its qemu.conf and pool definitions), images directory and QEMU logs,
# so that it shares no state with another daemon or test. Then it runs
# `hostctl run 'ftrace/*' --connect qemu+tcp://127.0.0.1:PORT/system`
# twice and checks that
#   - every ftrace scenario passes, both times;
#   - no QEMU the daemon started was given a path under the local cache or
#     the run directory: the command line in each domain's log (the daemon
#     keeps one per domain, after it ends) names none, and names the pool's
#     volumes instead;
#   - the first run found or uploaded the kernel and initramfs (and the
#     cloud image's disks and seed), and the second nothing: the seed is
#     the same bytes again (hostctl's "pool 'vlalab'" line);
#   - lkdtm/corrupt-stack's panic leaves a memory dump in its bundle,
#     through the pool, whole, and no dump volume or part behind;
#   - volumes a killed run would leave (a dead hostctl's overlay, and an
#     upload it cut short) go with `hostctl gc --connect`, and nothing
#     else of the pool does; no marker of an upload stays.
# Exit 77, with the reason, when the daemon cannot start (not root, no
# libvirtd, no mount namespace). The daemon is stopped at the end, however
# the test ends.
set -eu
LIBVIRTD=${LIBVIRTD:-/usr/sbin/libvirtd}
if [ "$(id -u)" -ne 0 ]; then
	echo "# skip: a system libvirtd needs root"
	exit 77
fi
if [ ! -x "$LIBVIRTD" ] || ! command -v virsh > /dev/null; then
	echo "# skip: no $LIBVIRTD or virsh (apt-get install libvirt-daemon-system)"
	exit 77
fi
cache=${VLALAB_CACHE:-$HOME/.cache/vlalab}
out=$(mktemp -d /tmp/hostctl-it-remote-XXXXXX)
d=$out/daemon
mkdir -p "$d" "$d/images" "$d/log" "$d/sock"
# QEMU's user walks to the pool's volumes.
chmod 0711 "$out" "$d" "$d/images"
# The daemon's whole configuration is a copy of the system's.
cp -a /etc/libvirt "$d/etc"
# Our daemon runs no virtlogd: QEMU's stdio goes to files (a real host runs
# virtlogd). Everything else is Debian's default: QEMU as libvirt-qemu,
# dynamic_ownership on, the DAC security driver.
echo 'stdio_handler = "file"' >> "$d/etc/qemu.conf"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$d/libvirtd.conf" <<EOF
listen_tls = 0
listen_tcp = 1
auth_tcp = "none"
listen_addr = "127.0.0.1"
tcp_port = "$port"
unix_sock_dir = "$d/sock"
EOF
uri="qemu+tcp://127.0.0.1:$port/system"

daemon=
stop_daemon() {
	if [ -n "$daemon" ] && kill -0 "$daemon" 2>/dev/null; then
		# Our domains first: a daemon stopped leaves its QEMUs running.
		for n in $(virsh -c "$uri" list --name 2>/dev/null); do
			virsh -c "$uri" destroy "$n" > /dev/null 2>&1 || true
		done
		kill "$daemon"
		wait "$daemon" 2>/dev/null || true
	fi
	daemon=
}
trap 'stop_daemon' EXIT
trap 'exit 130' INT TERM

# Its own /run/libvirt (the driver's lock and state), /etc/libvirt (its
# qemu.conf, and the pool's definition), images (the pool goes there) and
# QEMU logs.
unshare -m --propagation private sh -c '
	d=$1
	mount -t tmpfs tmpfs /run/libvirt &&
	mount --bind "$d/etc" /etc/libvirt &&
	mount --bind "$d/images" /var/lib/libvirt/images &&
	mount --bind "$d/log" /var/log/libvirt &&
	exec "$2" --listen -f "$d/libvirtd.conf" -p "$d/libvirtd.pid"
' sh "$d" "$LIBVIRTD" > "$d/libvirtd.out" 2>&1 &
daemon=$!
# Up when it answers; gone when it exited.
i=0
until virsh -c "$uri" version > /dev/null 2>&1; do
	if ! kill -0 "$daemon" 2>/dev/null; then
		echo "# skip: libvirtd did not start:"
		sed 's/^/# /' "$d/libvirtd.out"
		daemon=
		exit 77
	fi
	i=$((i + 1))
	if [ $i -gt 300 ]; then
		echo "# skip: libvirtd did not answer on $uri within 30 s"
		sed 's/^/# /' "$d/libvirtd.out"
		exit 77
	fi
	sleep 0.1
done
echo "# libvirtd $daemon on $uri"

bad=0
for k in 1 2; do
	rc=0
	start=$(date +%s.%N)
	"$HOSTCTL" run --format ktap --output "$out/run$k" --connect "$uri" \
		'ftrace/*' > "$out/ktap$k" 2> "$out/err$k" || rc=$?
	end=$(date +%s.%N)
	cat "$out/ktap$k"
	grep "pool 'vlalab'" "$out/err$k" | sed 's/^/# /' || true
	echo "# run $k: exit $rc, $(python3 -c "print('%.1f' % ($end - $start))") s"
	if [ "$rc" -ne 0 ]; then
		echo "# run $k exited $rc, want 0; its stderr:"
		sed 's/^/# /' "$out/err$k"
		bad=1
	fi
done
# A panic's memory dump: QEMU writes it into a volume of the pool, which
# hostctl downloads into the bundle and deletes.
rc=0
"$HOSTCTL" run --format ktap --output "$out/run3" --connect "$uri" \
	lkdtm/corrupt-stack > "$out/ktap3" 2> "$out/err3" || rc=$?
cat "$out/ktap3"
if [ "$rc" -ne 0 ]; then
	echo "# run 3 exited $rc, want 0; its stderr:"
	sed 's/^/# /' "$out/err3"
	bad=1
fi
# What a run killed with -9 leaves (pool-reap.c): an overlay and an
# upload cut short, with its marker, named with their dead hostctl.
dead=$(sh -c 'echo $$')
tag="~$dead~1~$(hostname)"
hex=0000000000000000000000000000000000000000000000000000000000000000
for v in "vlalab-killed-1-vda$tag" "$hex" "$hex.up$tag"; do
	virsh -c "$uri" vol-create-as vlalab "$v" 1 > /dev/null
done
rc=0
"$HOSTCTL" gc --connect "$uri" --dry-run > "$out/gc-dry" 2>&1 || rc=$?
"$HOSTCTL" gc --connect "$uri" > "$out/gc" 2>&1 || rc=$((rc + $?))
sed 's/^/# gc: /' "$out/gc"
[ "$rc" -eq 0 ] || { echo "# hostctl gc --connect exited $rc"; bad=1; }
virsh -c "$uri" vol-list vlalab > "$out/vols" 2>&1 || true
stop_daemon

python3 - "$out" "$cache" <<'PY' || bad=1
import glob, json, os, re, sys
out, cache = sys.argv[1], os.path.realpath(sys.argv[2])
bad = []
for k in (1, 2):
    run = os.path.join(out, "run%d" % k)
    try:
        s = json.load(open(os.path.join(run, "summary.json")))
    except OSError as e:
        bad.append("run %d: no summary.json: %s" % (k, e))
        continue
    names = [sc["name"] for sc in s["scenarios"]]
    if len([n for n in names if n.startswith("ftrace/")]) < 5:
        bad.append("run %d: want the 5 ftrace scenarios, got %r" % (k, names))
    for sc in s["scenarios"]:
        if sc["verdict"] != "pass":
            bad.append("run %d: %s: %s: %s" % (k, sc["name"], sc["verdict"],
                                               sc["reason"]))
# What each QEMU was given, from the daemon's log of each domain.
logs = glob.glob(os.path.join(out, "daemon", "log", "qemu", "vlalab-*.log"))
if not logs:
    bad.append("the daemon logged no domain of ours")
local = [cache, os.path.realpath(out)]
pool = os.path.join(out, "daemon", "images", "vlalab")
for path in logs:
    text = open(path, errors="replace").read()
    if "qemu-system" not in text:
        bad.append("%s: no QEMU command line" % path)
        continue
    # The daemon's own paths are under its images dir, not ours.
    for p in re.findall(r"/[^\s,'\"]+", text):
        if p.startswith(local[0]) or p.startswith(local[1] + "/run"):
            bad.append("%s: QEMU was given the local path %s" %
                       (os.path.basename(path), p))
    if "-kernel /var/lib/libvirt/images/vlalab/" not in text:
        bad.append("%s: the kernel is not the pool's volume" %
                   os.path.basename(path))
# The first run found or sent the kernel, the initramfs, and for
# ftrace/trace-cmd-mod the cloud image, its modules disk and its seed. The
# second finds them all: plan.c makes a seed per run, but the same bytes
# (cloud_iso_settle()), so its volume is there already.
for k in (1, 2):
    err = open(os.path.join(out, "err%d" % k)).read()
    m = re.search(r"pool 'vlalab' of '[^']*': (\d+) files uploaded "
                  r"\(([0-9.]+) MiB in [0-9.]+ s\), (\d+) there already", err)
    if not m:
        bad.append("run %d: no line on what went into the pool" % k)
        continue
    sent, mib, found = int(m.group(1)), float(m.group(2)), int(m.group(3))
    if sent + found != 5:
        bad.append("run %d: %d sent + %d found, want 5 files" %
                   (k, sent, found))
    if k == 2 and sent:
        bad.append("run 2 uploaded %d files, %.1f MiB: want none"
                   % (sent, mib))
# The dump came down whole, and its volume went.
s = json.load(open(os.path.join(out, "run3", "summary.json")))
inc = [i for sc in s["scenarios"] for i in sc.get("incidents") or []]
if len(inc) != 1 or not inc[0].get("bundle"):
    bad.append("run 3: want one incident with a bundle, got %r" % inc)
else:
    b = os.path.join(out, "run3", inc[0]["bundle"])
    dumps = [p for p in glob.glob(os.path.join(b, "vmcore*"))
             if os.path.getsize(p) > 0]
    if not dumps:
        bad.append("run 3: no memory dump in %s: %s" %
                   (b, open(os.path.join(b, "dump.txt")).read()
                    if os.path.exists(os.path.join(b, "dump.txt"))
                    else "no note"))
    else:
        head = open(dumps[0], "rb").read(8)
        # QEMU writes kdump in makedumpfile's flattened format, as for a
        # local run.
        if not head.startswith((b"makedump", b"KDUMP", b"\x7fELF")):
            bad.append("run 3: %s is no dump: %r" % (dumps[0], head))
    parts = glob.glob(os.path.join(b, "*.tmp.*"))
    if parts:
        bad.append("run 3: parts of a download left: %r" % parts)
left = [v for v in os.listdir(pool) if v.startswith("dump-") or ".up~" in v] \
    if os.path.isdir(pool) else []
if left:
    bad.append("dump volumes or upload markers left in the pool: %r" % left)
# hostctl gc --connect: the dead run's three volumes, and nothing else.
gc, dry = (open(os.path.join(out, f)).read() for f in ("gc", "gc-dry"))
if "would remove 3 volumes of dead runs" not in dry:
    bad.append("gc --dry-run: want 3 volumes: %r" % dry)
if "removed 3 volumes of dead runs" not in gc:
    bad.append("gc: want 3 volumes removed: %r" % gc)
vl = open(os.path.join(out, "vols")).read()
if "killed" in vl or "0" * 64 in vl:
    bad.append("gc left the dead run's volumes: %r" % vl)
vols = [v for v in os.listdir(pool) if not v.endswith(".ok")] \
    if os.path.isdir(pool) else []
if len(vols) < 2:
    bad.append("the pool holds %r, want the kernel and the initramfs" % vols)
for b in bad:
    print("# " + b)
print("# %d domains' command lines checked, pool: %s" % (len(logs), vols))
sys.exit(1 if bad else 0)
PY
if [ "$bad" -ne 0 ]; then
	echo "# run directories: $out"
	exit 1
fi
rm -rf "$out"
echo "# ok"
