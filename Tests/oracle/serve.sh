#!/usr/bin/env bash
# `subdash serve` against Apple's own client: AppStoreServerAPIClient calls every endpoint, and
# SignedDataVerifier (the local CA's root trusted) verifies every answer, compared with the state
# file; then `subdash fetch --base-url` round-trips the subscriber: every transaction, the renewal
# info and the notifications in the window come back byte for byte (SubDash's own provenance,
# `importedFrom`, aside). Uses .venv-oracle (Tests/oracle/run.sh creates it).
#
#   bash Tests/oracle/serve.sh        serve DIR
#   bash Tests/oracle/serve.sh --db   serve --db URL: the same subscribers imported into a fresh
#                                     database on $SUBDASH_TEST_DB's server, the same run; every state
#                                     the checks read comes from the database (subdash db export)
set -euo pipefail
mode=${1:-dir}
[[ $mode == dir || $mode == --db ]] || { echo "usage: serve.sh [--db]" >&2; exit 64; }
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source Tests/oracle/lib.sh
ensure_oracle_venv
swift build --product subdash >/dev/null
swift build --product subdash-listen >/dev/null
swift build --product subdash-fetch >/dev/null
[[ $mode == dir ]] || swift build --product subdash-db >/dev/null
bin="$(swift build --show-bin-path)"
work="$(mktemp -d)"
server=""
database=""
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null
  [[ -n $database ]] && psql "${SUBDASH_TEST_DB%/*}/postgres" -qAtc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/dir" "$work/out"
