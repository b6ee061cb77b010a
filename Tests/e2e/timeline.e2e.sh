#!/usr/bin/env bash
# End-to-end tests of the customer summary and the timeline (`T`) in the dashboard, driven in
# tmux on copies of Examples/*.json (each with a simulated clock, so screens repeat exactly).
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EXAMPLES="$E2E_ROOT/Examples"

# open_on NAME STEM WIDTH HEIGHT: a private copy of Examples/STEM.json, opened at WIDTHxHEIGHT.
open_on() {
  mkdir -p "$E2E_TMP/$1"
  cd "$E2E_TMP/$1"
  cp "$EXAMPLES/$2.json" "$2.json"
  e2e_start "$1" "$3" "$4" "$SUBDASH_BIN" "$2.json"
  e2e_wait_for "SubDash ["
  e2e_wait_for "? help"
}

# 80 columns: the summary line is there, the timeline only after T; the cursor starts on the
# period `now` is in and ←/→ choose another, showing its transaction and notifications.
test_timeline_key_and_cursor() {
  open_on key billing-retry 80 24
  e2e_wait_for "customer since 2025-12-25"
  e2e_refute_screen "Timeline 2025"
  e2e_type T
  e2e_wait_for "Timeline 2025-12-25"
  e2e_wait_for "6/6 billing retry"
  e2e_keys Left
  e2e_wait_for "5/6 grace"
  e2e_wait_for "transaction 2000000777273699"
  e2e_keys Home
  e2e_wait_for "1/6 paid"
  e2e_keys Escape
  e2e_wait_gone "Timeline 2025-12-25"
  e2e_type q
  e2e_wait_exit 0
}

# From 160 columns the timeline is on screen without a key; a renewal the simulator writes
# (the `>` key: the next scheduled event) makes the lane grow while it is open.
test_timeline_wide_and_live() {
  open_on live active 200 50
  e2e_wait_for "Timeline 2026-01-09"
  e2e_type T
  e2e_wait_for "5/5 paid"
  e2e_type '>'
  e2e_wait_for "renewed"
  e2e_keys End
  e2e_wait_for "6/6 paid"
  e2e_type q
  e2e_wait_exit 0
}

e2e_run "timeline: T opens it at 80 columns, ←/→ and Home choose periods, Esc leaves" test_timeline_key_and_cursor
e2e_run "timeline: on screen from 160 columns, grows as a renewal lands" test_timeline_wide_and_live
e2e_summary
