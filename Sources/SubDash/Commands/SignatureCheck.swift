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
      do {
        let v = try await verifier.verify(compactJWS)
        let env = v.environment ?? "no environment"
        switch v.signedBy {
        case .apple: return .appleSigned(environment: env)
        case .extraRoot: return .trustedRoot(environment: env)
        case .unverified(let e): return .unverified(environment: e)
        }
      } catch {
        return .invalid(oneLine(error))
      }
    }
  }
}
