import AppStoreAPI
import AppStoreSigning
import DashModel
import Foundation

/// Verifies every signed item in the fetched responses before import (the verifier is async, the
/// importer's checker is not): each compact JWS found anywhere in the bodies, and those nested in
/// verified payloads (a notification's signedTransactionInfo), gets its verdict up front.
struct FetchedSignatures: SignedDataChecking {
  let verdicts: [String: SignatureVerdict]

  func check(compactJWS: String) -> SignatureVerdict {
    verdicts[compactJWS] ?? .invalid("not verified: this JWS was not among the fetched responses")
  }

  static func verify(_ result: FetchResult, verifier: JWSVerifier) async -> FetchedSignatures {
    var verdicts: [String: SignatureVerdict] = [:]
    var pending: [String] = []
    for body in result.responses.map(\.body) + (result.appTransaction.map { [$0] } ?? []) {
      if let json = try? JSONSerialization.jsonObject(with: Data(body)) { collect(json, into: &pending) }
    }
    while let jws = pending.popLast() {
      if verdicts[jws] != nil { continue }
      do {
        let verified = try await verifier.verify(jws)
        verdicts[jws] = verified.verdict(missingEnvironment: "unknown")
        if let payload = try? JSONSerialization.jsonObject(with: Data(verified.payloadJSON)) { collect(payload, into: &pending) }
      } catch {
        verdicts[jws] = .invalid(String(describing: error))
      }
    }
    return FetchedSignatures(verdicts: verdicts)
  }

  /// Strings shaped like a compact JWS (three base64url parts, a JSON header) anywhere in `json`.
  static func collect(_ json: Any, into out: inout [String]) {
    switch json {
    case let s as String where s.hasPrefix("eyJ") && s.split(separator: ".", omittingEmptySubsequences: false).count == 3:
      out.append(s)
    case let a as [Any]:
      for v in a { collect(v, into: &out) }
    case let o as [String: Any]:
      for v in o.values { collect(v, into: &out) }
    default:
      break
    }
  }
}
