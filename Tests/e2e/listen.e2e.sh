#!/usr/bin/env bash
# The developer's loop with a local App Store: `subdash ca init`, `subdash ca sign` (a backend's
# test fixtures), `subdash listen` receiving them over HTTP with a dashboard following the file it
# writes, and a `kill -9` of listen in the middle of a stream: after a restart and the sender's
# retries, every notification is in the file exactly once.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CA="$E2E_TMP/ca"
OUT="$E2E_TMP/subscribers"
START=1780000000000
DAY=86400000

# notification N for subscriber 2000000100, signed by the local CA, on stdout as a POST body.
signed_body() {
  local n=$1 type=${2:-DID_RENEW} purchase signed tx rn
  purchase=$((START + (n - 1) * 30 * DAY)); signed=$((purchase + 1000))
  tx=$(printf '{"transactionId":"2000000100%04d","originalTransactionId":"2000000100","productId":"com.example.monthly","bundleId":"com.example.subdash","purchaseDate":%s,"originalPurchaseDate":%s,"expiresDate":%s,"signedDate":%s,"environment":"Sandbox","type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","price":9990,"currency":"USD"}' \
    "$n" "$purchase" "$START" $((purchase + 30 * DAY)) "$signed" | "$SUBDASH_BIN" ca sign - --ca "$CA")
  rn=$(printf '{"originalTransactionId":"2000000100","autoRenewProductId":"com.example.monthly","productId":"com.example.monthly","autoRenewStatus":1,"signedDate":%s,"environment":"Sandbox","renewalDate":%s}' \
    "$signed" $((purchase + 30 * DAY)) | "$SUBDASH_BIN" ca sign - --ca "$CA")
  printf '{"notificationType":"%s","notificationUUID":"00000000-0000-0000-0000-%012d","version":"2.0","signedDate":%s,"data":{"bundleId":"com.example.subdash","environment":"Sandbox","signedTransactionInfo":"%s","signedRenewalInfo":"%s"}}' \
    "$type" "$n" "$signed" "$tx" "$rn" | "$SUBDASH_BIN" ca sign - --ca "$CA" --notification-body
}

# Starts listen in the background on a free port; sets LISTEN_PID and URL.
start_listen() {
  "$SUBDASH_BIN" listen --port 0 --root "$CA/root.pem" --bundle-id com.example.subdash "$OUT" >"$E2E_TMP/listen.out" 2>>"$E2E_TMP/listen.log" &
  LISTEN_PID=$!
  e2e_track "$LISTEN_PID"
  local i
  for ((i = 0; i < 200; i++)); do
    URL=$(grep -o 'http://127.0.0.1:[0-9]*' "$E2E_TMP/listen.out" 2>/dev/null) && [[ -n $URL ]] && return 0
    kill -0 "$LISTEN_PID" 2>/dev/null || { cat "$E2E_TMP/listen.log" >&2; return 1; }
    sleep 0.05  # polling a file for the port line; the screen rule (wait for text) is for tmux
  done
  return 1
}

post() { curl -s -m 10 -o "$E2E_TMP/answer.txt" -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @- "$URL/"; }

test_ca_listen_and_a_dashboard_following() {
  "$SUBDASH_BIN" ca init "$CA" | grep -qF "SHA-256 fingerprint:"
  [[ $(stat -c %a "$CA/leaf-key.pem") == 600 ]]
  # A second init refuses to replace the keys a backend already trusts.
  ! "$SUBDASH_BIN" ca init "$CA" 2>/dev/null
  start_listen
  [[ $(signed_body 1 SUBSCRIBED | post) == 200 ]]
  grep -qF "created 2000000100.json" "$E2E_TMP/answer.txt"
  signed_body 2 >"$E2E_TMP/second.json"
  "$SUBDASH_BIN" verify --root "$CA/root.pem" "$E2E_TMP/second.json" | grep -qF "valid: locally signed notification DID_RENEW (Sandbox)"
  e2e_start follow 100 30 "$SUBDASH_BIN" --read-only "$OUT/2000000100.json"
  e2e_wait_for "SUBSCRIBED"
  [[ $(post <"$E2E_TMP/second.json") == 200 ]]
  e2e_wait_for "DID_RENEW"
  # A redelivery answers 200 and changes nothing; a foreign body is refused with its reason.
  [[ $(post <"$E2E_TMP/second.json") == 200 ]] && grep -qF "already applied" "$E2E_TMP/answer.txt"
  [[ $(echo '{"signedPayload":"a.b.c"}' | post) == 403 ]]
  e2e_type q
  e2e_wait_exit 0
  kill "$LISTEN_PID"; wait "$LISTEN_PID" 2>/dev/null || true
}

