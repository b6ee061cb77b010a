#!/usr/bin/env bash
# Runs every dashboard benchmark in turn (about 5 minutes; the idle test alone takes 3).
# Results go to stdout; copy them into docs/benchmarks-dashboard.md by hand, with the date.
# Usage: bash scripts/bench/all.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
(cd "$root" && swift build -c release) >&2 || exit 2
SUBDASH_BIN="$(cd "$root" && swift build -c release --show-bin-path)/subdash"
export SUBDASH_BIN
status=0
for name in live-latency idle-cost redraw-bytes memory show-vs-jq; do
  echo "== $name"
  bash "$here/$name.sh" || status=1
done
exit $status
