#!/bin/bash
# The lines suite (issue 33; docs/kernel.md, "Lines"): every scenario on
# another kernel line than 6.1, the default (6.12: linux-source-6.12 and
# kernel/patches/6.12/series), as hostctl run --line LINE all gives it.
# A cold run builds that line's kernel first (10 to 15 minutes on 2
# cores), so the suite is left out of the default setup:
#   meson test -C build --setup full --suite lines
# usage: lines.sh [LINE] (default 6.12); HOSTCTL names hostctl.
# Exit: hostctl run's (0 every scenario passed or was declared so).
set -euo pipefail

: "${HOSTCTL:?HOSTCTL must name the hostctl binary}"
line=${1:-6.12}
out=$(mktemp -d /tmp/hostctl-it-lines-XXXXXX)
echo "# hostctl run --line $line all; results in $out/run"
rc=0
"$HOSTCTL" run --line "$line" --format ktap --output "$out/run" all || rc=$?
if [ "$rc" -eq 0 ] && [ -z "${VLALAB_LINES_KEEP:-}" ]; then
	rm -rf "$out"
fi
exit "$rc"
