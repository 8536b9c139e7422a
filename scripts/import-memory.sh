#!/usr/bin/env bash
# Import memory check (by hand, not CI): a gzip FOCUS export of RESOURCES
# resources with one daily line each over DAYS days (default 100,000 x 60:
# 6,000,000 lines, the default import.max_resources and well under
# import.max_daily_lines), imported with `costpilot import --dry-run` and
# then for real into an empty data dir, each under /usr/bin/time -v
# (Debian package `time`). It prints each run's peak RSS and fails if one
# passes the documented bound (docs/configuration.md, Imports).
# Usage: scripts/import-memory.sh [RESOURCES [DAYS]]   (from anywhere in the repo)
# BIN=path uses a built binary instead of building one (CGO_ENABLED=0).
set -euo pipefail
RESOURCES=${1:-100000}
DAYS=${2:-60}
BOUND_MB=${BOUND_MB:-512}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/costpilot-import-memory.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT"
if [ ! -x /usr/bin/time ]; then
	echo "needs GNU time at /usr/bin/time (Debian/Ubuntu: apt-get install time)" >&2
	exit 2
fi
BIN=${BIN:-}
if [ -z "$BIN" ]; then
	BIN="$TMP/costpilot"
	CGO_ENABLED=0 go build -o "$BIN" .
fi
echo "generating $RESOURCES resources x $DAYS days..."
go run ./scripts/genfocus -daily -resources "$RESOURCES" -days "$DAYS" -end 2025-03-31 -out - | gzip -1 >"$TMP/export.csv.gz"
ls -l "$TMP/export.csv.gz" | awk '{printf "file: %.0f MB gzip\n", $5/1e6}'

fail=0
measure() { # label, then the import's arguments
	local label=$1
	shift
	echo "== costpilot import $*"
	if ! /usr/bin/time -v "$BIN" import "$TMP/export.csv.gz" "$@" --data-dir "$TMP/data" >"$TMP/out" 2>"$TMP/err"; then
		grep -v '^\s' "$TMP/err" | head -5 >&2
		fail=1
		return
	fi
	grep -m1 'daily lines' "$TMP/out" || true
	local kb secs
	kb=$(awk -F': ' '/Maximum resident/{print $2}' "$TMP/err")
	secs=$(awk -F': ' '/Elapsed \(wall clock\)/{print $2}' "$TMP/err")
	printf '%s: peak RSS %d MB, %s wall\n' "$label" $((kb / 1024)) "$secs"
	if [ $((kb / 1024)) -ge "$BOUND_MB" ]; then
		echo "$label: peak RSS above the documented ${BOUND_MB} MB" >&2
		fail=1
	fi
}
measure "dry run" --dry-run
measure "import"
exit $fail
