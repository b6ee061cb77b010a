"""Hostile requests to `subdash serve` (the local App Store Server API, issue 19): bearer tokens
that are missing, forged, expired or for another key, issuer or app; bad path and query
parameters; unknown endpoints; oversized and malformed bodies; another app's subscribers, which
must be Apple's 404 (4040010) on every endpoint with nothing written; and the out-of-range
signedDate JWS at the receiver serve runs too. A good request is still answered at the end."""
import json, os, shutil, subprocess, time
import payloads as P
from jws import Signer
from httpcase import HTTPCases
from rawhttp import exchange, request
from server import Server
from tokens import Tokens, new_p8

APP = "com.example.birdwatch"
OWN = "2000000871234560"      # Examples/active.json (Sandbox)
OTHER = "2000000820915733"    # Examples/grace-period.json, rewritten as another app's customer
KID, ISS = "TESTKEY123", "57246542-96fe-1a63-e053-0824d011072a"
UUID_TOKEN = "5B0E8C1A-7D2F-4E3B-9A6C-1F0D2E3C4B5A"


def api(method, path, auth, body=None):
    headers = {"Authorization": auth} if auth is not None else {}
    return lambda port: exchange(port, request(method, path, body, "application/json" if body is not None else None, headers))


def empty_401(send):
    """Apple's refused token: 401 with no body."""
    def wrapped(port):
        a = send(port)
        if a is not None and a.status == 401 and a.body:
            a.status = f"401 with a body {a.text[:80]!r}"
        return a
    return wrapped


