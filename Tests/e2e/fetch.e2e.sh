#!/usr/bin/env bash
# subdash fetch against `subdash serve` (the local App Store Server API, built beside subdash): an
# order ID becomes a state file, a failed fetch writes nothing, and the dashboard's refresh key
# fetches again in the background and reports what changed.
# Run on its own (after `swift build`) or through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EXAMPLES="$E2E_ROOT/Examples"
DIR="$E2E_TMP/fetch"
SERVED="$DIR/served"
mkdir -p "$SERVED"
chmod 700 "$DIR" "$SERVED"
ID=2000000871234560
RENEWING=2000000812776401
# The served subscribers: Examples/active.json as a Production customer (Look Up Order ID is
# Production only) whose history is moved in time so that its clock is now, known by the order ID
# of its receipt email (serve knows an order from the `fetchedFrom` an earlier fetch by it wrote);
# and Examples/pending-downgrade.json, a Sandbox customer the App Store renews during the test.
NOW_MS=$(($(date +%s) * 1000))
sed 's/"Sandbox"/"Production"/g' "$EXAMPLES/active.json" | jq --arg id "$ID" --argjson now "$NOW_MS" '
  .simulation.now as $start
  | .subscriber |= walk(if type == "object" then with_entries(if (.key | test("Date$")) and (.value | type) == "number"
                                                            then .value += ($now - $start) else . end) else . end)
  | .simulation.now = $now
  | .fetchedFrom = {transactionId: $id, orderId: "MK5TTTVWJH", environment: "Production"}' >"$SERVED/$ID.json"
cp "$EXAMPLES/pending-downgrade.json" "$SERVED/$RENEWING.json"
# A team's In-App Purchase key (.p8: P-256 in PKCS#8), made here; the profile fetch reads.
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$DIR/SubscriptionKey_E2EKEY0001.p8" 2>/dev/null
chmod 600 "$DIR/SubscriptionKey_E2EKEY0001.p8"
ISSUER=57246542-96fe-1a63-e053-0824d011072a
printf 'key-file = %s\nkey-id = E2EKEY0001\nissuer-id = %s\nbundle-id = com.example.birdwatch\n' \
  "$DIR/SubscriptionKey_E2EKEY0001.p8" "$ISSUER" >"$DIR/appstore.profile"
chmod 600 "$DIR/appstore.profile"
"$SUBDASH_BIN" ca init "$DIR/ca" >/dev/null
"$SUBDASH_BIN" serve --port 0 --key-id E2EKEY0001 --issuer-id "$ISSUER" --key "$DIR/SubscriptionKey_E2EKEY0001.p8" \
  --bundle-id com.example.birdwatch --ca "$DIR/ca" "$SERVED" >"$DIR/serve.out" 2>"$DIR/serve.log" &
SERVE_PID=$!
# Only the server this script started is stopped, by its pid.
trap 'kill "$SERVE_PID" 2>/dev/null; e2e__cleanup' EXIT
for _ in $(seq 1 500); do grep -q listening "$DIR/serve.out" 2>/dev/null && break; sleep 0.01; done
URL=$(grep -o "http://127.0.0.1:[0-9]*" "$DIR/serve.out" | head -n1)
export SUBDASH_APPSTORE_PROFILE="$DIR/appstore.profile"

test_order_id_to_state() {
  "$SUBDASH_BIN" fetch --order-id MK5TTTVWJH -o "$DIR/state.json" --base-url "$URL" --root "$DIR/ca/root.pem" 2>"$DIR/fetch.err"
  grep -qE "state.json: created: [0-9]+ new transactions, [0-9]+ new notifications from the App Store Server API \(Production, transaction $ID" "$DIR/fetch.err"
  "$SUBDASH_BIN" show "$DIR/state.json" >"$DIR/show.txt"
  grep -qF "ACCESS: YES" "$DIR/show.txt"
  grep -qF '"fetchedFrom"' "$DIR/state.json"
  grep -qF "locally signed, not Apple (Production)" "$DIR/show.txt"
  ! grep -q "PRIVATE KEY\|E2EKEY0001" "$DIR/state.json"
}

test_failure_writes_nothing() {
  local rc=0
  "$SUBDASH_BIN" fetch 2000000999 -o "$DIR/missing.json" --base-url "$URL" --root "$DIR/ca/root.pem" 2>"$DIR/missing.err" || rc=$?
  [[ $rc == 2 ]]
  grep -qF "transaction id not found" "$DIR/missing.err"
  grep -qF "missing.json was not written" "$DIR/missing.err"
  [[ ! -e "$DIR/missing.json" ]]
}

test_refresh_key() {
  "$SUBDASH_BIN" fetch "$RENEWING" -o "$DIR/renewing.json" --base-url "$URL" --root "$DIR/ca/root.pem" 2>"$DIR/renewing.err"
  e2e_start refresh 120 40 "$SUBDASH_BIN" "$DIR/renewing.json"
  e2e_wait_for "l refresh"
  e2e_assert_screen "locally signed, not Apple (Sandbox)"
  local before
  before=$(e2e_screen | grep -o "Recent events ([0-9]*)" | head -n1 | grep -o "[0-9]*")
  # The served customer renews once more (the App Store's next event, written through the store).
  "$SUBDASH_BIN" simulate --steps 1 "$SERVED/$RENEWING.json" >/dev/null 2>&1
  e2e_type l
  e2e_wait_for "refreshed: renewing.json: updated: 1 new transaction, 1 new notification"
  e2e_assert_screen "Recent events ($((before + 1)))"
  e2e_type q
  e2e_wait_exit 0
}

e2e_run "fetch --order-id writes a state file that show opens, with fetchedFrom and no key" test_order_id_to_state
e2e_run "a fetch that fails writes nothing and says why in one line" test_failure_writes_nothing
e2e_run "the dashboard's refresh key fetches in the background and reports what changed" test_refresh_key
e2e_summary
