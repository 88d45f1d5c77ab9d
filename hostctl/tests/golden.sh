#!/bin/sh
# Golden test: run hostctl-fmt MODE on IN and compare with OUT.
# usage: golden.sh HOSTCTL_FMT MODE IN OUT
set -eu
"$1" "$2" "$3" | diff -u "$4" -