# kill -9 in the middle of 120 deliveries; the sender retries what was not acknowledged with 200.
test_kill_9_loses_nothing() {
  [[ -f "$CA/root.pem" ]] || "$SUBDASH_BIN" ca init "$CA" >/dev/null
  rm -rf "$OUT"; : >"$E2E_TMP/listen.out"
  local n bodies="$E2E_TMP/bodies" killed=0
  mkdir -p "$bodies"
  for ((n = 1; n <= 120; n++)); do signed_body "$n" >"$bodies/$n.json"; done
  start_listen
  for ((n = 1; n <= 120; n++)); do
    if ((n == 40 && killed == 0)); then
      # Mid-stream, and again while the next request may be in flight.
      (post <"$bodies/$n.json" >/dev/null &) ; kill -9 "$LISTEN_PID"; wait "$LISTEN_PID" 2>/dev/null || true; killed=1
      : >"$E2E_TMP/listen.out"; start_listen
    fi
    # The sender retries until acknowledged, as Apple does (bounded here: a dead server fails the test).
    local tries=0
    until [[ $(post <"$bodies/$n.json") == 200 ]]; do
      ((++tries < 100)) || { echo "notification $n never acknowledged: $(cat "$E2E_TMP/answer.txt")" >&2; return 1; }
      sleep 0.05
    done
  done
  kill "$LISTEN_PID"; wait "$LISTEN_PID" 2>/dev/null || true
  "$SUBDASH_BIN" show --json --events 1000 "$OUT/2000000100.json" >"$E2E_TMP/final.json"
  local count distinct
  count=$(grep -o '"notificationUUID": "[^"]*"' "$E2E_TMP/final.json" | wc -l)
  distinct=$(grep -o '"notificationUUID": "[^"]*"' "$E2E_TMP/final.json" | sort -u | wc -l)
  [[ $count == 120 && $distinct == 120 ]] || { echo "notifications: $count, distinct: $distinct (want 120)" >&2; return 1; }
  grep -qF '"transactionId": "20000001000120"' "$E2E_TMP/final.json"
}

# The developer's loop in three commands: ca init, a backend (here `subdash listen`), simulate
# --deliver; a dashboard on the simulated file shows each delivery as it lands.
test_simulate_deliver_with_a_dashboard_following() {
  [[ -f "$CA/root.pem" ]] || "$SUBDASH_BIN" ca init "$CA" >/dev/null
  local dev="$E2E_TMP/dev" theirs="$E2E_TMP/backend" i
  mkdir -p "$dev"; cp "$E2E_ROOT/Examples/active.json" "$E2E_ROOT/Examples/backyard-birds.storekit" "$dev/"
  "$SUBDASH_BIN" listen --port 0 --root "$CA/root.pem" --bundle-id com.example.birdwatch "$theirs" >"$E2E_TMP/backend.out" 2>>"$E2E_TMP/backend.log" &
  local backend=$! url=""
  e2e_track "$backend"
  for ((i = 0; i < 200; i++)); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*' "$E2E_TMP/backend.out" 2>/dev/null) && break
    sleep 0.05  # polling a file for the port line, as start_listen does
  done
  [[ -n $url ]]
  e2e_start deliverdash 120 40 "$SUBDASH_BIN" --read-only "$dev/active.json"
  e2e_wait_for "Recent events"
  "$SUBDASH_BIN" simulate --steps 2 --rate oneRenewalEveryTwoSeconds --deliver "$url/" --ca "$CA" "$dev/active.json" >/dev/null 2>"$E2E_TMP/deliver.log"
  grep -qF "subdash deliver: 2 attempts, 2 delivered, nothing pending" "$E2E_TMP/deliver.log"
  e2e_wait_for "2 sent)"
  e2e_wait_for "sent 200"
  e2e_type q
  e2e_wait_exit 0
  kill "$backend"; wait "$backend" 2>/dev/null || true
  # The backend's file holds both renewals, verified and applied once.
  "$SUBDASH_BIN" show --json "$theirs/2000000871234560.json" | grep -c '"notificationType": "DID_RENEW"' | grep -qx 2
}

