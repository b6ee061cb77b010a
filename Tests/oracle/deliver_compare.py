#!/usr/bin/env python3
"""Checks a `subdash deliver` run against what Apple's library decoded (deliver_receiver.py's log):

- every request Apple's library saw verified (no "error" lines);
- every notification written while delivering arrived, verified, with the same type, subtype,
  signedDate and status the state file's log shows, and a transaction and renewal info of the
  same subscriber;
- the state file's deliveries agree: each delivered, with its attempts (scripted 500s included).

Usage: deliver_compare.py LOG SHOW_JSON EXPECTED_COUNT
"""
import json, sys

log_path, show_path, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = [json.loads(l) for l in open(log_path) if l.strip()]
show = json.load(open(show_path))
failures = []

errors = [l for l in lines if "error" in l]
for e in errors:
    failures.append(f"Apple's library refused a delivery: {e['error']}")
verified = {l["notificationUUID"]: l for l in lines if l.get("answered") == 200}
book = show.get("deliveries") or {}
delivered = [d for d in book.get("recent", []) if not d.get("duplicate")]
if len(delivered) != expected:
    failures.append(f"the state file records {len(delivered)} deliveries, expected {expected}")
log = {n["notificationUUID"]: n for n in show["notifications"]}
for d in delivered:
    uuid = d["notificationUUID"]
    attempts = d["sendAttempts"]
    if attempts[-1]["sendAttemptResult"] != "SUCCESS":
        failures.append(f"{uuid}: last attempt {attempts[-1]['sendAttemptResult']}")
        continue
    got = verified.get(uuid)
    if got is None:
        failures.append(f"{uuid} ({d['notificationType']}): recorded as delivered but Apple's library never verified it")
        continue
    mine = log.get(uuid)
    if mine is None:
        failures.append(f"{uuid}: not in the file's notification log")
        continue
    for field in ["notificationType", "subtype", "signedDate", "status"]:
        if got.get(field) != mine.get(field):
            failures.append(f"{uuid}: {field} is {got.get(field)!r} to Apple's library, {mine.get(field)!r} in the file")
    if got["version"] != "2.0":
        failures.append(f"{uuid}: version {got['version']!r}")
    if got["originalTransactionId"] != show["latestTransaction"]["originalTransactionId"] or \
            got["renewalOriginalTransactionId"] != got["originalTransactionId"]:
        failures.append(f"{uuid}: the nested transaction or renewal info is another subscriber's")

retried = sum(1 for d in delivered if len(d["sendAttempts"]) > 1)
for f in failures:
    print("deliver-oracle: FAIL " + f)
if failures:
    sys.exit(1)
kinds = sorted({v["notificationType"] + ("/" + v["subtype"] if v.get("subtype") else "") for v in verified.values()})
print(f"deliver-oracle: ok, {len(delivered)} notifications delivered by subdash and verified by Apple's library "
      f"({', '.join(kinds)}); {retried} after a retry; fields agree with the state file")
