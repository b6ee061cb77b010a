#!/usr/bin/env bash
# Cross-check `subdash verify` against Apple's official Python library on a fresh corpus (valid and
# tampered JWS from a test CA made now) plus the real Apple-signed fixtures. Creates .venv-oracle
# with app-store-server-library when missing (PyPI); fast when present.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source Tests/oracle/lib.sh
ensure_oracle_venv
swift build --product subdash >/dev/null
swift build --product SigningOracleTool >/dev/null
bin="$(swift build --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin/SigningOracleTool" corpus "$work" >/dev/null
.venv-oracle/bin/python Tests/oracle/compare.py "$bin/subdash" \
  "$work/ca/root.der" "$work/ca/expired-root.der" "$work/ca/noleafoid-root.der" "$work/ca/nointermediateoid-root.der" \
  Tests/AppStoreSigningTests/Fixtures/AppleRootCA-G3.cer \
  -- "$work"/jws/*.jws Tests/AppStoreSigningTests/Fixtures/real-apple/*.jws
