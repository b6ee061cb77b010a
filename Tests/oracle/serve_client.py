#!/usr/bin/env python3
"""Apple's AppStoreServerAPIClient pointed at `subdash serve`: every endpoint SubDash answers is
called the way a backend calls Apple, every signed answer is verified with SignedDataVerifier (the
local test CA's root trusted), and the decoded data is compared with the state file.

Usage: serve_client.py BASE_URL KEY_P8 KEY_ID ISSUER_ID BUNDLE_ID ROOT_DER EXPECT_JSON
EXPECT_JSON (written by serve.sh from the state file): originalTransactionId, status,
transactionIds (oldest first), notificationUUIDs (inside the 30-day window), expiresDate.
"""
import json, os, subprocess, sys, time, uuid
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest, Order
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.Subtype import Subtype
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from serve_oracle import ServeOracle

base, key_path, key_id, issuer, bundle, root_path, expect_path = sys.argv[1:8]
expect = json.load(open(expect_path))
oracle = ServeOracle(base, key_path, key_id, issuer, bundle, root_path)
client, verifier, failures, check = oracle.client, oracle.verifier, oracle.failures, oracle.check
key = open(key_path, "rb").read()
done = []


def read_state(path):
    """A state file as the server holds it now: with `serve.sh --db`, SERVE_ORACLE_REFRESH exports
    the database over the directory first."""
    if os.environ.get("SERVE_ORACLE_REFRESH"):
        subprocess.run(os.environ["SERVE_ORACLE_REFRESH"], shell=True, check=True)
    return json.load(open(path))


original = expect["originalTransactionId"]

# Get All Subscription Statuses
statuses = client.get_all_subscription_statuses(original)
last = statuses.data[0].lastTransactions[0]
tx = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo)
renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
check(last.rawStatus == expect["status"], f"status {last.rawStatus}, the file says {expect['status']}")
check(tx.transactionId == expect["transactionIds"][-1], f"latest transaction {tx.transactionId}, the file's is {expect['transactionIds'][-1]}")
check(renewal.originalTransactionId == original, "renewal info of another subscriber")
check(statuses.rawEnvironment == "Sandbox" and statuses.bundleId == bundle, "environment or bundle id")
done.append("Get All Subscription Statuses")

# Get Transaction Info, for every transaction in the history
for tid in expect["transactionIds"]:
    info = client.get_transaction_info(tid)
    decoded = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
    check(decoded.transactionId == tid, f"Get Transaction Info {tid} answered {decoded.transactionId}")
done.append(f"Get Transaction Info ×{len(expect['transactionIds'])}")

# Get Transaction History v2, every page (the server pages by 20)
seen, revision, pages = [], None, 0
while True:
    page = client.get_transaction_history(original, revision, TransactionHistoryRequest(sort=Order.ASCENDING), GetTransactionHistoryVersion.V2)
    seen += [verifier.verify_and_decode_signed_transaction(s).transactionId for s in page.signedTransactions]
    pages += 1
    revision = page.revision
    if not page.hasMore:
        break
check(seen == expect["transactionIds"], f"history {len(seen)} transactions in {pages} pages, the file has {len(expect['transactionIds'])}")
done.append(f"Get Transaction History v2 ({len(seen)} in {pages} pages)")
# The library's default is still the deprecated v1 path: answered with the same pages.
v1 = client.get_transaction_history(original, None, TransactionHistoryRequest(sort=Order.ASCENDING))
v1_ids = [verifier.verify_and_decode_signed_transaction(s).transactionId for s in v1.signedTransactions]
check(v1_ids and v1_ids == seen[:len(v1_ids)], f"v1 history {v1_ids[:3]}…, v2 {seen[:3]}…")
done.append("Get Transaction History v1 (the library's default)")

# Get Notification History (the sandbox window: 30 days)
now = int(time.time() * 1000)
request = NotificationHistoryRequest(startDate=now - 29 * 86_400_000, endDate=now, transactionId=original)
uuids, token = [], None
while True:
    page = client.get_notification_history(token, request)
    for item in page.notificationHistory:
        n = verifier.verify_and_decode_notification(item.signedPayload)
        uuids.append(n.notificationUUID)
        if n.data and n.data.signedTransactionInfo:
            verifier.verify_and_decode_signed_transaction(n.data.signedTransactionInfo)
    token = page.paginationToken
    if not page.hasMore:
        break
check(uuids == expect["notificationUUIDs"], f"notification history {len(uuids)}, the file has {len(expect['notificationUUIDs'])} in the window")
done.append(f"Get Notification History ({len(uuids)})")

# Request a Test Notification, then its status: serve sends it to its own receiver (no --notify)
test = client.request_test_notification()
time.sleep(0.2)
status = client.get_test_notification_status(test.testNotificationToken)
n = verifier.verify_and_decode_notification(status.signedPayload)
check(n.rawNotificationType == "TEST", f"test notification is {n.rawNotificationType}")
check(status.sendAttempts and status.sendAttempts[0].rawSendAttemptResult == "SUCCESS",
      f"test notification attempts {[a.rawSendAttemptResult for a in status.sendAttempts or []]}")
done.append("Request a Test Notification + Get Test Notification Status")

# Extend a Subscription Renewal Date: 3 days, written to the file
ext = client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
    extendByDays=3, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
check(ext.success is True, "extension not successful")
check(ext.effectiveDate == expect["expiresDate"] + 3 * 86_400_000, f"effectiveDate {ext.effectiveDate}, expected {expect['expiresDate'] + 3 * 86_400_000}")
done.append("Extend a Subscription Renewal Date")

