#!/bin/bash
# Every patch of each line's series applies to that line's Debian source,
# in series order, as kbuild applies it (git apply, tree.c), without a
# kernel build (issue 33; docs/kernel.md, "Lines"): the files the series
# touch are unpacked from /usr/src/linux-source-LINE.tar.xz into a
# scratch folder and the patches applied there. A name is the line's own
# port (kernel/patches/LINE/) where it has one, else the shared file.
# In the default setup: 6.12's runs are not, but a series that no longer
# applies is caught here. A line whose source is not installed skips
# (exit 77), saying so.
# usage: lines-apply.sh [LINE...] (default: 6.1 6.12); SRCDIR names the tree.
set -euo pipefail

: "${SRCDIR:?SRCDIR must name the repository}"
[ $# -gt 0 ] || set -- 6.1 6.12
scratch=$(mktemp -d /tmp/hostctl-it-lines-apply-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
n=0
bad=0
checked=0
for line in "$@"; do
	tarball=/usr/src/linux-source-$line.tar.xz
	if [ "$line" = 6.1 ]; then
		dir=$SRCDIR/kernel/patches
	else
		dir=$SRCDIR/kernel/patches/$line
	fi
	if [ ! -f "$dir/series" ]; then
		n=$((n + 1))
		echo "not ok $n - line $line: no series ($dir/series)"
		bad=1
		continue
	fi
	if [ ! -r "$tarball" ]; then
		echo "# line $line: $tarball is not installed (./bootstrap installs linux-source-$line)"
		continue
	fi
	paths=()
	mapfile -t names < <(grep -v -e '^#' -e '^[[:space:]]*$' "$dir/series")
	for name in "${names[@]}"; do
		if [ -f "$dir/$name" ]; then
			paths+=("$dir/$name")
		else
			paths+=("$SRCDIR/kernel/patches/$name")
		fi
	done
	# The files the patches touch, as the tarball names them.
	mapfile -t files < <(sed -n 's|^--- a/||p' "${paths[@]}" | sort -u)
	tree=$scratch/$line
	mkdir -p "$tree"
	if [ ${#files[@]} -gt 0 ] &&
		! tar -xJf "$tarball" -C "$tree" --strip-components=1 \
			"${files[@]/#/linux-source-$line/}" 2> "$scratch/tar.log"; then
		n=$((n + 1))
		echo "not ok $n - line $line: the files the series touches are not all in $tarball"
		sed 's/^/#   /' "$scratch/tar.log" | head -20
		bad=1
		continue
	fi
	checked=$((checked + 1))
	for p in "${paths[@]}"; do
		n=$((n + 1))
		if (cd "$tree" && GIT_CEILING_DIRECTORIES=$scratch git apply --whitespace=nowarn "$p") \
			> "$scratch/apply.log" 2>&1; then
			echo "ok $n - line $line: ${p#"$SRCDIR"/} applies"
		else
			echo "not ok $n - line $line: ${p#"$SRCDIR"/} does not apply after the patches before it"
			sed 's/^/#   /' "$scratch/apply.log" | head -20
			bad=1
		fi
	done
done
echo "1..$n"
if [ "$checked" -eq 0 ] && [ "$bad" -eq 0 ]; then
	echo "# no line's source is installed: nothing checked"
	exit 77
fi
exit "$bad"
