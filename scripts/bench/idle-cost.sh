#!/usr/bin/env bash
# Idle cost (docs/benchmarks-dashboard.md §2): CPU time and wake-ups of an open dashboard that
# nobody touches, for three files:
#   (a) simulated clock (Examples/active.json): nothing on screen moves by itself:
#       expect no wake-ups at all;
#   (b) wall clock, renewal in 3 days: the countdown shows minutes: one wake-up a minute;
#   (c) wall clock, renewal in 30 minutes: the countdown shows seconds: at most 1 Hz.
# Usage: bash scripts/bench/idle-cost.sh [SECONDS]   (default 60)
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
source "$(dirname "$0")/lib.sh"
window=${1:-60}
hz=$(getconf CLK_TCK)

bench_machine
python3 "$BENCH_ROOT/scripts/bench/make_fixture.py" wall "$BENCH_ROOT/Examples/active.json" "$BENCH_TMP/far.json" $((3 * 86400))
python3 "$BENCH_ROOT/scripts/bench/make_fixture.py" wall "$BENCH_ROOT/Examples/active.json" "$BENCH_TMP/near.json" 1800
cp "$BENCH_ROOT/Examples/active.json" "$BENCH_TMP/simulated.json"

measure() {
  local label=$1 file=$2 ready=$3
  bench_start 120 40 "$SUBDASH_BIN" "$file"
  bench_wait_for "$ready"
  local pid cpu0 sw0 cpu1 sw1 t0 t1
  pid=$(bench_app_pid)
  cpu0=$(bench_cpu_ticks "$pid"); sw0=$(bench_voluntary_switches "$pid"); t0=$(bench__now_us)
  # The measurement window itself: the dashboard must be left alone, so this is a plain wait.
  sleep "$window"
  cpu1=$(bench_cpu_ticks "$pid"); sw1=$(bench_voluntary_switches "$pid"); t1=$(bench__now_us)
  local secs cpu_ms wakeups
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", (b - a) / 1e6}')
  cpu_ms=$(( (cpu1 - cpu0) * 1000 / hz ))
  wakeups=$((sw1 - sw0))
  printf '%-44s %6s s  cpu %4d ms  wake-ups %4d  = %.3f/s  threads %d\n' \
    "$label" "$secs" "$cpu_ms" "$wakeups" "$(awk -v w="$wakeups" -v s="$secs" 'BEGIN {print w / s}')" "$(bench_threads "$pid")"
  bench_stop
}

echo "command: $SUBDASH_BIN FILE (tmux 120x40), idle for ${window}s; cpu = utime+stime (/proc/PID/stat, ${hz} ticks/s), wake-ups = voluntary_ctxt_switches summed over /proc/PID/task/*"
measure "(a) simulated clock (active.json)" "$BENCH_TMP/simulated.json" "Recent events"
measure "(b) wall clock, renews in 3 days" "$BENCH_TMP/far.json" "renews on"
measure "(c) wall clock, renews in 30 min" "$BENCH_TMP/near.json" "renews on"
