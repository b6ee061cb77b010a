#!/usr/bin/env bash
# Builds a libFuzzer target (only when one of its sources changed) and runs it.
#   bash Fuzz/run.sh [statefile|jws] [SECONDS] [libFuzzer arguments…]   default: statefile, 60 s
#   bash Fuzz/run.sh 20                 state-file loading, actions and codes (CI: 20 s)
#   bash Fuzz/run.sh jws 15 -jobs=2     the JWS verifier and notification decoder (CI: 25 s)
# One summary line at the end. The growing corpus stays in .build/fuzz/corpus (jws: .build/fuzz-jws/)
# between runs; a finding is written beside it as crash-* (or leak-*, oom-*, timeout-*).
# statefile: the first byte picks the mode (Fuzz/StateFileFuzz.swift). Seeds are Examples/*.json, the
#   hostile corpus, the .storekit fixtures and Fuzz/seeds/*. A finding: fix it, then copy it into
#   Tests/DashModelTests/Fixtures/hostile/ with a line in EXPECTED.tsv so the corpus test keeps it fixed.
# jws: Fuzz/JWSFuzz.swift. Seeds are every JWS in the samples and the tests' fixtures, each as a file,
#   as a notification body and as its three decoded parts, and every JSON file `import` reads in the
#   fixtures (App Store Server API responses, decoded payloads, RevenueCat CustomerInfo) as a file. A finding: fix it, add a regression test in
#   Tests/AppStoreSigningTests (as SignedDateRangeTests and OffCurveKeyTests are for the first two
#   findings) and a row in docs/reliability.md.
# Build: the fuzzed sources are compiled here with coverage (-sanitize=fuzzer,address); the libraries
# (swift-system; for jws also swift-crypto, swift-certificates, swift-asn1) are linked from the objects
# `swift build` made (uninstrumented: a trap in them still ends the run, and instrumenting BoringSSL
# would cost minutes of CI for each change).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swiftc >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swiftc ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi
target=statefile
if [[ "${1:-}" == statefile || "${1:-}" == jws ]]; then target=$1; shift; fi
seconds="${1:-60}"
shift || true
checkouts=.build/checkouts
# The rooms the parsers live in (docs/architecture.md), fuzzed as one module named DashModel: the
# statefile harness reaches internal API, and one module keeps the build one swiftc call.
model_rooms=(CoreValues DashModel RetentionMessaging SubscriberStorage SubscriberImport SimulationRuns)
maps=(-Xcc "-fmodule-map-file=$checkouts/swift-system/Sources/CSystem/include/module.modulemap")
libraries=(SystemPackage CSystem)
if [[ $target == statefile ]]; then
  name=fuzz out=.build/fuzz harness=Fuzz/StateFileFuzz.swift modules=("${model_rooms[@]}") max_len=65536
  built=(SystemPackage) extra=()
else
  name=fuzz-jws out=.build/fuzz-jws harness=Fuzz/JWSFuzz.swift modules=("${model_rooms[@]}" AppStoreSigning) max_len=16384
  built=(SystemPackage X509)
  for m in CCryptoBoringSSL CCryptoBoringSSLShims CXKCP CXKCPShims; do
    maps+=(-Xcc "-fmodule-map-file=$checkouts/swift-crypto/Sources/$m/include/module.modulemap")
  done
  libraries+=(Crypto CCryptoBoringSSL CCryptoBoringSSLShims CryptoBoringWrapper CryptoExtras _CryptoExtras
              CXKCP CXKCPShims SwiftASN1 X509 _CertificateInternals)
  # -detect_leaks=0: libFuzzer's per-input leak check flags certificates still held while Swift's
  # concurrency runtime tears a task down (not reproducible from the input; `listen`'s RSS stays flat
  # over thousands of such requests, docs/reliability.md). Memory errors are still ASan's; growth is
  # still caught by -rss_limit_mb.
  extra=(-detect_leaks=0)
fi
bin="$out/$target-fuzzer"
mkdir -p "$out/corpus" "$out/seeds"

sources=()
for m in "${modules[@]}"; do mapfile -t -O "${#sources[@]}" sources < <(find "Sources/$m" -name '*.swift' | sort); done
needs_build=0
[[ -x "$bin" ]] || needs_build=1
if ((needs_build == 0)); then
  for f in "${sources[@]}" "$harness"; do [[ "$f" -nt "$bin" ]] && { needs_build=1; break; }; done
