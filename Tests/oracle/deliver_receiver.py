#!/usr/bin/env python3
"""A developer's backend built on Apple's app-store-server-library, for `subdash deliver`'s oracle
test: every POST's signedPayload is verified and decoded with SignedDataVerifier (the local test
CA's root trusted, online checks off), then its nested signedTransactionInfo and signedRenewalInfo
too. One JSON line per request goes to LOG: the decoded fields, or the error.

Usage: deliver_receiver.py ROOT_DER BUNDLE_ID PORT_FILE LOG [--fail-first N]
Listens on 127.0.0.1 (a free port, written to PORT_FILE). The first N requests are answered 500
before anything is read, so the sender's retries are exercised.
"""
import json, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from appstoreserverlibrary.models.Environment import Environment

root_path, bundle_id, port_file, log_path = sys.argv[1:5]
fail_first = int(sys.argv[6]) if len(sys.argv) > 6 and sys.argv[5] == "--fail-first" else 0
verifier = SignedDataVerifier([open(root_path, "rb").read()], False, Environment.SANDBOX, bundle_id)
lock = threading.Lock()
state = {"requests": 0}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with lock:
            state["requests"] += 1
            scripted = state["requests"] <= fail_first
        if scripted:
            return self.answer(500, {"scripted": 500})
        try:
            if self.headers.get("Content-Type") != "application/json":
                raise ValueError("Content-Type is not application/json")
            signed = json.loads(body)["signedPayload"]
            n = verifier.verify_and_decode_notification(signed)
            t = verifier.verify_and_decode_signed_transaction(n.data.signedTransactionInfo)
            r = verifier.verify_and_decode_renewal_info(n.data.signedRenewalInfo)
            record = {
                "notificationUUID": n.notificationUUID, "notificationType": n.rawNotificationType,
                "subtype": n.rawSubtype, "signedDate": n.signedDate, "version": n.version,
                "environment": n.data.rawEnvironment, "bundleId": n.data.bundleId, "status": n.data.rawStatus,
                "transactionId": t.transactionId, "originalTransactionId": t.originalTransactionId,
                "productId": t.productId, "expiresDate": t.expiresDate,
                "autoRenewStatus": r.rawAutoRenewStatus, "renewalOriginalTransactionId": r.originalTransactionId,
            }
            self.answer(200, record)
        except Exception as e:  # a VerificationException or a malformed body: the sender must see a failure
            self.answer(400, {"error": f"{type(e).__name__}: {e}"})

    def answer(self, status, record):
        record["answered"] = status
        with lock, open(log_path, "a") as log:
            log.write(json.dumps(record) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
