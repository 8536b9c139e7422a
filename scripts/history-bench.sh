#!/usr/bin/env bash
# History benchmark (by hand, not CI): a realistic fleet's year of daily
# billing lines, measured against DuckDB on the same files in the same run.
#
#   scripts/history-bench.sh [RESOURCES]      (default 5000; 50000 for the large run)
#
# 1. scripts/genfocus writes the fleet file (RESOURCES resources x DAYS days,
#    one FOCUS row per resource per day, ending yesterday UTC) and, unless
#    HOURLY=0, the 1,000,000-row hourly file of scripts/import-bench.sh.
#    Unless NARROW=0, the same fleet is also written in the narrow shape
#    (genfocus -narrow: 15 FOCUS columns, tags as JSON) and imported by
#    both tools: the ratio to DuckDB depends on the export's shape.
# 2. Import: `costpilot import FILE` on a fresh data dir and DuckDB
#    (@duckdb/node-api from npm, installed into the work dir, 2 threads)
#    reading the same file and storing it summed to the same daily grain in a
#    database file (scripts/history-bench.mjs), each under /usr/bin/time -v:
#    wall time, CPU time, peak RSS.
# 3. Queries: `costpilot dashboard` on the imported data, uncached
#    GET /api/costs?days=365, ?days=30 and ?days=365&tag=team:data with an
#    API token (median and max of REPS); DuckDB runs the same four
#    aggregates (per provider, per service, per day, top resources) on its
#    table. Then every grouping the UI offers over the year
#    (?days=365&group_by=…), against DuckDB computing the aggregates plus
#    each group's total and daily series.
#    On a second dashboard with the caches on (the default): a
#    recommendation's state change, then the mixed load (wrk, when
#    installed: MIXED_CONNS connections for MIXED_DURATION over eight of
#    the pages' reads, cached and not; p50/p99/max, errors, the
#    dashboard's memory before and after).
# 4. Whole commands: recommend, forecast --days 90, alerts, a comprehensive
#    PDF and a summary HTML report (hyperfine when installed, else
#    /usr/bin/time; median of RUNS).
# 5. A markdown table of everything with the targets, printed and written to
#    RESULTS.
#
# "Uncached": the config sets performance.cache.enabled: false, the
# documented switch of the cache that holds the dashboard's response cache
# and the Service's result caches (so repeated commands recompute too). Each
# measured answer's X-Cache header is checked; a HIT is reported in the table.
#
# Environment: COSTPILOT_BIN (the binary to measure; default: build
# bin/costpilot from this tree), HOURLY=0 (skip the hourly file), NARROW=0
# (skip the narrow-shape import of the same fleet), HOURLY_ROWS
# (1000000), DAYS (365), REPS (5 per HTTP view), RUNS (3 per command),
# IMPORT_RUNS (3: the machine is shared, one run can mislead), PORT (default:
# a free one),
# TAG (team:data), MEM_CAP_MB (a measured run above it is killed; default
# 2/3 of the machine's memory), BENCH_DIR (parent of the work dir; default
# $TMPDIR or /tmp), DUCKDB_DIR (a dir whose node_modules already holds
# @duckdb/node-api, to skip the npm install), RESULTS (summary file),
# KEEP=1 (keep the work dir), MIXED_CONNS (64), MIXED_DURATION (30s).
set -euo pipefail

