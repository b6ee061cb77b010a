#!/usr/bin/env python3
"""Validates every Examples/*.json against docs/state-file.schema.json (JSON Schema 2020-12).

Usage: python3 Tests/schema/validate.py   (from anywhere; paths are found from this file)
Needs the `jsonschema` package (pip install jsonschema). Exits non-zero on any failure.

It also feeds the schema a few broken documents that SubDash itself rejects, so a schema that
accepts everything cannot pass.
"""
import json
import sys
from pathlib import Path

try:
    from jsonschema import Draft202012Validator
except ImportError:
    sys.exit("schema: the Python package 'jsonschema' is missing; install it with: python3 -m pip install jsonschema")

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "state-file.schema.json"
EXAMPLES = ROOT / "Examples"


def broken_variants(doc):
    """Copies of a valid document with one error SubDash's loader reports."""
    def edit(fn):
        copy = json.loads(json.dumps(doc))
        fn(copy)
        return copy

    def both_catalogs(d):
        d["catalogFile"] = "other.storekit"

    def string_status(d):
        d["subscriber"]["renewalInfo"]["autoRenewStatus"] = "on"

    def bad_policy(d):
        d["policy"] = {"billingRetryAccess": "sometimes"}

    def custom_code_without_code(d):
        d["offerCodes"] = [{"type": "custom", "productId": "p", "offerReference": "r"}]

    def seconds_out_of_range(d):
        d["subscriber"]["latestTransaction"]["expiresDate"] = 1e17

    def no_subscriber(d):
        del d["subscriber"]

    return {
        "catalog and catalogFile together": edit(both_catalogs),
        "autoRenewStatus as a string": edit(string_status),
        "unknown billingRetryAccess": edit(bad_policy),
        "custom offer code without code": edit(custom_code_without_code),
        "date outside years 1900-3000": edit(seconds_out_of_range),
        "missing subscriber": edit(no_subscriber),
    }


def main():
    schema = json.loads(SCHEMA.read_text())
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)

    files = sorted(EXAMPLES.glob("*.json"))
    if not files:
        sys.exit(f"schema: no examples found in {EXAMPLES}")
    passed, failed = 0, 0
    for path in files:
        errors = sorted(validator.iter_errors(json.loads(path.read_text(encoding="utf-8-sig"))), key=lambda e: list(e.path))
        if errors:
            failed += 1
            for e in errors:
                where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.path)
                print(f"{path.name}: {where}: {e.message}")
        else:
            passed += 1

    base = json.loads((EXAMPLES / "active.json").read_text())
    accepted = [name for name, doc in broken_variants(base).items() if validator.is_valid(doc)]
    for name in accepted:
        print(f"schema: accepted a broken document ({name})")

    print(f"schema: {passed} passed, {failed} failed")
    if failed or accepted:
        sys.exit(1)


if __name__ == "__main__":
    main()
