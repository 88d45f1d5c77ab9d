#!/bin/bash
# Integration: every test bites (issue 11, item 5). For each selected patch
# of kernel/patches/series, every scenario that declares "bites" for it
# (docs/scenarios.md) must fail on a kernel built without the patch, its
# first step that does not pass must be the declared one, and its failure
# must say the declared reason (or an incident at it match the declared
# title; bites-check.py compares); the same scenarios must pass on the
# whole series.
#
#   bites.sh [--line LINE] --all
#                           every patch of the line's series (default: 6.1,
#                           kernel/patches/series; 6.12: kernel/patches/6.12/
#                           series), on that line's kernels; a bite whose
#                           "lines" leave the line out is not checked there
#   bites.sh [--line LINE] --records
#                           the bites that differ from the cache's record
#                           of verified bites (bites-record.py: the patch,
#                           the scenario file or the kernel key changed),
#                           and those without a record whose kernel is
#                           cached or one of the first
#                           $VLALAB_BITES_BUILDS (default 1) incremental
#                           builds; names the rest, left to bites-full
#   bites.sh [--line LINE] PATCH...
#                           these (file names or number prefixes)
#
# Every bite that holds is written to the record, one per line
# (<cache>/bites/records.json;
# the cache is $VLALAB_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/vlalab),
# whatever the mode.
# A patch that a later one builds on cannot be left out alone: when a
# build without it fails because a later patch does not apply, that patch
# is left out too, and the kernel manifest's "without" says so. Each
# scenario runs in a hostctl run of its own (own VM), so one that fails
# half-way does not disturb the next. Kernels are built one at a time and
# cached by kbuild; a run needs HOSTCTL and SRCDIR, as meson gives them.
# The results stay in /tmp/hostctl-it-bites-* when something failed, or
# always with VLALAB_BITES_KEEP=1.
# Exit 0: all bite and pass; 1: one did not (named); 77: nothing to check.
set -euo pipefail

: "${HOSTCTL:?HOSTCTL must name the hostctl binary}"
: "${SRCDIR:?SRCDIR must name the repository}"
usage() {
	echo "usage: $0 [--line LINE] --all | --records | PATCH..." >&2
	exit 2
}

# The kernel line: its series, and the option every hostctl call takes.
kline=6.1
lineopt=()
if [ "${1:-}" = --line ]; then
	[ $# -ge 2 ] || usage
	kline=$2
	shift 2
fi
if [ "$kline" = 6.1 ]; then
	series_file=$SRCDIR/kernel/patches/series
else
	series_file=$SRCDIR/kernel/patches/$kline/series
	lineopt=(--line "$kline")
fi
[ -f "$series_file" ] || { echo "$0: no series for line '$kline' ($series_file)" >&2; exit 2; }

# The series' patch file names, in order.
series() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$series_file"
}

# resolve NAME: the series file name NAME means (itself, or the one name it
# is a prefix of), as --without-patch matches; nothing when none or several.
resolve() {
	series | awk -v n="$1" '
		$0 == n { exact = $0 }
		index($0, n) == 1 { count++; match1 = $0 }
		END { if (exact != "") print exact; else if (count == 1) print match1 }'
}

# show FILE: the lines of a hostctl run's KTAP that say what failed.
show() {
	grep -E '^ *(not ok|# )' "$1" | awk 'NR <= 20 { print "#   " $0 }' || true
}

[ $# -ge 1 ] || usage
records=
cache=${VLALAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vlalab}
case "$1" in
--all)
	[ $# -eq 1 ] || usage
	mapfile -t patches < <(series)
	;;
--records)
	[ $# -eq 1 ] || usage
	records=1
	mapfile -t patches < <(series)
	;;
-*)
	usage
	;;
*)
	patches=("$@")
	;;
esac
if [ ${#patches[@]} -eq 0 ]; then
	echo "# no patch selected: nothing to check"
	exit 77
fi

out=$(mktemp -d /tmp/hostctl-it-bites-XXXXXX)
echo "# line $kline; results in $out"
failures=()
fail() {
	echo "# FAIL: $*"
	failures+=("$*")
}

# The comparison of a run's summary.json with the declared bite (or, with
# --pass, a pass): integration/bites-check.py, which prints what it saw.
check=$(dirname "$0")/bites-check.py
# The record of verified bites, and --records' selection.
record=$(dirname "$0")/bites-record.py

# With --records, selected["PATCH SCENARIO"] for each bite to check, and
# the lines saying what was left to bites-full.
declare -A selected=()
left=()
unchanged=0
if [ -n "$records" ]; then
	if ! "$HOSTCTL" list --bites all --line "$kline" > "$out/list-all.txt"; then
		fail "hostctl list --bites all failed: the scenarios do not load"
	elif ! python3 "$record" --line "$kline" select "$cache" "$SRCDIR" "${VLALAB_BITES_BUILDS:-1}" \
		< "$out/list-all.txt" > "$out/select.txt"; then
		fail "bites-record.py select failed (the record: $cache/bites/records.json)"
	fi
	while read -r action patch name why; do
		echo "# $action $name ($patch): $why"
		case $action in
		check) selected["$patch $name"]=1 ;;
		skip) unchanged=$((unchanged + 1)) ;;
		leave) left+=("$name ($patch): $why") ;;
		esac
	done < "$out/select.txt"
fi
# The bites that held without their patch ("DIR SCENARIO PATCH"): each
# is recorded once its scenario has passed on the whole series too.
bitten=()
rechecked=()