RESOURCES=${1:-5000}
HOURLY=${HOURLY:-1}
NARROW=${NARROW:-1}
HOURLY_ROWS=${HOURLY_ROWS:-1000000}
DAYS=${DAYS:-365}
REPS=${REPS:-5}
RUNS=${RUNS:-3}
IMPORT_RUNS=${IMPORT_RUNS:-3}
MIXED_CONNS=${MIXED_CONNS:-64}
MIXED_DURATION=${MIXED_DURATION:-30s}
PORT=${PORT:-}
TAG=${TAG:-team:data}
MEM_CAP_MB=${MEM_CAP_MB:-$(awk '/^MemTotal/{printf "%d", $2 / 1024 * 2 / 3}' /proc/meminfo)}
for v in RESOURCES HOURLY_ROWS DAYS REPS RUNS IMPORT_RUNS MIXED_CONNS MEM_CAP_MB ${PORT:+PORT}; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "history-bench: $v must be a positive integer, got '${!v}'" >&2; exit 2; }
done
((DAYS <= 365)) || { echo "history-bench: DAYS must be at most 365 (the API's days limit)" >&2; exit 2; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RESULTS=${RESULTS:-${TMPDIR:-/tmp}/costpilot-history-bench-$RESOURCES-$STAMP.md}

need() { command -v "$1" >/dev/null 2>&1 || { echo "history-bench: $1 is missing ($2)" >&2; exit 2; }; }
need go "Go toolchain, to build scripts/genfocus"
need curl "apt-get install curl"
need jq "apt-get install jq"
need node "Node 20+: apt-get install nodejs"
need npm "apt-get install npm"
need timeout "coreutils"
[ -x /usr/bin/time ] || { echo "history-bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
HYPERFINE=$(command -v hyperfine || true)

WORK=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/history-bench.XXXXXX")
server_pid=""
# stop_server ends the dashboard this script started (by its pid), giving it
# 30 s to shut down cleanly; it holds the data dir's cache lock until then.
stop_server() {
	[ -n "$server_pid" ] || return 0
	kill "$server_pid" 2>/dev/null || true
	for _ in $(seq 150); do
		kill -0 "$server_pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -9 "$server_pid" 2>/dev/null || true
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
}
cleanup() {
	stop_server
	if [ "${KEEP:-0}" = 1 ]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The fleet file is ~580 bytes a row; each store takes up to about as much
# again, and the hourly file ~0.55 GB.
need_mb=$((RESOURCES * DAYS * 580 * 3 / 1000000 + 2000))
free_mb=$(df -Pm "$WORK" | awk 'NR==2{print $4}')
if ((free_mb < need_mb)); then
	echo "history-bench: $WORK has $free_mb MB free, about $need_mb MB are needed (set BENCH_DIR)" >&2
	exit 2
fi

if [ -n "${COSTPILOT_BIN:-}" ]; then
	BIN=$COSTPILOT_BIN
	[ -x "$BIN" ] || { echo "history-bench: COSTPILOT_BIN=$BIN is not executable" >&2; exit 2; }
else
	BIN=$ROOT/bin/costpilot
	echo "building $BIN (CGO_ENABLED=0, headless; the embedded UI is whatever frontend/dist holds)..."
	(cd "$ROOT" && CGO_ENABLED=0 go build -o "$BIN" .)
fi
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
VERSION=$("$BIN" version 2>/dev/null | head -1 || echo unknown)

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# median and max of the numbers on stdin, one per line
median() { sort -g | awk '{a[NR]=$1} END{if(NR==0){print "NA"; exit} if(NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
maxof() { sort -g | tail -1; }

# tree_rss_mb PID: resident MiB of PID and all its descendants.
tree_rss_mb() {
	ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
		{ parent[$1] = $2; rss[$1] = $3 }
		END {
			for (p in rss) {
				for (q = p; q != "" && q != 0 && q != 1; q = parent[q]) if (q == root) { t += rss[p]; break }
			}
			printf "%d\n", t / 1024
		}'
}

# measure NAME LIMIT CMD...: runs CMD under /usr/bin/time -v with a time
# limit; leaves wall seconds, CPU seconds and peak RSS (MiB) in
# $WORK/m/NAME.{wall,cpu,rss} and the output in NAME.out / NAME.err.
# The machine is shared, so a run whose memory passes MEM_CAP_MB is killed
# (and reported) before the kernel's OOM killer picks a victim.
mkdir -p "$WORK/m"
measure() {
	local name=$1 limit=$2
	shift 2
	local m=$WORK/m/$name pid status=0 over=0
	# timeout leads its own process group, so the whole tree can be killed.
	timeout -k 10 "$limit" /usr/bin/time -v -o "$m.time" "$@" >"$m.out" 2>"$m.err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if (($(tree_rss_mb "$pid") > MEM_CAP_MB)); then
			over=1
			kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
			break
		fi
		sleep 1
	done
	wait "$pid" || status=$?
	if [ "$over" = 1 ]; then
		echo "  $name KILLED: its memory passed MEM_CAP_MB=$MEM_CAP_MB MiB" >&2
		return 1
	fi
	if [ "$status" != 0 ]; then
		echo "  $name FAILED (exit status $status; 124 is the ${limit}s limit); last lines:" >&2
		tail -5 "$m.out" "$m.err" >&2 || true
		return 1
	fi
	awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$m.time" >"$m.wall"
	awk -F': ' '/User time/{u=$2} /System time/{s=$2} END{printf "%.2f\n", u+s}' "$m.time" >"$m.cpu"
	awk -F': ' '/Maximum resident/{printf "%.0f\n", $2/1024}' "$m.time" >"$m.rss"
	printf '  %-22s wall %7.2f s  cpu %7.2f s  peak RSS %6s MiB\n' "$name" "$(cat "$m.wall")" "$(cat "$m.cpu")" "$(cat "$m.rss")"
}

# Every row of the summary: what, costpilot, DuckDB, ratio, target, verdict.
ROWS=$WORK/rows.md
: >"$ROWS"
row() { printf '| %s | %s | %s | %s | %s | %s |\n' "$@" >>"$ROWS"; }
# verdict VALUE OP LIMIT: "ok", "MISS", "FAIL" without a value, "-" without a limit
verdict() {
	if [ -z "$3" ] || [ "$3" = - ]; then
		echo "-"
		return
	fi
	if ! [[ $1 =~ ^[0-9.]+$ ]]; then
		echo "FAIL"
		return
	fi
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN{ok = (op == "<") ? v < l : v <= l; print ok ? "ok" : "MISS"}'
}
target() { if [ "$2" = - ]; then echo -; else echo "$1 $2${3:+ $3}"; fi; } # OP LIMIT [UNIT]
secs() { if [[ $1 =~ ^[0-9.]+$ ]]; then echo "$1 s"; else echo "$1"; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{if (a ~ /^[0-9.]+$/ && b > 0) printf "%.2f", a/b; else print "NA"}'; }

# Targets: the 5,000-resource ones up to 5,000 resources, the
# 50,000-resource ones (year views, import ratio and RSS only) above.
# The import at DuckDB's pace or better on both row shapes, in 1 GB.
if ((RESOURCES > 5000)); then
	T_RATIO=1.0 T_RSS=1024 T_Y365=1.5 T_D30=- T_TAG=- T_CMD=-
else
	T_RATIO=1.0 T_RSS=1024 T_Y365=0.5 T_D30=0.15 T_TAG=0.5 T_CMD=2
fi
T_HRATIO=1.5 T_HRSS=250

LOAD_START=$(loadavg)
log "work dir $WORK (load average $LOAD_START)"
log "binary $BIN ($VERSION)"

# --- data files ---------------------------------------------------------------
(cd "$ROOT" && go build -o "$WORK/genfocus" ./scripts/genfocus)
FLEET=$WORK/fleet.csv
log "generating the fleet: $RESOURCES resources x $DAYS days..."
measure genfocus-fleet 3600 "$WORK/genfocus" -daily -resources "$RESOURCES" -days "$DAYS" -out "$FLEET"
FLEET_ROWS=$((RESOURCES * DAYS))
FLEET_MB=$(($(stat -c %s "$FLEET") / 1000000))
log "fleet file: $FLEET_ROWS rows, $FLEET_MB MB"
HFILE=""
if [ "$HOURLY" != 0 ]; then
	HFILE=$WORK/hourly.csv
	log "generating the hourly file: $HOURLY_ROWS rows..."
	measure genfocus-hourly 3600 "$WORK/genfocus" -rows "$HOURLY_ROWS" -out "$HFILE"
	HOURLY_MB=$(($(stat -c %s "$HFILE") / 1000000))
	log "hourly file: $HOURLY_ROWS rows, $HOURLY_MB MB"
fi

# --- DuckDB -------------------------------------------------------------------
DUCK=$WORK/duck
mkdir -p "$DUCK"
if [ -n "${DUCKDB_DIR:-}" ]; then
	[ -d "$DUCKDB_DIR/node_modules/@duckdb/node-api" ] || { echo "history-bench: $DUCKDB_DIR/node_modules has no @duckdb/node-api" >&2; exit 2; }
	ln -s "$(cd "$DUCKDB_DIR" && pwd)/node_modules" "$DUCK/node_modules"
else
	log "installing @duckdb/node-api with npm into the work dir..."
	(cd "$DUCK" && npm init -y >/dev/null && timeout 900 npm install --no-audit --no-fund --silent @duckdb/node-api >/dev/null) ||
		{ echo "history-bench: npm install @duckdb/node-api failed" >&2; exit 1; }
fi
cp "$ROOT/scripts/history-bench.mjs" "$DUCK/"
DUCKJS=$DUCK/history-bench.mjs
DUCK_VERSION=$(node -e "console.log(require('$DUCK/node_modules/@duckdb/node-api/package.json').version)" 2>/dev/null || echo "?")

# --- costpilot config -----------------------------------------------------------
# Every provider reads exports, so imported data is what every command shows.
# export_paths must be set for source: export; it names an empty directory
# so nothing is re-imported behind the benchmark's back.
CFG=$WORK/costpilot.yaml
mkdir -p "$WORK/no-exports"
EXP="[\"$WORK/no-exports/*.csv\"]"
cat >"$CFG" <<YAML
log_level: WARNING
aws: {enabled: true, source: export, region: us-east-1, export_paths: $EXP}
azure: {enabled: true, source: export, export_paths: $EXP}
gcp: {enabled: true, source: export, export_paths: $EXP}
oci: {enabled: true, source: export, region: us-ashburn-1, export_paths: $EXP}
dashboard:
  rate_limit: {enabled: false}
performance:
  cache: {enabled: false}
YAML
CFG_CACHED=$WORK/costpilot-cached.yaml
sed 's/cache: {enabled: false}/cache: {enabled: true}/' "$CFG" >"$CFG_CACHED"
cpilot() { "$BIN" --config "$CFG" --data-dir "$1" "${@:2}"; } # DATADIR ARGS...

# import_both LABEL FILE DATADIR DUCKFILE: IMPORT_RUNS runs of each tool,
# interleaved, fresh stores every time; medians of wall/CPU, max of RSS.
# When costpilot fails, DuckDB still runs once for the record, and the
# function fails.
import_both() {
	local label=$1 file=$2 dir=$3 db=$4 i tool f cp_ok=1
	for ((i = 1; i <= IMPORT_RUNS; i++)); do
		rm -rf "$dir" "$db" "$db.wal"
		cat "$file" >/dev/null # the same warm page cache for both
		log "import $label: costpilot (run $i/$IMPORT_RUNS, load $(loadavg))"
		measure "cp-$label-$i" 7200 "$BIN" --config "$CFG" --data-dir "$dir" import "$file" || cp_ok=0
		cat "$file" >/dev/null
		log "import $label: DuckDB (run $i/$IMPORT_RUNS, load $(loadavg))"
		measure "duck-$label-$i" 7200 node "$DUCKJS" import "$file" "$db" || return 1
		[ "$cp_ok" = 1 ] || break
	done
	for tool in cp duck; do
		compgen -G "$WORK/m/$tool-$label-*.rss" >/dev/null || continue
		for f in wall cpu; do
			cat "$WORK/m/$tool-$label-"*."$f" | median >"$WORK/m/$tool-$label.$f"
		done
		cat "$WORK/m/$tool-$label-"*.rss | maxof >"$WORK/m/$tool-$label.rss"
	done
	[ "$cp_ok" = 1 ]
}

import_row() { # LABEL WHAT TARGET_RATIO TARGET_RSS RSS_OP
	local label=$1 what=$2 tr=$3 trss=$4 op=$5 m=$WORK/m
	local cw dw r
	cw=$(cat "$m/cp-$label.wall") dw=$(cat "$m/duck-$label.wall")
	r=$(ratio "$cw" "$dw")
	row "import $what: wall (CPU)" "$cw s ($(cat "$m/cp-$label.cpu") s)" "$dw s ($(cat "$m/duck-$label.cpu") s)" "$r" "≤ ${tr}× DuckDB" "$(verdict "$r" "<=" "$tr")"
	row "import $what: peak RSS" "$(cat "$m/cp-$label.rss") MiB" "$(cat "$m/duck-$label.rss") MiB" "-" "$op $trss MiB" "$(verdict "$(cat "$m/cp-$label.rss")" "$op" "$trss")"
}

import_failed_row() { # LABEL WHAT TARGET_RATIO
	local duck="-" m=$WORK/m
	[ ! -f "$m/duck-$1.wall" ] || duck="$(cat "$m/duck-$1.wall") s ($(cat "$m/duck-$1.rss") MiB)"
	row "import $2" "FAILED (killed, error or time limit: see the log)" "$duck" "-" "≤ ${3}× DuckDB" "FAIL"
}

FLEET_DIR=$WORK/data-fleet
if import_both fleet "$FLEET" "$FLEET_DIR" "$WORK/fleet.duckdb"; then
	grep -o '→ [0-9]* daily lines' "$WORK/m/cp-fleet-1.out" | head -1 | sed 's/^/  costpilot: /' || true
	sed 's/^/  duckdb: /' "$WORK/m/duck-fleet-1.out"
	import_row fleet "fleet ($FLEET_ROWS rows, $FLEET_MB MB)" "$T_RATIO" "$T_RSS" "≤"
	FLEET_OK=1
else
	import_failed_row fleet "fleet ($FLEET_ROWS rows, $FLEET_MB MB)" "$T_RATIO"
	FLEET_OK=0
fi
if [ "$NARROW" != 0 ]; then
	# The same fleet in the narrow shape (15 FOCUS columns, tags as JSON):
	# less to parse, the same to store, so the write path weighs more.
	NFILE=$WORK/fleet-narrow.csv
	log "generating the fleet in the narrow shape..."
	measure genfocus-narrow 3600 "$WORK/genfocus" -daily -narrow -resources "$RESOURCES" -days "$DAYS" -out "$NFILE"
	NARROW_MB=$(($(stat -c %s "$NFILE") / 1000000))
	if import_both narrow "$NFILE" "$WORK/data-narrow" "$WORK/narrow.duckdb"; then
		import_row narrow "narrow fleet ($FLEET_ROWS rows, $NARROW_MB MB)" "$T_RATIO" "$T_RSS" "≤"
	else
		import_failed_row narrow "narrow fleet ($FLEET_ROWS rows, $NARROW_MB MB)" "$T_RATIO"
	fi
	rm -rf "$WORK/data-narrow" "$WORK/narrow.duckdb" "$NFILE" # disk for the rest
fi
if [ -n "$HFILE" ]; then
	if import_both hourly "$HFILE" "$WORK/data-hourly" "$WORK/hourly.duckdb"; then
		import_row hourly "hourly ($HOURLY_ROWS rows, $HOURLY_MB MB)" "$T_HRATIO" "$T_HRSS" "<"
	else
		import_failed_row hourly "hourly ($HOURLY_ROWS rows, $HOURLY_MB MB)" "$T_HRATIO"
	fi
	rm -rf "$WORK/data-hourly" "$WORK/hourly.duckdb" "$HFILE" # disk for the rest
fi

# --- queries ----------------------------------------------------------------------
declare -A CP_MED CP_MAX CP_TOTAL CP_HITS
VIEWS=("days=$DAYS" "days=30" "days=$DAYS&tag=$TAG")
# Every grouping the UI offers over the year, each answered cold once
# before the REPS (the first answer is what a user waits for).
GROUPINGS=(provider billing_account sub_account service service_category region resource charge_category tag:team)
for g in "${GROUPINGS[@]}"; do VIEWS+=("days=$DAYS&group_by=$g"); done
if [ "$FLEET_OK" = 1 ]; then
	password="history-bench-$$-$RANDOM$RANDOM"
	printf '%s\n' "$password" | cpilot "$FLEET_DIR" user add bench >/dev/null 2>"$WORK/user.err" ||
		{ echo "  (user add failed; going on with a token only)"; cat "$WORK/user.err"; }
	TOKEN=$(cpilot "$FLEET_DIR" token create history-bench 2>"$WORK/token.err" | awk 'NF{t=$NF} END{print t}')
	[ -n "$TOKEN" ] || { echo "history-bench: token create printed nothing" >&2; cat "$WORK/token.err" >&2; exit 1; }
	listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
	if [ -z "$PORT" ]; then
		# Other people's servers run on this machine too: take a port
		# nobody listens on.
		for _ in $(seq 50); do
			PORT=$((20000 + RANDOM % 30000))
			listening "$PORT" || break
		done
	fi
	if listening "$PORT"; then
		echo "history-bench: something already listens on port $PORT (set PORT)" >&2
		exit 1
	fi
	BASE=http://127.0.0.1:$PORT
	# start_dashboard CONFIG: the dashboard on the fleet's data dir, waited
	# for; sets server_pid.
	start_dashboard() {
		log "starting the dashboard on $BASE ($(basename "$1"))..."
		# Started directly, not through cpilot: $! must be the server itself.
		"$BIN" --config "$1" --data-dir "$FLEET_DIR" dashboard --host 127.0.0.1 --port "$PORT" >"$WORK/server.log" 2>&1 &
		server_pid=$!
		local up=0
		for _ in $(seq 600); do # at most ~2 minutes
			kill -0 "$server_pid" 2>/dev/null || break
			code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$BASE/healthz" || true)
			if [ "$code" != 000 ]; then up=1 && break; fi
			sleep 0.2
		done
		sleep 0.5
		kill -0 "$server_pid" 2>/dev/null || up=0 # the answer came from another server
		if [ "$up" != 1 ]; then
			echo "history-bench: the dashboard did not start; its log:" >&2
			tail -20 "$WORK/server.log" >&2
			exit 1
		fi
	}
	start_dashboard "$CFG"
	for q in "${VIEWS[@]}"; do
		: >"$WORK/times"
		hits=0 failed=0
		for ((i = 1; i <= REPS; i++)); do
			res=$(curl -s -o "$WORK/resp.json" -D "$WORK/hdr" -w '%{http_code} %{time_total}' --max-time 600 \
				-H "Authorization: Bearer $TOKEN" "$BASE/api/costs?$q" || echo "000 0")
			if [ "${res%% *}" != 200 ]; then
				echo "  GET /api/costs?$q answered ${res%% *}: $(head -c 300 "$WORK/resp.json" 2>/dev/null)" >&2
				failed=1
				break
			fi
			if grep -qi '^x-cache: *hit' "$WORK/hdr"; then hits=$((hits + 1)); fi
			awk -v t="${res##* }" 'BEGIN{printf "%.3f\n", t}' >>"$WORK/times"
		done
		if [ "$failed" = 1 ]; then
			CP_MED[$q]=FAILED CP_MAX[$q]="" CP_TOTAL[$q]=""
		else
			CP_MED[$q]=$(median <"$WORK/times") CP_MAX[$q]=$(maxof <"$WORK/times")
			CP_TOTAL[$q]=$(jq -r '.summary.total_cost // empty' "$WORK/resp.json" 2>/dev/null || true)
		fi
		CP_HITS[$q]=$hits
		printf '  GET /api/costs?%-28s median %8s s  max %8s s  (%d bytes, X-Cache HIT %d of %d)\n' \
			"$q" "${CP_MED[$q]}" "${CP_MAX[$q]}" "$(stat -c %s "$WORK/resp.json" 2>/dev/null || echo 0)" "$hits" "$REPS"
	done
	SERVER_RSS=$(awk '/^VmHWM/{printf "%.0f", $2/1024}' "/proc/$server_pid/status" 2>/dev/null || echo "?")
	stop_server
	# A recommendation's state change, on a dashboard with the caches on
	# (the default): the top recommendation dismissed and reopened in turn
	# (each answer is the recommendation as it now stands), after the list
	# was asked for once, as the page that changes it has.
	start_dashboard "$CFG_CACHED"
	REC_ID=$(curl -s --max-time 600 -H "Authorization: Bearer $TOKEN" "$BASE/api/recommendations" | jq -r 'if type == "array" then .[0].id else .recommendations[0].id end // empty' 2>/dev/null || true)
	REC_MED="-" REC_MAX=""
	if [ -n "$REC_ID" ]; then
		: >"$WORK/times"
		for ((i = 1; i <= 2 * REPS; i++)); do
			body='{"state":"dismissed","reason":"benchmark"}'
			[ $((i % 2)) = 1 ] || body='{"state":"open"}'
			res=$(curl -s -o "$WORK/resp.json" -w '%{http_code} %{time_total}' --max-time 600 -X POST \
				-H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$body" \
				"$BASE/api/recommendations/$REC_ID/state" || echo "000 0")
			[ "${res%% *}" = 200 ] || { echo "  state change answered ${res%% *}: $(head -c 300 "$WORK/resp.json")" >&2; break; }
			awk -v t="${res##* }" 'BEGIN{printf "%.3f\n", t}' >>"$WORK/times"
		done
		REC_MED=$(median <"$WORK/times") REC_MAX=$(maxof <"$WORK/times")
		printf '  POST /api/recommendations/…/state  median %8s s  max %8s s\n' "$REC_MED" "$REC_MAX"
	fi
	# The mixed load: MIXED_CONNS connections for MIXED_DURATION, each
	# request the next of the pages' reads in turn (answers the response
	# cache holds, and routes it does not: detailed status, runs,
	# budgets), on the same dashboard with the caches on, asking for
	# compressed answers as the browser does. wrk's report:
	# p50/p99/max, non-2xx answers and socket errors; the dashboard's
	# resident memory before and after.
	MIX_LINE="-" MIX_RSS="-" MIX_P99="" MIX_ERR=""
	if command -v wrk >/dev/null; then
		cat >"$WORK/mixed.lua" <<LUA
local paths = {"/api/costs?days=30", "/api/costs?days=90&group_by=service", "/api/recommendations",
	"/api/status/detailed", "/api/budgets", "/api/runs", "/api/costs?days=$DAYS", "/api/costs?days=90&group_by=region"}
local i = 0
wrk.headers["Authorization"] = "Bearer $TOKEN"
wrk.headers["Accept-Encoding"] = "br, gzip"
request = function()
	i = i % #paths + 1
	return wrk.format("GET", paths[i])
end
LUA
		rss_before=$(awk '/^VmRSS/{printf "%.0f", $2/1024}' "/proc/$server_pid/status" 2>/dev/null || echo "?")
		log "mixed load: wrk -t2 -c$MIXED_CONNS -d$MIXED_DURATION over 8 routes (load $(loadavg))..."
		wrk -t2 -c"$MIXED_CONNS" -d"$MIXED_DURATION" --timeout 30s --latency -s "$WORK/mixed.lua" "$BASE" >"$WORK/mixed.txt" 2>&1 || true
		rss_after=$(awk '/^VmRSS/{printf "%.0f", $2/1024}' "/proc/$server_pid/status" 2>/dev/null || echo "?")
		sed 's/^/  /' "$WORK/mixed.txt"
		to_s() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/, "", v); v/=1e6} else if (v ~ /ms$/) {sub(/ms$/, "", v); v/=1e3} else if (v ~ /m$/) {sub(/m$/, "", v); v*=60} else {sub(/s$/, "", v)}; printf "%.3f", v}'; }
		mix_p50=$(awk '$1 == "50%" {print $2}' "$WORK/mixed.txt" | to_s)
		MIX_P99=$(awk '$1 == "99%" {print $2}' "$WORK/mixed.txt" | to_s)
		mix_max=$(awk '$1 == "Latency" && $2 != "Distribution" {print $4}' "$WORK/mixed.txt" | to_s)
		mix_rps=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' "$WORK/mixed.txt")
		non2xx=$(awk '/Non-2xx/ {print $NF}' "$WORK/mixed.txt")
		sockerr=$(awk '/Socket errors/ {gsub(/,/, ""); print $4 + $6 + $8 + $10}' "$WORK/mixed.txt")
		MIX_ERR=$((${non2xx:-0} + ${sockerr:-0}))
		MIX_LINE="$mix_rps requests/s, p50 ${mix_p50} s, p99 ${MIX_P99} s, max ${mix_max} s, $MIX_ERR errors"
		MIX_RSS="$rss_before → $rss_after MiB"
	else
		echo "  (wrk is missing: apt-get install wrk; the mixed load is skipped)"
	fi
	stop_server

	log "DuckDB: the same four aggregates on its table ($REPS runs each)..."
	duck_q=$(timeout 1800 node "$DUCKJS" query "$WORK/fleet.duckdb" "$REPS" "$TAG" "$DAYS") || duck_q="{}"
	echo "  $duck_q"
	dq() { echo "$duck_q" | jq -r --arg k "$1" --arg f "$2" '.[$k][$f] // "NA"' | awk '{if ($1 ~ /^[0-9.e+-]+$/) printf "%.3f", $1; else print $1}'; }
	names=(long short tag)
	targets=("$T_Y365" "$T_D30" "$T_TAG")
	for i in 0 1 2; do
		q=${VIEWS[$i]}
		cell=$(secs "${CP_MED[$q]}")
		[ -z "${CP_MAX[$q]}" ] || cell="$cell (max ${CP_MAX[$q]} s)"
		[ "${CP_HITS[$q]}" = 0 ] || cell="$cell, ${CP_HITS[$q]} cache HITs!"
		row "GET /api/costs?$q uncached, median of $REPS" "$cell" "$(secs "$(dq "${names[$i]}" median_s)")" \
			"$(ratio "${CP_MED[$q]}" "$(dq "${names[$i]}" median_s)")" "$(target "≤" "${targets[$i]}" s)" "$(verdict "${CP_MED[$q]}" "<=" "${targets[$i]}")"
	done
	log "DuckDB: each grouping's totals and daily series beside the aggregates ($REPS runs each)..."
	duck_g=$(timeout 1800 node "$DUCKJS" grouped "$WORK/fleet.duckdb" "$REPS" "$DAYS") || duck_g="{}"
	echo "  $duck_g"
	for g in "${GROUPINGS[@]}"; do
		q="days=$DAYS&group_by=$g"
		cell=$(secs "${CP_MED[$q]}")
		[ -z "${CP_MAX[$q]}" ] || cell="$cell (max ${CP_MAX[$q]} s)"
		[ "${CP_HITS[$q]}" = 0 ] || cell="$cell, ${CP_HITS[$q]} cache HITs!"
		dg=$(echo "$duck_g" | jq -r --arg k "$g" '.[$k].median_s // "NA"' | awk '{if ($1 ~ /^[0-9.e+-]+$/) printf "%.3f", $1; else print $1}')
		row "GET /api/costs?$q uncached, median of $REPS" "$cell" "$(secs "$dg")" "$(ratio "${CP_MED[$q]}" "$dg")" \
			"$(target "≤" "$T_Y365" s)" "$(verdict "${CP_MED[$q]}" "<=" "$T_Y365")"
	done
	row "recommendation state change (dismiss / reopen), median of $((2 * REPS))" "$(secs "$REC_MED")${REC_MAX:+ (max $REC_MAX s)}" "-" "-" "≤ 0.1 s" "$(verdict "$REC_MED" "<=" 0.1)"
	row "dashboard peak RSS after the queries" "$SERVER_RSS MiB" "-" "-" "-" "-"
	row "mixed load, $MIXED_CONNS connections for $MIXED_DURATION (caches on)" "$MIX_LINE" "-" "-" "p99 < 1 s, 0 errors" \
		"$([ "$MIX_ERR" = 0 ] && [ -n "$MIX_P99" ] && verdict "$MIX_P99" "<" 1 || echo MISS)"
	row "dashboard RSS before → after the mixed load" "$MIX_RSS" "-" "-" "flat" "-"
	CROSS="total cost, days=$DAYS: costpilot ${CP_TOTAL[${VIEWS[0]}]:-?}, DuckDB $(dq long total_cost); with $TAG: costpilot ${CP_TOTAL[${VIEWS[2]}]:-?}, DuckDB $(dq tag total_cost)"
	echo "  $CROSS"

	# --- whole commands -------------------------------------------------------------
	CMDS=("recommend -o json" "forecast --days 90 -o json" "alerts -o json"
		"report --type comprehensive --format pdf" "report --type summary --format html")
	for c in "${CMDS[@]}"; do
		log "command: $c ($RUNS runs, load $(loadavg))"
		read -ra args <<<"$c"
		med=FAILED
		# One untimed run first: it checks the command works and warms the
		# page cache, as the HTTP views had their first answer counted.
		if ! cpilot "$FLEET_DIR" "${args[@]}" >"$WORK/cmd.out" 2>"$WORK/cmd.err"; then
			echo "  '$c' failed:" >&2
			tail -5 "$WORK/cmd.err" >&2
		elif [ -n "$HYPERFINE" ]; then
			cmdline=$(printf '%q ' "$BIN" --config "$CFG" --data-dir "$FLEET_DIR" "${args[@]}")
			if "$HYPERFINE" --runs "$RUNS" --style basic --export-json "$WORK/hf.json" "$cmdline" >"$WORK/hf.log" 2>&1; then
				med=$(jq -r '.results[0].median' "$WORK/hf.json" | awk '{printf "%.3f", $1}')
			else
				tail -5 "$WORK/hf.log" >&2
			fi
		else
			: >"$WORK/times"
			for ((i = 1; i <= RUNS; i++)); do
				measure cmd 1800 "$BIN" --config "$CFG" --data-dir "$FLEET_DIR" "${args[@]}" >/dev/null || break
				cat "$WORK/m/cmd.wall" >>"$WORK/times"
			done
			[ "$(wc -l <"$WORK/times")" = "$RUNS" ] && med=$(median <"$WORK/times")
		fi
		echo "  $c: median $(secs "$med")"
		row "\`$c\` (whole command, median of $RUNS)" "$(secs "$med")" "-" "-" "$(target "≤" "$T_CMD" s)" "$(verdict "$med" "<=" "$T_CMD")"
	done
fi

# --- summary ------------------------------------------------------------------------
{
	echo "## costpilot history benchmark: $RESOURCES resources × $DAYS days"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average at the start $LOAD_START, at the end $(loadavg); binary $BIN ($VERSION); DuckDB @duckdb/node-api $DUCK_VERSION, 2 threads; times via ${HYPERFINE:+hyperfine (commands) and }/usr/bin/time and curl."
	echo "Fleet file: $FLEET_ROWS rows, $FLEET_MB MB (scripts/genfocus -daily, ending yesterday UTC)${HFILE:+; hourly file: $HOURLY_ROWS rows, $HOURLY_MB MB}. Imports: median of $IMPORT_RUNS run(s). Uncached: performance.cache.enabled: false, X-Cache checked on every answer."
	echo
	echo "| what | costpilot | DuckDB | ratio | target | verdict |"
	echo "|---|---|---|---|---|---|"
	cat "$ROWS"
	echo
	[ -z "${CROSS:-}" ] || echo "Cross-check: $CROSS."
} >"$RESULTS"
echo
cat "$RESULTS"
echo
echo "summary written to $RESULTS"