# Extend Subscription Renewal Dates for All Active Subscribers: the Premium subscriber (the
# directory's second file) is extended; the Family one has had its two extensions this year, so its
# request fails. Each is polled with Get Status of Subscription Renewal Date Extensions until
# complete, and its RENEWAL_EXTENSION / SUMMARY is found in the notification history.
def extend_all(product, storefronts):
    request_id = str(uuid.uuid4())
    answer = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=2, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=request_id,
        productId=product, storefrontCountryCodes=storefronts))
    check(answer.requestIdentifier == request_id, f"mass extension answered {answer.requestIdentifier}")
    deadline = time.time() + 20
    status = client.get_status_of_subscription_renewal_date_extensions(request_id, product)
    while not status.complete and time.time() < deadline:
        time.sleep(0.05)
        status = client.get_status_of_subscription_renewal_date_extensions(request_id, product)
    check(status.complete is True and status.completeDate, f"mass extension of {product} not complete")
    return request_id, status


premium_id, premium = extend_all("pass.premium.monthly", ["USA"])
check((premium.succeededCount, premium.failedCount) == (1, 0), f"premium: {premium.succeededCount} succeeded, {premium.failedCount} failed")
family_id, family = extend_all("pass.family.monthly", None)
check((family.succeededCount, family.failedCount) == (0, 1), f"family: {family.succeededCount} succeeded, {family.failedCount} failed")
now = int(time.time() * 1000)
page = client.get_notification_history(None, NotificationHistoryRequest(
    startDate=now - 86_400_000, endDate=now + 1000, notificationType=NotificationTypeV2.RENEWAL_EXTENSION, notificationSubtype=Subtype.SUMMARY))
summaries = {}
for item in page.notificationHistory:
    n = verifier.verify_and_decode_notification(item.signedPayload)
    check(n.data is None and n.summary is not None, "a SUMMARY with data, or without summary")
    summaries[n.summary.requestIdentifier] = n.summary
p, f = summaries.get(premium_id), summaries.get(family_id)
check(p is not None and (p.productId, p.succeededCount, p.failedCount, p.storefrontCountryCodes) == ("pass.premium.monthly", 1, 0, ["USA"]),
      f"premium SUMMARY {p}")
check(f is not None and (f.productId, f.succeededCount, f.failedCount) == ("pass.family.monthly", 0, 1), f"family SUMMARY {f}")
done.append("Extend Subscription Renewal Dates for All Active Subscribers + Get Status of Subscription Renewal Date Extensions + their SUMMARY in Get Notification History")

# Send Consumption Information for the Premium subscriber's refund request: accepted (202), and
# kept in the file's pending request for the dashboard to show.
client.send_consumption_information(expect["refundTransactionId"], ConsumptionRequest(
    customerConsented=True, deliveryStatus=DeliveryStatus.DELIVERED, sampleContentProvided=False,
    consumptionPercentage=25_000, refundPreference=RefundPreference.DECLINE))
kept = read_state(expect["refundFile"])["simulation"]["refundRequest"].get("consumptionInformation", {})
check((kept.get("deliveryStatus"), kept.get("consumptionPercentage"), kept.get("refundPreference")) == ("DELIVERED", 25_000, "DECLINE"),
      f"consumption information in the file: {kept}")
try:
    client.send_consumption_information(expect["refundTransactionId"], ConsumptionRequest(
        customerConsented=False, deliveryStatus=DeliveryStatus.DELIVERED, sampleContentProvided=False))
    failures.append("consumption information without consent was accepted")
except APIException as e:
    check(e.http_status_code == 400 and e.raw_api_error == 4000035, f"no consent answered {e.http_status_code} {e.raw_api_error}")
done.append("Send Consumption Information (202, kept in the refund request; 400 4000035 without consent)")

# Set App Account Token on the Family subscriber, then Get Transaction Info shows it on the latest
# transaction; a token that is not a UUID is 4000183.
token = str(uuid.uuid4())
client.set_app_account_token(original, UpdateAppAccountTokenRequest(appAccountToken=token))
latest_id = verifier.verify_and_decode_signed_transaction(client.get_all_subscription_statuses(original).data[0].lastTransactions[0].signedTransactionInfo).transactionId
shown = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(latest_id).signedTransactionInfo)
check(shown.appAccountToken == token, f"appAccountToken {shown.appAccountToken}, set {token}")
try:
    client.set_app_account_token(original, UpdateAppAccountTokenRequest(appAccountToken="not-a-uuid"))
    failures.append("a token that is not a UUID was accepted")
except APIException as e:
    check(e.http_status_code == 400 and e.raw_api_error == 4000183, f"a bad token answered {e.http_status_code} {e.raw_api_error}")
done.append("Set App Account Token (Get Transaction Info shows it; 400 4000183)")

# Apple's errors, as Apple's library reads them
try:
    client.get_transaction_info("9999999999")
    failures.append("an unknown transaction was answered")
except APIException as e:
    check(e.http_status_code == 404 and e.raw_api_error == 4040010, f"unknown transaction: {e.http_status_code} {e.raw_api_error}")
stranger = AppStoreServerAPIClient(key, "OTHERKEY", issuer, bundle, Environment.SANDBOX)
stranger._base_url = client._base_url
try:
    stranger.get_transaction_info(original)
    failures.append("a token with an unknown key id was accepted")
except APIException as e:
    check(e.http_status_code == 401, f"unknown kid answered {e.http_status_code}")
done.append("errors (404 4040010, 401)")

for f in failures:
    print("serve-oracle: FAIL " + f)
if failures:
    sys.exit(1)
print("serve-oracle: ok, Apple's AppStoreServerAPIClient and SignedDataVerifier accept: " + "; ".join(done))
