#!/usr/bin/env bash
# End-to-end tests of the Retention Messaging cancel flow in the dashboard (issue 21 §2): with a
# realtime URL configured beside the state file (as `subdash serve` keeps it), `a` sends the App
# Store's signed realtime request to a developer's server on loopback and shows its answer as the
# cancel page; the customer keeps, switches, or cancels. Run on its own (after `swift build`) or
# through run-all.sh.
# shellcheck source=Tests/e2e/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EXAMPLES="$E2E_ROOT/Examples"
STAY=11111111-1111-4111-8111-111111111111
PREMIUM=22222222-2222-4222-8222-222222222222
FALLBACK=33333333-3333-4333-8333-333333333333

# developer_server ANSWER DELAY: a Get Retention Message endpoint on loopback answering ANSWER
# (JSON) after DELAY seconds; each request's signedPayload goes to requests.log. Prints its URL.
developer_server() {
  python3 - "$1" "$2" "$PWD/requests.log" "$PWD/port" >/dev/null 2>&1 <<'PY' &
import json, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
answer, delay, log, port_file = sys.argv[1].encode(), float(sys.argv[2]), sys.argv[3], sys.argv[4]
class H(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        open(log, "a").write(body["signedPayload"] + "\n")
        time.sleep(delay)
        try:
            self.send_response(200); self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer))); self.end_headers(); self.wfile.write(answer)
        except OSError:
            pass
    def log_message(self, *a): pass
s = HTTPServer(("127.0.0.1", 0), H)
open(port_file, "w").write(str(s.server_address[1]))
s.serve_forever()
PY
  e2e_track $!
  for _ in $(seq 100); do [[ -s port ]] && break; sleep 0.05; done
  echo "http://127.0.0.1:$(cat port)/retention"
}

# setup NAME URL: active.json (Family Monthly, auto-renew on) and the Retention Messaging
# configuration beside it, private as serve writes it.
setup() {
  mkdir -p "$E2E_TMP/$1"
  cd "$E2E_TMP/$1"
  cp "$EXAMPLES/active.json" active.json
  cat >.retention-messaging.json <<JSON
{"messages": [
  {"messageIdentifier": "$STAY", "message": {"header": "Stay with the birds", "body": "Your feeders miss you.", "bulletPoints": [{"text": "Every backyard"}]}},
  {"messageIdentifier": "$PREMIUM", "message": {"header": "Premium for a little more", "body": "Every feeder, every bird."}},
  {"messageIdentifier": "$FALLBACK", "message": {"header": "Before you go", "body": "Birds are back in spring."}}],
 "defaults": [{"key": "pass.family.monthly/en-US", "messageIdentifier": "$FALLBACK"}],
 "realtimeURL": "$2"}
JSON
  chmod 600 .retention-messaging.json
}

open_dashboard() {
  e2e_start "$1" 100 30 "$SUBDASH_BIN" active.json
  e2e_wait_for "? help"
}

test_switch_plan() {
  mkdir -p "$E2E_TMP/switch" && cd "$E2E_TMP/switch"
  url=$(developer_server "{\"alternateProduct\": {\"messageIdentifier\": \"$PREMIUM\", \"productId\": \"pass.premium.monthly\"}}" 0)
  setup switch "$url"
  open_dashboard switch
  e2e_type a
  e2e_wait_for "Cancel subscription"
  e2e_wait_for "Premium for a little more"
  e2e_assert_screen "Switch to Premium (pass.premium.monthly)"
  e2e_assert_screen "chosen by the developer's server"
  [[ $(wc -l <requests.log) == 1 ]]
  e2e_type a
  e2e_wait_for "y confirm"
  e2e_type y
  e2e_wait_gone "Cancel subscription"
  e2e_type q
  e2e_wait_exit 0
  [[ "$("$SUBDASH_BIN" show --json active.json | jq -r .productId)" == pass.premium.monthly ]]
}

