@_spi(FixedExpiryValidationTime) import X509
import Crypto
import DashModel
import FoundationEssentials
import Synchronization
import CoreValues

/// Verifies App Store compact JWS as Apple's libraries do offline: ES256, a three-certificate `x5c`
/// whose chain (leaf with Apple's receipt-signing OID, intermediate with Apple's WWDR OID) ends in a
/// trusted root and is valid at the payload's own `signedDate`, and a signature over `header.payload`.
/// Xcode / LocalTesting payloads are decoded and marked unverified, never checked (Apple's libraries
/// skip them too; their key proves nothing).
///
///     let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "local CA")])
///     let result = try await verifier.verify(jws)   // throws SigningError with a one-line reason
public final class JWSVerifier: Sendable {
  public let roots: [TrustedRoot]
  private let store: CertificateStore
  /// Chains already validated, keyed by the `x5c[0]|x5c[1]` strings: chain building is ~80 % of the
  /// cost. An entry keeps the window in which both certificates are valid, and every payload's
  /// `signedDate` is still checked against it. Consulted once per distinct header: after that the
  /// header's own entry carries its chain (`DecodedHeader.chain`).
  private let cache = Mutex<[String: ValidatedChain]>([:])
  private let headers = HeaderCache(limit: JWSVerifier.headerCacheLimit)

  struct ValidatedChain: Sendable {
    let leaf: Certificate
    let intermediate: Certificate
    let root: Certificate
    let leafKey: P256.Signing.PublicKey
    let validFrom: Date
    let validUntil: Date
    let signedBy: SignedBy
  }

  /// Trusts Apple Root CA - G3 (unless `trustApple` is false, for tests) plus `extraRoots`.
  public init(extraRoots: [TrustedRoot] = [], trustApple: Bool = true) throws {
    roots = (trustApple ? [try TrustedRoot.appleRootCAG3()] : []) + extraRoots
    store = CertificateStore(roots.map(\.certificate))
  }

  /// Verifies one compact JWS; a notification's nested signed transaction and renewal info too.
  /// Throws `SigningError` naming the first thing wrong.
  public func verify(_ compact: String) async throws -> VerifiedJWS {
    switch try prepare(compact) {
    case .local(let local):
      return local.verified(nested: try await nested(local.fields))
    case .signed(let pending):
      let chain = try await validatedChain(pending)
      let outer = try Self.signatureChecked(pending, by: chain)
      return outer.verified(nested: try await nested(pending.fields))
    }
  }

  /// What one JWS is once everything that needs no certificate chain is checked.
  enum Prepared: Sendable {
    /// Xcode / LocalTesting: decoded, never checked.
    case local(Decoded)
    /// Waits for its chain, then for the signature check.
    case signed(Pending)
  }

  /// A payload decoded and its fields read; `verified(nested:)` makes the result.
  struct Decoded: Sendable {
    let signedBy: SignedBy
    let environment: String?
    let fields: PayloadFields
    let payload: [UInt8]

    func verified(nested: [NestedJWS]) -> VerifiedJWS {
      VerifiedJWS(signedBy: signedBy, environment: environment, signedDateMilliseconds: fields.signedDate,
                  kind: fields.kind, payloadJSON: payload, payload: fields.object, nested: nested)
    }
  }

  struct Pending: Sendable {
    /// The JWS's bytes; the signing input is `bytes[..<signingInputEnd]` (`header.payload`).
    let bytes: [UInt8]
    let signingInputEnd: Int
    let header: DecodedHeader
    let x5c: [String]
    let signedDate: Date
    let signature: [UInt8]
    let fields: PayloadFields
    let payload: [UInt8]
  }

