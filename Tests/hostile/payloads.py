"""Decoded App Store payloads for the hostile cases: a subscriber's transaction and renewal info,
and notifications carrying them (data), or the app-level shapes Apple sends without them
(appData, externalPurchaseToken, summary). Dates are recent and inside the test CA's validity."""
import json, uuid
from jws import RawNumber

BUNDLE = "com.example.hostile"
OTHER_BUNDLE = "com.example.otherapp"
START = 1_780_000_000_000  # 2026-05-28: inside the test CA's certificates (2020–2050)
MONTH = 30 * 86_400_000
# Out of range for X.509 (years 1–9999) and for the model: each once crashed a process (issue 19 §1).
BAD_DATES = [260000000000000, RawNumber("2.6e14"), 9300000000000000000, -62200000000000]


def transaction(otid, n=0, env="Sandbox", bundle=BUNDLE, signed=None):
    purchase = START + n * MONTH
    return {"transactionId": f"{otid}{n:05d}", "originalTransactionId": otid, "productId": "com.example.monthly",
            "bundleId": bundle, "purchaseDate": purchase, "originalPurchaseDate": START, "expiresDate": purchase + MONTH,
            "signedDate": signed if signed is not None else purchase + 1, "environment": env,
            "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "price": 9990, "currency": "USD"}


def renewal(otid, n=0, env="Sandbox", signed=None):
    return {"originalTransactionId": otid, "autoRenewProductId": "com.example.monthly", "productId": "com.example.monthly",
            "autoRenewStatus": 1, "signedDate": signed if signed is not None else START + n * MONTH + 1, "environment": env,
            "renewalDate": START + (n + 1) * MONTH}


def notification(signed_tx, signed_renewal, n=0, env="Sandbox", bundle=BUNDLE, signed=None, note_uuid=None):
    note = {"notificationType": "SUBSCRIBED" if n == 0 else "DID_RENEW", "notificationUUID": note_uuid or str(uuid.uuid4()),
            "version": "2.0", "signedDate": signed if signed is not None else START + n * MONTH + 2,
            "data": {"bundleId": bundle, "environment": env, "status": 1}}
    if n == 0:
        note["subtype"] = "INITIAL_BUY"
    if signed_tx is not None:
        note["data"]["signedTransactionInfo"] = signed_tx
    if signed_renewal is not None:
        note["data"]["signedRenewalInfo"] = signed_renewal
    return note


def renewal_notification(signer, otid, n=0, env="Sandbox", bundle=BUNDLE, tx=None, rn=None, **kw):
    """A complete notification payload for renewal n of subscriber otid, its nested JWS signed by signer."""
    tx = tx if tx is not None else signer.sign(transaction(otid, n, env, bundle))
    rn = rn if rn is not None else signer.sign(renewal(otid, n, env))
    return notification(tx, rn, n, env, bundle, **kw)


def app_level(kind, bundle=BUNDLE, env="Sandbox"):
    """RESCIND_CONSENT (appData), EXTERNAL_PURCHASE_TOKEN (externalPurchaseToken), SUMMARY (summary), TEST (data)."""
    base = {"notificationUUID": str(uuid.uuid4()), "version": "2.0", "signedDate": START + 5}
    if kind == "RESCIND_CONSENT":
        return {**base, "notificationType": "RESCIND_CONSENT", "appData": {"appAppleId": 1234, "bundleId": bundle, "environment": env}}
    if kind == "EXTERNAL_PURCHASE_TOKEN":
        return {**base, "notificationType": "EXTERNAL_PURCHASE_TOKEN", "subtype": "UNREPORTED",
                "externalPurchaseToken": {"externalPurchaseId": "ext-1", "tokenCreationDate": START, "appAppleId": 1234,
                                          "bundleId": bundle}}
    if kind == "SUMMARY":
        return {**base, "notificationType": "RENEWAL_EXTENSION", "subtype": "SUMMARY",
                "summary": {"requestIdentifier": "req-1", "environment": env, "appAppleId": 1234, "bundleId": bundle,
                            "productId": "com.example.monthly", "storefrontCountryCodes": ["USA"], "succeededCount": 0, "failedCount": 0}}
    return {**base, "notificationType": "TEST", "data": {"bundleId": bundle, "environment": env}}


def body(jws):
    return json.dumps({"signedPayload": jws}).encode()