# build_without PATCH: builds the series without PATCH and without every
# later patch that does not apply without it; sets $without to the
# --without-patch arguments. Non-zero when the kernel cannot be built.
build_without() {
	local log=$out/build-without-$1.log later
	without=(--without-patch "$1")
	while :; do
		if "$HOSTCTL" build "${lineopt[@]}" "${without[@]}" > "$log" 2>&1; then
			return 0
		fi
		later=$(awk -F"'" '/^kbuild: patch .* \(series line [0-9]+\) does not apply/ { print $2; exit }' "$log")
		if [ -z "$later" ] || [[ " ${without[*]} " == *" $later "* ]]; then
			awk '{ l[NR % 30] = $0 } END { for (i = NR - 29; i <= NR; i++) if (i > 0) print "#   " l[i % 30] }' "$log"
			return 1
		fi
		echo "# $1: $later does not apply without it: leaving it out too"
		without+=(--without-patch "$later")
	done
}

declare -A with_series=()
checked=0
for p in "${patches[@]}"; do
	full=$(resolve "$p")
	if [ -z "$full" ]; then
		fail "'$p' is not the name or number of exactly one patch of $series_file"
		continue
	fi
	if ! "$HOSTCTL" list --bites "$full" --line "$kline" > "$out/list.txt"; then
		fail "hostctl list --bites $full failed: the scenarios do not load"
		continue
	fi
	mapfile -t lines < "$out/list.txt"
	if [ ${#lines[@]} -eq 0 ]; then
		echo "# $full: no scenario declares bites for it (docs/kernel.md says why, or it needs one)"
		continue
	fi
	if [ -n "$records" ]; then
		all=("${lines[@]}")
		lines=()
		for line in "${all[@]}"; do
			read -r _ name _ <<< "$line"
			if [ -n "${selected["$full $name"]:-}" ]; then
				lines+=("$line")
			fi
		done
		[ ${#lines[@]} -gt 0 ] || continue
	fi
	echo "# $full: building the series without it"
	if ! build_without "$full"; then
		fail "$full: cannot build the series without it (log: $out/build-without-$full.log)"
		continue
	fi
	for line in "${lines[@]}"; do
		read -r _ name step <<< "$line"
		with_series[$name]=1
		checked=$((checked + 1))
		dir=$out/without-${full%%-*}-${name//\//-}
		rc=0
		"$HOSTCTL" run "${lineopt[@]}" "${without[@]}" --format ktap --output "$dir" "$name" \
			> "$dir.ktap" 2>&1 || rc=$?
		if [ "$rc" -eq 2 ]; then
			awk '{ print "#   " $0 }' "$dir.ktap"
			fail "$name without $full: hostctl run exited 2 (set-up error)"
			continue
		fi
		rc=0
		python3 "$check" "$dir" "$SRCDIR/scenarios/$name.json" "$name" "$full" || rc=$?
		if [ "$rc" -eq 2 ]; then
			fail "$name: no bite to check for $full in $SRCDIR/scenarios/$name.json"
		elif [ "$rc" -ne 0 ]; then
			show "$dir.ktap"
			fail "$name does not bite without $full (declared step $step and its reason: $SRCDIR/scenarios/$name.json; results: $dir)"
		else
			bitten+=("$dir $name $full")
		fi
	done
done

# The same scenarios on the whole series, one run each as above.
for name in $(printf '%s\n' "${!with_series[@]}" | sort); do
	dir=$out/with-${name//\//-}
	rc=0
	"$HOSTCTL" run "${lineopt[@]}" --format ktap --output "$dir" "$name" > "$dir.ktap" 2>&1 || rc=$?
	if ! python3 "$check" --pass "$dir" "$name"; then
		show "$dir.ktap"
		fail "$name fails with the whole series (exit $rc; results: $dir)"
		with_series[$name]=0
	fi
done
for b in "${bitten[@]}"; do
	read -r dir name full <<< "$b"
	if [ "${with_series[$name]}" != 1 ]; then
		continue
	elif python3 "$record" record "$cache" "$SRCDIR" "$dir" "$name" "$full"; then
		rechecked+=("$name ($full)")
	else
		fail "$name bites without $full, but its record in $cache/bites/records.json was not written"
	fi
done

# What was checked, for the test's log and ./bootstrap test's output.
echo "# bites re-checked: ${#rechecked[@]}"
for l in "${rechecked[@]}"; do
	echo "#   $l"
done
if [ -n "$records" ]; then
	echo "# bites unchanged since their record: $unchanged"
	echo "# bites left to bites-full: ${#left[@]}"
	for l in "${left[@]}"; do
		echo "#   $l"
	done
fi
if [ ${#failures[@]} -ne 0 ]; then
	echo "# ${#failures[@]} problem(s):"
	printf '#   %s\n' "${failures[@]}"
	exit 1
fi
if [ -z "${VLALAB_BITES_KEEP:-}" ]; then
	rm -rf "$out"
fi
if [ "$checked" -eq 0 ] && [ -n "$records" ]; then
	echo "# every bite matches its record or is named above as left: nothing to re-check"
	exit 0
fi
if [ "$checked" -eq 0 ]; then
	echo "# no scenario declares bites for the selected patches: nothing checked"
	exit 77
fi
echo "# every declared bite bites: $checked scenario run(s) without a patch, ${#with_series[@]} with the whole series"
