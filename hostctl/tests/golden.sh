#!/bin/bash
# Golden test: run hostctl-fmt MODE on IN and compare with OUT. Under
# pipefail: a hostctl-fmt that crashed after printing the expected text
# must still fail.
# usage: golden.sh HOSTCTL_FMT MODE IN OUT
set -euo pipefail
"$1" "$2" "$3" | diff -u "$4" -
