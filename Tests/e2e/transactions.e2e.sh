#!/usr/bin/env bash
# End-to-end tests of the transactions view (`t`) and of long steps: a chosen earlier transaction
# is refunded from the view (previewed, confirmed, shown revoked, the subscription still active),
# `y` copies it whole with OSC 52 (read back from tmux's paste buffer), a `+` of 2,880 renewals
# asks first and then says how many it wrote, and `simulate --until` refuses such a run unless
# --max-events allows it. Run on its own or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# fast_copy DIR: Examples/active.json at "a month every 30 seconds" (86,400x), renewed once so
# its periods are 30 s long: a day from there is 2,880 renewals.
fast_copy() {
  mkdir -p "$1" && cp "$E2E_ROOT/Examples/active.json" "$1/state.json" || return 1
  "$SUBDASH_BIN" simulate "$1/state.json" --rate monthlyRenewalEveryThirtySeconds --steps 1 >/dev/null 2>&1
}

# open_copy NAME WIDTH HEIGHT [fast]: a fresh copy of Examples/active.json (five transactions),
# the fast one when asked, opened at WIDTHxHEIGHT.
open_copy() {
  if [[ "${4:-}" == fast ]]; then fast_copy "$E2E_TMP/$1" || return 1; else
    mkdir -p "$E2E_TMP/$1" && cp "$E2E_ROOT/Examples/active.json" "$E2E_TMP/$1/state.json" || return 1
  fi
  cd "$E2E_TMP/$1" || return 1
  e2e_start "$1" "$2" "$3" "$SUBDASH_BIN" state.json
  e2e_wait_for "SubDash [" || return 1
  e2e_wait_for "? help"
}

test_t_refunds_a_chosen_earlier_transaction() {
  open_copy refund 120 40 || return 1
  e2e_tmux set-option -g set-clipboard on
  e2e_type t
  e2e_wait_for "Transactions: 1 of 5" || return 1
  e2e_wait_for "2000000871234560  Family  purchase  free      intro free trial" || return 1
  e2e_type jj
  e2e_wait_for "Transactions: 3 of 5" || return 1
  e2e_type F
  e2e_wait_for "Refund transaction 2000000871245945" || return 1
  e2e_wait_for "y confirm" || return 1
  e2e_type y
  # Back in the view, the same row now revoked; the subscription is still active behind it.
  e2e_wait_for "REFUNDED 2026-05-14 15:00 (full, other reason)" || return 1
  e2e_wait_for "Transactions: 3 of 5" || return 1
  e2e_type y
  e2e_wait_for "copied transaction 2000000871245945" || return 1
  local buffer
  buffer=$(e2e_tmux show-buffer 2>/dev/null)
  if [[ "$buffer" != *'"transactionId":"2000000871245945"'* || "$buffer" != *'"revocationPercentage":100000'* ]]; then
    echo "e2e: tmux buffer after y: '$buffer'" >&2
    return 1
  fi
  e2e_keys Escape
  e2e_wait_for "ACCESS: YES" || return 1
  e2e_wait_for "REFUND" || return 1
  e2e_type q
  e2e_wait_exit 0
}

test_a_long_plus_asks_first() {
  open_copy long 120 40 fast || return 1
  e2e_type +
  e2e_wait_for "Long step" || return 1
  e2e_wait_for "that applies about 28" || return 1
  e2e_type n
  e2e_wait_for "cancelled; nothing was changed" || return 1
  e2e_type +
  e2e_wait_for "Long step" || return 1
  e2e_type y
  e2e_wait_for "notifications in 12 saves" 60 || return 1
  e2e_type q
  e2e_wait_exit 0
}

test_simulate_until_needs_max_events() {
  fast_copy "$E2E_TMP/cli" && cd "$E2E_TMP/cli" || return 1
  local before out status
  before=$(sha256sum state.json)
  status=0
  out=$("$SUBDASH_BIN" simulate state.json --until 2026-05-24T00:33:00Z 2>&1 >/dev/null) || status=$?
  if [[ $status -ne 1 || "$out" != *"would apply more than 500 events"* || "$out" != *"nothing was written"* ]]; then
    echo "e2e: simulate --until without --max-events: status $status, '$out'" >&2
    return 1
  fi
  if [[ "$(sha256sum state.json)" != "$before" ]]; then
    echo "e2e: the refused run changed the file" >&2
    return 1
  fi
  "$SUBDASH_BIN" simulate state.json --until 2026-05-24T00:33:00Z --max-events 1000 >/dev/null 2>&1 || return 1
  [[ "$(sha256sum state.json)" != "$before" ]]
}

e2e_run "transactions: t lists them, F refunds the chosen earlier one (previewed), y copies it" test_t_refunds_a_chosen_earlier_transaction
e2e_run "transactions: a + of 2,880 renewals asks first, then says how many it wrote" test_a_long_plus_asks_first
e2e_run "transactions: simulate --until refuses a long run without --max-events, writing nothing" test_simulate_until_needs_max_events
e2e_summary
