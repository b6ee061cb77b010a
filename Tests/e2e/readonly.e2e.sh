#!/usr/bin/env bash
# `subdash show` and the dashboard with --read-only never write: the state file keeps its bytes,
# inode and mtime, and no journal, lock file (.subdash.lock) or temp file appears next to it.
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DIR="$E2E_TMP/readonly"
STATE="$DIR/state.json"

# A Sandbox subscriber with a simulated clock: every plan and simulation key is offered.
fresh_state() {
  rm -rf "$DIR"
  mkdir -p "$DIR"
  cp "$E2E_ROOT/Examples/active.json" "$STATE"
}

# Everything a write could change: content, inode (an atomic rename makes a new one), mtime to
# the nanosecond, and the directory listing (journal, .subdash.lock, temp files).
fingerprint() {
  sha256sum "$STATE"
  stat -c 'inode %i mtime %Y.%y size %s' "$STATE"
  ls -A "$DIR"
}

expect_untouched() {
  local before=$1 after
  after=$(fingerprint)
  [[ "$after" == "$before" ]] && return 0
  echo "e2e: $2 changed the directory:" >&2
  diff <(echo "$before") <(echo "$after") >&2
  return 1
}

test_show_never_writes() {
  fresh_state
  local before
  before=$(fingerprint)
  "$SUBDASH_BIN" show "$STATE" >"$E2E_TMP/show.txt"
  grep -qF "ACCESS: YES" "$E2E_TMP/show.txt"
  expect_untouched "$before" "subdash show"
  "$SUBDASH_BIN" show --json "$STATE" >"$E2E_TMP/show.json"
  grep -qF '"access"' "$E2E_TMP/show.json"
  expect_untouched "$before" "subdash show --json"
}

# Each key that would change the file, with the name the refusal gives it.
READ_ONLY_KEYS=(
  "u:upgrade" "d:downgrade" "c:crossgrade" "r:redeeming a code" "w:win-back" "a:auto-renew"
  ">:advance to next event" "+:advance the clock" "f:fail next renewal" "R:resolve billing issue"
  "x:expire now" "F:refund" "p:price increase" "P:consent to price increase"
  "N:decline price increase" "A:approve Ask to Buy" "Z:decline Ask to Buy"
)

test_read_only_dashboard_never_writes() {
  fresh_state
  local before entry
  before=$(fingerprint)
  e2e_start readonly 120 40 "$SUBDASH_BIN" --read-only "$STATE"
  e2e_wait_for "[read-only]"
  e2e_wait_for "keys that change the file are disabled"
  for entry in "${READ_ONLY_KEYS[@]}"; do
    e2e_type "${entry%%:*}"
    # The refusal on the status line proves the key reached the read-only guard, rather than
    # being ignored for some other reason (no target plan, Production data).
    e2e_wait_for "read-only: ${entry#*:} disabled"
  done
  # The help says why those keys do nothing: "read-only", not "not now".
  e2e_type '?'
  e2e_wait_for "read-only: upgrade to a higher level"
  e2e_refute_screen "not now:"
  e2e_keys Escape
  e2e_wait_gone "read-only: upgrade to a higher level"
  e2e_type q
  e2e_wait_exit 0
  expect_untouched "$before" "the --read-only dashboard"
}

# A state file copied without its journal (into a support ticket) still shows its state, with one
# warning; a journal cut short stays an error.
test_show_without_its_journal() {
  fresh_state
  # A young subscriber's history is inline (no journal until it passes 32 entries); this one
  # journals from the start (a `journal` object, nothing committed yet), so the step's history
  # goes to state.journal.jsonl, the file the ticket's copy lacks.
  { printf '{\n  "journal": {"file": "state.journal.jsonl", "committedBytes": 0},\n'; tail -c +3 "$E2E_ROOT/Examples/active.json"; } >"$STATE"
  "$SUBDASH_BIN" simulate --steps 1 "$STATE" >/dev/null 2>&1
  [[ -s "$DIR/state.journal.jsonl" ]]
  mkdir -p "$E2E_TMP/ticket"
  cp "$STATE" "$E2E_TMP/ticket/state.json"
  "$SUBDASH_BIN" show "$E2E_TMP/ticket/state.json" >"$E2E_TMP/ticket.txt" 2>"$E2E_TMP/ticket.err"
  grep -qF "originalTransactionId 2000000871234560" "$E2E_TMP/ticket.txt"
  grep -qF "its history journal state.journal.jsonl is missing" "$E2E_TMP/ticket.err"
  "$SUBDASH_BIN" show --json "$E2E_TMP/ticket/state.json" 2>/dev/null | grep -qF '"notifications": []'
  : >"$DIR/state.journal.jsonl"
  local code=0
  "$SUBDASH_BIN" show "$STATE" >/dev/null 2>&1 || code=$?
  [[ $code == 2 ]]
}

e2e_run "show and show --json leave the file and its directory untouched" test_show_never_writes
e2e_run "show of a file copied without its journal shows the state with a warning; a cut journal is an error" test_show_without_its_journal
e2e_run "the --read-only dashboard refuses every writing key and leaves the file untouched" test_read_only_dashboard_never_writes
e2e_summary
