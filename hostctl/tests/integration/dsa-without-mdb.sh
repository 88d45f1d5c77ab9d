#!/bin/sh
# Integration, issue 4 scenario 10: with the MDB offload patch left out of
# the series (hostctl run --without-patch), dsa/mdb-offload must fail, and
# fail on the offload flag with a message that says so; with the whole
# series the same scenario passes. This shows that the scenario tests the
# offload to dsa_loop, not the software bridge. Leaving the patch out is a
# dsa_loop-only rebuild (about a minute) the first time, a cache hit after.
set -eu
patch=$(grep -m1 -- '-add-MDB-offload\.patch$' "$SRCDIR/kernel/patches/series" || true)
if [ -z "$patch" ]; then
	echo "# no MDB offload patch in $SRCDIR/kernel/patches/series"
	exit 1
fi
out=$(mktemp -d /tmp/hostctl-it-dsa-without-mdb-XXXXXX)

rc=0
"$HOSTCTL" run --without-patch "$patch" --format ktap --output "$out/without" \
	dsa/mdb-offload > "$out/without.ktap" || rc=$?
cat "$out/without.ktap"
if [ "$rc" -ne 1 ]; then
	echo "# hostctl run --without-patch $patch exited $rc, want 1 (a failed scenario)"
	exit 1
fi

rc=0
"$HOSTCTL" run --format ktap --output "$out/with" dsa/mdb-offload \
	> "$out/with.ktap" || rc=$?
cat "$out/with.ktap"
if [ "$rc" -ne 0 ]; then
	echo "# hostctl run with the whole series exited $rc, want 0"
	exit 1
fi

python3 - "$out" "$patch" <<'PY'
import json, os, sys
out, patch = sys.argv[1], sys.argv[2]
bad = []
def load(name):
    return json.load(open(os.path.join(out, name, "summary.json")))
wo, wi = load("without"), load("with")
if wo["kernel"].get("without") != [patch]:
    bad.append("without: kernel manifest lists %r left out, want [%r]" % (wo["kernel"].get("without"), patch))
if wi["kernel"].get("without"):
    bad.append("with: kernel manifest lists %r left out" % wi["kernel"]["without"])
if wo["kernel"].get("key") == wi["kernel"].get("key"):
    bad.append("both runs booted the same kernel build")
sc = {s["name"]: s for s in wo["scenarios"]}.get("dsa/mdb-offload")
if not sc:
    bad.append("without: no dsa/mdb-offload in the summary")
else:
    if sc["verdict"] != "fail":
        bad.append("without: verdict %r, want fail" % sc["verdict"])
    # The first failure is the offload flag, named in the reason.
    r = sc.get("reason", "")
    for want in ("mdb_expect 'every entry carries the offload flag'",
                 "expected br0 MDB entry lan1 239.1.1.1 vid 100 temp offload",
                 "lan1 239.1.1.1 vid 100 temp no_offload"):
        if want not in r:
            bad.append("without: reason lacks %r: %s" % (want, r))
    # The adds themselves succeeded: the bridge took them in software.
    adds = [st for st in sc["steps"] if st["kind"] == "mdb_add"]
    if len(adds) != 5 or any(st["verdict"] != "pass" for st in adds):
        bad.append("without: want 5 passing mdb_add steps, got %r" %
                   [(st.get("name"), st["verdict"]) for st in adds])
sc = {s["name"]: s for s in wi["scenarios"]}.get("dsa/mdb-offload")
if not sc or sc["verdict"] != "pass":
    bad.append("with: dsa/mdb-offload %r, want pass" % (sc and sc["verdict"]))
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
rm -rf "$out"
