#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every fix of kernel/patches/series (a patch with a Fixes: tag) applies on
# its own to the stock tree, as a maintainer would apply it: the files it
# touches are unpacked from linux-source's tarball into a scratch directory
# and `git apply --check` runs there, with none of the series before it.
# TAP; exit 77 without the tarball.
set -u
tarball=${VLALAB_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ ! -r "$tarball" ]; then
	echo "1..0 # SKIP no kernel source tarball at $tarball"
	exit 77
fi
dir=$SRCDIR/kernel/patches
fixes=
for p in $(sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$dir/series"); do
	grep -q '^Fixes: ' "$dir/$p" && fixes="$fixes $p"
done
n=$(printf '%s\n' $fixes | grep -c .)
if [ "$n" -eq 0 ]; then
	echo "1..0 # SKIP no patch of the series has a Fixes: tag"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
top=$(tar -tJf "$tarball" | head -n 1 | cut -d/ -f1)
files=$(for p in $fixes; do
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$dir/$p"
done | sort -u)
# shellcheck disable=SC2086
if ! tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
	$(printf "$top/%s " $files) 2>"$tmp/tar.err"; then
	echo "1..0 # SKIP cannot unpack the files the fixes touch: $(head -n 1 "$tmp/tar.err")"
	exit 77
fi
echo "1..$n"
i=0
rc=0
for p in $fixes; do
	i=$((i + 1))
	if out=$(cd "$tmp" && GIT_CEILING_DIRECTORIES=$tmp git apply --check \
		"$dir/$p" 2>&1); then
		echo "ok $i - $p applies to the stock tree alone"
	else
		echo "not ok $i - $p applies to the stock tree alone"
		printf '%s\n' "$out" | sed 's/^/# /'
		rc=1
	fi
done
exit $rc
