#!/usr/bin/env python3
"""Writes the hostile corpus: malformed and hostile state files and .storekit catalogs in
Tests/DashModelTests/Fixtures/hostile/. EXPECTED.tsv (written by hand) says what SubDash must do
with each; HostileCorpusTests loads every file and checks it. Run from the repository root:

    python3 scripts/make-hostile-corpus.py

Big inputs (10 MB strings, a 300 MB sparse file), symlinks and FIFOs are made by the test at run
time instead, so the repository stays small.
"""
import copy
import re
import json
import os

OUT = "Tests/DashModelTests/Fixtures/hostile"

CATALOG = {
    "subscriptionGroups": [{
        "id": "6F3A93AB", "name": "Birdwatch Pass",
        "subscriptions": [
            {"productID": "pass.monthly", "referenceName": "Monthly", "groupNumber": 2,
             "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99",
             "localizations": [{"displayName": "Monthly", "locale": "en_US"}],
             "introductoryOffer": {"paymentMode": "free", "subscriptionPeriod": "P1W"}},
            {"productID": "pass.yearly", "referenceName": "Yearly", "groupNumber": 1,
             "recurringSubscriptionPeriod": "P1Y", "displayPrice": "49.99",
             "localizations": [{"displayName": "Yearly", "locale": "en_US"}]},
        ]}],
    "version": {"major": 4, "minor": 0},
}

TRANSACTION = {
    "originalTransactionId": "2000000100000000", "transactionId": "2000000100000003",
    "bundleId": "com.example.birdwatch", "productId": "pass.monthly",
    "subscriptionGroupIdentifier": "6F3A93AB", "purchaseDate": 1776969134000,
    "originalPurchaseDate": 1767983534000, "expiresDate": 1779561134000, "quantity": 1,
    "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
    "environment": "Sandbox", "transactionReason": "RENEWAL", "price": 4990, "currency": "USD",
}

RENEWAL = {
    "originalTransactionId": "2000000100000000", "productId": "pass.monthly",
    "autoRenewProductId": "pass.monthly", "autoRenewStatus": 1, "renewalDate": 1779561134000,
    "environment": "Sandbox",
}


def state(**changes):
    doc = {
        "format": "subdash-state/1",
        "simulation": {"now": 1778770800000},
        "subscriber": {"latestTransaction": copy.deepcopy(TRANSACTION), "renewalInfo": copy.deepcopy(RENEWAL)},
        "catalog": copy.deepcopy(CATALOG),
    }
    for k, v in changes.items():
        if v is DROP:
            doc.pop(k, None)
        else:
            doc[k] = v
    return doc


DROP = object()


def text(doc):
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write(name, content):
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def with_transaction(**fields):
    s = state()
    s["subscriber"]["latestTransaction"].update(fields)
    return s


def with_renewal(**fields):
    s = state()
    s["subscriber"]["renewalInfo"].update(fields)
    return s


def catalog_with(**fields):
    c = copy.deepcopy(CATALOG)
    c["subscriptionGroups"][0]["subscriptions"][0].update(fields)
    return c


