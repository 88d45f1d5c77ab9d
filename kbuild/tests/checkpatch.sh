#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every patch of kernel/patches/series passes the kernel's own
# scripts/checkpatch.pl --strict with no error, warning or check, run as the
# quality bar means it: from the kernel tree, on the patch's absolute path.
# (Given a path relative to a git checkout that tracks it, checkpatch lints
# the .patch file itself as a source file, git_is_single_file(), and takes
# every blank context line for trailing whitespace.) One warning is left
# out: UNKNOWN_COMMIT_ID, which checkpatch gives for every commit a Fixes:
# tag or a commit description names when the tree is not a git checkout
# that has it; the tree unpacked from linux-source has no history at all.
# And, in a backport only, checkpatch's two complaints about the stable form
# itself (kernel/mail-series lists the same two): the first line, `commit
# <40 hex digits> upstream.` (GIT_COMMIT_ID), and upstream's Closes: tag,
# kept verbatim, which 6.1's checkpatch does not know (COMMIT_LOG_LONG_LINE).
# TAP; exit 77 when `hostctl build` has not unpacked the tree yet.
set -u
cache=${VLALAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vlalab}
tree=$cache/trees/patched
if [ ! -x "$tree/scripts/checkpatch.pl" ]; then
	echo "1..0 # SKIP no kernel tree at $tree (run hostctl build)"
	exit 77
fi
# Each line's own ports too (kernel/patches/<line>/*.patch, docs/kernel.md,
# "Lines"), with that line's tree's checkpatch when it has been unpacked
# (trees/patched@<line>); said when it has not.
patches=$(sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$SRCDIR/kernel/patches/series")
own=
for d in "$SRCDIR"/kernel/patches/*/; do
	line=$(basename "$d")
	if [ ! -x "$cache/trees/patched@$line/scripts/checkpatch.pl" ]; then
		echo "# the $line line's own patches are not checked: no tree at $cache/trees/patched@$line (hostctl build --line $line)"
		continue
	fi
	for f in "$d"*.patch; do
		[ -e "$f" ] && own="$own $line/$(basename "$f")"
	done
done
n=$(printf '%s\n' $patches $own | wc -l)
echo "1..$n"
i=0
rc=0
for p in $patches $own; do
	i=$((i + 1))
	t=$tree
	case $p in */*) t=$cache/trees/patched@${p%%/*} ;; esac
	out=$(cd "$t" && perl scripts/checkpatch.pl --strict --quiet --show-types \
		--ignore UNKNOWN_COMMIT_ID "$SRCDIR/kernel/patches/$p" 2>&1 |
		awk '/^(ERROR|WARNING|CHECK):/ { b = $0; getline; b = b "\n" $0;
			getline; if ((b ~ /:GIT_COMMIT_ID:/ && $0 ~ /^commit [0-9a-f]+ upstream\.$/ && length($2) == 40) ||
			    (b ~ /:COMMIT_LOG_LONG_LINE:/ && $0 ~ /^Closes: https?:\/\/[^ ]+$/))
				next
			print b; print; next } { print }')
	if printf '%s\n' "$out" | grep -q '^\(ERROR\|WARNING\|CHECK\):'; then
		echo "not ok $i - $p"
		printf '%s\n' "$out" | sed 's/^/# /'
		rc=1
	else
		echo "ok $i - $p"
	fi
done
exit $rc
