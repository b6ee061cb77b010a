#!/usr/bin/env bash
# The whole history within reach, timed: on a file whose journal holds N renewals (N
# notifications, N transactions; scripts/bench/make_history.py), how long the dashboard takes to
# show its first frame, `G` to show the oldest event (the first G indexes the journal), a second
# `g`/`G` round, and `/` to find an event in the middle of the history. Each is timed from the
# key (or the start) until its text is on the tmux screen, so the times include the tmux
# round trip (~1 ms, see live-latency.sh).
#
#     bash scripts/bench/history-paging.sh [N] [RUNS]     # defaults: 100000 5
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

N=${1:-100000}
RUNS=${2:-5}
DIR="$BENCH_TMP/history"
python3 "$BENCH_ROOT/scripts/bench/make_history.py" "$DIR" "$N" >&2
TOTAL=$((N + 5))
newest="renewal number $((N - 1))"

ms() { echo "scale=1; ($2 - $1) / 1000" | bc; }

echo "| run | open → first frame | G (first: builds the index) | g | G again | / needle |"
echo "|---:|---:|---:|---:|---:|---:|"
for run in $(seq 1 "$RUNS"); do
  cd "$DIR" || exit 1
  t0=$(bench__now_us)
  bench_start 120 40 "$SUBDASH_BIN" state.json
  bench_wait_for "$newest" || exit 1
  t1=$(bench__now_us)
  bench_tmux send-keys -t "$BENCH_SESSION" -l G
  bench_wait_for "of $TOTAL" || exit 1
  bench_wait_for "SUBSCRIBED" || exit 1
  t2=$(bench__now_us)
  bench_tmux send-keys -t "$BENCH_SESSION" -l g
  bench_wait_for "$newest" || exit 1
  t3=$(bench__now_us)
  bench_tmux send-keys -t "$BENCH_SESSION" -l G
  bench_wait_for "SUBSCRIBED" || exit 1
  t4=$(bench__now_us)
  bench_tmux send-keys -t "$BENCH_SESSION" -l "/needle"
  bench_wait_for "Find: needle" || exit 1
  t5=$(bench__now_us)
  bench_tmux send-keys -t "$BENCH_SESSION" Enter
  bench_wait_for '"needle": event' || exit 1
  t6=$(bench__now_us)
  bench_stop
  echo "| $run | $(ms "$t0" "$t1") ms | $(ms "$t1" "$t2") ms | $(ms "$t2" "$t3") ms | $(ms "$t3" "$t4") ms | $(ms "$t5" "$t6") ms |"
done
echo
echo "journal: $(stat -c %s "$DIR/state.journal.jsonl") bytes, $N notifications + $N transactions"
