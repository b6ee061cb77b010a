#!/usr/bin/env bash
# Live update latency (docs/benchmarks-dashboard.md §1): 100 atomic rewrites of the state file
# while the dashboard shows it; time from rename to the new value on the tmux screen.
# Usage: bash scripts/bench/live-latency.sh [TRIALS] [EXAMPLE]   (defaults: 100 Examples/active.json)
# BENCH_NO_INOTIFY=1 measures the stat-polling fallback (SUBDASH_NO_INOTIFY=1) instead.
set -euo pipefail
# shellcheck source=scripts/bench/lib.sh
source "$(dirname "$0")/lib.sh"
trials=${1:-100}
example=${2:-$BENCH_ROOT/Examples/active.json}

bench_machine
state="$BENCH_TMP/state.json"
cp "$example" "$state"
launcher=()
[[ "${BENCH_NO_INOTIFY:-}" == 1 ]] && launcher=(env SUBDASH_NO_INOTIFY=1)
echo "command: ${launcher[*]} $SUBDASH_BIN $state   (tmux 120x40), $trials trials, rewrite = temp file + os.replace"
bench_start 120 40 "${launcher[@]}" "$SUBDASH_BIN" "$state"
bench_wait_for "Recent events"
python3 "$BENCH_ROOT/scripts/bench/live_latency.py" "$BENCH_SOCKET" "$BENCH_SESSION" "$state" "$trials"
