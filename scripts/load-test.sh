#!/usr/bin/env bash
# Load test of the headless dashboard (run by hand, not in CI):
# GET /api/costs?days=90 over the demo history (all four clouds), with a
# logged-in session cookie and rate limits off, using Debian's wrk.
#   scripts/load-test.sh [DURATION] [CONNECTIONS]     (default 60s 64)
# Prints wrk's report (requests/s, latency percentiles) and fails if any
# answer was not 2xx.
set -euo pipefail
DURATION=${1:-60s}
CONNS=${2:-64}
PORT=${PORT:-5099}
command -v wrk >/dev/null || { echo "wrk is missing: sudo apt-get install wrk" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing: sudo apt-get install curl" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

(cd "$root" && CGO_ENABLED=0 go build -o "$work/costpilot" .)
cat >"$work/config.yaml" <<YAML
aws: {enabled: true, source: demo, region: us-east-1}
azure: {enabled: true, source: demo}
gcp: {enabled: true, source: demo}
oci: {enabled: true, source: demo}
log_level: WARNING
dashboard:
  rate_limit: {enabled: false}
YAML
export COSTPILOT_CONFIG="$work/config.yaml" COSTPILOT_DATA_DIR="$work/data"
password="load-test-password-$$"
printf '%s\n' "$password" | "$work/costpilot" user add loadtest >/dev/null
"$work/costpilot" sync >/dev/null   # seed the demo history first
"$work/costpilot" dashboard --host 127.0.0.1 --port "$PORT" 2>"$work/server.log" &
pid=$!
base="http://127.0.0.1:$PORT"
for _ in $(seq 50); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
cookie=$(curl -s -o /dev/null -D - --data-urlencode "username=loadtest" --data-urlencode "password=$password" "$base/login" |
	tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \(costpilot_session=[^;]*\).*/\1/p')
[ -n "$cookie" ] || { echo "login failed" >&2; cat "$work/server.log" >&2; exit 1; }
curl -fs -H "Cookie: $cookie" "$base/api/costs?days=90" >/dev/null   # warm the response cache
out=$(wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H "Cookie: $cookie" "$base/api/costs?days=90")
echo "$out"
if echo "$out" | grep -q "Non-2xx"; then
	echo "FAIL: some answers were not 2xx" >&2
	exit 1
fi
echo "OK: every answer was 2xx"
