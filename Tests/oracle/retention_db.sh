#!/usr/bin/env bash
# serve --db keeps the Retention Messaging configuration in the team database: Apple's client
# (app-store-server-library) uploads messages, sets a default message and the realtime URL through
# `subdash serve --db`; the server is stopped and started again on the same database, and Apple's
# client reads back the same messages, default and URL (a second server on the database reads them
# too, and a deletion made through one is gone for the other). Uses .venv-oracle and a database on
# $SUBDASH_TEST_DB's server (source scripts/postgres-test-server.sh start).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
source Tests/oracle/lib.sh
ensure_oracle_venv
[[ -n ${SUBDASH_TEST_DB:-} ]] || { echo "retention-db-oracle: SUBDASH_TEST_DB is not set (source scripts/postgres-test-server.sh start)" >&2; exit 1; }
swift build --product subdash >/dev/null
swift build --product subdash-listen >/dev/null
swift build --product subdash-db >/dev/null
bin="$(swift build --show-bin-path)"
work="$(mktemp -d)"
servers=()
database="subdash_retention_oracle_$$"
cleanup() {
  for s in "${servers[@]}"; do kill "$s" 2>/dev/null || true; done
  psql "${SUBDASH_TEST_DB%/*}/postgres" -qAtc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/dir"
cp Examples/active.json "$work/dir/2000000871234560.json"
psql "${SUBDASH_TEST_DB%/*}/postgres" -qAtc "CREATE DATABASE $database" >/dev/null
export SUBDASH_DB="${SUBDASH_TEST_DB%/*}/$database"
"$bin/subdash" db import "$work/dir" >/dev/null
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

# Starts `subdash serve --db` (its log in $work/serve-$1.log); its URL in $url.
start() {
  "$bin/subdash" serve --port 0 --key-id TESTKEY123 --issuer-id "$issuer" --key "$work/key.p8" --bundle-id com.example.birdwatch \
    --ca "$work/ca" --db "$SUBDASH_DB" >"$work/serve-$1.out" 2>"$work/serve-$1.log" &
  servers+=($!)
  for _ in $(seq 200); do grep -q listening "$work/serve-$1.out" 2>/dev/null && break; sleep 0.1; done
  url=$(grep -o "http://127.0.0.1:[0-9]*" "$work/serve-$1.out" | head -1)
  [[ -n $url ]] || { echo "retention-db-oracle: serve --db did not start:"; cat "$work/serve-$1.log"; exit 1; }
}
client() {  # step url
  .venv-oracle/bin/python - "$@" "$work/key.p8" "$issuer" "$work/ids" <<'PY' || { echo "retention-db-oracle: FAIL ($1); the servers' logs:"; cat "$work"/serve-*.log; exit 1; }
import json, sys, uuid
from appstoreserverlibrary.api_client import AppStoreServerAPIClient, APIException
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
step, base, key_path, issuer, ids_path = sys.argv[1:6]
client = AppStoreServerAPIClient(open(key_path, "rb").read(), "TESTKEY123", issuer, "com.example.birdwatch", Environment.SANDBOX)
client._base_url = base + "/sandbox"  # Apple's library has no base-URL option; this is its one attribute
product, url = "com.example.birdwatch.monthly", "https://retention.example.com/realtime"
def listed():
    return sorted(str(m.messageIdentifier) for m in client.get_message_list().messageIdentifiers)
if step == "configure":
    ids = sorted(str(uuid.uuid4()) for _ in range(3))
    for n, i in enumerate(ids):
        client.upload_message(uuid.UUID(i), UploadMessageRequestBody(header=f"Message {n}", body="Birds are back in spring."))
    client.configure_default_message(product, "en-US", DefaultConfigurationRequest(messageIdentifier=uuid.UUID(ids[1])))
    client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=url))
    json.dump(ids, open(ids_path, "w"))
    assert listed() == ids, listed()
    print("configured: 3 messages, a default, the realtime URL")
elif step == "read-back":
    ids = json.load(open(ids_path))
    assert listed() == ids, f"messages after the restart: {listed()}, expected {ids}"
    assert str(client.get_default_message(product, "en-US").messageIdentifier) == ids[1], "default message after the restart"
    assert client.get_realtime_url().realtimeURL == url, "realtime URL after the restart"
    print("read back after the restart: the same 3 messages, default and URL")
elif step == "delete":
    ids = json.load(open(ids_path))
    client.delete_message(uuid.UUID(ids[0]))
    client.delete_realtime_url()
    try:
        client.delete_message(uuid.UUID(ids[0]))
        raise AssertionError("a message deleted twice")
    except APIException as e:
        assert e.raw_api_error == 4040015, f"deleting it again: {e.http_status_code} {e.raw_api_error}, expected 404 4040015"
    print("deleted a message and the realtime URL; deleting it again is Apple's 4040015")
elif step == "deleted":
    ids = json.load(open(ids_path))
    assert listed() == ids[1:], f"messages: {listed()}, expected {ids[1:]}"
    try:
        client.get_realtime_url()
        raise AssertionError("the realtime URL deleted through the other server is still there")
    except APIException as e:
        assert e.http_status_code == 404, e
    print("the other server sees the deletion")
PY
}

start first
client configure "$url"
kill "${servers[0]}"; wait "${servers[0]}" 2>/dev/null || true
start again
again=$url
client read-back "$again"
start other
client delete "$url"
client deleted "$again"
echo "retention-db-oracle: pass (configuration kept across a restart of serve --db and shared by two servers)"
