#!/bin/bash
# Integration: the checks catch the bugs they are for. Each mutant in
# kernel/mutants/ is a patch that breaks, on purpose, code the stock kernel
# gets right (a shared port's refcount, say). Its "Caught-by: SCENARIO
# STEP" trailers name the scenarios that must fail on a kernel built with
# the whole series and the mutant, with STEP their first step that does
# not pass. The kernel is built from a scratch kernel dir (the repository's
# configs/ and patches/, with the mutant appended to the series), through
# hostctl run --kernel-dir, and cached by kbuild like any other.
#
# "Caught-by: SCENARIO STEP TITLE" wants a scenario that fails with an
# incident whose title starts with TITLE attributed to STEP (a KASAN
# report, say, which the kernel survives): a later check of the log is
# then the first step that fails, the one mutants-first-fail declares
# for the mutant and scenario (or none). Either way the verdict must be
# fail, not error, crash or timeout (mutants-check.py judges one run).
# "Mutant-flavour: NAME" builds the mutant in that
# flavour (kernel/flavours/NAME: the debug flavour for sanitizer finds).
#
#   mutants.sh              every mutant
#   mutants.sh NAME...      these (file names in kernel/mutants/)
#   mutants.sh --records    the Caught-by: lines that differ from the
#                           cache's record of caught mutants (the mutant,
#                           the scenario file, its mutants-first-fail line
#                           or the kernel's key changed), and those without
#                           a record whose kernel is cached or one of the
#                           first $VLALAB_MUTANTS_BUILDS (default 1)
#                           builds; names the rest, left to bites-full
#   mutants.sh --together FLAVOUR
#                           every mutant with "Mutant-flavour: FLAVOUR",
#                           all in one kernel: one build rather than one
#                           each (the debug suite's; each planted bug sits
#                           on its own seed's path and fires only at its
#                           own scenario's step, and every scenario that
#                           does not pass gets a fresh VM)
#
# Each mutant caught where declared, but with --together, is written to
# the record, <cache>/bites/mutants.json (bites-record.py --mutants; the
# cache is $VLALAB_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/vlalab).
# Each scenario runs in a hostctl run of its own. The results stay in
# /tmp/hostctl-it-mutants-* when something failed, or always with
# VLALAB_MUTANTS_KEEP=1. Exit 0: every mutant caught where declared;
# 1: one was not (named); 77: no mutant.
set -euo pipefail

: "${HOSTCTL:?HOSTCTL must name the hostctl binary}"
: "${SRCDIR:?SRCDIR must name the repository}"
mutants_dir=$SRCDIR/kernel/mutants
here=$SRCDIR/hostctl/tests/integration

out=$(mktemp -d /tmp/hostctl-it-mutants-XXXXXX)
failed=0
cleanup() {
	if [ "$failed" = 0 ] && [ -z "${VLALAB_MUTANTS_KEEP:-}" ]; then
		rm -rf "$out"
	else
		echo "# results kept in $out"
	fi
}
trap cleanup EXIT

