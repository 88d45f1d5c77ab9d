#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Our C in kernel style: every .c and .h file below the folders given (relative
# to $SRCDIR) must be as clang-format leaves it, with the repository's
# .clang-format (the kernel tree's own settings). One TAP test point per
# file; a failing one shows clang-format's diff.
#
#   clang-format.sh DIR...         check (the unit test)
#   clang-format.sh --fix DIR...   reformat in place (ninja clang-format)
#
# Other clang-format versions format some constructs differently, so this
# wants 14, Debian 12's, and skips (exit 77) without it.
set -u
: "${SRCDIR:?SRCDIR must name the source tree}"
fix=false
if [ "${1:-}" = --fix ]; then
	fix=true
	shift
fi

cf=
for c in clang-format-14 clang-format; do
	if command -v "$c" >/dev/null 2>&1 &&
		"$c" --version | grep -q 'version 14\.'; then
		cf=$c
		break
	fi
done
if [ -z "$cf" ]; then
	echo "1..0 # SKIP no clang-format 14 (apt-get install clang-format)"
	exit 77
fi

# Each folder with every folder below it (hostctl/'s layers are folders)
# but its tests/.
files=
for d in "$@"; do
	files="$files $(find "$SRCDIR/$d" -name tests -prune -o \
		-name '*.[ch]' -type f -print | LC_ALL=C sort)"
done

if $fix; then
	# shellcheck disable=SC2086 # one word per file; our names have no blanks
	exec "$cf" -i --style=file $files
fi

n=$(echo "$files" | wc -w)
echo "1..$n"
i=0
rc=0
for f in $files; do
	i=$((i + 1))
	name=${f#"$SRCDIR"/}
	if "$cf" --dry-run --Werror --style=file "$f" >/dev/null 2>&1; then
		echo "ok $i - $name"
	else
		echo "not ok $i - $name"
		"$cf" --style=file "$f" | diff -u "$f" - | head -60 | sed 's/^/# /'
		rc=1
	fi
done
exit $rc
