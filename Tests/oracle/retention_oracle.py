#!/usr/bin/env python3
"""The cancel flow against a developer's server built on Apple's app-store-server-library (issue 21
§2): messages, the default message and the realtime URL are set up with Apple's client through
`subdash serve`; a Get Retention Message endpoint here verifies every realtime request SubDash
signs with SignedDataVerifier.verify_and_decode_realtime_request and answers with Apple's
RealtimeResponseBody models (a message, an alternate product, a promotional offer signed with
PromotionalOfferV2SignatureCreator and one signed with PromotionalOfferSignatureCreator (V1), then
too slowly); `subdash-retention` must show each as the App Store would, and the default message
when the answer comes too late or a promotional offer's signature does not verify against the
developer's key (`serve` records the key it checks tokens with): signed with another key, or V1
fields changed after signing.

Usage: retention_oracle.py BASE_URL KEY_P8 KEY_ID ISSUER_ID BUNDLE_ID ROOT_DER STATE_FILE RETENTION_BIN CA_DIR
"""
import json, subprocess, sys, threading, time, uuid
from http.server import BaseHTTPRequestHandler, HTTPServer
import attr
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.models.Message import Message
from appstoreserverlibrary.models.AlternateProduct import AlternateProduct
from appstoreserverlibrary.models.PromotionalOffer import PromotionalOffer
from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
from appstoreserverlibrary.models.PromotionalOfferSignatureV1 import PromotionalOfferSignatureV1
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
from serve_oracle import ServeOracle

base, key_path, key_id, issuer, bundle, root_path, state_file, retention_bin, ca_dir = sys.argv[1:10]
oracle = ServeOracle(base, key_path, key_id, issuer, bundle, root_path)
client, verifier, failures, check = oracle.client, oracle.verifier, oracle.failures, oracle.check
key = open(key_path, "rb").read()
offers = PromotionalOfferV2SignatureCreator(key, key_id, issuer, bundle)
offers_v1 = PromotionalOfferSignatureCreator(key, key_id, bundle)
# Someone else's key under the developer's key ID: the App Store must not show what it signs.
other_key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
impostor = PromotionalOfferV2SignatureCreator(other_key, key_id, issuer, bundle)


doc = json.load(open(state_file))
original = doc["subscriber"]["latestTransaction"]["originalTransactionId"]
product = doc["subscriber"]["latestTransaction"]["productId"]

stay, switch, fallback = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
client.upload_message(stay, UploadMessageRequestBody(header="Stay with the birds", body="Your feeders miss you.",
                                                     bulletPoints=[BulletPoint(text="Every backyard", imageIdentifier=uuid.uuid4(), altText="feeder")]))
client.upload_message(switch, UploadMessageRequestBody(header="Premium for less", body="Three months of Premium at 8.99."))
client.upload_message(fallback, UploadMessageRequestBody(header="Before you go", body="Birds are back in spring."))
client.configure_default_message(product, "en-US", DefaultConfigurationRequest(messageIdentifier=fallback))


def plain(o):
    """Apple's attrs models as the JSON a developer's server sends (raw fields and None left out)."""
    d = attr.asdict(o, filter=lambda a, v: v is not None and not a.name.startswith("raw"))
    return json.loads(json.dumps(d, default=str))


decoded = []
script = []  # what the endpoint answers next: a function of the decoded request, and a delay


class Endpoint(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        try:
            request = verifier.verify_and_decode_realtime_request(body["signedPayload"])
        except Exception as e:
            failures.append(f"realtime request refused by Apple's verifier: {e!r}")
            self.send_response(400); self.send_header("Content-Length", "0"); self.end_headers()
            return
        decoded.append(request)
        answer, delay = script.pop(0)
        time.sleep(delay)
        out = json.dumps(plain(answer(request))).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        try:
            self.wfile.write(out)
        except OSError:
            pass  # the App Store stopped waiting

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Endpoint)
threading.Thread(target=server.serve_forever, daemon=True).start()
client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=f"http://127.0.0.1:{server.server_port}/retention"))


def v1_offer(signed_offer, sent_offer):
    """A V1 promotional offer signed for `signed_offer` and sent naming `sent_offer`."""
    nonce, timestamp = uuid.uuid4(), int(time.time() * 1000)
    signature = offers_v1.create_signature("pass.premium.monthly", signed_offer, "", nonce, timestamp)
    return RealtimeResponseBody(promotionalOffer=PromotionalOffer(messageIdentifier=switch, promotionalOfferSignatureV1=PromotionalOfferSignatureV1(
        encodedSignature=signature, productId="pass.premium.monthly", nonce=nonce, timestamp=timestamp, keyId=key_id, offerIdentifier=sent_offer)))


