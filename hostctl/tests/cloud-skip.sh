#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The cloud suite's skip (hostctl/tests/integration/cloud.sh): building the
# cloud image needs root, finding it cached does not. As a user other than
# root (nobody through setpriv when this runs as root), with a non-root
# PATH (no /usr/sbin, so no debootstrap or mkfs.ext4 to find):
#   1. with the image in the cache, cloud.sh runs the suite: it calls
#      hostctl (a stub here that records its arguments) with --image
#      cloud:PATH of the cached image;
#   2. without it, cloud.sh skips (77) and says the image is missing and
#      that building it needs root, without calling hostctl.
# No VM boots: the stub stands for hostctl. TAP on stdout.
set -uo pipefail
: "${SRCDIR:?SRCDIR must name the repository}"

n=0 bad=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; bad=$((bad + 1)); fi
}

as_user=()
if [ "$(id -u)" -eq 0 ]; then
	if ! command -v setpriv >/dev/null; then
		echo "1..0 # SKIP running as root without setpriv (util-linux) to become nobody"
		exit 77
	fi
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

work=$(mktemp -d /tmp/vlalab-test-cloud-skip-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -m 777 "$work/calls"
cat >"$work/hostctl" <<'STUB'
#!/bin/sh
printf '%s\n' "$*" >>"$STUB_CALLS/args"
exit 0
STUB
chmod 755 "$work/hostctl"

# The image's place in a cache: images/cloud-KEY/disk.qcow2, KEY as
# images/cloud/build.sh computes it (a change there shows up here as a
# skip in the first check).
key=$(cat "$SRCDIR/images/cloud/packages" "$SRCDIR/images/cloud/build.sh" |
	sha256sum | cut -c1-64)
mkdir -p "$work/cached/images/cloud-$key" "$work/empty"
echo not-a-real-image >"$work/cached/images/cloud-$key/disk.qcow2"
chmod -R a+rX "$work/cached" "$work/empty"

run_cloud() {
	local cache=$1
	rm -f "$work/calls/args"
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent \
		SRCDIR="$SRCDIR" HOSTCTL="$work/hostctl" VLALAB_CACHE="$cache" \
		STUB_CALLS="$work/calls" "${as_user[@]}" \
		"$SRCDIR/hostctl/tests/integration/cloud.sh" >"$work/out" 2>&1
}

run_cloud "$work/cached"
rc=$?
[ "$rc" -ne 77 ]
ok $? "with the image cached, a non-root user's cloud suite does not skip (exit $rc$(grep -m1 SKIP "$work/out" | tr -d '#' | sed 's/^/: /'))"
grep -qF -- "--image cloud:$work/cached/images/cloud-$key/disk.qcow2 ftrace/*" "$work/calls/args" 2>/dev/null
ok $? "and runs the ftrace family on the cached image"

run_cloud "$work/empty"
rc=$?
[ "$rc" -eq 77 ]
ok $? "without the image, a non-root user's cloud suite skips (exit $rc)"
grep -q '^1..0 # SKIP the cloud image is not in .* and building it needs root$' "$work/out"
ok $? "saying why ($(head -n 1 "$work/out" | tr -d '#'))"
[ ! -e "$work/calls/args" ]
ok $? "without calling hostctl"

echo "1..$n"
[ "$bad" -eq 0 ]
