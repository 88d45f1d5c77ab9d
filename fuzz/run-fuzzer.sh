#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One libFuzzer harness for a bounded time: the fuzz suite's test.
#
#   run-fuzzer.sh NAME HARNESS [-FLAG=VALUE...] SEED...
#
# SEED is a file, or a shell pattern of files ('dir/*.log'): the tree's
# fixtures, copied into NAME/corpus beside the harness, where libFuzzer
# also keeps what it finds. A SEED written lines:PATTERN gives one seed per
# line of each file (events.jsonl: one event each), and chunks:N:PATTERN
# one seed per run of whole lines of at most N bytes (a console log in
# pieces), since small inputs fuzz faster. Each -FLAG=VALUE goes to
# libFuzzer (-max_len=N: no input longer than N bytes). It runs
# $VLALAB_FUZZ_SECONDS seconds (60 by default) and fails on any finding,
# whose input lands in NAME/crashes/; docs/reliability.md ("Fuzzing")
# says how to replay one. It also fails when the harness executed fewer
# than $VLALAB_FUZZ_MIN_RATE (50) inputs per second of its run: a harness
# that hangs on its seeds, or stops early, must not pass as fuzzed.
set -eu
name=$1
harness=$2
shift 2
flags=
while [ $# -gt 0 ]; do
	case $1 in
	-*) flags="$flags $1" ;;
	*) break ;;
	esac
	shift
done
secs=${VLALAB_FUZZ_SECONDS:-60}
min_rate=${VLALAB_FUZZ_MIN_RATE:-50}
work=$(dirname "$harness")/$name
mkdir -p "$work/corpus" "$work/crashes"
n=0
for seed in "$@"; do
	split=
	case $seed in
	lines:*) split="-l 1" seed=${seed#lines:} ;;
	chunks:*)
		seed=${seed#chunks:}
		split="-C ${seed%%:*}" seed=${seed#*:}
		;;
	esac
	# The pattern is meant to be expanded here.
	# shellcheck disable=SC2086
	for f in $seed; do
		[ -f "$f" ] || { echo "run-fuzzer: no seed '$f'" >&2; exit 1; }
		out=$work/corpus/seed-$(basename "$f")
		if [ -n "$split" ]; then
			# $split is two words on purpose.
			# shellcheck disable=SC2086
			split $split -a 5 -d "$f" "$out-"
		else
			cp "$f" "$out"
		fi
		n=$((n + 1))
	done
done
echo "run-fuzzer: $name, seeds from $n files, $secs s"
status=0
# $flags is a list of words on purpose.
# shellcheck disable=SC2086
"$harness" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 $flags \
	-print_final_stats=1 -artifact_prefix="$work/crashes/" \
	"$work/corpus" 2>"$work/last.log" || status=$?
cat "$work/last.log" >&2
if [ $status -ne 0 ]; then
	for f in "$work"/crashes/*; do
		[ -f "$f" ] && echo "run-fuzzer: replay with: $harness$flags $f"
	done
	exit 1
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/last.log")
if [ -z "$runs" ] || [ "$runs" -lt $((min_rate * secs)) ]; then
	echo "run-fuzzer: $name executed ${runs:-no} inputs in $secs s, fewer than the floor of $((min_rate * secs)) ($min_rate a second)" >&2
	exit 1
fi
echo "run-fuzzer: $name executed $runs inputs in $secs s (floor $((min_rate * secs)))"
