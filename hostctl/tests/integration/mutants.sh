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
# "Caught-by: SCENARIO STEP TITLE" wants instead a scenario that did not
# pass with an incident whose title starts with TITLE attributed to STEP
# (a KASAN report, say, which the kernel survives: a later check of the
# log is then the first step that fails). "Mutant-flavour: NAME" builds the mutant in that
# flavour (kernel/flavours/NAME: the debug flavour for sanitizer finds).
#
#   mutants.sh              every mutant
#   mutants.sh NAME...      these (file names in kernel/mutants/)
#   mutants.sh --together FLAVOUR
#                           every mutant with "Mutant-flavour: FLAVOUR",
#                           all in one kernel: one build rather than one
#                           each (the debug suite's; each planted bug sits
#                           on its own seed's path and fires only at its
#                           own scenario's step, and every scenario that
#                           does not pass gets a fresh VM)
#
# Each scenario runs in a hostctl run of its own. The results stay in
# /tmp/hostctl-it-mutants-* when something failed, or always with
# VLALAB_MUTANTS_KEEP=1. Exit 0: every mutant caught where declared;
# 1: one was not (named); 77: no mutant.
set -euo pipefail

: "${HOSTCTL:?HOSTCTL must name the hostctl binary}"
: "${SRCDIR:?SRCDIR must name the repository}"
mutants_dir=$SRCDIR/kernel/mutants

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
if [ "${1:-}" = --together ]; then
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
	if [ -n "$together" ]; then
		kdir=$kdir_together
	else
		kdir=$out/kernel-${m%.patch}
		if ! make_kdir "$kdir" "$m"; then
			failed=1
			continue
		fi
	fi
	for c in "${caught[@]}"; do
		read -r name step title <<< "$c"
		dir=$out/${m%.patch}-${name//\//-}
		echo "# $m: running $name on the series with the mutant"
		rc=0
		"$HOSTCTL" run --kernel-dir "$kdir" ${flavour:+--flavour "$flavour"} \
			--format ktap --output "$dir" "$name" > "$dir.log" 2>&1 || rc=$?
		if [ "$rc" = 2 ]; then
			echo "# $m: hostctl run exited 2 (set-up error; log: $dir.log)"
			failed=1
			continue
		fi
		/usr/bin/python3 - "$dir" "$name" "$step" "$m" "$title" <<'PY' || failed=1
import json, os, sys
d, name, step, m, title = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
try:
    summary = json.load(open(os.path.join(d, "summary.json")))
except (OSError, ValueError) as e:
    print("# %s: no readable summary.json in %s: %s" % (name, d, e))
    sys.exit(1)
patches = [p.get("name") for p in summary.get("kernel", {}).get("patches", [])]
if m not in patches:
    print("# %s: the kernel's patches do not include the mutant %s" % (name, m))
    sys.exit(1)
sc = {s["name"]: s for s in summary["scenarios"]}.get(name)
if sc is None:
    print("# %s: not in %s/summary.json" % (name, d))
    sys.exit(1)
first = next((st for st in sc["steps"] if st["verdict"] != "pass"), None)
# With a title, the incident is the catch: a scenario may fail on it
# with every step that ran passing (a boot that could not resume).
if sc["verdict"] in ("pass", "skip", "xfail") or (first is None and not title):
    print("# %s with %s: verdict %s, want a failure at step %d" % (name, m, sc["verdict"], step))
    sys.exit(1)
if title:
    inc = [i for i in sc.get("incidents", []) if i.get("step") == step]
    if not any(i.get("title", "").startswith(title) for i in inc):
        print("# %s with %s: no incident titled '%s...' at step %d; incidents: %s"
              % (name, m, title, step,
                 [(i.get("step"), i.get("title")) for i in sc.get("incidents", [])]))
        sys.exit(1)
    print("# %s with %s: %s; incident '%s' at step %d (%s)"
          % (name, m, sc["verdict"], title, step, sc["steps"][step]["name"]))
    sys.exit(0)
if first["index"] != step:
    print("# %s with %s: first step that did not pass is %d (%s), want %d"
          % (name, m, first["index"], first["name"], step))
    sys.exit(1)
print("# %s with %s: %s at step %d (%s): got %s%s" % (name, m, sc["verdict"], step,
      first["name"], " ".join((first.get("got") or "").split())[:120],
      "; incident '%s'" % title if title else ""))
PY
		checked=$((checked + 1))
	done
done
echo "# $checked mutant run(s)"
exit "$failed"
