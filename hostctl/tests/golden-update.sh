#!/bin/sh
# Rewrite every golden .out file from the current formatters; review the
# diff with git before committing. usage: golden-update.sh HOSTCTL_FMT
set -eu
fmt=$1
dir=$(dirname "$0")/golden
for in in "$dir"/*.in; do
	base=${in%.in}
	case $(basename "$base") in
	xml-*) modes=xml ;;
	repeat-*) modes="repeat-text repeat-ktap repeat-json" ;;
	summary-repro) modes="json closing" ;;
	summary-mixed | summary-empty)
		modes="ktap text json junit kcidb html closing" ;;
	*) modes="ktap text json junit kcidb html" ;;
	esac
	for mode in $modes; do
		"$fmt" "$mode" "$in" > "$base.$mode.out"
		echo "wrote $base.$mode.out"
	done
done
