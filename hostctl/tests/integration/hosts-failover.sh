#!/bin/sh
# Integration (suite reliability): one run over two libvirt hosts, the
# embedded driver and a libvirtd this test starts (TCP on 127.0.0.1, no
# auth, a free port, its own sockets, state, qemu.conf, pool definitions
# and images folder (the pool 'vlalab' hostctl makes) in a mount
# namespace of its own, so nothing of the machine's libvirt is touched).
# 'ftrace/*' runs with a lane on each; once a VM started on the daemon,
# the daemon is killed (-9). The run must end, every scenario must be
# pass (the one in flight retried on the embedded host, which stays up)
# or error, none lost, the exit code
# non-zero if any is an error, the host taken out said on stderr within
# 30 s of the kill (its connection's close callback), and summary.json
# must name the host of every scenario that ran.
set -eu
for p in /usr/sbin/libvirtd /usr/sbin/virtlogd unshare virsh; do
	command -v "$p" > /dev/null || { echo "1..0 # SKIP $p is missing"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP the daemon's mount namespace needs root"; exit 77; }
out=$(mktemp -d /tmp/hostctl-it-hosts-XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
uri="qemu+tcp://127.0.0.1:$port/system"
mkdir -p "$out/run-libvirt" "$out/etc" "$out/storage" "$out/images"
cat > "$out/libvirtd.conf" <<CONF
listen_tls = 0
listen_tcp = 1
auth_tcp = "none"
listen_addr = "127.0.0.1"
tcp_port = "$port"
unix_sock_dir = "$out/run-libvirt"
log_outputs = "3:file:$out/libvirtd.log"
CONF
# QEMU as root, files left as they are: the cache is root's.
cat > "$out/etc/qemu.conf" <<CONF
user = "root"
group = "root"
dynamic_ownership = 0
security_driver = "none"
CONF
unshare -m --propagation private sh -c "
	mount --bind '$out/run-libvirt' /run/libvirt &&
	mount --bind '$out/etc/qemu.conf' /etc/libvirt/qemu.conf &&
	mount --bind '$out/storage' /etc/libvirt/storage &&
	mount --bind '$out/images' /var/lib/libvirt/images &&
	/usr/sbin/virtlogd -d -p '$out/virtlogd.pid' &&
	exec /usr/sbin/libvirtd --listen -f '$out/libvirtd.conf' -p '$out/libvirtd.pid'" \
	> "$out/libvirtd.out" 2>&1 &
daemon=$!
cleanup() {
	kill -9 $daemon 2> /dev/null || true
	[ -s "$out/virtlogd.pid" ] && kill "$(cat "$out/virtlogd.pid")" 2> /dev/null || true
	# The uploaded kernel, initramfs and cloud image: 136 MiB a run.
	rm -rf "$out/images"
	return 0
}
trap cleanup EXIT
i=0
until virsh -c "$uri" version > /dev/null 2>&1; do
	i=$((i + 1))
	if [ $i -gt 300 ] || ! kill -0 $daemon 2> /dev/null; then
		echo "1..0 # SKIP libvirtd did not start: $(tail -3 "$out/libvirtd.out" "$out/libvirtd.log" 2> /dev/null | tr '\n' ' ')"
		exit 77
	fi
	sleep 0.1
done
echo "# libvirtd $daemon on $uri"

setsid "$HOSTCTL" run --format ktap --output "$out/run" \
	--connect embedded,jobs=1 --connect "$uri,jobs=1" 'ftrace/*' \
	> "$out/ktap" 2> "$out/err" &
pid=$!
# Its first VM on the daemon: its host line in events.jsonl (a bounded
# poll of a file, as nothing else tells this shell).
i=0
until grep -qF "\"uri\":\"$uri\"" "$out/run/events.jsonl" 2> /dev/null; do
	i=$((i + 1))
	if [ $i -gt 6000 ] || ! kill -0 $pid 2> /dev/null; then
		echo "# no VM ever started on $uri"
		cat "$out/err"
		exit 1
	fi
	sleep 0.1
done
run_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$out/run/summary.json")
echo "# killing libvirtd $daemon mid-run (run $run_id)"
kill -9 $daemon
t_kill=$(date +%s.%N)
# When hostctl says the host is out: a bounded poll of its stderr, as
# nothing else tells this shell. The close callback sees the dead
# daemon's socket at once; a wait that ran out saw it after minutes.
t_out=
i=0
while [ $i -lt 6000 ]; do
	if grep -qF "libvirt host '$uri' failed" "$out/err" 2> /dev/null; then
		t_out=$(date +%s.%N)
		break
	fi
	kill -0 $pid 2> /dev/null || break
	i=$((i + 1))
	sleep 0.1
done
rc=0
wait $pid || rc=$?
# The daemon's QEMUs outlive it: this test's, by their domain's name.
for p in /proc/[0-9]*; do
	tr '\0' ' ' < "$p/cmdline" 2> /dev/null | grep -q "guest=vlalab-$run_id-" &&
		kill -9 "${p#/proc/}" 2> /dev/null || true
done
cat "$out/ktap"
sed 's/^/# stderr: /' "$out/err"
python3 - "$out/run" "$rc" "$uri" "$out/err" "$t_kill" "$t_out" <<'PY'
import json, os, sys
run, rc, uri, err = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
t_kill, t_out = float(sys.argv[5]), sys.argv[6]
s = json.load(open(os.path.join(run, "summary.json")))
n = failed = 0
def ok(cond, what):
    global n, failed
    n += 1
    failed += not cond
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
names = sorted(f[:-5] for f in os.listdir(os.path.join(os.environ["SRCDIR"], "scenarios", "ftrace")) if f.endswith(".json"))
got = sorted(sc["name"][len("ftrace/"):] for sc in s["scenarios"])
ok(got == names, "every ftrace scenario has a result: %s" % got)
ok(s.get("complete") is True, "the run ended (complete)")
v = {sc["name"]: sc["verdict"] for sc in s["scenarios"]}
ok(all(x in ("pass", "error") for x in v.values()), "pass or error only: %s" % v)
# The embedded host stays up: the scenario in flight on the daemon is
# retried there, so none is lost to the kill, not even as an error.
ok(all(x == "pass" for x in v.values()), "all pass, the one in flight retried: %s" % v)
errors = [k for k, x in v.items() if x == "error"]
ok((rc != 0) == bool(errors) and rc in (0, 1, 3), "exit %d with %d errors" % (rc, len(errors)))
ran = [sc for sc in s["scenarios"] if sc["verdict"] == "pass"]
ok(ran and all(sc.get("host") in ("embedded", uri) for sc in ran),
   "each passed scenario names its host: %s" % {sc["name"]: sc.get("host") for sc in ran})
ok("libvirt host '%s' failed; it is taken out of the run" % uri in open(err).read(),
   "stderr says the host was taken out")
# The close callback (vm.c) ends the host's VMs when its connection
# closes: the host is out within seconds, not when a wait runs out (the
# hello bound, 120 s under TCG).
took = float(t_out) - t_kill if t_out else None
print("# the host was taken out %s after the kill" %
      ("%.1f s" % took if took is not None else "never"))
ok(took is not None and took < 30,
   "the host is taken out within 30 s of its daemon's death")
print("1..%d" % n)
# meson reads this test's exit code, not its TAP: a "not ok" must fail it.
sys.exit(1 if failed else 0)
PY
