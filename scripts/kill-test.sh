#!/usr/bin/env bash
# Crash safety of the write path: a child process saves renewals in a loop (StateFile.update:
# journal append + fsync, then atomic rename); it is SIGKILLed at random moments, and after each
# kill the file must load as one complete version, never older than before, with the committed
# part of its journal intact; the next save must clean up whatever the killed one left.
#   bash scripts/kill-test.sh [KILLS] [SEED]     default 200 kills; prints one summary line
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
kills=${1:-200}
seed=${2:-$RANDOM}
# Debug by default: after `swift build` (CI) it is already built; SUBDASH_FAULT_CONFIG=release for speed.
config=${SUBDASH_FAULT_CONFIG:-debug}
swift build -c "$config" --product SubDashFaultProbe >/dev/null
probe="$(swift build -c "$config" --show-bin-path)/SubDashFaultProbe"
dir=$(mktemp -d "${TMPDIR:-/tmp}/subdash-kill-test.XXXXXX")
trap 'rm -rf "$dir"' EXIT
echo "kill-test: seed $seed"
"$probe" kill-test "$dir/files" --kills "$kills" --seed "$seed"
