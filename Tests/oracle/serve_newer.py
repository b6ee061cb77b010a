#!/usr/bin/env python3
"""Apple's client and verifier against `subdash serve`'s newer endpoints (issue 21 §3): Get App
Transaction Info (verify_and_decode_app_transaction accepts the answer), Finish Transaction, and
`--rate-limit` (a 429 with 4290000 that a retry after Retry-After gets past).

Usage: serve_newer.py BASE_URL LIMITED_URL KEY_P8 KEY_ID ISSUER_ID BUNDLE_ID ROOT_DER ORIGINAL_ID STATE_FILE
LIMITED_URL: the same directory served with --rate-limit 2/s.
"""
import json, os, subprocess, sys, time
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException, APIError
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

base, limited, key_path, key_id, issuer, bundle, root_path, original, state_file = sys.argv[1:10]
key = open(key_path, "rb").read()


def client_for(url):
    c = AppStoreServerAPIClient(key, key_id, issuer, bundle, Environment.SANDBOX)
    c._base_url = url + "/sandbox"  # Apple's library has no base-URL option; this is its one attribute
    return c


client = client_for(base)
verifier = SignedDataVerifier([open(root_path, "rb").read()], False, Environment.SANDBOX, bundle)
failures = []


def read_state(path):
    """A state file as the server holds it now: with `serve.sh --db`, SERVE_ORACLE_REFRESH exports
    the database over the directory first."""
    if os.environ.get("SERVE_ORACLE_REFRESH"):
        subprocess.run(os.environ["SERVE_ORACLE_REFRESH"], shell=True, check=True)
    return json.load(open(path))


def check(cond, what):
    if not cond:
        failures.append(what)


# Get App Transaction Info: by the original transaction id and by the appTransactionId it names.
answer = client.get_app_transaction_info(original)
app = verifier.verify_and_decode_app_transaction(answer.signedAppTransactionInfo)
check(app.bundleId == bundle and app.receiptType == Environment.SANDBOX, f"app transaction: {app}")
check(app.appTransactionId is not None and app.originalPurchaseDate is not None, f"app transaction fields: {app}")
again = verifier.verify_and_decode_app_transaction(client.get_app_transaction_info(app.appTransactionId).signedAppTransactionInfo)
check(again.appTransactionId == app.appTransactionId, "get_app_transaction_info by appTransactionId")
# The appTransactionId is in every transaction and renewal info of the customer, and the endpoints
# Apple documents as taking "any transactionId, originalTransactionId, or appTransactionId" take it;
# Get Transaction Info does not (AppTransactionIdNotSupportedError).
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
statuses = client.get_all_subscription_statuses(app.appTransactionId)
last = statuses.data[0].lastTransactions[0]
check(verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).appTransactionId == app.appTransactionId,
      "status transaction's appTransactionId")
check(verifier.verify_and_decode_renewal_info(last.signedRenewalInfo).appTransactionId == app.appTransactionId,
      "status renewal info's appTransactionId")
