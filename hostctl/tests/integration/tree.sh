#!/bin/sh
# Integration: your own kernel (docs/kernel.md, "Your own kernel").
#
# 1. --tree: a second tree made from the Debian tarball (the cached
#    patched tree with our series reversed, mtimes kept, committed to a
#    fresh git repository) plus a commit of this test's own, a sysfs file
#    /sys/kernel/vlalab_tree. `hostctl run --tree` builds it (its first
#    build seeded from patched's object tree: the series' files and
#    ksysfs.c are compiled again, and vmlinux relinked) and a scenario of
#    this test reads the file; a scenario that requires the series' LMC
#    model skips, saying so; the build lists that option as missing; the
#    user's tree is not written; a dirty tree is refused.
# 2. --kernel: the cached patched bzImage with its modules passes
#    ftrace/cached-filter, its config read from the bzImage's IKCONFIG, and
#    the summary, JUnit and KCIDB name the bzImage and its SHA-256.
#
# The tree is kept in $VLALAB_TREE_TEST (default /var/tmp/vlalab-tree-test)
# so that its object tree in the cache stays valid between runs. Slow
# (a kernel build when the tree is new): suite 'tree', outside the default
# setup. --series is not run here: its copy is a fresh checkout, so its
# first build is a cold one (the unit test kbuild-usertree covers the copy).
set -eu
cache=${VLALAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vlalab}
work=${VLALAB_TREE_TEST:-/var/tmp/vlalab-tree-test}
out=$(mktemp -d /tmp/hostctl-it-tree-XXXXXX)
fail() { echo "# $*"; exit 1; }

# Our patched build (a hit once the default setup has run).
"$HOSTCTL" build > "$out/build" 2> "$out/build.err" ||
	{ cat "$out/build.err"; fail "hostctl build failed"; }
bdir=$(sed -n 's/^kernel: \(.*\)\/bzImage .*/\1/p' "$out/build" | head -n 1)
[ -f "$bdir/bzImage" ] || { cat "$out/build"; fail "no bzImage in '$bdir'"; }
release=$(ls "$bdir/modules/lib/modules")

# The second tree: Debian's source plus a commit of our own. Kept from
# the last run when it is still that (so its build is a cache hit).
g() { git -C "$work" -c gc.auto=0 -c user.name=vlalab-test -c user.email=test@vlalab "$@"; }
subject="ksysfs: /sys/kernel/vlalab_tree, for the vlalab tree test"
if [ "$(g log -1 --format=%s 2>/dev/null)" = "$subject" ] &&
	[ "$(g log -1 --skip=1 --format=%s)" = "Debian linux-source-6.1 $release" ] &&
	[ -z "$(g status --porcelain --untracked-files=no)" ]; then
	echo "# reusing the tree $work"
else
	rm -rf "$work"
	cp -a --reflink=auto "$cache/trees/patched" "$work"
	rm -rf "$work/.vlalab"
	tac "$SRCDIR/kernel/patches/series" | grep -v '^#' | grep . |
	while read -r p; do
		git -C "$work" apply -R "$SRCDIR/kernel/patches/$p" ||
			fail "cannot reverse $p"
	done
	g init -q
	g add -f -A
	g commit -q -m "Debian linux-source-6.1 $release"
	python3 - "$work/kernel/ksysfs.c" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
attr = '''static ssize_t vlalab_tree_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "built from the vlalab tree test\\n");
}
KERNEL_ATTR_RO(vlalab_tree);

static struct attribute * kernel_attrs[] = {
	&vlalab_tree_attr.attr,
'''
assert s.count("static struct attribute * kernel_attrs[] = {\n") == 1
s = s.replace("static struct attribute * kernel_attrs[] = {\n", attr)
open(p, "w").write(s)
PY
	g commit -q -a -m "$subject"
fi
commit=$(g rev-parse HEAD)

# This test's scenarios.
mkdir -p "$out/scenarios/tree"
cat > "$out/scenarios/tree/sees-commit.json" <<'EOF'
{
	"description": "The kernel built from the test's tree has its commit's sysfs file",
	"seed": "none",
	"steps": [
		{"kind": "read", "name": "the test commit's file", "path": "/sys/kernel/vlalab_tree", "equals": "built from the vlalab tree test"}
	]
}
EOF
cat > "$out/scenarios/tree/needs-lmc-model.json" <<'EOF'
{
	"description": "Needs the series' ThunderX LMC model, which Debian's tree does not have",
	"seed": "003",
	"requires": {"config": ["CONFIG_EDAC_THUNDERX_LMC_MODEL"]},
	"steps": [
		{"kind": "read", "name": "the model's EDAC device", "path": "/sys/kernel/debug/edac/mc0/mask0", "match": "."}
	]
}
EOF

# A dirty tree is refused, naming the file, before anything is built.
"$HOSTCTL" list --scenarios "$out/scenarios" > /dev/null ||
	fail "the test's scenarios do not load"
echo >> "$work/README"
rc=0
"$HOSTCTL" run --tree "$work" --scenarios "$out/scenarios" --output "$out/dirty" \
	all > /dev/null 2> "$out/dirty.err" || rc=$?