id=2000000871234560
cp Examples/active.json "$work/dir/$id.json"
# A second subscriber, of another product, for the mass extension; it has asked for a refund
# (CONSUMPTION_REQUEST), for Send Consumption Information.
cp Examples/auto-renew-off.json "$work/dir/2000000754102288.json"
echo "request refund unsatisfied" >"$work/refund.scenario"
"$bin/subdash" simulate --scenario "$work/refund.scenario" "$work/dir/2000000754102288.json" >/dev/null
# Bring the subscriber's history up to two days ago, so recent notifications fall in the sandbox's
# 30-day Get Notification History window.
"$bin/subdash" simulate --until "$(date -u -d '1 hour ago' +%Y-%m-%dT%H:%M:%SZ)" "$work/dir/$id.json" >/dev/null 2>&1
# A notification of a known recent date whatever the calendar: RENEWAL_EXTENDED at the file's clock.
"$bin/subdash" extend --days 1 --reason 1 "$work/dir/$id.json" >/dev/null
"$bin/subdash" ca init "$work/ca" >/dev/null
# A team's In-App Purchase key (.p8), made here: a P-256 key in PKCS#8.
.venv-oracle/bin/python - "$work/key.p8" <<'PY'
import sys
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
key = ec.generate_private_key(ec.SECP256R1())
open(sys.argv[1], "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
PY
chmod 600 "$work/key.p8"  # fetch refuses a key others can read
issuer=57246542-96fe-1a63-e053-0824d011072a
# What serve answers from: DIR, or the same files imported into a database of their own. With
# --db, SERVE_ORACLE_REFRESH brings $work/dir up to date from the database before a check reads it.
source_args=("$work/dir")
if [[ $mode == --db ]]; then
  [[ -n ${SUBDASH_TEST_DB:-} ]] || { echo "serve-oracle --db: SUBDASH_TEST_DB is not set (source scripts/postgres-test-server.sh start)" >&2; exit 1; }
  database="subdash_serve_oracle_$$"
  psql "${SUBDASH_TEST_DB%/*}/postgres" -qAtc "CREATE DATABASE $database" >/dev/null
  export SUBDASH_DB="${SUBDASH_TEST_DB%/*}/$database"
  "$bin/subdash" db import "$work/dir" >/dev/null
  source_args=(--db "$SUBDASH_DB")
  export SERVE_ORACLE_REFRESH="'$bin/subdash' db export '$work/dir' >/dev/null"
fi
refresh() { if [[ -n ${SERVE_ORACLE_REFRESH:-} ]]; then sh -c "$SERVE_ORACLE_REFRESH"; fi; }
"$bin/subdash" serve --port 0 --key-id TESTKEY123 --issuer-id "$issuer" --key "$work/key.p8" --bundle-id com.example.birdwatch \
  --ca "$work/ca" "${source_args[@]}" >"$work/serve.out" 2>"$work/serve.log" &  # no --root: it trusts the CA it signs with
server=$!
for _ in $(seq 100); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve.out" | head -1)
# What the file holds, for the comparisons.
"$bin/subdash" show --json --events 1000 "$work/dir/$id.json" >"$work/show.json"
python3 - "$work/dir" "$id" "$work/show.json" >"$work/expect.json" <<'PY'
import json, sys, time
d, tid, show = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
doc = json.load(open(f"{d}/{tid}.json"))
# The whole history: the document's inline entries (a young subscriber's whole history is inline,
# StateFile.inlineHistoryLimit), then the committed part of its journal (journal.committedBytes).
entries = [{"transaction": t} for t in doc["subscriber"].get("transactions", [])]
entries += [{"notification": n} for n in doc["subscriber"].get("notifications", [])]
journal = doc.get("journal")
if journal:
    with open(f"{d}/{journal['file']}", "rb") as f:
        entries += [json.loads(l) for l in f.read(journal.get("committedBytes", 0)).decode().splitlines()]
txs, notes = [], []
for e in entries:
    if "transaction" in e and e["transaction"]["transactionId"] not in txs: txs.append(e["transaction"]["transactionId"])
    if "notification" in e: notes.append(e["notification"])
now = time.time() * 1000
window = [n["notificationUUID"] for n in notes if now - 29 * 86_400_000 <= n["signedDate"] < now]
refund = f"{d}/2000000754102288.json"
refund_tid = json.load(open(refund))["simulation"]["refundRequest"]["transactionId"]
print(json.dumps({"originalTransactionId": tid, "status": show["status"], "transactionIds": txs,
                  "notificationUUIDs": window, "expiresDate": doc["subscriber"]["latestTransaction"]["expiresDate"],
                  "refundFile": refund, "refundTransactionId": refund_tid}))
PY
.venv-oracle/bin/python Tests/oracle/serve_client.py "$url" "$work/key.p8" TESTKEY123 "$issuer" com.example.birdwatch "$work/ca/root.der" "$work/expect.json" || {
  echo "serve-oracle: the server's log:"; cat "$work/serve.log"; exit 1; }
# The round trip: fetch what serve answers into a new file and compare payloads byte for byte.
refresh
"$bin/subdash" fetch "$id" --environment sandbox --key-file "$work/key.p8" --key-id TESTKEY123 --issuer-id "$issuer" \
  --bundle-id com.example.birdwatch --base-url "$url" --root "$work/ca/root.pem" --quiet --output "$work/out/fetched.json" 2>"$work/fetch.log" || {
  echo "serve-oracle: FAIL subdash fetch from subdash serve:"; cat "$work/fetch.log" "$work/serve.log"; exit 1; }
python3 - "$work/dir/$id.json" "$work/out/fetched.json" <<'PY'
import json, sys, time
def history(path):
    # Inline entries first (a young subscriber's whole history is inline), then the journal's
    # committed part; the last version of each transaction.
    doc = json.load(open(path))
    entries = [{"transaction": t} for t in doc["subscriber"].get("transactions", [])]
    entries += [{"notification": n} for n in doc["subscriber"].get("notifications", [])]
    j = doc.get("journal")
    if j:
        with open(path.rsplit("/", 1)[0] + "/" + j["file"], "rb") as f:
            entries += [json.loads(l) for l in f.read(j.get("committedBytes", 0)).decode().splitlines()]
    txs, notes = {}, {}
    for e in entries:
        if "transaction" in e: txs[e["transaction"]["transactionId"]] = e["transaction"]
        if "notification" in e and e["notification"].get("notificationUUID"): notes[e["notification"]["notificationUUID"]] = e["notification"]
    return doc, txs, notes
def plain(o, served=None):
    # serve signs every payload with the customer's appTransactionId (the one Get App Transaction
    # Info names, which fetch records); a payload the file wrote without it comes back with it.
    d = {k: v for k, v in o.items() if k != "importedFrom"}
    if served is not None and "appTransactionId" not in served and d.get("appTransactionId") == app:
        del d["appTransactionId"]
    return json.dumps(d)
src, stx, snotes = history(sys.argv[1])
got, gtx, gnotes = history(sys.argv[2])
app = (got.get("appTransaction") or {}).get("appTransactionId")
if not app:
    print("serve-oracle: FAIL round trip: fetch recorded no appTransaction"); sys.exit(1)
bad = [t for t in stx if t not in gtx or plain(stx[t]) != plain(gtx[t], stx[t])]
for key in ["latestTransaction", "renewalInfo"]:
    if plain(src["subscriber"][key]) != plain(got["subscriber"][key], src["subscriber"][key]): bad.append(key)
now = time.time() * 1000
window = [u for u, n in snotes.items() if now - 29 * 86_400_000 <= n["signedDate"] < now]
def field(n, k):  # an imported notification keeps Apple's envelope: status is data.status
    return n.get(k, (n.get("data") or {}).get(k))
missing = [u for u in window if u not in gnotes or any(field(gnotes[u], k) != field(snotes[u], k) for k in ["notificationType", "subtype", "signedDate", "status"])]
if bad or missing or len(gtx) != len(stx):
    print(f"serve-oracle: FAIL round trip: differing {bad[:5]}, notifications missing or different {missing[:5]}, {len(gtx)} of {len(stx)} transactions")
    sys.exit(1)
print(f"serve-oracle: ok, subdash fetch from subdash serve: {len(stx)} transactions, latestTransaction and renewalInfo byte for byte, {len(window)} notifications in the window")
PY
# The newer endpoints (issue 21 §3), after the round trip (Finish Transaction writes the file): a
# second server on the same directory with --rate-limit 2/s for the 429 and its retry.
"$bin/subdash" serve --port 0 --key-id TESTKEY123 --issuer-id "$issuer" --key "$work/key.p8" --bundle-id com.example.birdwatch \
  --ca "$work/ca" --rate-limit 2/s "${source_args[@]}" >"$work/serve2.out" 2>"$work/serve2.log" &
limited_server=$!
trap 'kill "$limited_server" 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do grep -q listening "$work/serve2.out" 2>/dev/null && break; sleep 0.1; done
limited=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve2.out" | head -1)
.venv-oracle/bin/python Tests/oracle/serve_newer.py "$url" "$limited" "$work/key.p8" TESTKEY123 "$issuer" com.example.birdwatch \
  "$work/ca/root.der" "$id" "$work/dir/$id.json" || { echo "serve-oracle: the servers' logs:"; cat "$work/serve.log" "$work/serve2.log"; exit 1; }
# A customer of a monthly plan with a 12-month commitment who cancelled in month 4 (issue 21 §1),
# served by a third server: Apple's client decodes BillingPlanType, TransactionCommitmentInfo and
# RenewalCommitmentInfo from what SubDash simulated.
mkdir "$work/commit"
cp Examples/scenarios/commitment.storekit "$work/commit/"
printf 'catalog commitment.storekit\nstart 2026-03-01T00:00:00Z\nset environment Sandbox\nbuy pass.premium.annual monthly\nadvance to 2026-06-15T00:00:00Z\nauto-renew off\n' >"$work/commit/c.scenario"
"$bin/subdash" simulate --scenario "$work/commit/c.scenario" "$work/commit/2000000000000000.json" >/dev/null
rm "$work/commit/c.scenario"
"$bin/subdash" serve --port 0 --key-id TESTKEY123 --issuer-id "$issuer" --key "$work/key.p8" --bundle-id com.example.app \
  --ca "$work/ca" "$work/commit" >"$work/serve3.out" 2>"$work/serve3.log" &
commit_server=$!
trap 'kill "$commit_server" "$limited_server" 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do grep -q listening "$work/serve3.out" 2>/dev/null && break; sleep 0.1; done
committed=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve3.out" | head -1)
.venv-oracle/bin/python Tests/oracle/serve_commitment.py "$committed" "$work/key.p8" TESTKEY123 "$issuer" com.example.app \
  "$work/ca/root.der" 2000000000000000 || { echo "serve-oracle: the server's log:"; cat "$work/serve3.log"; exit 1; }
# Offers on the monthly plan (docs/simulation.md, "Offers on the monthly plan"), by a fourth
# server: the plan's free trial before payment 1, a pay-as-you-go promotional offer on payment 3,
# then, after a refund, the product bought up front (BILLED_UPFRONT).
mkdir "$work/offers"
cp Examples/scenarios/commitment-offers.storekit "$work/offers/"
printf 'catalog commitment-offers.storekit\nstart 2026-03-01T00:00:00Z\nset environment Sandbox\nbuy pass.premium.annual monthly\nadvance to 2026-04-10T00:00:00Z\npromo three-at-4.99\nadvance to 2026-05-10T00:00:00Z\nrefund\nbuy pass.premium.annual\n' >"$work/offers/o.scenario"
"$bin/subdash" simulate --scenario "$work/offers/o.scenario" "$work/offers/2000000000000000.json" >/dev/null
rm "$work/offers/o.scenario"
"$bin/subdash" serve --port 0 --key-id TESTKEY123 --issuer-id "$issuer" --key "$work/key.p8" --bundle-id com.example.app \
  --ca "$work/ca" "$work/offers" >"$work/serve4.out" 2>"$work/serve4.log" &
offers_server=$!
trap 'kill "$offers_server" "$commit_server" "$limited_server" 2>/dev/null; cleanup' EXIT
for _ in $(seq 100); do grep -q listening "$work/serve4.out" 2>/dev/null && break; sleep 0.1; done
offered=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve4.out" | head -1)
.venv-oracle/bin/python Tests/oracle/serve_commitment_offers.py "$offered" "$work/key.p8" TESTKEY123 "$issuer" com.example.app \
  "$work/ca/root.der" 2000000000000000 || { echo "serve-oracle: the server's log:"; cat "$work/serve4.log"; exit 1; }
