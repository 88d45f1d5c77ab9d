#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kernel/mail-series (docs/kernel.md, "Mailing the series"), on Debian's
# linux-source tarballs (nothing is built): as the lab's placeholder
# identity it refuses with one line and writes nothing; as a sender whose
# patches still carry the placeholder's sign-off, without --signoff, too;
# as a test identity with --signoff it writes the net, net-next, EDAC and
# 6.1.y series, each mail with its tree's prefix, get_maintainer.pl's
# recipients, the sender's sign-off and no placeholder anywhere, and every
# patch passed checkpatch.pl --strict (its exit status; what checkpatch
# could not check is listed). The identities are given the way a user
# gives them, `git -c user.name=... -c user.email=...`, with the script as
# a git alias. TAP; exit 77 without the tarballs.
set -u
for l in 6.1 6.12; do
	if [ ! -r "/usr/src/linux-source-$l.tar.xz" ]; then
		echo "1..0 # SKIP no /usr/src/linux-source-$l.tar.xz (apt-get install linux-source-$l)"
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ms="$SRCDIR/kernel/mail-series"
# Outside any repository, so that only the identity given here counts (the
# global one may be the placeholder too).
cd "$tmp" || exit 1
mail() { # name email args...
	n=$1 e=$2
	shift 2
	HOME=$tmp GIT_CONFIG_NOSYSTEM=1 git -c user.name="$n" -c user.email="$e" \
		-c alias.mail-series="!\"$ms\"" mail-series "$@"
}
i=0
rc=0
check() { # description, then a command that must succeed
	i=$((i + 1))
	d=$1
	shift
	if "$@"; then
		echo "ok $i - $d"
	else
		echo "not ok $i - $d"
		rc=1
	fi
}
oneline_refusal() { # file with stderr, pattern
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q "^mail-series: .*$2" "$1"
}
echo "1..20"

mail 'Seed 84241dfd maintainers' maintainers@users.noreply.a-seed-84241dfd.example \
	--signoff -o out1 >/dev/null 2>err1
check "the placeholder identity exits 1" test $? -eq 1
sed 's/^/# /' err1
check "with one line naming the placeholder" oneline_refusal err1 "placeholder identity"
check "and writes nothing" test ! -e out1/net

mail 'Test Sender' sender@kernel.test -o out2 >/dev/null 2>err2
check "a placeholder sign-off without --signoff exits 1" test $? -eq 1
sed 's/^/# /' err2
check "with one line naming the patch" oneline_refusal err2 "signed off by the placeholder"

mail 'Test Sender' sender@kernel.test --signoff -o out >log 2>err
st=$?
sed 's/^/# /' log err
check "a test identity with --signoff exits 0 (checkpatch --strict passed)" test $st -eq 0

subjects() { # set: each mail's Subject, unfolded
	for f in out/"$1"/*.patch; do
		sed -n '/^Subject:/{N;s/\n / /;P;}' "$f" | sed 's/^Subject: //'
	done
}
check "net: a cover letter and 2 patches, [PATCH net n/2]" \
	test "$(subjects net | grep -c '^\[PATCH net [0-2]/2\] ')" -eq 3
check "net-next: one patch, [PATCH net-next]" \
	test "$(subjects net-next | grep -c '^\[PATCH net-next\] net: dsa: loop: ')" -eq 1
check "edac: a cover letter and 3 patches, [PATCH n/3]" \
	test "$(subjects edac | grep -c '^\[PATCH [0-3]/3\] ')" -eq 4
check "stable-6.1: one patch, [PATCH 6.1.y]" \
	test "$(subjects stable-6.1 | grep -c '^\[PATCH 6\.1\.y\] PM: hibernate: ')" -eq 1
check "stable-6.1 starts with the stable form and keeps upstream's Closes:" \
	sh -c 'f=$(echo out/stable-6.1/*.patch);
		sed -n "/^$/{n;p;q;}" $f | grep -qx "commit [0-9a-f]\{40\} upstream\." &&
		grep -q "^Closes: https://lore.kernel.org/" $f'
check "no placeholder anywhere in the output (4 sets written)" \
	sh -c 'test "$(ls out | wc -l)" -eq 4 && ! grep -rEi "seed [0-9a-f]+ maintainers|@([a-z0-9-]+\.)+example([^.a-z0-9-]|$)" out'
check "every patch is signed off by the sender" \
	sh -c 'for f in out/*/000[1-9]-*.patch; do grep -qx "Signed-off-by: Test Sender <sender@kernel.test>" $f || exit 1; done'
check "the net fixes and EDAC fixes carry Cc: stable" \
	sh -c 'for f in out/net/000[12]-* out/edac/000[123]-*; do grep -qx "Cc: stable@vger.kernel.org" $f || exit 1; done'
check "net's mails are to DSA's and netdev's maintainers (get_maintainer.pl)" \
	sh -c 'for f in out/net/*.patch; do grep -q "^To: .*Andrew Lunn <andrew@lunn.ch>" $f && grep -q "Jakub Kicinski <kuba@kernel.org>" $f && grep -q "^Cc: netdev@vger.kernel.org" $f || exit 1; done'
check "net-next's mail too" \
	sh -c 'grep -q "^Cc: netdev@vger.kernel.org" out/net-next/*.patch'
check "EDAC's mails are to the ThunderX EDAC maintainer and linux-edac" \
	sh -c 'for f in out/edac/*.patch; do grep -q "Robert Richter <rric@kernel.org>" $f && grep -q "Borislav Petkov <bp@alien8.de>" $f && grep -q "^Cc: linux-edac@vger.kernel.org" $f || exit 1; done'
check "the 6.1.y mail is to stable, Cc: the hibernation maintainers" \
	sh -c 'f=$(echo out/stable-6.1/*.patch); grep -qx "To: stable@vger.kernel.org" $f && grep -q "Rafael J. Wysocki\" <rafael@kernel.org>" $f && grep -q "linux-pm@vger.kernel.org" $f'
check "checkpatch's unverifiable ids are listed, each recorded" \
	sh -c 'grep -q "checkpatch cannot check: .*6dc43cd3aae0 (not in the tree; kernel/patches/ids.txt: confirmed)" log && ! grep -q "NOT RECORDED" log'
check "the cover letters carry their set's text" \
	sh -c '! grep -q "\*\*\* \(SUBJECT\|BLURB\) HERE" out/*/0000-cover-letter.patch && grep -q "^Subject: \[PATCH net 0/2\] net: dsa: a NULL dereference" out/net/0000-cover-letter.patch'
exit $rc
