#!/usr/bin/env bash
# Scores costpilot's forecaster on the shared forecast benchmark
# (../shared/bench/forecast) at horizons 30, 60 and 90 days and at three
# forecast origins (make_tasks.py --offset 0, 28, 56), each against the
# seasonal naive baseline of snaive.py. It prints, per horizon, relMASE (the
# geometric mean over series and origins of MASE / MASE of seasonal naive),
# 80 % and 95 % coverage, the 30/60/90-day total's error and seconds per
# series, beside the benchmark's reference models (offset 0).
#
# usage: scripts/forecast-bench.sh [BENCH_DIR]
#   BENCH_DIR       default: ../shared/bench/forecast next to the repository
#   COSTPILOT_BIN   use this binary instead of building bin/costpilot
#   KEEP=1          keep the work directory (tasks, forecasts, scores)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
bench="${1:-$root/../shared/bench/forecast}"
[ -f "$bench/score.py" ] || { echo "forecast-bench: no benchmark at $bench" >&2; exit 2; }
bench="$(cd "$bench" && pwd)"

bin="${COSTPILOT_BIN:-}"
if [ -z "$bin" ]; then
	(cd "$root" && go build -o bin/costpilot .)
	bin="$root/bin/costpilot"
fi

work="$(mktemp -d)"
if [ "${KEEP:-0}" = 1 ]; then echo "work directory: $work" >&2; else trap 'rm -rf "$work"' EXIT; fi

offsets="0 28 56"
horizons="30 60 90"
for off in $offsets; do
	d="$work/o$off"
	python3 "$bench/make_tasks.py" "$bench/data/series.csv" "$d/tasks" --offset "$off" >/dev/null
	for h in $horizons; do
		mkdir -p "$d/fc/h$h"
		"$bin" forecast-bench --train "$d/tasks/h$h/train.csv" --horizon "$h" >"$d/fc/h$h/costpilot.csv"
		python3 "$bench/snaive.py" "$d/tasks/h$h/train.csv" "$h" >"$d/fc/h$h/snaive.csv"
	done
	python3 "$bench/score.py" "$d/tasks" --fc "$d/fc" --meta "$bench/data/metadata.csv" --out "$d/cmp" >/dev/null
done

python3 - "$work" "$bench/reference/RESULTS.md" $offsets <<'PY'
import csv, math, re, sys
from collections import defaultdict

work, results, offsets = sys.argv[1], sys.argv[2], sys.argv[3:]
# Per series and origin: relMASE is costpilot's MASE over the seasonal naive
# one; the headline is their geometric mean over all series and origins.
rel = defaultdict(list)
rel_origin = defaultdict(lambda: defaultdict(list))
acc = defaultdict(lambda: defaultdict(list))
missing = defaultdict(int)
for off in offsets:
    rows = list(csv.DictReader(open(f"{work}/o{off}/cmp_by_series.csv", newline="")))
    base = {(r["horizon"], r["series_id"]): float(r["mase"]) for r in rows
            if r["model"] == "snaive" and r["status"] == "ok"}
    for r in rows:
        if r["model"] != "costpilot":
            continue
        h = int(r["horizon"])
        if r["status"] != "ok":
            missing[h] += 1
            continue
        b, m = base.get((r["horizon"], r["series_id"])), float(r["mase"])
        if b and m > 0:
            rel[h].append(math.log(m / b))
            rel_origin[h][off].append(math.log(m / b))
        for c in ("cov80", "cov95", "fit_seconds", "total_ape"):
            acc[h][c].append(float(r[c]))

# Reference models, from the benchmark's RESULTS.md (offset 0 only).
ref = defaultdict(dict)
H = None
for line in open(results):
    m = re.match(r"### Horizon (\d+) days", line)
    if m:
        H = int(m.group(1)); hdr = None; continue
    if H and line.startswith("| model"):
        hdr = [c.strip() for c in line.strip().strip("|").split("|")]; continue
    if H and line.startswith("| ") and not line.startswith("|---") and hdr:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == len(hdr):
            ref[H][cells[0]] = dict(zip(hdr, cells))

gm = lambda v: math.exp(sum(v) / len(v))
print(f"costpilot over origins (offsets {', '.join(offsets)}); relMASE: geometric mean over series and origins\n")
print("| horizon | relMASE (per origin) | cov80 | cov95 | total_ape | s/series | missing |")
print("|---|---|---|---|---|---|---|")
for h in sorted(acc):
    a = {c: sum(v) / len(v) for c, v in acc[h].items()}
    per = " / ".join(f"{gm(rel_origin[h][o]):.3f}" for o in offsets)
    print(f"| {h} | {gm(rel[h]):.3f} ({per}) | {a['cov80']:.3f} | {a['cov95']:.3f} | "
          f"{a['total_ape']:.2f} | {a['fit_seconds']:.4f} | {missing[h]} |")
print("\nreference models (offset 0 only, from reference/RESULTS.md): relmase_gm / cov80 / cov95 / fit_s_mean\n")
models = sorted({m for h in ref for m in ref[h]})
print("| model | " + " | ".join(f"h{h}" for h in sorted(ref)) + " |")
print("|---|" + "---|" * len(ref))
for m in models:
    cells = []
    for h in sorted(ref):
        r = ref[h].get(m)
        cells.append(f"{r['relmase_gm']} / {r['cov80']} / {r['cov95']} / {r['fit_s_mean']}" if r else "-")
    print(f"| {m} | " + " | ".join(cells) + " |")
PY
