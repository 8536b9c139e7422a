#!/usr/bin/env bash
# Import bound check (by hand, not CI): a gzip FOCUS export of N distinct
# resources (default 3,000,000, one daily line each: ~8 MB gzip) sent as a
# dry-run upload to a running `costpilot dashboard` and as a dry-run
# `costpilot import`. Each must be refused by import.max_resources (or, with
# the cap raised, processed) with the process's peak RSS printed: the
# acceptance is that it stays bounded (~250 MB with the default cap).
# Usage: scripts/import-cap-check.sh [RESOURCES]   (run from anywhere in the repo)
set -euo pipefail
N=${1:-3000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$TMP"' EXIT
cd "$ROOT"
go build -o "$TMP/costpilot" .
echo "generating $N distinct resources..."
go run ./scripts/genfocus -daily -resources "$N" -days 1 -out - | gzip -1 >"$TMP/export.csv.gz"
ls -l "$TMP/export.csv.gz" | awk '{printf "file: %.1f MB gzip\n", $5/1e6}'

echo "== costpilot import --dry-run"
/usr/bin/time -v "$TMP/costpilot" import "$TMP/export.csv.gz" --dry-run --data-dir "$TMP/cli" >"$TMP/cli.out" 2>"$TMP/cli.err" || true
grep -E 'costpilot:|daily_lines' "$TMP/cli.out" "$TMP/cli.err" | head -3
awk -F': ' '/Maximum resident/{printf "peak RSS %.0f MB\n", $2/1024}' "$TMP/cli.err"

echo "== POST /api/import?dry_run=true"
TOKEN=$("$TMP/costpilot" token create check -o json --data-dir "$TMP/srv" | sed -n 's/.*"token": *"\([^"]*\)".*/\1/p')
"$TMP/costpilot" dashboard --host 127.0.0.1 --port 0 --data-dir "$TMP/srv" 2>"$TMP/srv.log" &
PID=$!
for _ in $(seq 100); do URL=$(sed -n 's/.*listening on \(http[^ ]*\)\/$/\1/p' "$TMP/srv.log"); [ -n "$URL" ] && break; sleep 0.1; done
curl -s -H "Authorization: Bearer $TOKEN" -F "file=@$TMP/export.csv.gz" "$URL/api/import?dry_run=true" | head -c 300; echo
awk '/VmHWM/{printf "dashboard peak RSS %.0f MB\n", $2/1024}' "/proc/$PID/status"
