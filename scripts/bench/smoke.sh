#!/usr/bin/env bash
# Benchmark smoke run (CI): every SubDashBench command and every scripts/bench script runs once at
# a tiny size on the debug build, so a benchmark that breaks fails CI. The figures it prints mean
# nothing (debug build, tiny inputs, a busy machine) and are not checked; docs/benchmarks.md
# records real ones by hand. About a minute.
#   bash scripts/bench/smoke.sh         needs tmux, jq, bc and .venv-oracle (Tests/oracle/run.sh makes it)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
swift build >/dev/null 2>&1 || { echo "bench-smoke: BUILD FAILED"; exit 1; }
bin="$(swift build --show-bin-path)"
python=.venv-oracle/bin/python
[[ -x $python ]] || { echo "bench-smoke: $python is missing (bash Tests/oracle/run.sh creates it)"; exit 1; }
export SUBDASH_BIN="$bin/subdash" BENCH_TIMEOUT=60
work=$(mktemp -d "${TMPDIR:-/tmp}/subdash-bench-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT

failed=()
# step NAME CMD...: runs CMD (at most 5 minutes), one line for it; its output only when it fails.
step() {
  local name=$1
  shift
  local t0=$SECONDS
  if timeout 300 "$@" >"$work/$name.log" 2>&1; then
    echo "bench-smoke: $name ok ($((SECONDS - t0)) s)"
  else
    echo "bench-smoke: $name FAILED (exit $?): $*"
    tail -n 20 "$work/$name.log" | sed 's/^/  | /'
    failed+=("$name")
  fi
}

bench=("$bin/SubDashBench")
d=$work/data
step generate "${bench[@]}" generate --dir "$d" --sizes 1,20
step load "${bench[@]}" load --dir "$d" --sizes 1,20 --runs 1
step growth "${bench[@]}" growth --dir "$d" --sizes 10 --events 2
step import "${bench[@]}" import --dir "$d" --transactions 20 --pages 1,2 --runs 1
step list "${bench[@]}" list --dir "$d" --count 20 --repeats 2 --examples Examples
# SubDashBench post is the native sender of listen_load.py; apple_receiver.py is its peer receiver.
step listen-bench "$python" scripts/bench/listen_load.py bench "$SUBDASH_BIN" --native-sender "$bin/SubDashBench" \
  --notifications 40 --subscribers 4 --senders 4
step listen-crowd "$python" scripts/bench/listen_load.py crowd "$SUBDASH_BIN" --idle 4 --slow 2 --single 5 \
  --notifications 40 --subscribers 4 --senders 4
# listen_series.py: the same listen run alone, as one series of 3 at a tiny size, one build, each
# run's requests traced (a header and one line per request).
step listen-series env NOTIFICATIONS=40 SUBSCRIBERS=4 TRACE="$work" "$python" scripts/bench/listen_series.py 1 "$bin/SubDashBench" "$SUBDASH_BIN"
step listen-trace bash -c '[[ $(grep -c "^[0-9]*,[0-9.]*,[0-9.]*$" "$1/trace-0-0-2.csv") -eq 40 ]]' _ "$work"
step list-first-screen python3 scripts/bench/list_first_screen.py "$SUBDASH_BIN" "$d/population-20" 1
# The search target is renewal 1234 (make_history.py), so the history holds a few more.
step history-paging bash scripts/bench/history-paging.sh 1300 1
step idle-cost bash scripts/bench/idle-cost.sh 1
step live-latency bash scripts/bench/live-latency.sh 3
step memory bash scripts/bench/memory.sh 50
step redraw-bytes bash scripts/bench/redraw-bytes.sh
step show-vs-jq bash scripts/bench/show-vs-jq.sh Examples/grace-period.json 3
step show-json-vs-orjson python3 scripts/bench/show_json_vs_orjson.py 1 "$d/history-20.json" "$SUBDASH_BIN"
step transactions-view-keys python3 scripts/bench/transactions_view_keys.py "$SUBDASH_BIN" "$d/history-20.json" 2

# all.sh runs the scripts above in a release build (minutes): here only that each one it names exists.
for name in $(sed -n 's/^for name in \(.*\); do$/\1/p' scripts/bench/all.sh); do
  [[ -f scripts/bench/$name.sh ]] || { echo "bench-smoke: all.sh names $name.sh, which does not exist"; failed+=(all.sh); }
done
# Every file here is run above or by a script above (listen_load.py kill/db modes run in .ci/run);
# a new one must be added to this list and run.
covered=(all.sh apple_receiver.py history-paging.sh idle-cost.sh lib.sh list_first_screen.py listen_load.py listen_series.py live-latency.sh
  live_latency.py make_fixture.py make_history.py memory.sh redraw-bytes.sh show-vs-jq.sh show_json_vs_orjson.py smoke.sh transactions_view_keys.py)
for f in scripts/bench/*; do
  printf '%s\n' "${covered[@]}" | grep -qxF -- "${f##*/}" \
    || { echo "bench-smoke: $f is not run by the smoke run; add it to scripts/bench/smoke.sh"; failed+=("${f##*/}"); }
done

if ((${#failed[@]} > 0)); then
  echo "bench-smoke: FAILED: ${failed[*]}"
  exit 1
fi
echo "bench-smoke: ok, every SubDashBench command and bench script ran once ($SECONDS s)"
