#!/bin/sh
# Integration: the exit codes that separate the lab from the kernel
# (docs/nightly.md). A libvirt URI that cannot be opened is the lab's
# fault, exit 3, whether it came from LIBVIRT_DEFAULT_URI or from
# --connect, which wins over it; the message names the URI used. A usage
# error is 2. Needs the kernel (a cache hit); boots no guest.
set -eu
out=$(mktemp -d /tmp/hostctl-it-exit-XXXXXX)
fail() {
	echo "# $*"
	sed 's/^/# stderr: /' "$out/stderr"
	exit 1
}
rc=0
LIBVIRT_DEFAULT_URI="test://$out/no-such-file.xml" "$HOSTCTL" run \
	--output "$out/a" 'ftrace/*' > /dev/null 2> "$out/stderr" || rc=$?
[ "$rc" -eq 3 ] || fail "LIBVIRT_DEFAULT_URI unusable: exit $rc, want 3"
grep -q "libvirt 'test://$out/no-such-file.xml'" "$out/stderr" ||
	fail "LIBVIRT_DEFAULT_URI was not the URI used"
echo "ok 1 - LIBVIRT_DEFAULT_URI honoured; a libvirt error is exit 3"
rc=0
LIBVIRT_DEFAULT_URI="test://$out/env.xml" "$HOSTCTL" run \
	--connect "test://$out/connect.xml" --output "$out/b" 'ftrace/*' \
	> /dev/null 2> "$out/stderr" || rc=$?
[ "$rc" -eq 3 ] || fail "--connect unusable: exit $rc, want 3"
grep -q "libvirt 'test://$out/connect.xml'" "$out/stderr" ||
	fail "--connect did not win over LIBVIRT_DEFAULT_URI"
echo "ok 2 - --connect wins over LIBVIRT_DEFAULT_URI"
rc=0
"$HOSTCTL" run --no-such-option all > /dev/null 2> "$out/stderr" || rc=$?
[ "$rc" -eq 2 ] || fail "a usage error: exit $rc, want 2"
echo "ok 3 - a usage error is exit 2"
echo "1..3"
rm -rf "$out"
