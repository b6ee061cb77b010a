#!/usr/bin/env bash
# Builds the libFuzzer target over the JWS verifier and the notification decoder (only when a source
# changed) and runs it.
#   bash Fuzz/run-jws.sh [SECONDS]        default 60; prints one summary line at the end
#   bash Fuzz/run-jws.sh 15 -jobs=2 …     extra arguments go to libFuzzer
# Inputs: see Fuzz/JWSFuzz.swift. Seeds are every JWS in the samples and the tests' fixtures, each
# as a file, as a notification body and as its three decoded parts; the growing corpus stays in
# .build/fuzz-jws/corpus between runs. A finding is written to .build/fuzz-jws/crash-* (or leak-*,
# oom-*, timeout-*): fix it, add a regression test in Tests/AppStoreSigningTests (as SignedDateRangeTests
# and OffCurveKeyTests are for the first two findings) and a row in docs/reliability.md.
#
# Build: AppStoreSigning's and DashModel's sources are compiled here with coverage
# (-sanitize=fuzzer,address); swift-crypto, swift-certificates, swift-asn1 and swift-system are
# linked from the objects `swift build` made (uninstrumented: a trap in them still ends the run,
# and instrumenting BoringSSL would cost minutes of CI for each change).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swiftc >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swiftc ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
seconds="${1:-60}"
shift || true
out=.build/fuzz-jws
bin="$out/jws-fuzzer"
mkdir -p "$out/corpus" "$out/seeds"

mapfile -t model < <(find Sources/DashModel -name '*.swift' | sort)
mapfile -t signing < <(find Sources/AppStoreSigning -name '*.swift' | sort)
needs_build=0
[[ -x "$bin" ]] || needs_build=1
if ((needs_build == 0)); then
  for f in "${model[@]}" "${signing[@]}" Fuzz/JWSFuzz.swift; do [[ "$f" -nt "$bin" ]] && { needs_build=1; break; }; done
fi
if ((needs_build)); then
  echo "fuzz-jws: building $bin (swiftc -sanitize=fuzzer,address)…"
  start=$SECONDS
  debug=$(swift build --show-bin-path)
  [[ -f "$debug/Modules/X509.swiftmodule" && -f "$debug/Modules/SystemPackage.swiftmodule" ]] || swift build --product subdash >/dev/null
  # Compile a snapshot, so editing a source during the minutes this takes cannot break the build.
  rm -rf "$out/src" "$out/obj" && mkdir -p "$out/src/DashModel" "$out/src/AppStoreSigning" "$out/obj"
  cp "${model[@]}" "$out/src/DashModel/"
  cp "${signing[@]}" "$out/src/AppStoreSigning/"
  cp Fuzz/JWSFuzz.swift "$out/src/"
  checkouts=.build/checkouts
  maps=(-Xcc "-fmodule-map-file=$checkouts/swift-system/Sources/CSystem/include/module.modulemap")
  for m in CCryptoBoringSSL CCryptoBoringSSLShims CXKCP CXKCPShims; do
    maps+=(-Xcc "-fmodule-map-file=$checkouts/swift-crypto/Sources/$m/include/module.modulemap")
  done
  flags=(-O -sanitize=fuzzer,address -I "$out/obj" -I "$debug/Modules" "${maps[@]}")
  # The libraries' own objects, as `swift build` made them (not fuzzed, so not instrumented).
  objects=()
  for m in SystemPackage CSystem Crypto CCryptoBoringSSL CCryptoBoringSSLShims CryptoBoringWrapper CryptoExtras _CryptoExtras \
           CXKCP CXKCPShims SwiftASN1 X509 _CertificateInternals; do
    [[ -d "$debug/$m.build" ]] || continue
    mapfile -t found < <(find "$debug/$m.build" -name '*.o' | sort)
    objects+=("${found[@]}")
  done
  # ld.gold warns about every ASan helper symbol it cannot export; only real errors matter.
  if ! { swiftc "${flags[@]}" -swift-version 6 -parse-as-library -wmo -module-name DashModel -emit-module -emit-module-path "$out/obj/DashModel.swiftmodule" \
           -c "$out"/src/DashModel/*.swift -o "$out/obj/DashModel.o" &&
         swiftc "${flags[@]}" -swift-version 6 -parse-as-library -wmo -module-name AppStoreSigning -emit-module -emit-module-path "$out/obj/AppStoreSigning.swiftmodule" \
           -c "$out"/src/AppStoreSigning/*.swift -o "$out/obj/AppStoreSigning.o" &&
         swiftc "${flags[@]}" -parse-as-library -module-name JWSFuzz "$out/src/JWSFuzz.swift" "$out/obj/DashModel.o" "$out/obj/AppStoreSigning.o" \
           "${objects[@]}" -o "$bin.new"; } >"$out/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$out/build.log" | tail -30
    echo "fuzz-jws: BUILD FAILED"
    exit 1
  fi
  mv "$bin.new" "$bin"
  echo "fuzz-jws: built in $((SECONDS - start)) s"
fi

# Seeds: each JWS as a file, as a notification body, and as its decoded parts ('S' mode).
python3 - "$out/seeds" Tests/AppStoreSigningTests/Fixtures/samples/*.jws Tests/AppStoreSigningTests/Fixtures/real-apple/*.jws <<'EOF'
import base64, json, os, struct, sys
out = sys.argv[1]
def unb64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
for path in sys.argv[2:]:
    jws = open(path).read().strip()
    name = os.path.basename(path)
    h, p, s = jws.split(".")
    seeds = {
        name: jws.encode(),
        name + ".body": b"B" + json.dumps({"signedPayload": jws}).encode(),
        name + ".parts": b"S" + unb64(h) + b"\0" + unb64(p) + b"\0" + unb64(s),
    }
    for seed, data in seeds.items():
        with open(os.path.join(out, seed), "wb") as f: f.write(data)
# 'N': every JWS the harness knows (7) and number field (14), with an ordinary date in milliseconds.
for jws in range(7):
    for field in range(14):
        with open(os.path.join(out, f"number-{jws}-{field}"), "wb") as f:
            f.write(b"N" + bytes([jws, field]) + struct.pack(">d", 1.7e12))
EOF

log="$out/last-run.log"
set +e
# -detect_leaks=0: libFuzzer's per-input leak check flags certificates still held while Swift's
# concurrency runtime tears a task down (not reproducible from the input; `listen`'s RSS stays flat
# over thousands of such requests, docs/reliability.md). Memory errors are still ASan's; growth is
# still caught by -rss_limit_mb.
(cd "$out" && ./jws-fuzzer -detect_leaks=0 -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
  -dict=../../Fuzz/jws.dict -artifact_prefix=./ -print_final_stats=1 "$@" corpus seeds) >"$log" 2>&1
status=$?
set -e
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
corpus=$(find "$out/corpus" -type f | wc -l)
findings=$(grep -o 'Test unit written to \./[a-z]*-[0-9a-f]*' "$log" | sed "s#.*\./#$out/#" | sort -u | tr '\n' ' ' || true)
if ((status != 0)) || [[ -n "$findings" ]]; then
  grep -E "^==[0-9]+==ERROR|Fatal error|SUMMARY|deadly signal|^#[0-9]+ .* in " "$log" | head -20
  echo "fuzz-jws: FAILED after ${runs:-?} executions in ${seconds}s; findings: ${findings:-none written} (log: $log)"
  exit 1
fi
echo "fuzz-jws: ok, ${runs:-?} executions in ${seconds}s, corpus ${corpus} inputs, no crashes (log: $log)"
