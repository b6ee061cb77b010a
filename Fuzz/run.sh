#!/usr/bin/env bash
# Builds the libFuzzer target over DashModel's sources and runs it.
#   bash Fuzz/run.sh [SECONDS]   (default 10)
# Findings (crash-*, leak-*) land in .build/fuzz/; copy each into Tests/DashModelTests/Fixtures/hostile/
# after fixing it, so the corpus test keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
out=.build/fuzz
mkdir -p "$out/corpus"
cp -n Examples/*.json "$out/corpus/" 2>/dev/null || true
cp -n Tests/DashModelTests/Fixtures/hostile/* "$out/corpus/" 2>/dev/null || true
mapfile -t sources < <(find Sources/DashModel -name '*.swift' | sort)
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name DashModel \
  "${sources[@]}" Fuzz/StateFileFuzz.swift -o "$out/statefile-fuzzer" 2>&1 | grep -v "^$" || true
test -x "$out/statefile-fuzzer"
cd "$out"
./statefile-fuzzer -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=1 corpus 2>&1 | tail -15
