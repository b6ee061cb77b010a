// libFuzzer entry over what a stranger can send SubDash as signed App Store data. Built by
// `Fuzz/run.sh jws` with `swiftc -sanitize=fuzzer,address` over AppStoreSigning's and DashModel's
// sources (swift-crypto, swift-certificates and swift-asn1 are linked from `swift build`, not
// instrumented: a trap inside them still ends the run). The first byte picks what the rest is:
//   'S'  three parts split at 0x00 bytes: header JSON, payload JSON, raw signature. They are
//        base64url-encoded and joined into a compact JWS, so mutations reach the JSON (a
//        `signedDate`, an `x5c` entry, an `alg`) and not just its encoding.
//   'B'  a notification body as `subdash listen` receives it ({"signedPayload": "<JWS>"})
//   'N'  a number in a real JWS: byte 1 picks the JWS (the fixtures), byte 2 the field
//        (signedDate, expiresDate, purchaseDate, price, quantity, …), the next 8 bytes its value
//        (a Double's bits, written as Swift prints it, or an Int64's when byte 11 is odd). The
//        header and signature stay the original's, so the number reaches everything that runs
//        before the signature is checked, and all of an Xcode JWS's readers (never checked).
//   else the whole input is a file as `verify`, `import` and `show` read it: a compact JWS, or JSON
//        the importer sniffs (an App Store Server API response, a decoded payload, a notification
//        body, RevenueCat CustomerInfo: the fixtures of each kind are seeds, so the importer's other
//        readers are fuzzed from real inputs too)
//
// Every JWS goes through JWSVerifier.verify (Apple's root and the seed CA's root trusted, so the
// seeds verify whole and mutations start from a valid JWS), the verified payload through
// DashModel's JSONParser, and the input through the importer as `subdash import`/`show` take it
// (with the verifier's verdicts) and as `listen` applies a notification, down to the state a
// viewer derives. Nothing may crash, trap or hang; a refusal of any kind is a correct answer.

import AppStoreSigning
import DashModel
import Dispatch
import FoundationEssentials

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  switch bytes.first {
  case UInt8(ascii: "S"): fuzzJWS(assembled(Array(bytes.dropFirst())), body: nil)
  case UInt8(ascii: "B"): fuzzBody(Array(bytes.dropFirst()))
  case UInt8(ascii: "N"): if let jws = withNumber(Array(bytes.dropFirst())) { fuzzJWS(jws, body: nil) }
  default: fuzzJWS(String(decoding: bytes, as: UTF8.self), body: nil)
  }
  return 0
}

private let fixtures = "../../Tests/AppStoreSigningTests/Fixtures/"

/// Real JWS to put numbers in ('N'): Apple's, the mock CA's and Xcode's.
private let numberSeeds: [String] = [
  "real-apple/py_sandbox_test_notification.jws", "real-apple/ruby_sandbox_transaction.jws",
  "samples/mock_signed_data_testNotification.jws", "samples/mock_signed_data_transactionInfo.jws",
  "samples/mock_signed_data_renewalInfo.jws", "samples/xcode_xcode-signed-transaction.jws",
  "samples/xcode_xcode-signed-renewal-info.jws",
].map { name in
  guard let text = try? String(contentsOfFile: fixtures + name, encoding: .utf8) else {
    fatalError("jws-fuzzer: cannot read \(fixtures + name) (run it from .build/fuzz-jws)")
  }
  return text.filter { !$0.isWhitespace }
}

private let numberFields = ["signedDate", "expiresDate", "purchaseDate", "originalPurchaseDate", "renewalDate",
                            "gracePeriodExpiresDate", "revocationDate", "price", "quantity", "autoRenewStatus",
                            "status", "offerType", "recentSubscriptionStartDate", "signedDate"]

