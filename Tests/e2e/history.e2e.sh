#!/usr/bin/env bash
# End-to-end tests of the whole history in the dashboard: `G` reaches the oldest of 5,005 events
# (the journal's 5,000 renewals below the example's own five), `/` finds an event anywhere and
# n/m step through matches, and `y` / `Y` put the selected event on the clipboard with OSC 52
# (read back from tmux's paste buffer: with `set-clipboard on` tmux stores what an application
# copies). Files come from scripts/bench/make_history.py. Run on its own or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# open_history NAME WIDTH HEIGHT: a fresh 5,000-renewal file, opened at WIDTHxHEIGHT.
open_history() {
  python3 "$E2E_ROOT/scripts/bench/make_history.py" "$E2E_TMP/$1" 5000 >/dev/null || return 1
  cd "$E2E_TMP/$1" || return 1
  e2e_start "$1" "$2" "$3" "$SUBDASH_BIN" state.json
  e2e_wait_for "SubDash [" || return 1
  e2e_wait_for "? help"
}

test_capital_g_reaches_the_oldest_event() {
  open_history oldest 120 40 || return 1
  e2e_wait_for "renewal number 4999" || return 1
  e2e_type G
  e2e_wait_for "of 5005" || return 1
  e2e_wait_for "-5005 of 5005" || return 1
  e2e_wait_for "SUBSCRIBED" || return 1
  e2e_refute_screen "renewal number 4999" || return 1
  e2e_type g
  e2e_wait_for "renewal number 4999" || return 1
  e2e_type q
  e2e_wait_exit 0
}

test_slash_finds_and_n_m_step() {
  open_history search 120 40 || return 1
  e2e_type /
  e2e_wait_for "Search events" || return 1
  e2e_type needle
  e2e_keys Enter
  e2e_wait_for '"needle": event 3766 of 5005' || return 1
  e2e_wait_for "the needle renewal" || return 1
  e2e_type /
  e2e_keys BSpace BSpace BSpace BSpace BSpace BSpace
  e2e_type history-12
  e2e_keys Enter
  # The search starts at the selection: the needle (history-1234) matches; n goes to the next
  # older match (history-1233), m back.
  e2e_wait_for '"history-12": event 3766 of 5005' || return 1
  e2e_type n
  e2e_wait_for '"history-12": event 3767 of 5005' || return 1
  e2e_type m
  e2e_wait_for '"history-12": event 3766 of 5005' || return 1
  e2e_type /
  e2e_keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
  e2e_type no-such-event
  e2e_keys Enter
  e2e_wait_for 'no event matches "no-such-event"' || return 1
  e2e_type q
  e2e_wait_exit 0
}

test_y_copies_with_osc52() {
  open_history copy 120 40 || return 1
  e2e_tmux set-option -g set-clipboard on
  e2e_type Y
  e2e_wait_for "copied notificationUUID history-4999 to the clipboard" || return 1
  local buffer
  buffer=$(e2e_tmux show-buffer 2>/dev/null)
  if [[ "$buffer" != "history-4999" ]]; then
    echo "e2e: tmux buffer after Y: '$buffer'" >&2
    return 1
  fi
  e2e_type j
  e2e_type y
  e2e_wait_for "copied event DID_RENEW of" || return 1
  buffer=$(e2e_tmux show-buffer 2>/dev/null)
  if [[ "$buffer" != *'"notificationUUID":"history-4998"'* || "$buffer" == *$'\n'* ]]; then
    echo "e2e: tmux buffer after y: '$buffer'" >&2
    return 1
  fi
  e2e_type q
  e2e_wait_exit 0
}

e2e_run "G goes to the oldest of 5,005 events and g back to the newest" test_capital_g_reaches_the_oldest_event
e2e_run "/ finds an event anywhere in the history; n and m step through matches; a miss is said" test_slash_finds_and_n_m_step
e2e_run "y and Y copy the selected event and its id with OSC 52" test_y_copies_with_osc52
e2e_summary