# A population's notifications to a backend: every one the simulation reports arrives, once.
test_population_deliver() {
  [[ -f "$CA/root.pem" ]] || "$SUBDASH_BIN" ca init "$CA" >/dev/null
  local theirs="$E2E_TMP/population-backend" i url=""
  "$SUBDASH_BIN" listen --port 0 --root "$CA/root.pem" "$theirs" >"$E2E_TMP/pop-backend.out" 2>"$E2E_TMP/pop-backend.log" &
  local backend=$!
  e2e_track "$backend"
  for ((i = 0; i < 200; i++)); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*' "$E2E_TMP/pop-backend.out" 2>/dev/null) && break
    sleep 0.05  # polling a file for the port line, as start_listen does
  done
  [[ -n $url ]]
  "$SUBDASH_BIN" simulate --population 30 --months 3 --seed 5 --deliver "$url/" --ca "$CA" "$E2E_TMP/population" >"$E2E_TMP/pop.out" 2>&1
  kill "$backend"; wait "$backend" 2>/dev/null || true
  local reported delivered applied
  reported=$(grep -E '^  [A-Z_ /]+: [0-9]+$' "$E2E_TMP/pop.out" | awk -F': ' '{s += $2} END {print s}')
  delivered=$(grep -o '[0-9]* delivered' "$E2E_TMP/pop.out" | grep -o '^[0-9]*')
  applied=$(grep -c '^subdash listen: 200 ' "$E2E_TMP/pop-backend.log")
  [[ $reported -gt 0 && $reported == "$delivered" && $delivered == "$applied" ]] \
    || { echo "reported $reported, delivered $delivered, applied $applied" >&2; cat "$E2E_TMP/pop.out" >&2; return 1; }
  [[ $(ls "$theirs" | grep -c 'json$') == 30 ]]
}

# Starts a listen backend on a free port for DIR; prints its URL, and its pid to the file $2.
start_backend() {
  local dir=$1 pidfile=$2 name i url=""
  name=$(basename "$dir")
  "$SUBDASH_BIN" listen --port 0 --root "$CA/root.pem" "$dir" >"$E2E_TMP/$name.out" 2>"$E2E_TMP/$name.log" &
  echo $! >"$pidfile"
  e2e_track "$!"
  for ((i = 0; i < 200; i++)); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*' "$E2E_TMP/$name.out" 2>/dev/null) && break
    sleep 0.05  # polling a file for the port line, as start_listen does
  done
  [[ -n $url ]] && echo "$url/"
}

