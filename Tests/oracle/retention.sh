#!/usr/bin/env bash
# The Retention Messaging cancel flow against Apple's app-store-server-library: messages and the
# realtime URL configured with Apple's client through `subdash serve`; every realtime request
# `subdash-retention` signs verified by SignedDataVerifier.verify_and_decode_realtime_request;
# answers built with Apple's models shown as the App Store shows them. Uses .venv-oracle.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source Tests/oracle/lib.sh
ensure_oracle_venv
swift build --product subdash >/dev/null
swift build --product subdash-listen >/dev/null
swift build --product subdash-retention >/dev/null
bin="$(swift build --show-bin-path)"
work="$(mktemp -d)"
server=""
cleanup() { [[ -n $server ]] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
mkdir "$work/dir"
id=2000000871234560
cp Examples/active.json "$work/dir/$id.json"
"$bin/subdash" ca init "$work/ca" >/dev/null
.venv-oracle/bin/python - "$work/key.p8" <<'PY'
import sys
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
key = ec.generate_private_key(ec.SECP256R1())
open(sys.argv[1], "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
PY
chmod 600 "$work/key.p8"
issuer=57246542-96fe-1a63-e053-0824d011072a
"$bin/subdash" serve --port 0 --key-id TESTKEY123 --issuer-id "$issuer" --key "$work/key.p8" --bundle-id com.example.birdwatch \
  --ca "$work/ca" "$work/dir" >"$work/serve.out" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do grep -q listening "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve.out" | head -1)
.venv-oracle/bin/python Tests/oracle/retention_oracle.py "$url" "$work/key.p8" TESTKEY123 "$issuer" com.example.birdwatch \
  "$work/ca/root.der" "$work/dir/$id.json" "$bin/subdash-retention" "$work/ca" || {
  echo "retention-oracle: the server's log:"; cat "$work/serve.log"; exit 1; }
