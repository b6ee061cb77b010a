#!/usr/bin/env python3
"""Writes DIR/state.json (a copy of Examples/active.json) with a journal of N renewals beside it:
N transaction lines and N DID_RENEW notification lines, in the format SubDash journals them, after
the example's own five notifications and before its simulated clock. Notification k has UUID
history-k and summary "renewal number k"; k = 1234 reads "the needle renewal" (a search target).

    python3 scripts/bench/make_history.py DIR N

Used by Tests/e2e/history.e2e.sh and for the 100,000-event measurement in
docs/benchmarks-dashboard.md. The same N always gives the same bytes.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_history.py DIR N")
    out, n = sys.argv[1], int(sys.argv[2])
    if n < 1 or n > 1_000_000:
        sys.exit("N must be 1 to 1,000,000")
    with open(os.path.join(ROOT, "Examples", "active.json")) as f:
        doc = json.load(f)
    latest = doc["subscriber"]["latestTransaction"]
    original = latest["originalTransactionId"]
    start = 1_776_969_136_400 + 60_000       # after the example's newest notification
    step = (1_778_770_800_000 - start) // (n + 1)  # all before the file's simulated clock
    lines = []
    for k in range(n):
        at = start + k * step
        transaction = {
            "transactionId": str(3_000_000_000_000_000 + k), "originalTransactionId": original,
            "productId": latest["productId"], "purchaseDate": at, "originalPurchaseDate": latest.get("originalPurchaseDate", at),
            "expiresDate": at + step, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
            "signedDate": at, "environment": "Sandbox", "transactionReason": "RENEWAL", "price": 7990, "currency": "USD",
        }
        notification = {
            "notificationType": "DID_RENEW", "notificationUUID": f"history-{k}", "signedDate": at + 1000,
            "status": 1, "productId": latest["productId"],
            "summary": "the needle renewal" if k == 1234 else f"renewal number {k}",
        }
        lines.append(json.dumps({"transaction": transaction}, separators=(",", ":")))
        lines.append(json.dumps({"notification": notification}, separators=(",", ":")))
    data = ("\n".join(lines) + "\n").encode()
    os.makedirs(out, mode=0o700, exist_ok=True)
    with open(os.path.join(out, "state.journal.jsonl"), "wb") as f:
        f.write(data)
    doc["journal"] = {"file": "state.journal.jsonl", "committedBytes": len(data),
                      "summary": {"transactionCount": n, "notificationCount": n}}
    with open(os.path.join(out, "state.json"), "w") as f:
        json.dump(doc, f, indent=2)
    print(f"{out}/state.json: {n} renewals, journal {len(data)} bytes")


if __name__ == "__main__":
    main()
