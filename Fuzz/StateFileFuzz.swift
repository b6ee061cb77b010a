// libFuzzer entry: every input is a state file (or, with a leading 0x01 byte, a typed offer code).
// Built by Fuzz/run.sh with `swiftc -sanitize=fuzzer,address` over DashModel's sources.
// The property: decoding never crashes, and whatever decodes also survives write → re-decode.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if bytes.first == 0x01 {
    fuzzOfferCode(Array(bytes.dropFirst()))
    return 0
  }
  let noCatalogFile: (String) throws(StateFileError) -> Catalog = { name throws(StateFileError) in
    throw StateFileError(file: name, message: "catalog files are not read while fuzzing")
  }
  guard let state = try? StateFile.decode(bytes, fileName: "fuzz.json", catalogFile: noCatalogFile) else { return 0 }
  // Round trip: what SubDash writes must load again, to the same document.
  let written = JSONWriter.write(state.document.json)
  guard let again = try? StateFile.decode(written, fileName: "fuzz.json", catalogFile: noCatalogFile) else {
    fatalError("a decodable document did not survive a write/read round trip")
  }
  if again.document.json != state.document.json { fatalError("round trip changed the document") }
  let now = Instant(ms: 1_800_000_000_000)
  _ = Lifecycle.derive(state, at: now)
  return 0
}

private func fuzzOfferCode(_ bytes: [UInt8]) {
  let typed = String(decoding: bytes, as: UTF8.self)
  let normalized = OfferCodeBatch.normalize(typed)
  if OfferCodeBatch.normalize(normalized) != normalized { fatalError("normalize is not idempotent for \(bytes)") }
}