fi
if ((needs_build)); then
  echo "$name: building $bin (swiftc -sanitize=fuzzer,address)…"
  start=$SECONDS
  debug=$(swift build --show-bin-path)
  for m in "${built[@]}"; do [[ -f "$debug/Modules/$m.swiftmodule" ]] || { swift build --product subdash >/dev/null; break; }; done
  # Compile a snapshot, so editing a source during the minutes this takes cannot break the build.
  rm -rf "$out/src" "$out/obj" && mkdir -p "$out/src" "$out/obj"
  # The model rooms go into src/DashModel, each file named after its room (two rooms may have a
  # file of the same name) and without the imports of one room by another.
  rooms_pattern="^(@testable )?import ($(IFS='|'; echo "${model_rooms[*]}"))\$"
  for m in "${modules[@]}"; do
    dest=$m
    [[ " ${model_rooms[*]} " == *" $m "* ]] && dest=DashModel
    mkdir -p "$out/src/$dest"
    # Inside the combined module a room's import of another goes; elsewhere it becomes DashModel's.
    replacement=""
    [[ $dest == DashModel ]] || replacement="import DashModel"
    while IFS= read -r f; do
      sed -E "s/$rooms_pattern/$replacement/" "$f" > "$out/src/$dest/$m-$(echo "${f#Sources/$m/}" | tr '/' '-')"
    done < <(find "Sources/$m" -name '*.swift')
  done
  replacement=""
  [[ $target == statefile ]] || replacement="import DashModel"
  sed -E "s/$rooms_pattern/$replacement/" "$harness" > "$out/src/${harness##*/}.tmp"
  mv "$out/src/${harness##*/}.tmp" "$out/src/${harness##*/}"
  # `package` declarations in the fuzzed modules need a package name, as SwiftPM gives them.
  flags=(-O -sanitize=fuzzer,address -package-name subdash -I "$out/obj" -I "$debug/Modules" "${maps[@]}")
  # The libraries' own objects, as `swift build` made them (not fuzzed, so not instrumented).
  objects=()
  for m in "${libraries[@]}"; do
    [[ -d "$debug/$m.build" ]] || continue
    mapfile -t found < <(find "$debug/$m.build" -name '*.o' | sort)
    objects+=("${found[@]}")
  done
  # statefile: the harness is compiled into DashModel (it reaches internal API). jws: each module is
  # compiled on its own, the harness links them.
  build() {
    if [[ $target == statefile ]]; then
      swiftc "${flags[@]}" -parse-as-library -module-name DashModel "$out"/src/DashModel/*.swift "$out/src/${harness##*/}" \
        "${objects[@]}" -o "$bin.new"
      return
    fi
    for m in DashModel AppStoreSigning; do
      swiftc "${flags[@]}" -swift-version 6 -parse-as-library -wmo -module-name "$m" -emit-module -emit-module-path "$out/obj/$m.swiftmodule" \
        -c "$out/src/$m"/*.swift -o "$out/obj/$m.o" || return 1
    done
    swiftc "${flags[@]}" -parse-as-library -module-name JWSFuzz "$out/src/${harness##*/}" "$out/obj/DashModel.o" "$out/obj/AppStoreSigning.o" \
      "${objects[@]}" -o "$bin.new"
  }
  # ld.gold warns about every ASan helper symbol it cannot export; only real errors matter.
  if ! build >"$out/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$out/build.log" | tail -30
    echo "$name: BUILD FAILED"
    exit 1
  fi
  mv "$bin.new" "$bin"
  echo "$name: built in $((SECONDS - start)) s"
fi

if [[ $target == statefile ]]; then
  # Every file SubDash should open or refuse cleanly, plus mode-prefixed text inputs.
  cp -n Examples/*.json Examples/*.storekit "$out/seeds/" 2>/dev/null || true
  cp -n Tests/DashModelTests/Fixtures/storekit/* "$out/seeds/" 2>/dev/null || true
  find Tests/DashModelTests/Fixtures/hostile Tests/DashModelTests/Fixtures/fuzz -maxdepth 1 -type f ! -name '*.tsv' ! -name '*.md' -exec cp -n {} "$out/seeds/" \; 2>/dev/null || true
  cp -n Fuzz/seeds/* "$out/seeds/" 2>/dev/null || true
else
  # Each JWS as a file, as a notification body, and as its decoded parts ('S' mode).
python3 - "$out/seeds" Tests/AppStoreSigningTests/Fixtures/samples/*.jws Tests/AppStoreSigningTests/Fixtures/real-apple/*.jws <<'EOF'
import base64, glob, json, os, struct, sys
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
# The JSON inputs `import` and `show` read (the importer's other readers), each as a whole file.
for path in sorted(glob.glob("Tests/DashModelTests/Fixtures/appstore/*.json") + glob.glob("Tests/DashModelTests/Fixtures/revenuecat/*.json")):
    with open(path, "rb") as f: data = f.read()
    with open(os.path.join(out, "import-" + os.path.basename(path)), "wb") as f: f.write(data)
# 'N': every JWS the harness knows (7) and number field (14), with an ordinary date in milliseconds.
for jws in range(7):
    for field in range(14):
        with open(os.path.join(out, f"number-{jws}-{field}"), "wb") as f:
            f.write(b"N" + bytes([jws, field]) + struct.pack(">d", 1.7e12))
EOF
fi

log="$out/last-run.log"
set +e
(cd "$out" && "./${bin##*/}" "${extra[@]}" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  -dict="../../Fuzz/$target.dict" -artifact_prefix=./ -print_final_stats=1 "$@" corpus seeds) >"$log" 2>&1
status=$?
set -e
runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1 || true)
corpus=$(find "$out/corpus" -type f | wc -l)
findings=$(grep -o 'Test unit written to \./[a-z]*-[0-9a-f]*' "$log" | sed "s#.*\./#$out/#" | sort -u | tr '\n' ' ' || true)
if ((status != 0)) || [[ -n "$findings" ]]; then
  grep -E "^==[0-9]+==ERROR|Fatal error|SUMMARY|deadly signal|^#[0-9]+ .* in " "$log" | head -20
  echo "$name: FAILED after ${runs:-?} executions in ${seconds}s; findings: ${findings:-none written} (log: $log)"
  exit 1
fi
echo "$name: ok, ${runs:-?} executions in ${seconds}s, corpus ${corpus} inputs, no crashes (log: $log)"
