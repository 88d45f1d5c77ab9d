#!/bin/sh
# Integration: hostctl run --repeat 3 over the repeat fixtures. repeat/flip
# reads vlalab.round=K from /proc/cmdline and passes in odd rounds only, so
# it must be reported as flipped, 2/3 passes, its first difference step 2
# ('the round is odd', a read step) failing in round 2 alone; repeat/stable
# passes every round and must not flip. The exit code is 1, stderr says
# "flipped", summary.json holds the same table, and every round has its
# own directory with a summary, events and console logs, whose guests all
# had that round's number on their command line (no VM outlives a round).
# --repeat 0 and 1001 are usage errors.
set -eu
out=$(mktemp -d /tmp/hostctl-it-repeat-XXXXXX)
for n in 0 1001; do
	rc=0
	"$HOSTCTL" run --repeat "$n" all 2> "$out/usage" || rc=$?
	if [ "$rc" -ne 2 ] || ! grep -q "1\.\.1000" "$out/usage"; then
		echo "# --repeat $n: exit $rc, want 2 with the bounds:"
		cat "$out/usage"
		exit 1
	fi
done
rc=0
"$HOSTCTL" run --format text --repeat 3 --output "$out/run" \
	--scenarios "$SRCDIR/hostctl/tests/repeat-fixtures" all \
	> "$out/text" 2> "$out/stderr" || rc=$?
cat "$out/text"
sed 's/^/# stderr: /' "$out/stderr"
echo "# run directory: $out/run"
if [ "$rc" -ne 1 ]; then
	echo "# hostctl run --repeat 3 exited $rc, want 1 (a flip)"
	exit 1
fi
python3 - "$out" <<'PY'
import json, os, re, sys
out = sys.argv[1]
run = os.path.join(out, "run")
bad = []
s = json.load(open(os.path.join(run, "summary.json")))
rep = s.get("repeat") or {}
if rep.get("rounds") != 3 or rep.get("requested") != 3:
    bad.append("repeat.rounds/requested: %r/%r, want 3/3" % (rep.get("rounds"), rep.get("requested")))
if rep.get("round_dirs") != ["round-1", "round-2", "round-3"]:
    bad.append("round_dirs: %r" % rep.get("round_dirs"))
if rep.get("flipped") != ["repeat/flip"]:
    bad.append("flipped: %r, want ['repeat/flip']" % rep.get("flipped"))
by = {sc["name"]: sc for sc in rep.get("scenarios", [])}
f = by.get("repeat/flip", {})
want = {"passes": 2, "flipped": True, "counts": {"pass": 2, "fail": 1},
        "verdicts": ["pass", "fail", "pass"],
        "first_difference": {"step": 1, "kind": "read", "name": "the round is odd",
                             "verdicts": ["pass", "fail", "pass"]}}
for k, v in want.items():
    if f.get(k) != v:
        bad.append("repeat/flip %s: %r, want %r" % (k, f.get(k), v))
st = by.get("repeat/stable", {})
want = {"passes": 3, "flipped": False, "counts": {"pass": 3},
        "verdicts": ["pass"] * 3, "first_difference": None}
for k, v in want.items():
    if st.get(k) != v:
        bad.append("repeat/stable %s: %r, want %r" % (k, st.get(k), v))

# Each round: its own summary, events and consoles; every guest of round
# K booted with vlalab.round=K, so none came from another round.
for k in (1, 2, 3):
    d = os.path.join(run, "round-%d" % k)
    try:
        rs = json.load(open(os.path.join(d, "summary.json")))
    except OSError as e:
        bad.append("round %d: %s" % (k, e))
        continue
    if not rs["run_id"].endswith("-r%d" % k):
        bad.append("round %d: run_id %r" % (k, rs["run_id"]))
    v = {sc["name"]: sc["verdict"] for sc in rs["scenarios"]}
    if v != {"repeat/flip": "pass" if k % 2 else "fail", "repeat/stable": "pass"}:
        bad.append("round %d: verdicts %r" % (k, v))
    hellos = [json.loads(l) for l in open(os.path.join(d, "events.jsonl"))
              if '"hello"' in l]
    hellos = [h for h in hellos if h.get("ev") == "hello"]
    if not hellos:
        bad.append("round %d: no hello in events.jsonl" % k)
    for h in hellos:
        if not re.search(r"(^| )vlalab\.round=%d( |$)" % k, h["cmdline"].strip()):
            bad.append("round %d: a guest booted with %r" % (k, h["cmdline"]))
    consoles = [n for n in os.listdir(d) if re.match(r"console-vm\d+\.log$", n)]
    if len(consoles) != len(hellos):
        bad.append("round %d: %d consoles for %d hellos" % (k, len(consoles), len(hellos)))

# The table on stdout says the same.
text = open(os.path.join(out, "text")).read()
rows = {}
for line in text.splitlines():
    m = re.match(r"^(\S+)\s+(repeat/\S+)\s+(\d+/\d+)\s+(.*?)\s{2,}(.*)$", line)
    if m:
        rows[m.group(2)] = m.groups()
r = rows.get("repeat/flip")
if (not r or r[0] != "FLIPPED" or r[2] != "2/3" or r[3] != "pass\u00d72 fail\u00d71"
        or not r[4].startswith("step 2 read 'the round is odd': pass in rounds 1, 3; fail in round 2")):
    bad.append("table row of repeat/flip: %r" % (r,))
r = rows.get("repeat/stable")
if not r or r[0] != "PASS" or r[2] != "3/3" or r[3] != "pass\u00d73" or r[4] != "-":
    bad.append("table row of repeat/stable: %r" % (r,))
if not re.search(r"^2 scenarios over 3 rounds: 1 flipped, .* -> FLIPPED$", text, re.M):
    bad.append("no totals line saying FLIPPED")
err = open(os.path.join(out, "stderr")).read()
if not re.search(r"flipped: 1 of 2 scenarios over 3 rounds: repeat/flip$", err, re.M):
    bad.append("stderr does not name the flip: %r" % err[-300:])
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
