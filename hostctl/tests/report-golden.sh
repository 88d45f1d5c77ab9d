#!/bin/bash
# Golden test of `hostctl report`'s listing: IN (a summary.json) as a run
# directory's, reported, its path shown as RUN-DIR, against OUT. With
# VLALAB_UPDATE_GOLDEN=1 it rewrites OUT instead (review the diff).
# usage: report-golden.sh HOSTCTL IN OUT
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$2" "$dir/summary.json"
got=$("$1" report "$dir" | sed "s|$dir|RUN-DIR|g")
if [ "${VLALAB_UPDATE_GOLDEN:-}" = 1 ]; then
	printf '%s\n' "$got" > "$3"
	exit 0
fi
printf '%s\n' "$got" | diff -u "$3" -
