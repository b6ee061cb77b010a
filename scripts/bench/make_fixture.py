"""Writes state files for the benchmarks, derived from an example.

  python3 make_fixture.py wall EXAMPLE OUT SECONDS
      No `simulation` key (the dashboard runs on the wall clock), and every date in `subscriber`
      shifted by the same amount so the current period ends SECONDS from now: history, renewal
      info and notifications stay consistent with each other.
  python3 make_fixture.py transactions EXAMPLE OUT COUNT
      subscriber.transactions replaced by COUNT monthly renewals (realistic JWS transaction
      payloads, increasing dates from 2008 on; daily periods when monthly
      ones would pass year 3000), ending with the example's latest transaction.
"""
import copy
import json
import sys
import time

mode, example, out, arg = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
with open(example) as f:
    doc = json.load(f)
sub = doc["subscriber"]


def shift_dates(node, delta):
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("Date") and isinstance(value, (int, float)):
                node[key] = value + delta
            else:
                shift_dates(value, delta)
    elif isinstance(node, list):
        for item in node:
            shift_dates(item, delta)


if mode == "wall":
    doc.pop("simulation", None)
    now_ms = int(time.time() * 1000)
    delta = now_ms + int(arg) * 1000 - sub["latestTransaction"]["expiresDate"]
    shift_dates(sub, delta)
elif mode == "transactions":
    count = int(arg)
    template = sub["latestTransaction"]
    month_ms = 30 * 86_400_000
    start = 1_199_145_600_000  # 2008-01-01
    year_3000 = 32_503_680_000_000
    # 100k monthly renewals would run past year 3000 (the dates' valid range): use daily ones then.
    period = month_ms if start + count * month_ms < year_3000 else 86_400_000
    original_id = int(template["originalTransactionId"])
    txs = []
    for i in range(count):
        t = copy.deepcopy(template)
        purchase = start + i * period
        t["transactionId"] = str(original_id + i)
        t["webOrderLineItemId"] = str(int(template["webOrderLineItemId"]) - count + i)
        t["purchaseDate"] = purchase
        t["originalPurchaseDate"] = start
        t["expiresDate"] = purchase + period
        t["signedDate"] = purchase + 1_812
        t["transactionReason"] = "PURCHASE" if i == 0 else "RENEWAL"
        txs.append(t)
    sub["transactions"] = txs
    last = txs[-1]
    sub["latestTransaction"] = copy.deepcopy(last)
    if "renewalInfo" in sub:
        sub["renewalInfo"]["renewalDate"] = last["expiresDate"]
        sub["renewalInfo"]["recentSubscriptionStartDate"] = start
    sim = doc.setdefault("simulation", {})
    sim["now"] = last["purchaseDate"] + period // 2
else:
    sys.exit(f"unknown mode {mode}")

with open(out, "w") as f:
    json.dump(doc, f, indent=2)