def main():
    os.makedirs(OUT, exist_ok=True)
    valid = text(state())

    # --- Syntax: truncation, encoding, lexical garbage -------------------------------------
    write("truncated-object.json", valid[: valid.index('"renewalInfo"')])
    write("truncated-in-string.json", valid[: valid.index("com.example") + 5])
    write("truncated-after-key.json", valid[: valid.index('"quantity"') + len('"quantity"')])
    write("truncated-in-number.json", valid[: valid.index("1776969134000") + 6])
    write("empty.json", b"")
    write("whitespace-only.json", b" \n\t\r\n  ")
    write("bom-only.json", b"\xef\xbb\xbf")
    write("bom-then-valid.json", b"\xef\xbb\xbf" + valid.encode())
    write("utf16le-bom.json", b"\xff\xfe" + valid.encode("utf-16-le"))
    write("invalid-utf8-in-string.json", valid.encode().replace(b"com.example", b"com.ex\xc3\x28ample"))
    write("overlong-utf8-slash.json", valid.encode().replace(b"com.example", b"com\xc0\xafexample"))
    write("lone-surrogate-escape.json", valid.replace("com.example.birdwatch", "com.example\\ud800"))
    write("nul-byte-between-values.json", valid.encode().replace(b'"quantity": 1,', b'"quantity": 1,\x00', 1))
    write("raw-tab-in-string.json", valid.replace("Auto-Renewable Subscription", "Auto-Renewable\tSubscription"))
    write("trailing-comma-object.json", valid.replace('"currency": "USD"\n', '"currency": "USD",\n', 1))
    write("trailing-comma-array.json", re.sub(r"\}\n(\s*)\]", r"},\n\1]", valid, count=1))
    write("line-comment.json", valid.replace('"format": "subdash-state/1",', '"format": "subdash-state/1", // v1', 1))
    write("single-quoted-key.json", valid.replace('"format"', "'format'", 1))
    write("nan-literal.json", valid.replace('"price": 4990', '"price": NaN', 1))
    write("leading-zero-number.json", valid.replace('"price": 4990', '"price": 04990', 1))
    write("two-documents.json", valid + valid)
    write("number-literal-too-long.json", valid.replace('"price": 4990', '"price": 4990' + "0" * 80, 1))
    write("deep-nesting-300.json", valid.replace('"format": "subdash-state/1",',
                                                 '"format": "subdash-state/1",\n  "x-deep": ' + "[" * 300 + "]" * 300 + ",", 1))
    write("deep-nesting-200-kept.json", valid.replace('"format": "subdash-state/1",',
                                                      '"format": "subdash-state/1",\n  "x-deep": ' + "[" * 200 + "]" * 200 + ",", 1))

    # --- Duplicate keys ----------------------------------------------------------------------
    write("duplicate-top-level-key.json", valid.replace('"format": "subdash-state/1",',
                                                        '"format": "subdash-state/1",\n  "format": "subdash-state/1",', 1))
    write("duplicate-nested-key.json", valid.replace('"quantity": 1,', '"quantity": 1,\n      "quantity": 2,', 1))
    write("duplicate-key-by-unicode-equivalence.json",
          valid.replace('"format": "subdash-state/1",', '"format": "subdash-state/1",\n  "x-K": 1,\n  "x-\\u212a": 2,', 1))

    # --- Wrong shapes and types --------------------------------------------------------------
    write("top-level-array.json", "[" + valid + "]")
    write("top-level-string.json", '"subdash-state/1"\n')
    write("null-subscriber.json", text(state(subscriber=None)))
    write("subscriber-is-array.json", text(state(subscriber=[])))
    write("null-latest-transaction.json", text(state(subscriber={"latestTransaction": None, "renewalInfo": None})))
    write("latest-transaction-is-string.json", text(state(subscriber={"latestTransaction": "2000000100000003"})))
    write("expires-date-as-iso-string.json", text(with_transaction(expiresDate="2026-05-23T18:32:14Z")))
    write("expires-date-negative-huge.json", text(with_transaction(expiresDate=-1e300)))
    write("expires-date-year-9999.json", text(with_transaction(expiresDate=253402300799000)))
    write("expires-date-infinite.json", valid.replace('"expiresDate": 1779561134000', '"expiresDate": 1e999', 1))
    write("dates-in-seconds.json", text(with_transaction(purchaseDate=1776969134, expiresDate=1779561134)))
    write("enum-as-string.json", text(with_transaction(offerType="1")))
    write("unknown-enum-values.json", text(with_transaction(offerType=99, environment="Staging",
                                                             inAppOwnershipType="GIFTED", transactionReason="RESTORE")))
    write("quantity-fractional.json", text(with_transaction(quantity=1.5)))
    write("price-overflows-int64.json", valid.replace('"price": 4990', '"price": 99999999999999999999', 1))
    write("auto-renew-status-bool.json", text(with_renewal(autoRenewStatus=True)))
    write("unknown-format.json", text(state(format="storekit/3")))
    write("storekit-opened-as-state.json", text(CATALOG))
    write("no-catalog.json", text(state(catalog=DROP)))
    write("catalog-and-catalogFile.json", text(state(catalogFile="valid.storekit")))
    write("notifications-is-object.json", text(state(subscriber={"notifications": {"notificationType": "DID_RENEW"}})))
    write("notification-without-type.json", text(state(subscriber={"notifications": [{"subtype": "AUTO_RENEW_ENABLED"}]})))
    s = state()
    s["subscriber"]["transactions"] = [dict(TRANSACTION, transactionId="1"), dict(TRANSACTION, transactionId="2", expiresDate="soon")]
    write("history-summary-field-wrong-type.json", text(s))
    s = state()
    s["subscriber"]["transactions"] = [dict(TRANSACTION, transactionId="1"), dict(TRANSACTION, transactionId="2", price="4.99")]
    write("history-other-field-wrong-type.json", text(s))
    write("offer-code-unknown-type.json", text(state(offerCodes=[{"type": "reusable", "productId": "pass.monthly", "offerReference": "X"}])))
    write("offer-code-empty-batch.json", text(state(offerCodes=[{"type": "oneTime", "productId": "pass.monthly", "offerReference": "X", "codes": []}])))
    s = state()
    s["subscriber"]["askToBuy"] = {"productId": "pass.yearly", "requestedDate": 1778763600000, "status": "approved"}
    write("ask-to-buy-unknown-status.json", text(s))
    write("journal-escapes-directory.json", text(state(journal={"file": "../state.journal.jsonl", "committedBytes": 0})))
    write("journal-negative-length.json", text(state(journal={"file": "x.journal.jsonl", "committedBytes": -5})))
    write("journal-name-with-nul.json", text(state(journal={"file": "x\u0000.jsonl", "committedBytes": 0})))
    write("journal-missing-but-vouched.json", text(state(journal={"file": "journal-missing-but-vouched.journal.jsonl", "committedBytes": 512})))

    # --- Content that must load: escapes, bidi, terminal control, odd but legal --------------
    s = state()
    s["subscriber"]["latestTransaction"]["x-note"] = "tab\there \"quoted\" \\ back\\slash \u00e9\u0301 \ud83d\udc26 \u0000 end"
    write("escape-sequences-everywhere.json", json.dumps(s, indent=2, ensure_ascii=True) + "\n")
    s = state()
    s["subscriber"]["latestTransaction"]["productId"] = "pass.monthly"
    s["subscriber"]["notifications"] = [{"notificationType": "DID_RENEW", "signedDate": 1776969136000, "status": 1,
                                         "summary": "renewed \u202eylhtnoM\u202c \u001b[31mRED\u001b[0m \u0007 \r\n second line"}]
    s["catalog"]["subscriptionGroups"][0]["name"] = "\u202eBirdwatch\u202c \u001b]0;owned\u0007"
    write("bidi-and-terminal-escapes.json", text(s))
    s = state()
    s["x-" + "k" * 10000] = "a key of 10,002 characters"
    write("very-long-key.json", text(s))
    s = state()
    s["subscriber"]["latestTransaction"]["quantity"] = 1.0
    s["subscriber"]["latestTransaction"]["price"] = 4.99e3
    write("integers-spelled-as-decimals.json", text(s))
    write("simulation-now-1e28.json", text(state(simulation={"now": 1.7787708200009881e28})))
    write("simulation-now-infinite.json", valid.replace('"now": 1778770800000', '"now": 1e999', 1))
    write("format-with-terminal-escape.json", text(state(format="\u001b]0;owned\u0007\u001b[2J")))
    write("duplicate-key-with-newline.json",
          valid.replace('"format": "subdash-state/1",', '"format": "subdash-state/1",\n  "a\\nb": 1,\n  "a\\nb": 2,', 1))
    write("unknown-fields-everywhere.json", text(state(**{"x-tool": {"version": [1, 2, {"a": None}]}, "x-null": None})))

    # --- catalogFile references ----------------------------------------------------------------
    write("valid.storekit", json.dumps(CATALOG, indent=2) + "\n")
    write("catalogfile-valid.json", text(state(catalog=DROP, catalogFile="valid.storekit")))
    write("catalogfile-parent-escape.json", text(state(catalog=DROP, catalogFile="../outside.storekit")))
    write("catalogfile-absolute.json", text(state(catalog=DROP, catalogFile="/etc/passwd")))
    write("catalogfile-missing.json", text(state(catalog=DROP, catalogFile="nowhere.storekit")))
    write("catalogfile-is-itself.json", text(state(catalog=DROP, catalogFile="catalogfile-is-itself.json")))
    write("catalogfile-is-a-state-file.json", text(state(catalog=DROP, catalogFile="catalogfile-valid.json")))
    write("catalogfile-is-directory.json", text(state(catalog=DROP, catalogFile=".")))
    write("catalogfile-empty-name.json", text(state(catalog=DROP, catalogFile="")))
    write("catalogfile-nul-in-name.json", text(state(catalog=DROP, catalogFile="valid.storekit\u0000../../etc/passwd")))
    write("catalogfile-is-number.json", text(state(catalog=DROP, catalogFile=7)))

    # --- .storekit catalogs (each is loaded through a generated state file naming it) ---------
    write("catalog-truncated.storekit", json.dumps(CATALOG, indent=2)[:200])
    write("catalog-bad-price.storekit", json.dumps(catalog_with(displayPrice="4,99"), indent=2))
    write("catalog-price-not-a-string.storekit", json.dumps(catalog_with(displayPrice=4.99), indent=2))
    write("catalog-zero-period.storekit", json.dumps(catalog_with(recurringSubscriptionPeriod="P0D"), indent=2))
    write("catalog-level-zero.storekit", json.dumps(catalog_with(groupNumber=0), indent=2))
    write("catalog-unknown-payment-mode.storekit",
          json.dumps(catalog_with(introductoryOffer={"paymentMode": "bitcoin", "subscriptionPeriod": "P1W"}), indent=2))
    c = copy.deepcopy(CATALOG)
    c["subscriptionGroups"][0]["subscriptions"][1]["productID"] = "pass.monthly"
    write("catalog-duplicate-product.storekit", json.dumps(c, indent=2))
    write("catalog-groups-null.storekit", json.dumps({"subscriptionGroups": None, "version": {"major": 4, "minor": 0}}, indent=2))
    write("catalog-groups-object.storekit", json.dumps({"subscriptionGroups": {"id": "6F3A93AB"}}, indent=2))
    write("catalog-is-a-state-file.storekit", valid)
    write("catalog-product-without-id.storekit", json.dumps(catalog_with(productID=None), indent=2))
    c = catalog_with(localizations=[{"displayName": "\u202eylhtnoM\u202c \u001b[2J\u001b[H", "locale": "en_US"}],
                     referenceName="tab\tnew\nline")
    write("catalog-bidi-and-escapes-in-names.storekit", json.dumps(c, indent=2, ensure_ascii=False))
    write("catalog-absurd-offer-periods.storekit",
          json.dumps(catalog_with(introductoryOffer={"paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M",
                                                     "displayPrice": "0.99", "numberOfPeriods": 1000000000}), indent=2))


if __name__ == "__main__":
    main()