g checkout -q README
cat "$out/dirty.err"
[ "$rc" -eq 2 ] || fail "a dirty tree: exit $rc, want 2"
grep -q "uncommitted changes to tracked files ( M README)" "$out/dirty.err" ||
	fail "a dirty tree: the reason does not name README"
g checkout -q README

touch "$out/marker"
rc=0
nice -n 15 "$HOSTCTL" run --tree "$work" --scenarios "$out/scenarios" \
	--output "$out/run-tree" --format ktap --junit "$out/tree.xml" \
	--kcidb "$out/tree.json" all > "$out/tree.ktap" 2> "$out/tree.err" || rc=$?
cat "$out/tree.ktap"
grep -E "^kbuild: |^  configs/" "$out/tree.err" || true
[ "$rc" -eq 0 ] || { tail -n 30 "$out/tree.err"; fail "run --tree exited $rc, want 0"; }
written=$(find "$work" -path "$work/.git" -prune -o -newer "$out/marker" -print | head -n 5)
[ -z "$written" ] || fail "the user's tree was written: $written"

python3 - "$out" "$work" "$commit" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET
out, work, commit = sys.argv[1:]
s = json.load(open(os.path.join(out, "run-tree", "summary.json")))
bad = []
v = {sc["name"]: sc for sc in s["scenarios"]}
if v["tree/sees-commit"]["verdict"] != "pass":
    bad.append("sees-commit: %r" % v["tree/sees-commit"])
lmc = v["tree/needs-lmc-model"]
if (lmc["verdict"] != "skip" or
        "CONFIG_EDAC_THUNDERX_LMC_MODEL is not set" not in lmc["reason"] or
        "not in this tree's Kconfig" not in lmc["reason"]):
    bad.append("needs-lmc-model: %r" % lmc)
t = s["kernel"].get("tree", {})
if t.get("path") != work or t.get("id") != "git:" + commit or t.get("series"):
    bad.append("the manifest's tree: %r" % t)
if not any("CONFIG_EDAC_THUNDERX_LMC_MODEL=y" in m for m in t.get("missing_options", [])):
    bad.append("LMC_MODEL is not among the missing options: %r" % t.get("missing_options"))
k = json.load(open(os.path.join(out, "tree.json")))
co = k["checkouts"][0]
if co.get("git_commit_hash") != commit or co.get("tree_name") != "user-tree":
    bad.append("KCIDB checkout: %r" % co)
props = ET.parse(os.path.join(out, "tree.xml")).getroot().findall(
    "testsuite/properties/property")
if not props or not all(commit in p.get("value") for p in props):
    bad.append("JUnit kernel property: %r" % [p.get("value") for p in props])
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY

# 2. The cached patched kernel, as if built elsewhere.
rc=0
nice -n 10 "$HOSTCTL" run --kernel "$bdir/bzImage" --modules "$bdir/modules" \
	--output "$out/run-ext" --format ktap --junit "$out/ext.xml" \
	--kcidb "$out/ext.json" ftrace/cached-filter > "$out/ext.ktap" 2> "$out/ext.err" || rc=$?
cat "$out/ext.ktap"
[ "$rc" -eq 0 ] || { tail -n 30 "$out/ext.err"; fail "run --kernel exited $rc, want 0"; }
sha=$(sha256sum "$bdir/bzImage" | cut -d' ' -f1)
python3 - "$out" "$bdir" "$sha" "$cache" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET
out, bdir, sha, cache = sys.argv[1:]
s = json.load(open(os.path.join(out, "run-ext", "summary.json")))
bad = []
if [(sc["name"], sc["verdict"]) for sc in s["scenarios"]] != [("ftrace/cached-filter", "pass")]:
    bad.append("verdicts: %r" % s["scenarios"])
e = s["kernel"].get("external", {})
if e.get("bzimage") != os.path.join(bdir, "bzImage") or e.get("sha256") != sha:
    bad.append("the manifest's external: %r" % e)
if e.get("config") != "ikconfig:bzImage":
    bad.append("config from %r, want the bzImage's IKCONFIG" % e.get("config"))
cfg = open(os.path.join(bdir, "config")).read()
staged = open(os.path.join(cache, "builds", s["kernel"]["key"], "config")).read()
if staged != cfg:
    bad.append("the IKCONFIG read differs from the build's config")
co = json.load(open(os.path.join(out, "ext.json")))["checkouts"][0]
if sha not in co.get("comment", "") or co.get("tree_name") != "external":
    bad.append("KCIDB checkout: %r" % co)
props = ET.parse(os.path.join(out, "ext.xml")).getroot().findall(
    "testsuite/properties/property")
if not props or not all(sha in p.get("value") for p in props):
    bad.append("JUnit kernel property: %r" % [p.get("value") for p in props])
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY

# Bad input: modules of another release, exit 2 with the reason.
mkdir -p "$out/othermods/lib/modules/5.10.0-test"
rc=0
"$HOSTCTL" run --kernel "$bdir/bzImage" --modules "$out/othermods" \
	ftrace/cached-filter > /dev/null 2> "$out/bad.err" || rc=$?
cat "$out/bad.err"
[ "$rc" -eq 2 ] || fail "modules of another release: exit $rc, want 2"
grep -q "are for 5.10.0-test, not for the bzImage's release $release" "$out/bad.err" ||
	fail "modules of another release: no reason"
echo "# runs: $out"
