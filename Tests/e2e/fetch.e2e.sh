#!/usr/bin/env bash
# subdash fetch against the loopback mock App Store (SubDashMockAppStore, built beside subdash):
# an order ID becomes a state file, a failed fetch writes nothing, and the dashboard's refresh key
# fetches again in the background and reports what changed.
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DIR="$E2E_TMP/fetch"
mkdir -p "$DIR"
chmod 700 "$DIR"
MOCK_BIN="$(dirname "$SUBDASH_BIN")/SubDashMockAppStore"
"$MOCK_BIN" "$DIR" >"$DIR/url" 2>"$DIR/mock.err" &
MOCK_PID=$!
# Only the server this script started is stopped, by its pid.
trap 'kill "$MOCK_PID" 2>/dev/null; e2e__cleanup' EXIT
for _ in $(seq 1 500); do [[ -s "$DIR/url" ]] && break; sleep 0.01; done
URL=$(head -n1 "$DIR/url")
export SUBDASH_APPSTORE_PROFILE="$DIR/appstore.profile"

test_order_id_to_state() {
  "$SUBDASH_BIN" fetch --order-id MK5TTTVWJH -o "$DIR/state.json" --base-url "$URL" --root "$DIR/test-root.pem" 2>"$DIR/fetch.err"
  grep -qF "state.json: created: 46 new transactions, 46 new notifications from the App Store Server API (Production, transaction 2000000500" "$DIR/fetch.err"
  "$SUBDASH_BIN" show "$DIR/state.json" >"$DIR/show.txt"
  grep -qF "ACCESS: YES" "$DIR/show.txt"
  grep -qF '"fetchedFrom"' "$DIR/state.json"
  grep -qF "signed by a --root CA (Production)" "$DIR/show.txt"
  ! grep -q "PRIVATE KEY\|MOCKKEY01" "$DIR/state.json"
}

test_failure_writes_nothing() {
  local rc=0
  "$SUBDASH_BIN" fetch 2000000999 -o "$DIR/missing.json" --base-url "$URL" --root "$DIR/test-root.pem" 2>"$DIR/missing.err" || rc=$?
  [[ $rc == 2 ]]
  grep -qF "transaction id not found" "$DIR/missing.err"
  grep -qF "missing.json was not written" "$DIR/missing.err"
  [[ ! -e "$DIR/missing.json" ]]
}

test_refresh_key() {
  e2e_start refresh 120 40 "$SUBDASH_BIN" "$DIR/state.json"
  e2e_wait_for "l refresh"
  e2e_assert_screen "signed by a --root CA (Production)"
  touch "$DIR/renew"
  while [[ -e "$DIR/renew" ]]; do sleep 0.01; done
  e2e_type l
  e2e_wait_for "refreshed: state.json: updated: 1 new transaction, 1 new notification"
  e2e_assert_screen "Recent events (47)"
  e2e_type q
  e2e_wait_exit 0
}

e2e_run "fetch --order-id writes a state file that show opens, with fetchedFrom and no key" test_order_id_to_state
e2e_run "a fetch that fails writes nothing and says why in one line" test_failure_writes_nothing
e2e_run "the dashboard's refresh key fetches in the background and reports what changed" test_refresh_key
e2e_summary