test_slow_server_default_then_cancel() {
  mkdir -p "$E2E_TMP/slow" && cd "$E2E_TMP/slow"
  url=$(developer_server "{\"message\": {\"messageIdentifier\": \"$STAY\"}}" 3)
  setup slow "$url"
  open_dashboard slow
  e2e_type a
  e2e_wait_for "Before you go"
  e2e_assert_screen "no answer within 700 ms"
  e2e_refute_screen "Stay with the birds"
  e2e_cancel_on_the_cancel_page_and_quit
  [[ "$(jq -r .subscriber.renewalInfo.autoRenewStatus active.json)" == 0 ]]
}

test_keep() {
  mkdir -p "$E2E_TMP/keep" && cd "$E2E_TMP/keep"
  url=$(developer_server "{\"message\": {\"messageIdentifier\": \"$STAY\"}}" 0)
  setup keep "$url"
  before=$(sha256sum active.json)
  open_dashboard keep
  e2e_type a
  e2e_wait_for "Stay with the birds"
  e2e_assert_screen "Every backyard"
  e2e_type k
  e2e_wait_for "kept: the customer stayed subscribed"
  e2e_type q
  e2e_wait_exit 0
  [[ "$(sha256sum active.json)" == "$before" ]]
}

# signed_offer forged|developer: a promotionalOfferSignatureV2 for this customer signed with a key
# that is not the developer's (forged) or with the developer's; prints the answer JSON, and writes
# the developer's public key (PEM) to developer.pem for the configuration, as `serve` records it.
signed_offer() {
  "$E2E_ROOT/.venv-oracle/bin/python" - "$PREMIUM" "$1" <<'PY'
import base64, json, sys, time, uuid
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
developer, forger = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
open("developer.pem", "wb").write(developer.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
head = b64(json.dumps({"alg": "ES256", "kid": "KEY1", "typ": "JWT"}).encode())
body = b64(json.dumps({"iss": "issuer-1", "bid": "com.example.birdwatch", "aud": "promotional-offer", "iat": int(time.time()),
                       "nonce": str(uuid.uuid4()), "productId": "pass.premium.monthly", "offerIdentifier": "premium_loyalty_3m",
                       "transactionId": "2000000871234560"}).encode())
if sys.argv[2] == "developer": forger = developer
r, s = decode_dss_signature(forger.sign(f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256())))
jws = f"{head}.{body}." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
print(json.dumps({"promotionalOffer": {"messageIdentifier": sys.argv[1], "promotionalOfferSignatureV2": jws}}))
PY
}

# record_developer_key: the developer's key (developer.pem) in the configuration, as serve records it.
record_developer_key() {
  jq --rawfile pem developer.pem '.inAppPurchaseKeys = [{"keyId": "KEY1", "issuerId": "issuer-1", "bundleId": "com.example.birdwatch", "publicKey": $pem}]' \
    .retention-messaging.json >config.tmp && mv config.tmp .retention-messaging.json && chmod 600 .retention-messaging.json
}

# offer_scene NAME forged|developer: a developer's server answering one signed promotional offer
# (signed_offer), every time; the configuration naming the developer's key; the dashboard open.
offer_scene() {
  mkdir -p "$E2E_TMP/$1" && cd "$E2E_TMP/$1"
  local answer url
  answer=$(signed_offer "$2")
  url=$(developer_server "$answer" 0)
  setup "$1" "$url"
  record_developer_key
  open_dashboard "$1"
}

# A promotional offer whose signature does not verify against the developer's key is not shown:
# the default message, and the cancel page says why.
test_forged_offer_default() {
  offer_scene forged forged
  e2e_type a
  e2e_wait_for "Before you go"
  e2e_assert_screen "does not verify"
  e2e_refute_screen "Premium for a little more"
  e2e_type k
  e2e_type q
  e2e_wait_exit 0
}

