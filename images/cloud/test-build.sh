#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# images/cloud/build.sh builds (or finds in the cache) the local cloud
# image: a qcow2 holding one ext4 file system labelled vlalab-root with
# systemd, bash, iproute2, kmod, trace-cmd, dropbear, sftp-server and
# cloud-init, NoCloud configured, root's password locked; and a second
# call is a cache hit. TAP on stdout. Building needs root (debootstrap):
# 77 for another user when the image is not cached yet.
#
# usage: test-build.sh BUILD_SH
set -uo pipefail
build=$1
cache=${VLALAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vlalab}
n=0 bad=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=$((bad + 1)); fi
}
work=$(mktemp -d /tmp/vlalab-test-cloud-XXXXXX)
trap 'rm -rf "$work"' EXIT

"$build" "$cache" >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" -ne 0 ] && [ "$(id -u)" -ne 0 ] && grep -q 'debootstrap needs root' "$work/err"; then
	echo "1..0 # SKIP the cloud image is not in $cache and building it needs root"
	exit 77
fi
ok $rc "build.sh builds the image or finds it ($(tail -n 1 "$work/err"))"
[ "$(wc -l <"$work/out")" -eq 1 ]
ok $? "its standard output is the image's path alone ($(wc -l <"$work/out") lines)"
img=$(tail -n 1 "$work/out")
qemu-img info --output=json "$img" 2>/dev/null | grep -q '"format": "qcow2"'
ok $? "'$img' is a qcow2"
qemu-img convert -O raw "$img" "$work/raw" 2>/dev/null
label=$(e2label "$work/raw" 2>/dev/null)
[ "$label" = vlalab-root ]
ok $? "one ext4 file system labelled vlalab-root (got '$label')"
for f in /usr/lib/systemd/systemd /usr/bin/bash /usr/bin/ip /usr/bin/kmod \
	/usr/bin/trace-cmd /usr/sbin/dropbear /usr/lib/openssh/sftp-server \
	/usr/bin/cloud-init /etc/cloud/cloud.cfg.d/90-vlalab.cfg; do
	debugfs -R "stat $f" "$work/raw" 2>&1 | grep -q '^Inode:'
	ok $? "it holds $f"
done
debugfs -R "cat /etc/cloud/cloud.cfg.d/90-vlalab.cfg" "$work/raw" 2>/dev/null |
	grep -qx 'datasource_list: \[NoCloud, None\]'
ok $? "cloud-init looks only for a NoCloud seed"
[ "$(debugfs -R "stat /etc/systemd/system/e2scrub_reap.service" "$work/raw" 2>/dev/null |
	sed -n 's/^Fast link dest: "\(.*\)"$/\1/p')" = /dev/null ]
ok $? "e2scrub_reap.service is masked (no scrub beside the first boot)"
debugfs -R "cat /etc/cloud/cloud.cfg.d/90-vlalab.cfg" "$work/raw" 2>/dev/null |
	grep -qx 'network: {config: disabled}'
ok $? "cloud-init configures no network (the VM has none)"
for t in apt-daily.timer apt-daily-upgrade.timer; do
	[ "$(debugfs -R "stat /etc/systemd/system/$t" "$work/raw" 2>/dev/null |
		sed -n 's/^Fast link dest: "\(.*\)"$/\1/p')" = /dev/null ]
	ok $? "$t is masked (no apt, which would need a network)"
done
debugfs -R "cat /etc/shadow" "$work/raw" 2>/dev/null | grep -q '^root:[!*]'
ok $? "root's password is locked"
"$build" "$cache" >"$work/out2" 2>"$work/err2"
grep -q '^images/cloud: cached:' "$work/err2" && [ "$(tail -n 1 "$work/out2")" = "$img" ]
ok $? "a second build is a cache hit"
echo "1..$n"
[ "$bad" -eq 0 ]
