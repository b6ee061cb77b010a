#!/usr/bin/env bash
# Two writers on one file, for real: `subdash simulate --fast` renews an auto-renewing
# subscription hundreds of times a second while a dashboard (`subdash FILE` in tmux, driven by
# send-keys) crossgrades back and forth between two monthly plans at the same level. Every
# crossgrade is immediate: a new transaction and a DID_CHANGE_RENEWAL_PREF / UPGRADE notification.
# Each step waits for the screen (the confirmation dialog, then the status line), never a fixed
# time. Some confirmations are cancelled (n or Escape), which must write nothing.
#
# At the end, from the file and its journal (SubDashFaultProbe history): the plan changes equal the
# crossgrades confirmed on screen and alternate Gold/Silver (a lost or doubled one breaks the
# alternation); every notification the simulator printed (--jsonl) is in the journal exactly once,
# in its order; transaction ids run without gaps or duplicates; renewals start where the previous
# period ended; the clock never goes back; `subdash show --json` loads the file.
#   bash scripts/concurrency-test.sh [ACTIONS] [SEED]     default 1000 actions; one summary line
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
actions=${1:-1000}
seed=${2:-$RANDOM}
swift build >/dev/null || { echo "concurrency-test: BUILD FAILED"; exit 1; }
bin="$(swift build --show-bin-path)"
SUBDASH_BIN="$bin/subdash"
# shellcheck source=Tests/e2e/lib.sh
source Tests/e2e/lib.sh

work=$E2E_TMP/concurrency
sim_pid=""
stop_simulator() {
  [[ -n $sim_pid ]] || return 0
  kill -TERM "$sim_pid" 2>/dev/null
  wait "$sim_pid" 2>/dev/null
  sim_pid=""
}
trap 'stop_simulator; e2e__cleanup' EXIT
fail() {
  echo "concurrency-test: FAILED: $*"
  stop_simulator
  local keep
  keep=$(mktemp -d "${TMPDIR:-/tmp}/subdash-concurrency-failed.XXXXXX")
  cp -a "$work"/. "$keep"/ 2>/dev/null
  echo "concurrency-test: the files are kept in $keep"
  exit 1
}

echo "concurrency-test: $actions actions, seed $seed"
mkdir -p "$work" && cd "$work" || exit 1
"$SUBDASH_BIN" simulate --scenario "$E2E_ROOT/Tests/faults/renewing.scenario" state.json >/dev/null 2>setup.err \
  || fail "setup: $(cat setup.err)"
"$SUBDASH_BIN" simulate --fast --seed "$seed" --jsonl state.json >simulator.jsonl 2>simulator.err &
sim_pid=$!

e2e_start concurrency 160 45 "$SUBDASH_BIN" state.json
e2e_wait_for "? help" || fail "the dashboard did not start"

RANDOM=$seed
plans=("Silver Monthly" "Gold Monthly")   # the file starts on Gold Monthly
confirmed=0 cancelled=0 max_us=0
started=$(e2e__now_us)
for ((i = 0; i < actions; i++)); do
  target=${plans[i % 2]}
  if ((RANDOM % 8 == 0)); then
    # Open the confirmation and back out: nothing may be written.
    e2e_type c
    e2e_wait_for "Crossgrade now to $target" || fail "action $((i + 1)): no confirmation for $target"
    if ((RANDOM % 2)); then e2e_type n; else e2e_keys Escape; fi
    e2e_wait_for "cancelled; nothing was changed" || fail "action $((i + 1)): cancelling did not say so"
    cancelled=$((cancelled + 1))
  fi
  t0=$(e2e__now_us)
  e2e_type c
  e2e_wait_for "Crossgrade now to $target" || fail "action $((i + 1)): no confirmation for $target"
  e2e_type y
  e2e_wait_for "Crossgraded to $target now" || fail "action $((i + 1)): the crossgrade to $target was not confirmed"
  confirmed=$((confirmed + 1))
  t=$(($(e2e__now_us) - t0))
  ((t > max_us)) && max_us=$t
done
elapsed_us=$(($(e2e__now_us) - started))

kill -0 "$sim_pid" 2>/dev/null || fail "the simulator stopped during the test: $(cat simulator.err)"
stop_simulator
e2e_type q
e2e_wait_exit 0 || fail "the dashboard did not quit cleanly"
e2e_stop

"$SUBDASH_BIN" show --json state.json >/dev/null 2>show.err || fail "subdash show --json: $(cat show.err)"
renewals=$(grep -c '"notificationType":"DID_RENEW"' simulator.jsonl)
((renewals > 0)) || fail "the simulator wrote no renewal while the dashboard acted"
history=$("$bin/SubDashFaultProbe" history state.json --plan-changes "$confirmed" --simulator-output simulator.jsonl) \
  || fail "$history"
echo "concurrency-test: ok, $confirmed crossgrades confirmed on screen ($cancelled cancelled) in $((elapsed_us / 1000000)) s (mean $((elapsed_us / confirmed / 1000)) ms, max $((max_us / 1000)) ms each) while the simulator wrote $renewals renewals; $history"