# A developer's server that caches one signed offer and answers it every time: the first cancel
# page shows the offer; the second shows the default message and says the nonce was used (Apple:
# "a one-time-use UUID antireplay value"). The nonce is spent in the directory's record, private.
test_reused_nonce_default() {
  offer_scene reused developer
  e2e_type a
  e2e_wait_for "Premium for a little more"
  e2e_type k
  e2e_wait_for "kept: the customer stayed subscribed"
  e2e_type a
  e2e_wait_for "Before you go"
  e2e_assert_screen "already used"
  e2e_type k
  e2e_type q
  e2e_wait_exit 0
  [[ $(wc -l <requests.log) == 2 && $(wc -l <.promotional-offer-nonces.jsonl) == 1 ]]
  [[ $(stat -c %a .promotional-offer-nonces.jsonl) == 600 ]]
}

# A population run whose members all turn auto-renew off (`autoRenewOff: 1`): each goes through
# the cancel page as the key does, so the developer's server gets one signed realtime request per
# member; with `retentionKeep: 0` no member keeps a plain message, so every one cancels.
test_population_cancel_pages() {
  mkdir -p "$E2E_TMP/population" && cd "$E2E_TMP/population"
  url=$(developer_server "{\"message\": {\"messageIdentifier\": \"$STAY\"}}" 0)
  mkdir -m 700 members
  (setup population "$url" >/dev/null; cp .retention-messaging.json members/; rm -f active.json)
  cd "$E2E_TMP/population"
  echo '{"failureRate": 0, "autoRenewOff": 1, "retentionKeep": 0}' >mix.json
  "$SUBDASH_BIN" simulate --population 3 members --mix mix.json --months 1 --seed 7 >out.txt
  grep -q "cancel pages: 3 (3 realtime requests sent; 3 chosen by the developer's server, 0 default message, 0 none)" out.txt
  grep -q "on the cancel page: 0 took the offer, 0 kept the subscription, 3 cancelled" out.txt
  [[ $(wc -l <requests.log) == 3 ]]
  for f in members/*.json; do [[ "$(jq -r .subscriber.renewalInfo.autoRenewStatus "$f")" == 0 ]]; done
}

# Members shown a switch-plan answer take it when the mix says they do (`retentionAccept: 1`):
# each is upgraded to Premium, stays subscribed, and the run counts them.
test_population_takes_the_offer() {
  mkdir -p "$E2E_TMP/population-accept" && cd "$E2E_TMP/population-accept"
  url=$(developer_server "{\"alternateProduct\": {\"messageIdentifier\": \"$PREMIUM\", \"productId\": \"pass.premium.monthly\"}}" 0)
  mkdir -m 700 members
  (setup population-accept "$url" >/dev/null; cp .retention-messaging.json members/; rm -f active.json)
  cd "$E2E_TMP/population-accept"
  echo '{"failureRate": 0, "autoRenewOff": 1, "retentionAccept": 1, "retentionKeep": 0}' >mix.json
  "$SUBDASH_BIN" simulate --population 3 members --mix mix.json --months 1 --seed 7 >out.txt
  grep -q "on the cancel page: 3 took the offer, 0 kept the subscription, 0 cancelled" out.txt
  for f in members/*.json; do [[ "$("$SUBDASH_BIN" show --json "$f" | jq -r .productId)" == pass.premium.monthly ]]; done
}

e2e_run "retention: a switch-plan answer is shown and taking it upgrades" test_switch_plan
e2e_run "retention: a server slower than 700 ms gets the default message; c then y cancels" test_slow_server_default_then_cancel
e2e_run "retention: k keeps the subscription and writes nothing" test_keep
e2e_run "retention: a promotional offer signed with another key shows the default message and says why" test_forged_offer_default
e2e_run "retention: a signed offer answered a second time (its nonce used) shows the default message and says why" test_reused_nonce_default
e2e_run "retention: a population member turning auto-renew off gets the cancel page (a realtime request each)" test_population_cancel_pages
e2e_run "retention: population members take a switch-plan offer as the mix says, counted in the output" test_population_takes_the_offer
e2e_summary