def run(tally, ctx, servers):
    work = ctx.work
    d = f"{work}/serve/state"
    os.makedirs(d)
    shutil.copy(f"{ctx.repo}/Examples/active.json", f"{d}/{OWN}.json")
    text = open(f"{ctx.repo}/Examples/grace-period.json").read().replace(f'"{APP}"', f'"{P.OTHER_BUNDLE}"')
    open(f"{d}/{OTHER}.json", "w").write(text)
    key = new_p8(f"{work}/key.p8")
    subprocess.run([ctx.subdash, "ca", "init", f"{work}/serve-ca"], check=True, stdout=subprocess.DEVNULL)
    server = Server([ctx.subdash, "serve", "--port", "0", "--key-id", KID, "--issuer-id", ISS, "--key", f"{work}/key.p8",
                     "--bundle-id", APP, "--ca", f"{work}/serve-ca", d], f"{work}/logs/serve.log").start()
    servers.append(server)
    h = HTTPCases(tally, "serve", server, [f"{work}/serve"])
    t = Tokens(key, KID, ISS, APP)
    good = t.good()
    sb = "/sandbox/inApps"
    statuses = f"{sb}/v1/subscriptions/{OWN}"

    # --- Bearer tokens: 401, no body ---------------------------------------------------------------
    now = int(time.time())
    other_key = new_p8(f"{work}/other.p8")
    bad_tokens = {
        "no Authorization header": None,
        "a Basic credential": "Basic dXNlcjpwYXNz",
        "Bearer and nothing": "Bearer ",
        "lower-case 'bearer'": "bearer " + t.make(),
        "a token of two segments": "Bearer " + t.make().rsplit(".", 1)[0],
        "a token that is not base64url": "Bearer !!!.???.***",
        "alg none, no signature": "Bearer " + t.make(header={"alg": "none"}, signature=b""),
        "alg HS256": "Bearer " + t.make(header={"alg": "HS256"}),
        "no typ": "Bearer " + t.make(header={"typ": None}),
        "a wrong kid": "Bearer " + t.make(header={"kid": "OTHERKEY99"}),
        "a wrong iss": "Bearer " + t.make(claims={"iss": "00000000-0000-0000-0000-000000000000"}),
        "a wrong aud": "Bearer " + t.make(claims={"aud": "appstoreconnect-v2"}),
        "another app's bid": "Bearer " + t.make(claims={"bid": P.OTHER_BUNDLE}),
        "no bid": "Bearer " + t.make(claims={"bid": None}),
        "expired ten minutes ago": "Bearer " + t.make(claims={"iat": now - 1800, "exp": now - 600}),
        "exp two hours after iat": "Bearer " + t.make(claims={"exp": now + 7200}),
        "iat an hour in the future": "Bearer " + t.make(claims={"iat": now + 3600, "exp": now + 3700}),
        "no exp": "Bearer " + t.make(claims={"exp": None}),
        "exp a string": "Bearer " + t.make(claims={"exp": str(now + 600)}),
        "signed by another key": "Bearer " + t.make(key=other_key),
        "64 zero bytes as signature": "Bearer " + t.make(signature=b"\x00" * 64),
    }
    for name, auth in bad_tokens.items():
        h.case(f"bearer token: {name} → 401, no body", empty_401(api("GET", statuses, auth)), 401)

    # --- Path parameters ------------------------------------------------------------------------------
    for name, path, status, code in [
        ("a transaction id of letters", f"{sb}/v1/transactions/abc", 400, "4000006"),
        ("an encoded ../../etc/passwd", f"{sb}/v1/transactions/..%2f..%2fetc%2fpasswd", 400, "4000006"),
        ("a 40-digit id", f"{sb}/v1/transactions/{'9' * 40}", 400, "4000006"),
        ("an id with an encoded newline", f"{sb}/v1/transactions/{OWN}%0a", 400, "4000006"),
        ("a negative id", f"{sb}/v1/subscriptions/-1", 400, "4000006"),
        ("a history id of letters", f"{sb}/v2/history/abc", 400, "4000006"),
        ("an unknown id", f"{sb}/v1/transactions/1234567890", 404, "4040010"),
        ("this app's Sandbox subscriber on a Production path", f"/inApps/v1/subscriptions/{OWN}", 404, "4040010"),
    ]:
        h.case(f"{name} → {status} {code}", api("GET", path, good), status, code)

    # --- Query parameters ----------------------------------------------------------------------------
    history = f"{sb}/v2/history/{OWN}"
    for query, status, code in [
        ("revision=r%2B3", 400, "4000005"), ("revision=r02", 400, "4000005"), ("revision=r-1", 400, "4000005"), ("revision=rabc", 400, "4000005"),
        ("revision=r99999", 400, "4000005"), ("revision=x0", 400, "4000005"), ("revision=r", 400, "4000005"),
        ("sort=SIDEWAYS", 400, "4000021"), ("revoked=maybe", 400, "4000030"),
        ("startDate=abc", 400, "4000015"), ("endDate=nan", 400, "4000016"), ("startDate=1e400", 400, "4000015"),
    ]:
        h.case(f"history ?{query} → {status} {code}", api("GET", f"{history}?{query}", good), status, code)
    for query in ["status=9", "status=abc", "status=0"]:
        h.case(f"statuses ?{query} → 400 4000031", api("GET", f"{statuses}?{query}", good), 400, "4000031")
    note_history = f"{sb}/v1/notifications/history"
    window = json.dumps({"startDate": (now - 86400) * 1000, "endDate": now * 1000}).encode()
    h.case("notification history ?paginationToken=p%2B0 → 400 4000014", api("POST", f"{note_history}?paginationToken=p%2B0", good, window), 400, "4000014")

    # --- Unknown endpoints ---------------------------------------------------------------------------
    for name, method, path in [("an unknown endpoint", "GET", f"{sb}/v1/unknown/{OWN}"), ("API version 9", "GET", f"{sb}/v9/transactions/{OWN}"),
                               ("DELETE of a transaction", "DELETE", f"{sb}/v1/transactions/{OWN}"),
                               ("Get App Transaction Info for an id no customer has", "GET", f"{sb}/v1/transactions/appTransactions/9999999999999"),
                               ("Look Up Order ID on the sandbox (Apple has none)", "GET", f"{sb}/v1/lookup/MTXXXXXX"),
                               ("the bare /inApps/", "GET", "/inApps/")]:
        h.case(f"{name} → 404", api(method, path, good), 404)

    # --- Bodies --------------------------------------------------------------------------------------
    extend = f"{sb}/v1/subscriptions/extend/{OWN}"
    h.case("an extension body of 65 KiB → 413", api("PUT", extend, good, b" " * (65 << 10)), 413)
    h.case("a notification-history body of 1 MB → 413", api("POST", note_history, good, b" " * (1 << 20)), 413)
    for name, body, code in [
        ("an extension body that is not JSON", b"{days: 3", "4000009"),
        ("extendByDays a string", b'{"extendByDays": "3", "extendReasonCode": 1, "requestIdentifier": "h-1"}', "4000009"),
        ("extendReasonCode 9", b'{"extendByDays": 3, "extendReasonCode": 9, "requestIdentifier": "h-2"}', "4000010"),
        ("no requestIdentifier", b'{"extendByDays": 3, "extendReasonCode": 1}', "4000011"),
    ]:
        h.case(f"{name} → 400 {code}, file unchanged", api("PUT", extend, good, body), 400, code)
    h.case("notification history with start after end → 400 4000013",
           api("POST", note_history, good, json.dumps({"startDate": now * 1000, "endDate": (now - 60) * 1000}).encode()), 400, "4000013")
    h.case("notification history from 1970 → 400 4000012",
           api("POST", note_history, good, json.dumps({"startDate": 1, "endDate": now * 1000}).encode()), 400, "4000012")
    h.case("an app account token that is not a UUID → 400 4000183, file unchanged",
           api("PUT", f"{sb}/v1/transactions/{OWN}/appAccountToken", good, b'{"appAccountToken": "not-a-uuid"}'), 400, "4000183")
    h.case("consumption information without consent → 400 4000035, file unchanged",
           api("PUT", f"{sb}/v2/transactions/consumption/{OWN}", good,
               b'{"customerConsented": false, "deliveryStatus": "DELIVERED", "sampleContentProvided": false}'), 400, "4000035")

    # --- Another app's subscriber in the directory: 404 4040010 everywhere, nothing written ------------
    for name, method, path, body in [
        ("Get Transaction Info", "GET", f"{sb}/v1/transactions/{OTHER}", None),
        ("Get All Subscription Statuses", "GET", f"{sb}/v1/subscriptions/{OTHER}", None),
        ("Get Transaction History v1", "GET", f"{sb}/v1/history/{OTHER}", None),
        ("Get Transaction History v2", "GET", f"{sb}/v2/history/{OTHER}", None),
        ("Get Refund History", "GET", f"{sb}/v2/refund/lookup/{OTHER}", None),
        ("Extend a Subscription Renewal Date", "PUT", f"{sb}/v1/subscriptions/extend/{OTHER}",
         b'{"extendByDays": 3, "extendReasonCode": 1, "requestIdentifier": "other-1"}'),
        ("Set App Account Token", "PUT", f"{sb}/v1/transactions/{OTHER}/appAccountToken", f'{{"appAccountToken": "{UUID_TOKEN}"}}'.encode()),
        ("Send Consumption Information", "PUT", f"{sb}/v2/transactions/consumption/{OTHER}",
         b'{"customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false, "consumptionPercentage": 25000, "refundPreference": "DECLINE"}'),
        ("Get Notification History for its id", "POST", note_history,
         json.dumps({"startDate": (now - 29 * 86400) * 1000, "endDate": now * 1000, "transactionId": OTHER}).encode()),
    ]:
        h.case(f"another app's subscriber, {name} → 404 4040010, nothing written", api(method, path, good, body), 404, "4040010")

    # --- The receiver serve runs: the out-of-range signedDate JWS (once signal 4) ----------------------
    signer = Signer(f"{work}/serve-ca")
    note = P.renewal_notification(signer, OWN, bundle=APP)
    for date in P.BAD_DATES:
        h.case(f"POST / a notification with signedDate {date!r} and 64 zero bytes → 403", lambda port, date=date: exchange(
            port, request("POST", "/", P.body(signer.with_signature({**note, "signedDate": date}, b"\x00" * 64)), "application/json")),
            403, "signedDate")

    # --- Good requests are still answered --------------------------------------------------------------
    h.case("Get All Subscription Statuses for this app's subscriber → 200", api("GET", statuses, good), 200, "signedTransactionInfo")

    def token_written(diff):
        return None if [x for x in diff if x.endswith(f"{OWN}.json")] and UUID_TOKEN.lower() in open(f"{d}/{OWN}.json").read().lower() \
            else f"Set App Account Token answered 200 but the file does not hold the token ({diff})"
    h.case("Set App Account Token for this app's subscriber → 200, written", api("PUT", f"{sb}/v1/transactions/{OWN}/appAccountToken", good,
           f'{{"appAccountToken": "{UUID_TOKEN}"}}'.encode()), 200, writes=token_written)
