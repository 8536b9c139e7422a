#!/usr/bin/env bash
# Import benchmark (by hand, not CI): generate a 1,000,000-row FOCUS 1.0 CSV
# (hourly line items of 125 resources, four providers, tags on 70 % of
# resources), then time
#   1. billing.ParseFile alone (scripts/parsebench),
#   2. `bin/costpilot import FILE --data-dir TMP` end to end (parse, aggregate,
#      commit to SQLite), when the CLI has the import command,
#   3. DuckDB (npm @duckdb/node-api, installed into a temp dir) reading and
#      aggregating the same file to the same daily grain,
# each under /usr/bin/time -v for wall time and peak RSS.
# Usage: scripts/import-bench.sh [ROWS]   (run from anywhere in the repo)
set -euo pipefail
ROWS=${1:-1000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FILE=$TMP/focus-bench.csv
cd "$ROOT"

measure() { # name cmd...: prints wall seconds and peak RSS
	local name=$1; shift
	/usr/bin/time -v "$@" >"$TMP/$name.out" 2>"$TMP/$name.time" || { cat "$TMP/$name.out" "$TMP/$name.time"; return 1; }
	local wall rss
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$TMP/$name.time")
	rss=$(awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$TMP/$name.time")
	printf '%-10s wall %6.2f s   peak RSS %5s MB\n' "$name" "$wall" "$rss"
	echo "$wall" >"$TMP/$name.wall"
}

echo "generating $ROWS rows..."
go run ./scripts/genfocus -rows "$ROWS" -out "$FILE"
ls -l "$FILE" | awk '{printf "file: %.0f MB\n", $5/1e6}'
go build -o "$TMP/parsebench" ./scripts/parsebench
sync
cat "$FILE" >/dev/null # warm the page cache for every contender alike

measure parse "$TMP/parsebench" "$FILE"
cat "$TMP/parse.out"

if go build -o bin/costpilot . 2>/dev/null && bin/costpilot import --help >/dev/null 2>&1; then
	measure import bin/costpilot import "$FILE" --data-dir "$TMP/data"
else
	echo "import     skipped: bin/costpilot has no import command yet"
fi

if command -v npm >/dev/null && command -v node >/dev/null; then
	mkdir -p "$TMP/duck"
	(cd "$TMP/duck" && npm init -y >/dev/null && npm install --silent @duckdb/node-api >/dev/null)
	cat >"$TMP/duck/bench.mjs" <<JS
import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:', { threads: '2' });
const con = await db.connect();
const r = await con.runAndReadAll(\`
  SELECT ProviderName, CAST(ChargePeriodStart AS DATE) AS day, BillingAccountId, SubAccountId,
         ServiceName, ServiceCategory, RegionId, ResourceId, ResourceType, ChargeCategory, Tags,
         BillingCurrency, SUM(BilledCost) AS billed, SUM(EffectiveCost) AS effective, SUM(ListCost) AS list
  FROM read_csv('$FILE', header = true, nullstr = 'NULL')
  GROUP BY ALL\`);
console.log('duckdb: ' + r.currentRowCount + ' daily lines');
JS
	measure duckdb node "$TMP/duck/bench.mjs"
	cat "$TMP/duckdb.out"
	for ours in import parse; do
		if [ -f "$TMP/$ours.wall" ]; then
			awk -v a="$(cat "$TMP/$ours.wall")" -v b="$(cat "$TMP/duckdb.wall")" -v n="$ours" \
				'BEGIN{printf "ratio %s/duckdb: %.2f (target <= 1.5)\n", n, a/b}'
		fi
	done
else
	echo "duckdb     skipped: node/npm not installed"
fi