def refused(why):
    return lambda o: o["offer"]["source"] == "default" and o["offer"]["header"] == "Before you go" and why in o.get("problem", "")


def go_to_cancel():
    run = subprocess.run([retention_bin, "--ca", ca_dir, state_file], capture_output=True, text=True, timeout=30)
    check(run.returncode == 0, f"subdash-retention exited {run.returncode}: {run.stderr.strip()}")
    return json.loads(run.stdout.strip().splitlines()[-1]) if run.returncode == 0 else {"offer": None}


def cached(make):
    """The same answer every time, made once: a server that caches one signed offer."""
    made = []
    return lambda r: made[0] if made else (made.append(make(r)) or made[0])


same_v1 = cached(lambda r: v1_offer("premium_loyalty_3m", "premium_loyalty_3m"))
cases = [
    ("message", lambda r: RealtimeResponseBody(message=Message(messageIdentifier=stay)), 0,
     lambda o: o["offer"]["kind"] == "message" and o["offer"]["header"] == "Stay with the birds" and o["offer"]["source"] == "realtime"),
    ("alternateProduct", lambda r: RealtimeResponseBody(alternateProduct=AlternateProduct(messageIdentifier=switch, productId="pass.premium.monthly")), 0,
     lambda o: o["offer"]["kind"] == "alternateProduct" and o["offer"]["productId"] == "pass.premium.monthly"),
    ("promotionalOffer", lambda r: RealtimeResponseBody(promotionalOffer=PromotionalOffer(
        messageIdentifier=switch, promotionalOfferSignatureV2=offers.create_signature("pass.premium.monthly", "premium_loyalty_3m", r.originalTransactionId))), 0,
     lambda o: o["offer"]["kind"] == "promotionalOffer" and o["offer"]["offerIdentifier"] == "premium_loyalty_3m"),
    ("promotionalOffer V1", lambda r: v1_offer("premium_loyalty_3m", "premium_loyalty_3m"), 0,
     lambda o: o["offer"]["kind"] == "promotionalOffer" and o["offer"]["offerIdentifier"] == "premium_loyalty_3m" and o["offer"]["source"] == "realtime"),
    ("promotionalOffer signed with another key", lambda r: RealtimeResponseBody(promotionalOffer=PromotionalOffer(
        messageIdentifier=switch, promotionalOfferSignatureV2=impostor.create_signature("pass.premium.monthly", "premium_loyalty_3m", r.originalTransactionId))), 0,
     refused("promotionalOfferSignatureV2: the signature does not verify")),
    ("promotionalOffer V1 naming another offer than signed", lambda r: v1_offer("premium_loyalty_3m", "premium_free_year"), 0,
     refused("promotionalOfferSignatureV1: encodedSignature does not verify")),
    ("one V1 offer (Apple's creator, one nonce) answered once", same_v1, 0,
     lambda o: o["offer"]["kind"] == "promotionalOffer" and o["offer"]["source"] == "realtime"),
    ("the same V1 offer answered again", same_v1, 0, refused("was already used at")),
    ("too slow", lambda r: RealtimeResponseBody(message=Message(messageIdentifier=stay)), 1.5,
     lambda o: o["offer"]["source"] == "default" and o["offer"]["header"] == "Before you go" and "no answer within 700 ms" in o.get("problem", "")),
]
for name, answer, delay, expect in cases:
    script.append((answer, delay))
    started = time.time()
    outcome = go_to_cancel()
    check(outcome.get("offer") is not None and expect(outcome), f"{name}: subdash-retention showed {outcome}")
    if delay:
        check(time.time() - started < delay + 1.0, f"{name}: waited {time.time() - started:.2f} s for a {delay} s answer")

check(len(decoded) == len(cases), f"{len(decoded)} realtime requests verified of {len(cases)}")
for r in decoded:
    check(r.originalTransactionId == original and r.productId == product and r.userLocale == "en-US"
          and r.environment == Environment.SANDBOX and r.requestIdentifier is not None
          and abs(r.signedDate - time.time() * 1000) < 120_000, f"realtime request fields: {r}")
server.shutdown()

if failures:
    print("retention-oracle: FAIL")
    for f in failures:
        print("  " + f)
    sys.exit(1)
print(f"retention-oracle: ok, {len(decoded)} realtime requests verified by verify_and_decode_realtime_request; "
      "a message, an alternate product and promotional offers (PromotionalOfferV2SignatureCreator, PromotionalOfferSignatureCreator) "
      "shown as answered; the default message for an offer signed with another key or changed after signing, for one whose nonce was used before, "
      "and when the answer came after 700 ms")