history = client.get_transaction_history(app.appTransactionId, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
check(history.signedTransactions and all(verifier.verify_and_decode_signed_transaction(t).appTransactionId == app.appTransactionId
                                         for t in history.signedTransactions), "history by appTransactionId")
client.get_refund_history(app.appTransactionId, None)
try:
    client.get_transaction_info(app.appTransactionId)
    check(False, "get_transaction_info took an appTransactionId")
except APIException as e:
    check(e.api_error == APIError.APP_TRANSACTION_ID_NOT_SUPPORTED_ERROR, f"transaction info by appTransactionId: {e.raw_api_error}")
try:
    client.get_app_transaction_info("1234567")
    check(False, "an unknown id answered an app transaction")
except APIException as e:
    check(e.http_status_code == 404 and e.api_error == APIError.APP_TRANSACTION_DOES_NOT_EXIST_ERROR, f"unknown id: {e.http_status_code} {e.raw_api_error}")

# Finish Transaction: 200, recorded in the subscriber's file.
client.finish_transaction(original)
doc = read_state(state_file)
check(any(f["transactionId"] == original for f in doc.get("finishedTransactions", [])), "finish_transaction not recorded")
try:
    client.finish_transaction(app.appTransactionId)
    check(False, "finish_transaction took an appTransactionId")
except APIException as e:
    check(e.api_error == APIError.APP_TRANSACTION_ID_NOT_SUPPORTED_ERROR, f"finish by appTransactionId: {e.raw_api_error}")

# Retention Messaging configuration (issue 21 §2), as Apple's client calls it.
import uuid
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.MessageState import MessageState
message_id = uuid.uuid4()
client.upload_message(message_id, UploadMessageRequestBody(header="Before you go", body="Stay for half price for three months.",
                                                           bulletPoints=[BulletPoint(text="No ads", imageIdentifier=uuid.uuid4(), altText="star")]))
listed = client.get_message_list().messageIdentifiers or []
check(any(m.messageIdentifier == message_id and m.messageState == MessageState.APPROVED for m in listed), f"get_message_list: {listed}")
client.configure_default_message("com.example.birdwatch.monthly", "en-US", DefaultConfigurationRequest(messageIdentifier=message_id))
check(client.get_default_message("com.example.birdwatch.monthly", "en-US").messageIdentifier == message_id, "get_default_message")
client.delete_default_message("com.example.birdwatch.monthly", "en-US")
client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="https://example.com/retention"))
check(client.get_realtime_url().realtimeURL == "https://example.com/retention", "get_realtime_url")
client.delete_realtime_url()
try:
    client.get_realtime_url()
    check(False, "get_realtime_url after delete")
except APIException as e:
    check(e.api_error == APIError.REALTIME_URL_NOT_FOUND, f"realtime URL deleted: {e.raw_api_error}")
client.delete_message(message_id)
try:
    client.delete_message(message_id)
    check(False, "delete_message twice")
except APIException as e:
    check(e.api_error == APIError.MESSAGE_NOT_FOUND, f"message deleted: {e.raw_api_error}")

# The performance test: SubDash, as the App Store, sends signed realtime requests to the realtime
# URL; Apple's verify_and_decode_realtime_request accepts every one.
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.PerformanceTestStatus import PerformanceTestStatus
decoded = []


class Realtime(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        try:
            decoded.append(verifier.verify_and_decode_realtime_request(body["signedPayload"]))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b"{}")
        except Exception as e:
            failures.append(f"realtime request refused by Apple's verifier: {e!r}")
            self.send_response(400)
            self.end_headers()

    def log_message(self, *args):
        pass


realtime = HTTPServer(("127.0.0.1", 0), Realtime)
threading.Thread(target=realtime.serve_forever, daemon=True).start()
client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=f"http://127.0.0.1:{realtime.server_port}/realtime"))
started = client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=original))
result = None
for _ in range(100):
    result = client.get_performance_test_results(started.requestId)
    if result.result != PerformanceTestStatus.PENDING:
        break
    time.sleep(0.2)
realtime.shutdown()
check(result is not None and result.result == PerformanceTestStatus.PASS and result.successRate == 100, f"performance test: {result}")
check(len(decoded) == started.config.totalRequests, f"{len(decoded)} realtime requests verified of {started.config.totalRequests}")
check(all(d.originalTransactionId == original and d.environment == Environment.SANDBOX and d.userLocale and d.productId for d in decoded),
      f"realtime request fields: {decoded[:1]}")

# --rate-limit 2/s: the third call in a second is refused as Apple refuses it; after Retry-After it goes.
slow = client_for(limited)
refused = None
for _ in range(6):
    try:
        slow.get_transaction_info(original)
    except APIException as e:
        refused = e
        break
check(refused is not None and refused.http_status_code == 429 and refused.api_error == APIError.RATE_LIMIT_EXCEEDED,
      f"rate limit: {refused and (refused.http_status_code, refused.raw_api_error)}")
time.sleep(1.05)
try:
    slow.get_transaction_info(original)
except APIException as e:
    check(False, f"after the window: {e.http_status_code}")

if failures:
    print("serve-oracle (newer endpoints): FAIL\n  " + "\n  ".join(failures))
    sys.exit(1)
print("serve-oracle (newer endpoints): Apple's client and verifier accept Get App Transaction Info, Finish Transaction, the Retention Messaging configuration endpoints, the performance test (verify_and_decode_realtime_request accepts every signed realtime request) and the 429")
