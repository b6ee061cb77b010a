#!/usr/bin/env bash
# Builds the libFuzzer target over DashModel's sources (only when a source changed) and runs it.
#   bash Fuzz/run.sh [SECONDS]        default 60; prints one summary line at the end
#   bash Fuzz/run.sh 15 -jobs=2 …     extra arguments go to libFuzzer
# Inputs: the first byte picks the mode (see Fuzz/StateFileFuzz.swift). Seeds are Examples/*.json,
# the hostile corpus, the .storekit fixtures and Fuzz/seeds/*; the growing corpus stays in
# .build/fuzz/corpus between runs. A finding is written to .build/fuzz/crash-* (or leak-*, oom-*,
# timeout-*): fix it, then copy it into Tests/DashModelTests/Fixtures/hostile/ with a line in
# EXPECTED.tsv so the corpus test keeps it fixed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swiftc >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swiftc ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
seconds="${1:-60}"
shift || true
out=.build/fuzz
bin="$out/statefile-fuzzer"
mkdir -p "$out/corpus" "$out/seeds"

mapfile -t sources < <(find Sources/DashModel -name '*.swift' | sort)
needs_build=0
[[ -x "$bin" ]] || needs_build=1
if ((needs_build == 0)); then
  for f in "${sources[@]}" Fuzz/StateFileFuzz.swift; do [[ "$f" -nt "$bin" ]] && { needs_build=1; break; }; done
fi
if ((needs_build)); then
  echo "fuzz: building $bin (swiftc -sanitize=fuzzer,address)…"
  # Compile a snapshot, so editing a source during the minutes this takes cannot break the build.
  rm -rf "$out/src" && mkdir -p "$out/src"
  cp "${sources[@]}" Fuzz/StateFileFuzz.swift "$out/src/"
  # ld.gold warns about every ASan helper symbol it cannot export; only real errors matter.
  # DashModel's storage uses swift-system (SystemPackage): link the module `swift build` made
  # (it is not fuzzed, so it needs no coverage instrumentation).
  debug=$(swift build --show-bin-path)
  [[ -f "$debug/Modules/SystemPackage.swiftmodule" ]] || swift build --product SubDashFaultProbe >/dev/null
  system_objects=("$debug"/SystemPackage.build/*.swift.o "$debug"/CSystem.build/*.c.o)
  if ! swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name DashModel \
      -I "$debug/Modules" -Xcc -fmodule-map-file=.build/checkouts/swift-system/Sources/CSystem/include/module.modulemap \
      "$out"/src/*.swift "${system_objects[@]}" -o "$bin.new" >"$out/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$out/build.log" | tail -30
    echo "fuzz: BUILD FAILED"
    exit 1
  fi
  mv "$bin.new" "$bin"
fi

# Seeds: every file SubDash should open or refuse cleanly, plus mode-prefixed text inputs.
cp -n Examples/*.json Examples/*.storekit "$out/seeds/" 2>/dev/null || true
cp -n Tests/DashModelTests/Fixtures/storekit/* "$out/seeds/" 2>/dev/null || true
find Tests/DashModelTests/Fixtures/hostile Tests/DashModelTests/Fixtures/fuzz -maxdepth 1 -type f ! -name '*.tsv' ! -name '*.md' -exec cp -n {} "$out/seeds/" \; 2>/dev/null || true
cp -n Fuzz/seeds/* "$out/seeds/" 2>/dev/null || true

log="$out/last-run.log"
set +e
(cd "$out" && ./statefile-fuzzer -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -dict=../../Fuzz/statefile.dict -artifact_prefix=./ -print_final_stats=1 "$@" corpus seeds) >"$log" 2>&1
status=$?
set -e
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
corpus=$(find "$out/corpus" -type f | wc -l)
findings=$(grep -o 'Test unit written to \./[a-z]*-[0-9a-f]*' "$log" | sed "s#.*\./#$out/#" | sort -u | tr '\n' ' ' || true)
if ((status != 0)) || [[ -n "$findings" ]]; then
  grep -E "^==[0-9]+==ERROR|Fatal error|SUMMARY|deadly signal|^#[0-9]+ .* in " "$log" | head -20
  echo "fuzz: FAILED after ${runs:-?} executions in ${seconds}s; findings: ${findings:-none written} (log: $log)"
  exit 1
fi
echo "fuzz: ok, ${runs:-?} executions in ${seconds}s, corpus ${corpus} inputs, no crashes (log: $log)"
