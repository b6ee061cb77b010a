#!/usr/bin/env bash
# `subdash show` end to end (process start to exit) versus `jq . FILE` on the same file
# (docs/benchmarks-dashboard.md §5). Target: subdash show takes at most half of jq's time.
# Uses hyperfine when installed (apt-get install hyperfine), else a loop timed with date +%s%N.
# Usage: bash scripts/bench/show-vs-jq.sh [FILE] [RUNS]   (defaults: Examples/grace-period.json 300)
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
source "$(dirname "$0")/lib.sh"
file=${1:-$BENCH_ROOT/Examples/grace-period.json}
runs=${2:-300}
command -v jq >/dev/null || { echo "bench: jq is not installed" >&2; exit 2; }

bench_machine
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other processes share these CPUs: compare runs)"
echo "file: $file ($(stat -c %s "$file") bytes); jq $(jq --version)"
if command -v hyperfine >/dev/null; then
  echo "commands: hyperfine -N --warmup 20 --runs $runs '$SUBDASH_BIN show FILE' '$SUBDASH_BIN show --json FILE' 'jq . FILE'"
  hyperfine -N --warmup 20 --runs "$runs" --style basic --export-json "$BENCH_TMP/h.json" \
    -n "subdash show" "$SUBDASH_BIN show $file" -n "subdash show --json" "$SUBDASH_BIN show --json $file" \
    -n "jq ." "jq . $file" >/dev/null
  python3 - "$BENCH_TMP/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
jq, jq_min = r[2]["median"], r[2]["min"]
for x in r:
    print(f"{x['command']:<20} median {x['median'] * 1000:6.2f} ms  mean {x['mean'] * 1000:6.2f} ± {x['stddev'] * 1000:5.2f} ms  min {x['min'] * 1000:6.2f} ms  ratio to jq: median {x['median'] / jq:4.2f}, min {x['min'] / jq_min:4.2f}")
PY
else
  echo "commands: $runs runs each of '$SUBDASH_BIN show FILE' and 'jq . FILE', timed with date +%s%N (hyperfine not installed)"
  median_ms() {
    local i t0 t1 times=()
    for ((i = 0; i < runs; i++)); do
      t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N)
      times+=($((t1 - t0)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {printf "%.2f", a[int((NR + 1) / 2)] / 1e6}'
  }
  s=$(median_ms "$SUBDASH_BIN" show "$file")
  j=$(median_ms jq . "$file")
  echo "subdash show median $s ms; jq . median $j ms; ratio $(awk -v s="$s" -v j="$j" 'BEGIN {printf "%.2f", s / j}')"
fi
