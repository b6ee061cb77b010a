import AppStoreAPI
import AppStoreSigning
import DashModel
import CoreValues

/// Verifies every signed item in the fetched responses before import (the verifier is async, the
/// importer's checker is not): each compact JWS found anywhere in the bodies, and those nested in
/// verified payloads (a notification's signedTransactionInfo), gets its verdict up front, and a
/// verified one keeps the payload verification parsed, so the importer does not decode it again.
///
/// Bodies and payloads are read by DashModel's parser, the one the importer uses: a body it would
/// refuse (a key given twice, say) contributes no JWS here either, instead of one parser's reading
/// being verified and another's imported.
struct FetchedSignatures: SignedDataChecking {
  let verdicts: [String: SignatureVerdict]
  /// Only for a verified signature: Xcode's unverified data is decoded by the importer's own rules.
  let payloads: [String: JSONObject]

  func check(compactJWS: String) -> SignatureVerdict {
    verdicts[compactJWS] ?? .invalid("not verified: this JWS was not among the fetched responses")
  }

  func verifiedPayload(compactJWS: String) -> JSONObject? { payloads[compactJWS] }

  static func verify(_ result: FetchResult, verifier: JWSVerifier) async -> FetchedSignatures {
    var verdicts: [String: SignatureVerdict] = [:]
    var payloads: [String: JSONObject] = [:]
    var pending: [String] = []
    for body in result.responses.map(\.body) + (result.appTransaction.map { [$0] } ?? []) {
      if let json = try? JSONParser.parse(body) { collect(json, into: &pending) }
    }
    while let jws = pending.popLast() {
      if verdicts[jws] != nil { continue }
      do {
        let verified = try await verifier.verify(jws)
        verdicts[jws] = verified.verdict(missingEnvironment: "unknown")
        if case .unverified = verified.signedBy {} else { payloads[jws] = verified.payload }
        collect(.object(verified.payload), into: &pending)
      } catch {
        verdicts[jws] = .invalid(String(describing: error))
      }
    }
    return FetchedSignatures(verdicts: verdicts, payloads: payloads)
  }

  /// Strings shaped like a compact JWS (three base64url parts, a JSON header) anywhere in `json`.
  static func collect(_ json: JSON, into out: inout [String]) {
    switch json {
    case .string(let s) where s.hasPrefix("eyJ") && s.split(separator: ".", omittingEmptySubsequences: false).count == 3:
      out.append(s)
    case .array(let a):
      for v in a { collect(v, into: &out) }
    case .object(let o):
      for entry in o.entries { collect(entry.value, into: &out) }
    default:
      break
    }
  }
}