together=
records=
cache=${VLALAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vlalab}
if [ "${1:-}" = --records ] && [ $# -eq 1 ]; then
	records=1
	shift
elif [ "${1:-}" = --together ]; then
	together=${2:?--together wants a flavour}
	shift 2
fi
if [ $# -gt 0 ]; then
	names=("$@")
else
	mapfile -t names < <(cd "$mutants_dir" 2>/dev/null && ls -1 -- *.patch 2>/dev/null)
fi
if [ -n "$together" ]; then
	all=("${names[@]}")
	names=()
	for m in "${all[@]}"; do
		if grep -qx "Mutant-flavour: $together" "$mutants_dir/$m"; then
			names+=("$m")
		fi
	done
fi
if [ ${#names[@]} -eq 0 ]; then
	echo "1..0 # SKIP no mutant in kernel/mutants${together:+ for the $together flavour}"
	exit 77
fi

# A scratch kernel dir: the repository's configs/, patches/ and
# flavours/, with the mutants $2... appended to the series. Returns 1,
# saying why, when a mutant has a series patch's name.
make_kdir() {
	local kdir=$1 m
	shift
	mkdir -p "$kdir"
	cp -r "$SRCDIR/kernel/configs" "$SRCDIR/kernel/patches" "$kdir/"
	if [ -d "$SRCDIR/kernel/flavours" ]; then
		cp -r "$SRCDIR/kernel/flavours" "$kdir/"
	fi
	for m in "$@"; do
		if [ -e "$kdir/patches/$m" ]; then
			echo "# $m: a patch of the series has the same name"
			return 1
		fi
		cp "$mutants_dir/$m" "$kdir/patches/$m"
		echo "$m" >> "$kdir/patches/series"
	done
}

if [ -n "$together" ]; then
	for m in "${names[@]}"; do
		if [ ! -f "$mutants_dir/$m" ]; then
			echo "# $m: no such mutant in $mutants_dir"
			exit 1
		fi
	done
	kdir_together=$out/kernel-$together-mutants
	make_kdir "$kdir_together" "${names[@]}" || exit 1
	echo "# ${#names[@]} mutant(s) in one $together kernel: ${names[*]}"
fi

# first_fail MUTANT SCENARIO: its line of mutants-first-fail.
first_fail() {
	awk -v m="$1" -v n="$2" '$1 == m && $2 == n { print $3 }' "$here/mutants-first-fail"
}

# With --records, selected["MUTANT SCENARIO"] for each line to check.
declare -A selected=()
left=()
unchanged=0
if [ -n "$records" ]; then
	# The mutants on the patched flavour first: the debug ones are all
	# checked together by the debug suite's hostctl-debug-mutants in every
	# default run, so the build budget goes to the others first.
	mapfile -t ordered < <(for m in "${names[@]}"; do
		grep -q '^Mutant-flavour:' "$mutants_dir/$m" && echo "1 $m" || echo "0 $m"
	done | sort | cut -d' ' -f2)
	for m in "${ordered[@]}"; do
		flavour=$(sed -n 's/^Mutant-flavour: \([a-z0-9-]*\)$/\1/p' "$mutants_dir/$m")
		make_kdir "$out/kernel-${m%.patch}" "$m" >&2 || continue
		if ! key=$("$HOSTCTL" build --key --kernel-dir "$out/kernel-${m%.patch}" \
			${flavour:+--flavour "$flavour"}); then
			echo "# $m: hostctl build --key failed" >&2
			failed=1
			continue
		fi
		sed -n 's/^Caught-by: \([^ ]*\) \([0-9][0-9]*\)\( .*\)\{0,1\}$/\1 \2\3/p' "$mutants_dir/$m" |
			while read -r name step title; do
				echo "$m $name $step $(echo "$key" | sed -n 's/^key: //p')" \
					"$(echo "$key" | sed -n 's/^cached: //p') ${title:+$(first_fail "$m" "$name")}"
			done
	done > "$out/list.txt"
	if ! python3 "$here/bites-record.py" --mutants select "$cache" "$SRCDIR" \
		"${VLALAB_MUTANTS_BUILDS:-1}" < "$out/list.txt" > "$out/select.txt"; then
		echo "# bites-record.py --mutants select failed (the record: $cache/bites/mutants.json)"
		failed=1
	fi
	while read -r action m name why; do
		echo "# $action $name ($m): $why"
		case $action in
		check) selected["$m $name"]=1 ;;
		skip) unchanged=$((unchanged + 1)) ;;
		leave) left+=("$name ($m): $why") ;;
		esac
	done < "$out/select.txt"
fi
rechecked=()

checked=0
for m in "${names[@]}"; do
	patch=$mutants_dir/$m
	if [ ! -f "$patch" ]; then
		echo "# $m: no such mutant in $mutants_dir"
		failed=1
		continue
	fi
	mapfile -t caught < <(sed -n 's/^Caught-by: \([^ ]*\) \([0-9][0-9]*\)\( .*\)\{0,1\}$/\1 \2\3/p' "$patch")
	flavour=$(sed -n 's/^Mutant-flavour: \([a-z0-9-]*\)$/\1/p' "$patch")
	if [ ${#caught[@]} -eq 0 ]; then
		echo "# $m: no 'Caught-by: SCENARIO STEP' trailer"
		failed=1
		continue
	fi
	if [ -n "$records" ]; then
		all=("${caught[@]}")
		caught=()
		for c in "${all[@]}"; do
			read -r name _ <<< "$c"
			if [ -n "${selected["$m $name"]:-}" ]; then
				caught+=("$c")
			fi
		done
		[ ${#caught[@]} -gt 0 ] || continue
	fi
	if [ -n "$together" ]; then
		kdir=$kdir_together
	else
		kdir=$out/kernel-${m%.patch}
		if [ ! -d "$kdir" ] && ! make_kdir "$kdir" "$m"; then
			failed=1
			continue
		fi
	fi
	for c in "${caught[@]}"; do
		read -r name step title <<< "$c"
		dir=$out/${m%.patch}-${name//\//-}
		first=$step
		if [ -n "$title" ]; then
			first=$(first_fail "$m" "$name")
			if [ -z "$first" ]; then
				echo "# $m: no first failing step for $name in $here/mutants-first-fail"
				failed=1
				continue
			fi
		fi
		echo "# $m: running $name on the series with the mutant"
		rc=0
		"$HOSTCTL" run --kernel-dir "$kdir" ${flavour:+--flavour "$flavour"} \
			--format ktap --output "$dir" "$name" > "$dir.log" 2>&1 || rc=$?
		if [ "$rc" = 2 ]; then
			echo "# $m: hostctl run exited 2 (set-up error; log: $dir.log)"
			failed=1
			continue
		fi
		checked=$((checked + 1))
		if ! /usr/bin/python3 "$here/mutants-check.py" "$dir" "$name" "$step" "$m" \
			"$first" ${title:+"$title"}; then
			failed=1
		elif [ -z "$together" ]; then
			if python3 "$here/bites-record.py" --mutants record "$cache" "$SRCDIR" \
				"$dir" "$name" "$m" ${title:+"$first"}; then
				rechecked+=("$name ($m)")
			else
				echo "# $m: caught by $name, but its record in $cache/bites/mutants.json was not written"
				failed=1
			fi
		fi
	done
done
echo "# $checked mutant run(s)"
if [ -n "$records" ]; then
	echo "# mutants re-checked: ${#rechecked[@]}"
	for l in "${rechecked[@]}"; do
		echo "#   $l"
	done
	echo "# mutants unchanged since their record: $unchanged"
	echo "# mutants left to bites-full: ${#left[@]}"
	for l in "${left[@]}"; do
		echo "#   $l"
	done
fi
exit "$failed"
