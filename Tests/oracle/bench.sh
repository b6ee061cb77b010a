#!/usr/bin/env bash
# Verify cost, Swift (release) vs Apple's Python library, same files, one run; then a whole
# `subdash verify` process on one JWS (hyperfine). Numbers go to docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
swift build -c release --product subdash >/dev/null
swift build -c release --product SigningOracleTool >/dev/null
bin="$(swift build -c release --show-bin-path)"
apple_root=Tests/AppStoreSigningTests/Fixtures/AppleRootCA-G3.cer
real=Tests/AppStoreSigningTests/Fixtures/real-apple/ruby_sandbox_transaction.jws
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$bin/SigningOracleTool" corpus "$work" >/dev/null
echo "== real Apple-signed transaction ($real)"
"$bin/SigningOracleTool" bench "$real" 2000
.venv-oracle/bin/python Tests/oracle/bench_python.py "$real" 300 "$apple_root"
echo "== test-CA transaction"
"$bin/SigningOracleTool" bench "$work/jws/valid-transaction.jws" 2000 "$work/ca/root.der"
.venv-oracle/bin/python Tests/oracle/bench_python.py "$work/jws/valid-transaction.jws" 300 "$work/ca/root.der"
echo "== whole process: subdash verify on one JWS"
hyperfine -N --warmup 5 --runs 50 "$bin/subdash verify $real"
