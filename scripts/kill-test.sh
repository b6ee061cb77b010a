#!/usr/bin/env bash
# Crash safety of the write path: a writer saves in a loop; it is SIGKILLed at random moments, and
# after each kill the file must load as one complete version, never older than before, with the
# committed part of its journal intact and no stray file but the killed writer's temporary file;
# the next save must clean up whatever the killed one left.
#   bash scripts/kill-test.sh [KILLS] [SEED]              the probe's writer (StateFile.update)
#   bash scripts/kill-test.sh --simulator [KILLS] [SEED]  the real `subdash simulate --fast`
# Default 200 kills; prints one summary line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
simulator=false
if [[ ${1:-} == --simulator ]]; then simulator=true; shift; fi
kills=${1:-200}
seed=${2:-$RANDOM}
# Debug by default: after `swift build` (CI) it is already built; SUBDASH_FAULT_CONFIG=release for speed.
config=${SUBDASH_FAULT_CONFIG:-debug}
swift build -c "$config" --product SubDashFaultProbe >/dev/null
bin="$(swift build -c "$config" --show-bin-path)"
dir=$(mktemp -d "${TMPDIR:-/tmp}/subdash-kill-test.XXXXXX")
trap 'rm -rf "$dir"' EXIT
if $simulator; then
  swift build -c "$config" --product subdash >/dev/null
  # An auto-renewing subscription at "one renewal every two seconds" (Tests/faults/renewing.scenario).
  mkdir "$dir/files"
  "$bin/subdash" simulate --scenario Tests/faults/renewing.scenario "$dir/files/state.json" >/dev/null 2>&1
  echo "kill-test (simulator): seed $seed"
  "$bin/SubDashFaultProbe" kill-test "$dir/files" --kills "$kills" --seed "$seed" --simulator "$bin/subdash"
else
  echo "kill-test: seed $seed"
  "$bin/SubDashFaultProbe" kill-test "$dir/files" --kills "$kills" --seed "$seed"
fi
