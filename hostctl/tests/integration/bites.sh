#!/bin/bash
# Integration: every test bites (issue 11, item 5). For each selected patch
# of kernel/patches/series, every scenario that declares "bites" for it
# (docs/scenarios.md) must fail on a kernel built without the patch, its
# first step that does not pass must be the declared one, and its failure
# must say the declared reason (or an incident at it match the declared
# title; bites-check.py compares); the same scenarios must pass on the
# whole series.
#
#   bites.sh --all          every patch of the series
#   bites.sh --changed      the patches whose files differ from the merge
#                           base with main's upstream (VLALAB_BITES_BASE,
#                           main@{upstream}, origin/main or main: the first
#                           that exists); none without git history
#   bites.sh PATCH...       these (file names or number prefixes)
#
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
series_file=$SRCDIR/kernel/patches/series

usage() {
	echo "usage: $0 --all | --changed | PATCH..." >&2
	exit 2
}

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

changed_patches() {
	local base="" mb ref
	if ! git -C "$SRCDIR" rev-parse --git-dir > /dev/null 2>&1; then
		echo "# --changed: $SRCDIR is not a git checkout: no history, no patch selected" >&2
		return 0
	fi
	for ref in ${VLALAB_BITES_BASE:-} 'main@{upstream}' origin/main main; do
		if git -C "$SRCDIR" rev-parse -q --verify "$ref^{commit}" > /dev/null 2>&1; then
			base=$ref
			break
		fi
	done
	if [ -z "$base" ] || ! mb=$(git -C "$SRCDIR" merge-base HEAD "$base" 2> /dev/null); then
		echo "# --changed: no main branch or merge base to compare with: no patch selected" >&2
		return 0
	fi
	echo "# --changed: comparing with the merge base ${mb:0:12} of HEAD and $base" >&2
	# The working tree against the merge base: commits and edits alike.
	git -C "$SRCDIR" diff --name-only "$mb" -- kernel/patches/ |
		sed -n 's|^kernel/patches/\(.*\.patch\)$|\1|p' |
		while read -r f; do
			if [ "$(resolve "$f")" = "$f" ]; then
				echo "$f"
			fi
		done
}

[ $# -ge 1 ] || usage
case "$1" in
--all)
	[ $# -eq 1 ] || usage
	mapfile -t patches < <(series)
	;;
--changed)
	[ $# -eq 1 ] || usage
	mapfile -t patches < <(changed_patches)
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
echo "# results in $out"
failures=()
fail() {
	echo "# FAIL: $*"
	failures+=("$*")
}

# The comparison of a run's summary.json with the declared bite (or, with
# --pass, a pass): integration/bites-check.py, which prints what it saw.
check=$(dirname "$0")/bites-check.py

# build_without PATCH: builds the series without PATCH and without every
# later patch that does not apply without it; sets $without to the
# --without-patch arguments. Non-zero when the kernel cannot be built.
build_without() {
	local log=$out/build-without-$1.log later
	without=(--without-patch "$1")
	while :; do
		if "$HOSTCTL" build "${without[@]}" > "$log" 2>&1; then
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
	if ! "$HOSTCTL" list --bites "$full" > "$out/list.txt"; then
		fail "hostctl list --bites $full failed: the scenarios do not load"
		continue
	fi
	mapfile -t lines < "$out/list.txt"
	if [ ${#lines[@]} -eq 0 ]; then
		echo "# $full: no scenario declares bites for it (docs/kernel.md says why, or it needs one)"
		continue
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
		"$HOSTCTL" run "${without[@]}" --format ktap --output "$dir" "$name" \
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
		fi
	done
done

# The same scenarios on the whole series, one run each as above.
for name in $(printf '%s\n' "${!with_series[@]}" | sort); do
	dir=$out/with-${name//\//-}
	rc=0
	"$HOSTCTL" run --format ktap --output "$dir" "$name" > "$dir.ktap" 2>&1 || rc=$?
	if ! python3 "$check" --pass "$dir" "$name"; then
		show "$dir.ktap"
		fail "$name fails with the whole series (exit $rc; results: $dir)"
	fi
done

if [ ${#failures[@]} -ne 0 ]; then
	echo "# ${#failures[@]} problem(s):"
	printf '#   %s\n' "${failures[@]}"
	exit 1
fi
if [ -z "${VLALAB_BITES_KEEP:-}" ]; then
	rm -rf "$out"
fi
if [ "$checked" -eq 0 ]; then
	echo "# no scenario declares bites for the selected patches: nothing checked"
	exit 77
fi
echo "# every declared bite bites: $checked scenario run(s) without a patch, ${#with_series[@]} with the whole series"
