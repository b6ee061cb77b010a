#!/usr/bin/env bash
# The test command (README): every test target in its own `swift test` process, one after another.
#
# Why not one `swift test`: Swift Testing starts every test of the package at once on the
# cooperative pool, which has one thread per core. On a 2-core machine two tests that block a
# thread (running the built binary, waiting on a lock another process holds) stall every other
# target's tests for tens of seconds, and tests that check a time bound (a lock wait, the
# retention time limit) then fail for a reason that is not theirs. One target at a time keeps a
# target's own tests parallel and the whole run as fast (about the same wall time, measured).
#
# Usage: bash scripts/test.sh [--skip-build]
set -euo pipefail
cd "$(dirname "$0")/.."

targets=()
for dir in Tests/*Tests; do targets+=("$(basename "$dir")"); done

[[ "${1:-}" == --skip-build ]] || swift build --build-tests

# The database tests need a PostgreSQL test server. One named by SUBDASH_TEST_DB (CI's) is used as
# it is; otherwise this script starts Debian's PostgreSQL for the run, in a data directory of its
# own on a free loopback port (never a server another run started, which it would then stop), and
# stops it after. Without PostgreSQL installed they are skipped, and said so.
database_note=""
if [[ -z "${SUBDASH_TEST_DB:-}" ]]; then
  SUBDASH_PGDATA=$(mktemp -d /tmp/subdash-test-pgdata.XXXXXX)
  SUBDASH_PGPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  export SUBDASH_PGDATA SUBDASH_PGPORT
  trap 'bash scripts/postgres-test-server.sh stop 2>/dev/null; rm -rf "$SUBDASH_PGDATA"' EXIT
  if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && source scripts/postgres-test-server.sh start; then :
  else
    unset SUBDASH_TEST_DB
    database_note="the database tests were NOT RUN: no PostgreSQL test server (apt-get install postgresql, or set SUBDASH_TEST_DB)"
    echo "test.sh: $database_note" >&2
  fi
fi
failed=()
total=0
for target in "${targets[@]}"; do
  log=$(mktemp)
  if swift test --skip-build --filter "^$target\." 2>&1 | tee "$log" | grep -E '^(✘|✔ Test run with)' | grep -v '^✘ Suite'; then :; fi
  status=${PIPESTATUS[0]}
  ran=$(grep -Eo 'Test run with [0-9]+ test' "$log" | grep -Eo '[0-9]+' | tail -1 || true)
  rm -f "$log"
  if [[ -z "$ran" || "$ran" -eq 0 ]]; then echo "test.sh: $target ran no test (filter ^$target\\.)" >&2; failed+=("$target"); continue; fi
  total=$((total + ran))
  [[ $status -eq 0 ]] || failed+=("$target")
done

# Every test of the package ran in one of the targets above (a new target is picked up by its folder).
listed=$(swift test list --skip-build 2>/dev/null | grep -c '/' || true)
echo "test.sh: $total tests in ${#targets[@]} targets (the package lists $listed)"
if [[ "$listed" -ne "$total" ]]; then echo "test.sh: $((listed - total)) listed tests ran in no target" >&2; exit 1; fi
[[ -z "$database_note" ]] || echo "test.sh: $database_note" >&2
if ((${#failed[@]})); then echo "test.sh: failed: ${failed[*]}" >&2; exit 1; fi
