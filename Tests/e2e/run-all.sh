#!/usr/bin/env bash
# Builds once, runs every Tests/e2e/*.e2e.sh, and prints one closing line for CI:
#   e2e: N passed, M failed
# Exits non-zero if any test failed, any script died without its summary, or the build failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

if ! swift build; then
  echo "e2e: 0 passed, 1 failed"
  exit 1
fi
SUBDASH_BIN="$(swift build --show-bin-path)/subdash"
export SUBDASH_BIN

passed=0
failed=0
log=$(mktemp "${TMPDIR:-/tmp}/subdash-e2e-run.XXXXXX")
trap 'rm -f "$log"' EXIT

shopt -s nullglob
scripts=(Tests/e2e/*.e2e.sh)
if ((${#scripts[@]} == 0)); then
  echo "run-all: no Tests/e2e/*.e2e.sh found" >&2
  echo "e2e: 0 passed, 1 failed"
  exit 1
fi

for script in "${scripts[@]}"; do
  echo "== $script"
  bash "$script" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  summary=$(grep -E '^e2e: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n1)
  if [[ -z "$summary" ]]; then
    echo "run-all: $script ended (status $status) without a summary line; counted as one failure" >&2
    failed=$((failed + 1))
    continue
  fi
  read -r p f < <(sed -E 's/^e2e: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/' <<<"$summary")
  passed=$((passed + p))
  failed=$((failed + f))
  if ((status != 0 && f == 0)); then
    echo "run-all: $script exited with status $status; counted as one failure" >&2
    failed=$((failed + 1))
  fi
done

echo "e2e: $passed passed, $failed failed"
((failed == 0))
