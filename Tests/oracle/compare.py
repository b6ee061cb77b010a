#!/usr/bin/env python3
"""Cross-check `subdash verify --json` against Apple's app-store-server-library (SignedDataVerifier,
online checks off, environment taken from the payload: Sandbox/Production, never Xcode/LocalTesting,
for which Apple's library checks nothing).

Usage: compare.py SUBDASH ROOT_DER... -- JWS_FILE...
Fails (exit 1) on any disagreement in verdict or in decoded fields; prints one line per file.
Apple's library is told the bundle id (and app Apple id) each payload claims: those app-level checks
are not part of `subdash verify`, so they must not decide the verdict here.
"""
import base64, json, subprocess, sys
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from appstoreserverlibrary.models.Environment import Environment

FIELDS = ["transactionId", "originalTransactionId", "productId", "bundleId", "signedDate", "expiresDate",
          "price", "currency", "autoRenewProductId", "autoRenewStatus", "notificationUUID", "version"]
RAW = {"environment": "rawEnvironment", "notificationType": "rawNotificationType", "subtype": "rawSubtype",
       "type": "rawType", "transactionReason": "rawTransactionReason"}


def peek(jws):
    """The unverified payload, to choose the method and the app-level settings Apple's library wants."""
    try:
        part = jws.strip().split(".")[1]
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except Exception:
        return None


def apple_verdict(jws, roots):
    payload = peek(jws)
    if not isinstance(payload, dict):
        return "invalid", None
    data = payload.get("data") or {}
    env_name = data.get("environment") or payload.get("environment") or "Sandbox"
    env = Environment.PRODUCTION if env_name == "Production" else Environment.SANDBOX
    bundle = data.get("bundleId") or payload.get("bundleId") or "com.example"
    verifier = SignedDataVerifier(roots, False, env, bundle, data.get("appAppleId") or 1234)
    try:
        if "notificationType" in payload:
            decoded = verifier.verify_and_decode_notification(jws.strip())
            nested = []
            if data.get("signedTransactionInfo"):
                nested.append(verifier.verify_and_decode_signed_transaction(data["signedTransactionInfo"]))
            if data.get("signedRenewalInfo"):
                nested.append(verifier.verify_and_decode_renewal_info(data["signedRenewalInfo"]))
            return "valid", decoded
        if "transactionId" in payload:
            return "valid", verifier.verify_and_decode_signed_transaction(jws.strip())
        return "valid", verifier.verify_and_decode_renewal_info(jws.strip())
    except Exception as e:  # VerificationException, or a decoding error: both are a refusal
        return "invalid", None


def fields(decoded):
    out = {}
    for name in FIELDS:
        value = getattr(decoded, name, None)
        if value is not None:
            out[name] = value
    for name, raw in RAW.items():
        value = getattr(decoded, raw, None)
        if value is not None:
            out[name] = value
    data = getattr(decoded, "data", None)
    if data is not None and getattr(data, "rawEnvironment", None):
        out["data.environment"] = data.rawEnvironment
    return out


def ours_fields(payload):
    out = {k: payload[k] for k in FIELDS + list(RAW) if k in payload}
    if isinstance(payload.get("data"), dict) and "environment" in payload["data"]:
        out["data.environment"] = payload["data"]["environment"]
    return out


def main():
    args = sys.argv[1:]
    split = args.index("--")
    subdash, root_files, files = args[0], args[1:split], args[split + 1:]
    roots = [open(r, "rb").read() for r in root_files]
    command = [subdash, "verify", "--json"] + sum((["--root", r] for r in root_files), []) + files
    result = subprocess.run(command, capture_output=True, text=True)
    ours = [json.loads(line) for line in result.stdout.splitlines()]
    if len(ours) != len(files):
        print(f"oracle: subdash printed {len(ours)} results for {len(files)} files: {result.stderr.strip()}")
        return 1
    disagreements = 0
    for path, mine in zip(files, ours):
        jws = open(path).read()
        verdict, decoded = apple_verdict(jws, roots)
        problem = None
        if verdict != mine["verdict"]:
            problem = f"Apple's library says {verdict}, subdash says {mine['verdict']} ({mine.get('reason', '')})"
        elif verdict == "valid":
            theirs, mine_fields = fields(decoded), ours_fields(mine["payload"])
            if theirs != mine_fields:
                problem = f"decoded fields differ: Apple {theirs} vs subdash {mine_fields}"
        name = path.rsplit("/", 1)[-1]
        if problem:
            disagreements += 1
            print(f"DISAGREE {name}: {problem}")
        else:
            print(f"agree    {name}: {verdict}" + (f" ({mine['reason']})" if verdict == "invalid" else ""))
    print(f"oracle: {len(files) - disagreements}/{len(files)} agree with Apple's app-store-server-library")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