private func withNumber(_ bytes: [UInt8]) -> String? {
  guard bytes.count >= 10 else { return nil }
  let jws = numberSeeds[Int(bytes[0]) % numberSeeds.count]
  let field = numberFields[Int(bytes[1]) % numberFields.count]
  let bits = bytes[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
  let asDouble = Double(bitPattern: bits)
  let text = bytes.count > 10 && bytes[10] & 1 == 1 || !asDouble.isFinite ? String(Int64(bitPattern: bits)) : "\(asDouble)"
  let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
  guard parts.count == 3, let payload = DashModel.Base64URL.decode(parts[1]),
        case .object(var object)? = try? JSONParser.parse(payload) else { return nil }
  object[field] = .number(text)
  if case .object(var data)? = object["data"] { data[field] = .number(text); object["data"] = .object(data) }
  return parts[0] + "." + DashModel.Base64URL.encode(JSONWriter.write(.object(object), pretty: false)) + "." + parts[2]
}

/// The roots the verifier trusts: Apple's (the real notifications in the seeds) and the root of
/// the test CA that signed apple/app-store-server-library's mock JWS, read from its public `x5c`.
private let roots: [TrustedRoot] = {
  let seed = fixtures + "samples/mock_signed_data_testNotification.jws"
  guard let text = try? String(contentsOfFile: seed, encoding: .utf8),
        let header = DashModel.Base64URL.decode(bytes: Array(text.utf8.prefix { $0 != UInt8(ascii: ".") })[...]),
        case .object(let object)? = try? JSONParser.parse(header),
        case .array(let chain)? = object["x5c"], chain.count == 3, let root = chain[2].stringValue,
        let der = Data(base64Encoded: root),
        let trusted = try? TrustedRoot(fileContents: Array(der), source: "mock CA") else {
    fatalError("jws-fuzzer: cannot read the mock CA's root from \(seed) (run it from .build/fuzz-jws)")
  }
  return [trusted]
}()

/// Fresh for each input, so an input's outcome never depends on what earlier inputs left in the
/// verifier's caches (a finding must reproduce from its file alone).
private func makeVerifier() -> JWSVerifier {
  guard let verifier = try? JWSVerifier(extraRoots: roots) else { fatalError("jws-fuzzer: no verifier") }
  return verifier
}

private func assembled(_ bytes: [UInt8]) -> String {
  let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
  func part(_ i: Int) -> String { i < parts.count ? DashModel.Base64URL.encode(Array(parts[i])) : "" }
  return part(0) + "." + part(1) + "." + part(2)
}

/// What `subdash listen` does with a body (NotificationReceiver.decide, without its file writes).
private func fuzzBody(_ body: [UInt8]) {
  guard case .object(let object)? = try? JSONParser.parse(body), let signed = object["signedPayload"]?.stringValue else { return }
  fuzzJWS(signed, body: body)
}

private func fuzzJWS(_ jws: String, body: [UInt8]?) {
  let verifier = makeVerifier()
  let first = verify(verifier, jws)
  // The second verification takes the cached header and chain: it must reach the same answer.
  let second = verify(verifier, jws)
  if first.reason != second.reason { fatalError("cached verification disagrees: \(first.reason) / \(second.reason)") }
  if let verified = first.verified {
    _ = try? JSONParser.parse(verified.payloadJSON)
    for nested in verified.nested { _ = try? JSONParser.parse(nested.verified.payloadJSON) }
    _ = verified.signedDate.map(iso8601)
  }
  // `subdash import` / `show` of the JWS as a file, and `listen` applying the notification body.
  importAndView(ImportInput(label: "fuzz.jws", bytes: Array(jws.utf8)), verifier)
  if let body { importAndView(ImportInput(label: "notification", bytes: body), verifier) }
}

private func importAndView(_ input: ImportInput, _ verifier: JWSVerifier) {
  let options = Importer.Options(checker: FuzzSignatureCheck(verifier: verifier))
  guard let merged = try? Importer.merge(inputs: [input], options: options) else { return }
  let refuse: (String) throws(StateFileError) -> Catalog = { name throws(StateFileError) in
    throw StateFileError(file: name, message: "no catalog file in the fuzzer")
  }
  guard let state = try? Importer.viewingState(merged, catalog: .derived, label: "fuzz.json", catalogFile: refuse) else { return }
  var instants = [Instant(ms: 1_800_000_000_000)]
  if let e = state.subscriber.latestTransaction?.expiresDate { instants.append(e) }
  for now in instants { _ = Lifecycle.derive(state, at: now) }
}

/// The CLI's adapter (Sources/SubDash/Commands/SignatureCheck.swift): any failure is `.invalid`.
private struct FuzzSignatureCheck: SignedDataChecking {
  let verifier: JWSVerifier
  func check(compactJWS: String) -> SignatureVerdict {
    let outcome = verify(verifier, compactJWS)
    guard let v = outcome.verified else { return .invalid(outcome.reason) }
    let env = v.environment ?? "no environment"
    switch v.signedBy {
    case .apple: return .appleSigned(environment: env)
    case .extraRoot: return .trustedRoot(environment: env)
    case .unverified(let e): return .unverified(environment: e)
    }
  }
}

private final class Outcome: @unchecked Sendable {
  var verified: VerifiedJWS?
  var reason = "not run"
}

/// Signals when released: the task's closure holds it, so it goes only after the task has finished
/// and freed its frames.
private final class SignalOnRelease: @unchecked Sendable {
  let semaphore: DispatchSemaphore
  init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
  deinit { semaphore.signal() }
}

/// The verifier is async; libFuzzer calls in on its own thread, which may block while the task runs.
/// The input returns only once the task is gone, so nothing of one input still runs in the next.
private func verify(_ verifier: JWSVerifier, _ jws: String) -> Outcome {
  let outcome = Outcome()
  let done = DispatchSemaphore(value: 0)
  do {
    let token = SignalOnRelease(done)
    Task {
      withExtendedLifetime(token) {}
      do {
        outcome.verified = try await verifier.verify(jws)
        outcome.reason = "valid"
      } catch let error as SigningError {
        outcome.reason = error.message
      } catch {
        outcome.reason = "\(error)"
      }
    }
  }
  done.wait()
  return outcome
}
