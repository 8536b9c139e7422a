#!/usr/bin/env bash
# Serving benchmark (run by hand on a quiet machine, not in CI): the
# dashboard's cached GET /api/costs?days=90 (four-cloud demo history,
# bearer token, rate limits off, log level WARNING) against a bare
# net/http server sending the same bytes (scripts/bareserve), with the
# same wrk settings, in turn, ROUNDS times. Prints each run's requests/s
# and p99, the dashboard-to-bare ratio, the dashboard's resident memory
# after each run, and checks the serving headers on the way:
# Content-Encoding gzip/br on JSON and on the UI's script when asked,
# 304 on a matching If-None-Match.
#   scripts/serve-bench.sh [DURATION] [CONNECTIONS] [ROUNDS]   (default 30s 64 2)
# Exits 1 when an answer was not 2xx or a header check failed.
set -euo pipefail
DURATION=${1:-30s}
CONNS=${2:-64}
ROUNDS=${3:-2}
PORT=${PORT:-5099}
BARE_PORT=${BARE_PORT:-5098}
command -v wrk >/dev/null || { echo "wrk is missing: sudo apt-get install wrk" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is missing: sudo apt-get install curl" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$root" && CGO_ENABLED=0 go build -o "$work/costpilot" . && go build -o "$work/bareserve" ./scripts/bareserve)
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
"$work/costpilot" sync >/dev/null # seed the demo history first
token=$("$work/costpilot" token create serve-bench 2>/dev/null)
"$work/costpilot" dashboard --host 127.0.0.1 --port "$PORT" 2>"$work/server.log" &
dash=$!
pids+=("$dash")
base="http://127.0.0.1:$PORT"
for _ in $(seq 50); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
auth="Authorization: Bearer $token"
url="$base/api/costs?days=90"

# The answer both servers send, and the header checks.
curl -fs -H "$auth" -o "$work/body.json" "$url" # computes and caches it
bytes=$(stat -c %s "$work/body.json")
hdr() { curl -fs -o /dev/null -D - "$@" | tr -d '\r'; }
etag=$(hdr -H "$auth" "$url" | sed -n 's/^[Ee][Tt]ag: //p')
[ -n "$etag" ] || fail "no ETag on the cached answer"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "$auth" -H "If-None-Match: $etag" "$url")
[ "$code" = 304 ] || fail "If-None-Match $etag gave $code, want 304"
json_gz=$(hdr -H "$auth" -H 'Accept-Encoding: gzip' "$url" | sed -n 's/^[Cc]ontent-[Ee]ncoding: //p')
[ "$json_gz" = gzip ] || fail "JSON with Accept-Encoding: gzip came as '${json_gz}'"
gz_bytes=$(curl -fs -H "$auth" -H 'Accept-Encoding: gzip' "$url" | wc -c)
br_bytes=$(curl -fs -H "$auth" -H 'Accept-Encoding: br' "$url" | wc -c)
# The UI's script, by the name the built index.html (embedded) gives it.
script=$(grep -o '/assets/[^"]*\.js' "$root/frontend/dist/index.html" 2>/dev/null | head -n1 || true)
if [ -n "$script" ]; then
	js_enc=$(hdr -H 'Accept-Encoding: gzip' "$base$script" | sed -n 's/^[Cc]ontent-[Ee]ncoding: //p')
	[ "$js_enc" = gzip ] || fail "$script with Accept-Encoding: gzip came as '${js_enc}'"
	js_raw=$(curl -fs "$base$script" | wc -c)
	js_br=$(curl -fs -H 'Accept-Encoding: br' "$base$script" | wc -c)
	echo "UI script $script: $js_raw bytes, $js_br brotli (gzip when asked: ok)"
else
	echo "UI not built into this binary: static checks skipped (make build)"
fi
echo "GET /api/costs?days=90: $bytes bytes, gzip $gz_bytes, brotli $br_bytes; ETag $etag; If-None-Match -> 304"

"$work/bareserve" -addr "127.0.0.1:$BARE_PORT" -body "$work/body.json" &
pids+=("$!")
for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$BARE_PORT/" && break; sleep 0.1; done

rss() { awk '/^VmRSS:/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }
# run NAME URL [HEADER]: one wrk run; prints "req/s p99_ms" to stdout.
run() {
	local out rps p99
	if [ -n "${3:-}" ]; then
		out=$(wrk -t2 -c"$CONNS" -d"$DURATION" --latency -H "$3" "$2")
	else
		out=$(wrk -t2 -c"$CONNS" -d"$DURATION" --latency "$2")
	fi
	echo "$out" >"$work/wrk-$1.txt"
	if echo "$out" | grep -q "Non-2xx"; then
		echo "$out" >&2
		fail "$1: some answers were not 2xx"
	fi
	rps=$(echo "$out" | awk '/^Requests\/sec:/ {print $2}')
	p99=$(echo "$out" | awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/, "", v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/, "", v)} else if (v ~ /s$/) {sub(/s$/, "", v); v*=1000}; print v}')
	echo "$rps $p99"
}

echo "load: $(uptime | sed 's/.*load average: //') (1, 5, 15 min); $(nproc) cores; wrk -t2 -c$CONNS -d$DURATION"
echo "dashboard RSS before: $(rss "$dash") MB"
printf '%-6s %12s %9s %12s %9s %7s %10s\n' round "bare req/s" "p99 ms" "dash req/s" "p99 ms" ratio "dash RSS"
ratios=()
for i in $(seq "$ROUNDS"); do
	read -r brps bp99 < <(run "bare-$i" "http://127.0.0.1:$BARE_PORT/api/costs?days=90")
	read -r drps dp99 < <(run "dash-$i" "$url" "$auth")
	ratio=$(awk -v d="$drps" -v b="$brps" 'BEGIN {printf "%.2f", d / b}')
	ratios+=("$ratio")
	printf '%-6s %12s %9s %12s %9s %7s %7s MB\n' "$i" "$brps" "$bp99" "$drps" "$dp99" "$ratio" "$(rss "$dash")"
done
echo "ratios: ${ratios[*]}"
echo "OK: every answer was 2xx"