  /// Splits, decodes and checks a JWS as far as it can without its chain: segments, header, payload
  /// fields, alg, x5c count, signedDate, signature length, in that order (the first wrong one is
  /// the reason given). Safe to call from several threads at once.
  func prepare(_ compact: String) throws -> Prepared {
    // One copy of the bytes, and the segments as ranges of it: splitting the String's UTF-8 view
    // and copying the signing input out of it element by element was 8 % of `listen`'s CPU.
    let bytes = Array(compact.utf8)
    var dots: [Int] = []
    for i in bytes.indices where bytes[i] == UInt8(ascii: ".") { dots.append(i) }
    guard dots.count == 2 else {
      throw SigningError("not a compact JWS: \(dots.count + 1) segment\(dots.count == 0 ? "" : "s") separated by '.', need 3")
    }
    let decodedHeader = try headers.decoded(bytes[..<dots[0]])
    let header = decodedHeader.header
    guard let payload = Base64URL.decode(bytes: bytes[(dots[0] + 1)..<dots[1]], as: .url) else { throw SigningError("payload is not base64url") }
    let fields = try PayloadFields.read(payload)
    guard let signatureBytes = Base64URL.decode(bytes: bytes[(dots[1] + 1)...], as: .url) else { throw SigningError("signature is not base64url") }

    let environment = fields.environmentOfPayload
    if let environment, environment == "Xcode" || environment == "LocalTesting" {
      return .local(Decoded(signedBy: .unverified(environment: environment), environment: environment, fields: fields, payload: payload))
    }

    guard let alg = header.alg else { throw SigningError("header has no alg") }
    guard alg == "ES256" else { throw SigningError("header alg is \(alg.debugDescription), not \"ES256\"") }
    guard let x5c = header.x5c else { throw SigningError("header has no x5c certificate chain") }
    guard x5c.count == 3 else { throw SigningError("header x5c has \(counted(x5c.count, "certificate")), need 3") }
    guard let milliseconds = fields.signedDate else { throw SigningError("payload has no signedDate to validate the chain at") }
    guard signatureBytes.count == 64 else {
      throw SigningError("signature is \(signatureBytes.count) bytes, ES256 needs 64 (r‖s)")
    }
    return .signed(Pending(bytes: bytes, signingInputEnd: dots[1], header: decodedHeader, x5c: x5c,
                           signedDate: Date(timeIntervalSince1970: milliseconds / 1000),
                           signature: signatureBytes, fields: fields, payload: payload))
  }

