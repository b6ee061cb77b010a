#!/usr/bin/env python3
"""The comparison receiver for listen_load.py: Apple's app-store-server-library verifies each
notification and its nested signedTransactionInfo and signedRenewalInfo (SignedDataVerifier, the
test CA's root trusted, online checks off), then appends the decoded notification to the
subscriber's file with fsync before answering 200: the same work `subdash listen` does, except
that listen also merges it into the subscriber's state (journal append + fsync, atomic rename +
fsync).

Usage: apple_receiver.py ROOT_DER BUNDLE_ID PORT DIR
"""
import json, os, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from appstoreserverlibrary.models.Environment import Environment

root, bundle, port, directory = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
os.makedirs(directory, exist_ok=True)
verifier = SignedDataVerifier([open(root, "rb").read()], False, Environment.SANDBOX, bundle)
locks, guard = {}, threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as listen offers

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            n = verifier.verify_and_decode_notification(json.loads(body)["signedPayload"])
            t = verifier.verify_and_decode_signed_transaction(n.data.signedTransactionInfo)
            verifier.verify_and_decode_renewal_info(n.data.signedRenewalInfo)
            original = t.originalTransactionId
            with guard:
                lock = locks.setdefault(original, threading.Lock())
            with lock:
                fd = os.open(os.path.join(directory, original + ".jsonl"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                os.write(fd, (json.dumps({"notificationUUID": n.notificationUUID, "type": n.rawNotificationType}) + "\n").encode())
                os.fsync(fd)
                os.close(fd)
            status = 200
        except Exception:
            status = 400
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    request_queue_size = 256  # 32 senders connect at once; the default backlog of 5 resets some
    daemon_threads = True


Server(("127.0.0.1", port), Handler).serve_forever()
