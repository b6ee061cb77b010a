import AppStoreSigning
import DashModel

/// The adapter between the importer's `SignedDataChecking` (DashModel, no crypto) and the
/// AppStoreSigning target's `JWSVerifier`: Apple's root → Apple-signed, a `--root` CA → trusted
/// root (never shown as Apple's), Xcode/LocalTesting → unverified, any failure → invalid with the
/// verifier's one-line reason, which stops the import.
struct SignatureCheck: SignedDataChecking {
  let verifier: JWSVerifier

  /// Apple Root CA - G3 plus the `--root` certificates (DER or PEM files).
  static func checker(roots: [String] = []) throws -> SignatureCheck {
    var extra: [TrustedRoot] = []
    for path in roots {
      guard let bytes = readInput(path) else { throw badInput("\(path): cannot read the --root certificate") }
      do { extra.append(try TrustedRoot(fileContents: bytes, source: path)) } catch { throw badInput(oneLine(error)) }
    }
    do { return SignatureCheck(verifier: try JWSVerifier(extraRoots: extra)) } catch { throw badInput(oneLine(error)) }
  }

  func check(compactJWS: String) -> SignatureVerdict {
    let verifier = self.verifier
    return runBlocking { () async -> SignatureVerdict in
      do { return try await verifier.verify(compactJWS).verdict() } catch { return .invalid(oneLine(error)) }
    }
  }

  /// A whole page in one blocking call, verified on every core (`JWSVerifier.verifyAll`). The
  /// payload of a JWS whose chain and signature held goes back with its verdict, so the importer
  /// does not decode it again; an unverified (Xcode) one's does not, and the importer checks its
  /// shape itself as before.
  func checkAll(_ compactJWS: [String]) -> [CheckedJWS] {
    let verifier = self.verifier
    let results = runBlocking { await verifier.verifyAll(compactJWS) }
    return results.map { result in
      switch result {
      case .success(let v):
        let verdict = v.verdict()
        if case .unverified = verdict { return CheckedJWS(verdict: verdict, payload: nil) }
        return CheckedJWS(verdict: verdict, payload: v.payload)
      case .failure(let error):
        return CheckedJWS(verdict: .invalid(oneLine(error)), payload: nil)
      }
    }
  }
}