  /// The ES256 check with the chain's leaf key; the payload's own fields make the result (its
  /// nested JWS are the caller's). Safe to call from several threads at once.
  static func signatureChecked(_ p: Pending, by chain: ValidatedChain) throws -> Decoded {
    guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: p.signature) else {
      throw SigningError("signature is not an ES256 r‖s pair")
    }
    guard chain.leafKey.isValidSignature(signature, for: p.bytes[..<p.signingInputEnd]) else {
      throw SigningError("signature does not match header.payload for the leaf certificate's key")
    }
    return Decoded(signedBy: chain.signedBy, environment: p.fields.environmentOfPayload, fields: p.fields, payload: p.payload)
  }

  /// A notification's signed fields, each verified with the same roots; one failing fails the whole.
  func nested(_ fields: PayloadFields) async throws -> [NestedJWS] {
    var result: [NestedJWS] = []
    for (path, value) in fields.nestedJWS {
      do {
        result.append(NestedJWS(path: path, verified: try await verify(value)))
      } catch let error as SigningError {
        throw SigningError("\(path): \(error.message)")
      }
    }
    return result
  }

  static let headerCacheLimit = 64

  /// The pending JWS's chain, validated at its `signedDate` the first time a header is met, and
  /// its window checked to the millisecond every time.
  func validatedChain(_ p: Pending) async throws -> ValidatedChain {
    if let known = p.header.chain.withLock({ $0 }) { return try Self.checkWindow(known, at: p.signedDate) }
    let chain = try await validatedChain(p.x5c, at: p.signedDate)
    p.header.chain.withLock { $0 = chain }
    return chain
  }

  private func validatedChain(_ x5c: [String], at date: Date) async throws -> ValidatedChain {
    let key = x5c[0] + "|" + x5c[1]
    if let cached = cache.withLock({ $0[key] }) { return try Self.checkWindow(cached, at: date) }
    let leaf = try Self.certificate(x5c[0], "x5c[0]")
    let intermediate = try Self.certificate(x5c[1], "x5c[1]")
    // x5c[2] is never used: only roots trusted here may end the chain.
    // RFC5280Policy traps on a year outside 0001-9999: PayloadFields refused those already, and
    // this keeps any other caller from reaching the trap.
    try SignedDateRange.check(date.timeIntervalSince1970 * 1000)
    var verifier = Verifier(rootCertificates: store) {
      RFC5280Policy(fixedExpiryValidationTime: date)
      AppStoreOIDPolicy()
    }
    switch await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate])) {
    case .couldNotValidate(let failures):
      throw SigningError(Self.reason(leaf: leaf, intermediate: intermediate, at: date, failures: failures))
    case .validCertificate(let chain):
      guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else {
        throw SigningError("leaf certificate's key is not P-256, as ES256 needs")
      }
      let root = chain.root
      let trusted = roots.first { $0.certificate == root }
      let validated = ValidatedChain(
        leaf: leaf, intermediate: intermediate, root: root, leafKey: leafKey,
        validFrom: max(leaf.notValidBefore, intermediate.notValidBefore, root.notValidBefore),
        validUntil: min(leaf.notValidAfter, intermediate.notValidAfter, root.notValidAfter),
        signedBy: trusted.map { $0.isApple ? .apple : .extraRoot(name: $0.name) } ?? .extraRoot(name: "\(root.subject)"))
      cache.withLock { $0[key] = validated }
      return try Self.checkWindow(validated, at: date)
    }
  }

  /// X509's validation time has whole seconds (as OpenSSL's, which Apple's Python library uses), so
  /// a payload signed 1 ms after the leaf expired would pass; the window is checked here to the ms.
  private static func checkWindow(_ chain: ValidatedChain, at date: Date) throws -> ValidatedChain {
    guard chain.validFrom <= date, date <= chain.validUntil else {
      throw SigningError(reason(leaf: chain.leaf, intermediate: chain.intermediate, root: chain.root, at: date, failures: []))
    }
    return chain
  }

  private static func certificate(_ base64: String, _ name: String) throws -> Certificate {
    // x5c entries are standard base64 with padding, not base64url (RFC 7515 §4.1.6).
    guard let der = Base64URL.decode(base64, as: .standard) else { throw SigningError("header \(name) is not standard base64") }
    do { return try Certificate(derEncoded: der) } catch {
      throw SigningError("header \(name) is not a DER X.509 certificate")
    }
  }

  /// The Verifier says only that no chain passed; name the reason a person can act on.
  private static func reason(leaf: Certificate, intermediate: Certificate, root: Certificate? = nil, at date: Date,
                             failures: [CertificateValidationResult.PolicyFailure]) -> String {
    let signed = "signedDate \(iso8601(date))"
    for (name, certificate) in [("leaf", leaf), ("intermediate", intermediate), ("root", root)] {
      guard let certificate else { continue }
      if date > certificate.notValidAfter {
        return "\(name) certificate expired \(iso8601(certificate.notValidAfter)), before the payload's \(signed)"
      }
      if date < certificate.notValidBefore {
        return "\(name) certificate is valid only from \(iso8601(certificate.notValidBefore)), after the payload's \(signed)"
      }
    }
    if leaf.issuer != intermediate.subject {
      return "x5c[0] was not issued by x5c[1] (leaf issuer \(leaf.issuer), intermediate \(intermediate.subject))"
    }
    guard let first = failures.first else {
      return "certificate chain does not end in a trusted root (intermediate issued by \(intermediate.issuer))"
    }
    return "certificate chain rejected: \(first.policyFailureReason)"
  }
}

/// `2023-01-05T21:31:34Z`, with `.mmm` when the time has milliseconds (to the nearest ms: a Date
/// made from `signedDate / 1000` is not exact in binary, and the format style would truncate it).
/// Total: a date outside years 0001-9999 (which ISO 8601 cannot write in this form, and whose
/// milliseconds may not fit an Int64) is given as its number of seconds since 1970 instead.
public func iso8601(_ date: Date) -> String {
  let rounded = (date.timeIntervalSince1970 * 1000).rounded()
  // 0001-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z, in milliseconds.
  guard rounded.isFinite, rounded >= -62_135_596_800_000, rounded < 253_402_300_800_000 else {
    return "\(date.timeIntervalSince1970) s since 1970"
  }
  let milliseconds = Int64(rounded)
  let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
  let fraction = milliseconds - seconds * 1000
  let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
  guard fraction != 0 else { return whole }
  let digits = String(fraction)
  return whole.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
}