# Every file's notificationUUIDs, one "file uuid" line each, sorted (duplicates kept).
received() {
  local f
  for f in "$1"/*.json; do
    "$SUBDASH_BIN" show --json --events 100000 "$f" | grep -o '"notificationUUID": "[^"]*"' | sed "s|^|$(basename "$f") |"
  done | sort
}

# Waits until the backend's log shows N applied notifications, then kill -9s the deliverer
# (`subdash-deliver … --drain DIR`) in the middle of its stream.
kill_deliverer_after() {
  local n=$1 log=$2 dir=$3 i pid
  for ((i = 0; i < 2000; i++)); do
    (($(grep -c '^subdash listen: 200 ' "$log") >= n)) && break
    sleep 0.01  # polling the backend's log for a count; there is no screen to wait on
  done
  pid=$(pgrep -f "subdash-deliver .*--drain $dir\$") || { echo "no deliverer running after $n applied" >&2; return 1; }
  kill -9 $pid
}

# kill -9 of the deliverer twice in the middle of a population's delivery, then a restart that
# drains what is left: the backend ends with exactly what an undisturbed delivery of the same
# population (same seed) gives another backend, each notification once; and every file's book
# says every notification was delivered. A notification the killed deliverer had sent but not yet
# recorded is sent again on restart, and the backend answers it 200 "already applied".
test_kill_9_of_the_deliverer() {
  [[ -f "$CA/root.pem" ]] || "$SUBDASH_BIN" ca init "$CA" >/dev/null
  local calm="$E2E_TMP/calm-backend" shaken="$E2E_TMP/shaken-backend" url_calm url_shaken pop="$E2E_TMP/shaken-population" sim
  url_calm=$(start_backend "$calm" "$E2E_TMP/calm.pid")
  url_shaken=$(start_backend "$shaken" "$E2E_TMP/shaken.pid")
  "$SUBDASH_BIN" simulate --population 50 --months 12 --seed 9 --deliver "$url_calm" --ca "$CA" "$E2E_TMP/calm-population" >"$E2E_TMP/calm-pop.out" 2>&1
  "$SUBDASH_BIN" simulate --population 50 --months 12 --seed 9 --deliver "$url_shaken" --ca "$CA" "$pop" >"$E2E_TMP/shaken-pop.out" 2>&1 &
  sim=$!
  kill_deliverer_after 100 "$E2E_TMP/shaken-backend.log" "$pop"
  if wait "$sim"; then echo "simulate did not notice its deliverer was killed" >&2; return 1; fi
  "$SUBDASH_BIN" deliver --to "$url_shaken" --ca "$CA" --drain "$pop" >"$E2E_TMP/redeliver-1.out" 2>&1 &
  sim=$!
  kill_deliverer_after 250 "$E2E_TMP/shaken-backend.log" "$pop"
  wait "$sim" 2>/dev/null || true  # killed
  "$SUBDASH_BIN" deliver --to "$url_shaken" --ca "$CA" --drain "$pop" >"$E2E_TMP/redeliver-2.out" 2>&1
  tail -n 1 "$E2E_TMP/redeliver-2.out" | grep -qE '^subdash deliver: 50 files; [0-9]+ attempts, [0-9]+ delivered in'
  kill "$(cat "$E2E_TMP/calm.pid")" "$(cat "$E2E_TMP/shaken.pid")"; wait 2>/dev/null || true
  received "$calm" >"$E2E_TMP/calm.uuids"
  received "$shaken" >"$E2E_TMP/shaken.uuids"
  local total
  total=$(wc -l <"$E2E_TMP/calm.uuids")
  ((total > 400)) || { echo "only $total notifications in the undisturbed run" >&2; return 1; }
  diff "$E2E_TMP/calm.uuids" "$E2E_TMP/shaken.uuids" >&2 || { echo "the killed deliverer's backend differs" >&2; return 1; }
  [[ -z $(uniq -d "$E2E_TMP/shaken.uuids") ]] || { echo "a notification stored twice" >&2; return 1; }
  # Every file's book: nothing pending, and each file's notifications counted delivered once, as
  # many as the undisturbed run's book counts for the same file.
  python3 - "$E2E_TMP/calm-population" "$pop" <<'PY'
import glob, json, os, sys
calm, shaken = sys.argv[1], sys.argv[2]
bad = []
for path in sorted(glob.glob(shaken + "/*.json")):
    name = os.path.basename(path)
    s, c = json.load(open(path))["deliveries"], json.load(open(calm + "/" + name))["deliveries"]
    if s["pending"] or s["delivered"] != c["delivered"]:
        bad.append(f"{name}: delivered {s['delivered']} (undisturbed {c['delivered']}), pending {len(s['pending'])}")
if bad:
    sys.exit("books differ: " + "; ".join(bad[:5]))
PY
}

# `subdash serve --help` is serve's own (not subdash-listen's), and a missing key says what serve needs.
test_serve_help_is_its_own() {
  "$SUBDASH_BIN" serve --help >"$E2E_TMP/serve-help.txt"
  grep -qF "USAGE: subdash serve --port PORT --key-id KID" "$E2E_TMP/serve-help.txt"
  grep -qF "Set App Account Token" "$E2E_TMP/serve-help.txt"
  local code=0
  "$SUBDASH_BIN" serve --port 0 "$E2E_TMP/none" 2>"$E2E_TMP/serve-err.txt" || code=$?
  [[ $code == 64 ]] && grep -qF "the API (subdash serve) checks bearer tokens as Apple does" "$E2E_TMP/serve-err.txt"
}

e2e_run "subdash serve --help is serve's; a missing key is named" test_serve_help_is_its_own
e2e_run "ca init, ca sign, listen over HTTP, a dashboard following the file it writes" test_ca_listen_and_a_dashboard_following
e2e_run "kill -9 of listen mid-stream: after restart and retries, every notification exactly once" test_kill_9_loses_nothing
e2e_run "simulate --deliver to listen, a dashboard showing each delivery land" test_simulate_deliver_with_a_dashboard_following
e2e_run "simulate --population --deliver: every notification the run reports arrives once" test_population_deliver
e2e_run "kill -9 of the deliverer twice mid-population: the backend ends as an undisturbed run's, each notification once" test_kill_9_of_the_deliverer
e2e_summary
