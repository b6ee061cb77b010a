#!/usr/bin/env python3
"""µs per verify of one JWS with Apple's app-store-server-library (online checks off), warm.
Usage: bench_python.py FILE ROUNDS ROOT_DER...   (environment and bundle id taken from the payload)"""
import base64, json, sys, time
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
from appstoreserverlibrary.models.Environment import Environment

path, rounds, roots = sys.argv[1], int(sys.argv[2]), [open(r, "rb").read() for r in sys.argv[3:]]
jws = open(path).read().strip()
part = jws.split(".")[1]
payload = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
env = Environment.PRODUCTION if payload.get("environment") == "Production" else Environment.SANDBOX
verifier = SignedDataVerifier(roots, False, env, payload.get("bundleId", "com.example"), 1234)
verifier.verify_and_decode_signed_transaction(jws)  # warm
start = time.perf_counter()
for _ in range(rounds):
    verifier.verify_and_decode_signed_transaction(jws)
print(f"python: {(time.perf_counter() - start) / rounds * 1e6:.1f} us per verify (Apple's library, {rounds} rounds)")
