#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One libFuzzer harness for a bounded time: the fuzz suite's test.
#
#   run-fuzzer.sh NAME HARNESS SEED...
#
# SEED is a file, or a shell pattern of files ('dir/*.log'): the tree's
# fixtures, copied into NAME/corpus beside the harness, where libFuzzer
# also keeps what it finds. A SEED written lines:PATTERN gives one seed per
# line of each file (events.jsonl: one event each), since small inputs
# fuzz faster. It runs $VLALAB_FUZZ_SECONDS seconds (60 by
# default) and fails on any finding, whose input lands in NAME/crashes/;
# docs/reliability.md ("Fuzzing") says how to replay one.
set -eu
name=$1
harness=$2
shift 2
secs=${VLALAB_FUZZ_SECONDS:-60}
work=$(dirname "$harness")/$name
mkdir -p "$work/corpus" "$work/crashes"
n=0
for seed in "$@"; do
	lines=false
	case $seed in lines:*) lines=true seed=${seed#lines:} ;; esac
	# The pattern is meant to be expanded here.
	# shellcheck disable=SC2086
	for f in $seed; do
		[ -f "$f" ] || { echo "run-fuzzer: no seed '$f'" >&2; exit 1; }
		out=$work/corpus/seed-$(basename "$f")
		if $lines; then
			split -l 1 -a 5 -d "$f" "$out-"
		else
			cp "$f" "$out"
		fi
		n=$((n + 1))
	done
done
echo "run-fuzzer: $name, seeds from $n files, $secs s"
status=0
"$harness" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$work/crashes/" \
	"$work/corpus" || status=$?
if [ $status -ne 0 ]; then
	for f in "$work"/crashes/*; do
		[ -f "$f" ] && echo "run-fuzzer: replay with: $harness $f"
	done
	exit 1
fi
