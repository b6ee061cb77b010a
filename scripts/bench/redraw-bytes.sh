#!/usr/bin/env bash
# Redraw cost (docs/benchmarks-dashboard.md §3): bytes the dashboard writes to the terminal for
# one keypress that moves the event selection (j / k: the marker leaves one row and lands on
# another) versus a full repaint (Ctrl-L). The pane's output is captured with
# `tmux pipe-pane -o 'cat >> FILE'`; an action is done when its change is on the screen and the
# capture file has stopped growing (five checks 10 ms apart).
# Usage: bash scripts/bench/redraw-bytes.sh
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
source "$(dirname "$0")/lib.sh"

bench_machine
cp "$BENCH_ROOT/Examples/active.json" "$BENCH_TMP/state.json"
out="$BENCH_TMP/pane.out"

size() { stat -c %s "$out"; }

# settle: waits until the capture file has grown past $1 bytes and then stayed the same size.
settle() {
  local before=$1 stable=0 last deadline=$(($(bench__now_us) + BENCH_TIMEOUT * 1000000))
  last=$(size)
  while ((stable < 5)); do
    (($(bench__now_us) < deadline)) || { echo "bench: output did not settle" >&2; return 1; }
    sleep 0.01
    local now; now=$(size)
    if ((now > before && now == last)); then stable=$((stable + 1)); else stable=0; fi
    last=$now
  done
}

# selected_row: the screen row of the event marker and its text (when the list scrolls, as it does
# at 80x24 with three event rows, the marker stays on its row and the text under it changes).
selected_row() { bench_screen | grep -n '› ' | head -n1; }

# act LABEL KEY [expect-row-change]: presses KEY and prints the bytes it caused.
act() {
  local label=$1 key=$2 moves=${3:-}
  local before row0
  before=$(size)
  row0=$(selected_row)
  bench_tmux send-keys -t "$BENCH_SESSION" "$key"
  if [[ -n "$moves" ]]; then
    local deadline=$(($(bench__now_us) + BENCH_TIMEOUT * 1000000))
    while [[ "$(selected_row)" == "$row0" ]]; do
      (($(bench__now_us) < deadline)) || { echo "bench: $key did not move the selection" >&2; return 1; }
      sleep 0.005
    done
  fi
  settle "$before"
  printf '%s %d\n' "$label" $(($(size) - before))
}

run_size() {
  local w=$1 h=$2
  : >"$out"
  bench_start "$w" "$h" "$SUBDASH_BIN" "$BENCH_TMP/state.json"
  bench_wait_for "Recent events"
  bench_tmux pipe-pane -o -t "$BENCH_SESSION" "exec cat >> $out"
  local results=()
  for _ in 1 2 3 4; do results+=("$(act j j move)"); done
  for _ in 1 2 3 4; do results+=("$(act k k move)"); done
  for _ in 1 2 3; do results+=("$(act Ctrl-L C-l)"); done
  bench_stop
  printf '%s\n' "${results[@]}" | awk -v size="${w}x${h}" '
    { n[$1]++; sum[$1] += $2; if (!($1 in min) || $2 < min[$1]) min[$1] = $2; if ($2 > max[$1]) max[$1] = $2 }
    END { for (k in n) printf "%-8s %-7s n=%d  mean %6.0f bytes  min %6d  max %6d\n", size, k, n[k], sum[k] / n[k], min[k], max[k] }' | sort
}

echo "command: $SUBDASH_BIN $BENCH_TMP/state.json (copy of Examples/active.json, TERM=tmux-256color), pane output via pipe-pane"
run_size 120 40
run_size 80 24
