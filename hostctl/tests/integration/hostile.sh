#!/bin/sh
# Integration: a misbehaving guest through real libvirt. A fake /init (busybox
# sh, no guestd) answers each scenario with one kind of bad line. Every bad
# line must end that VM with the scenario as `error`, the line saved in
# protocol-error-vmN.txt, and the next scenario must run on a fresh VM. A
# guest that claims pass without a step event gets `error` too. A
# guest that stops answering is a host-side timeout; one that falls silent
# (no heartbeat) hangs: a timeout too, with a hang incident and a bundle. A guest with another protocol version must
# stop the run with a clear error.
set -eu
. "$(dirname "$0")/fake-guest.sh"
out=$(mktemp -d /tmp/hostctl-it-hostile-XXXXXX)

# Scenarios: one read step each; the fake guest only looks at the name.
mkdir -p "$out/scenarios/hostile"
for name in claims-pass good mute silent too-long unknown-event wrong-type; do
	# Short, so that silent hits the host's bound (1 s + 10 s + 0.5 s);
	# long for mute, so that the silence bound (15 s) comes first.
	timeout=1000
	[ "$name" = mute ] && timeout=30000
	cat > "$out/scenarios/hostile/$name.json" <<JSON
{"description": "hostile guest: $name", "seed": "none", "timeout_ms": $timeout,
 "steps": [{"kind": "read", "path": "/proc/version", "match": "Linux"}]}
JSON
done

make_initrd() { # make_initrd VERSION FILE
	root="$out/root-$1"
	fake_root "$root" "$1"
	cat >> "$root/init" <<'INIT'
(while :; do echo '{"ev":"heartbeat","t_us":2}' >&3; sleep 1; done) &
hb=$!
while read -r line <&3; do
	case "$line" in
	*'"shutdown"'*)
		echo '{"ev":"bye","t_us":3}' >&3
		sleep 1
		poweroff -f ;;
	*'"hostile/good"'*)
		echo '{"ev":"scenario_begin","t_us":4,"scenario":"hostile/good","nsteps":1}' >&3
		echo '{"ev":"step_begin","t_us":5,"scenario":"hostile/good","step":0,"kind":"read"}' >&3
		echo '{"ev":"step_end","t_us":6,"scenario":"hostile/good","step":0,"verdict":"pass","duration_us":1}' >&3
		echo '{"ev":"scenario_end","t_us":7,"scenario":"hostile/good","verdict":"pass","duration_us":3}' >&3 ;;
	*'"hostile/claims-pass"'*)
		echo '{"ev":"scenario_begin","t_us":4,"scenario":"hostile/claims-pass","nsteps":1}' >&3
		echo '{"ev":"scenario_end","t_us":5,"scenario":"hostile/claims-pass","verdict":"pass","duration_us":1}' >&3 ;;
	*'"hostile/mute"'*)
		kill $hb ;;
	*'"hostile/silent"'*)
		;;
	*'"hostile/too-long"'*)
		head -c 70000 /dev/zero | tr '\0' a >&3
		echo >&3 ;;
	*'"hostile/unknown-event"'*)
		echo '{"ev":"format_disk","t_us":4,"device":"/dev/sda"}' >&3 ;;
	*'"hostile/wrong-type"'*)
		echo '{"ev":"scenario_begin","t_us":4,"scenario":"hostile/wrong-type","nsteps":"1"}' >&3 ;;
	esac
done
INIT
	(cd "$root" && find . | cpio -H newc -o 2>/dev/null | gzip -1) > "$2"
}
make_initrd 1 "$out/hostile.cpio.gz"
make_initrd 2 "$out/version2.cpio.gz"

rc=0
"$HOSTCTL" run --format ktap --output "$out/run" --scenarios "$out/scenarios" \
	--initrd "$out/hostile.cpio.gz" all > "$out/ktap" || rc=$?
cat "$out/ktap"
rc2=0
"$HOSTCTL" run --format ktap --output "$out/run2" --scenarios "$out/scenarios" \
	--initrd "$out/version2.cpio.gz" all > "$out/ktap2" || rc2=$?
cat "$out/ktap2"
echo "# run directories: $out/run $out/run2"
python3 - "$out" "$rc" "$rc2" <<'PY'
import json, os, sys
out, rc, rc2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
bad = []
if rc != 1:
    bad.append("hostile run exited %d, want 1" % rc)
s = json.load(open(os.path.join(out, "run", "summary.json")))
by = {sc["name"]: sc for sc in s["scenarios"]}
if by["hostile/good"]["verdict"] != "pass":
    bad.append("good: %r" % by["hostile/good"])
for name, text in (("too-long", "longer than 65535"),
                   ("unknown-event", "format_disk"),
                   ("wrong-type", "nsteps")):
    sc = by["hostile/" + name]
    if sc["verdict"] != "error" or "protocol error" not in sc["reason"] or text not in sc["reason"]:
        bad.append("%s: %s: %r" % (name, sc["verdict"], sc["reason"]))
saved = ""
for f in sorted(os.listdir(os.path.join(out, "run"))):
    if f.startswith("protocol-error-"):
        saved += open(os.path.join(out, "run", f), errors="replace").read()
for text in ("format_disk", '"nsteps":"1"', "aaaaaaaa"):
    if text not in saved:
        bad.append("no saved line with %r" % text)
sc = by["hostile/claims-pass"]
if sc["verdict"] != "error" or \
   sc["reason"] != "the guest reported pass, but step 1 (read) never began":
    bad.append("claims-pass: %s: %r" % (sc["verdict"], sc["reason"]))
sc = by["hostile/mute"]
if sc["verdict"] != "timeout" or "not even a heartbeat" not in sc["reason"]:
    bad.append("mute: %s: %r" % (sc["verdict"], sc["reason"]))
if not [i for i in sc.get("incidents", []) if i["kind"] == "hang" and i["bundle"]]:
    bad.append("mute: no hang incident with a bundle: %r" % sc.get("incidents"))
sc = by["hostile/silent"]
if sc["verdict"] != "timeout" or "no scenario_end within 11500 ms" not in sc["reason"]:
    bad.append("silent: %s: %r" % (sc["verdict"], sc["reason"]))
# claims-pass has vm1; good and mute share vm2; every later scenario
# costs a VM: vm3..vm6.
for n in (1, 2, 3, 4, 5, 6):
    if not os.path.exists(os.path.join(out, "run", "console-vm%d.log" % n)):
        bad.append("no console-vm%d.log" % n)

if rc2 != 3:
    bad.append("version-2 run exited %d, want 3 (only protocol errors: the lab's)" % rc2)
s = json.load(open(os.path.join(out, "run2", "summary.json")))
first = s["scenarios"][0]
if first["verdict"] != "error" or \
   "protocol version mismatch: guestd speaks version 2, hostctl speaks version 1" not in first["reason"]:
    bad.append("version 2: %r" % first)
for sc in s["scenarios"][1:]:
    if sc["verdict"] != "error" or "protocol version" not in sc["reason"]:
        bad.append("version 2, later: %r" % sc)
if len(s["scenarios"]) != 7:
    bad.append("version 2: %d scenarios, want 7" % len(s["scenarios"]))
if os.path.exists(os.path.join(out, "run2", "console-vm2.log")):
    bad.append("version 2: booted again after the mismatch")
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
