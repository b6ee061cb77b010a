import CoreValues
/// What a signature check says about one compact JWS. DashModel never checks signatures itself
/// (it has no crypto and stays dependency-free): the verdict comes from outside through
/// `SignedDataChecking`, which the executable implements with the AppStoreSigning target.
public enum SignatureVerdict: Equatable, Sendable {
  /// The chain ends in Apple Root CA - G3 and the signature holds; `environment` is the payload's.
  case appleSigned(environment: String)
  /// Signed by a root the user added with `--root` (tests, local CAs): never shown as Apple's.
  case trustedRoot(environment: String)
  /// Decoded but not proven: Xcode's and LocalTesting's local key, or no checker available.
  case unverified(environment: String)
  /// A decoded payload (plain JSON), never signed.
  case unsigned
  /// A signature that fails: the import stops with this reason.
  case invalid(String)
}

/// Checks compact JWS signatures for the importer. Implemented outside DashModel (crypto lives in
/// its own target); tests use their own small implementations.
public protocol SignedDataChecking: Sendable {
  func check(compactJWS: String) -> SignatureVerdict
  /// The payload of `compactJWS` as the checker already decoded and parsed it while verifying it
  /// (alg, segments and signature checked), so the importer neither decodes nor parses the same
  /// JWS twice; nil when the checker has none and the importer decodes the JWS itself.
  func verifiedPayload(compactJWS: String) -> JSONObject?
  /// `check` and `verifiedPayload` of many JWS at once, in order (a history page's transactions):
  /// a checker may verify them together, on every core. The default asks one at a time.
  func checkAll(_ compactJWS: [String]) -> [CheckedJWS]
}

extension SignedDataChecking {
  public func verifiedPayload(compactJWS: String) -> JSONObject? { nil }
  public func checkAll(_ compactJWS: [String]) -> [CheckedJWS] {
    compactJWS.map { CheckedJWS(verdict: check(compactJWS: $0), payload: verifiedPayload(compactJWS: $0)) }
  }
}

/// One JWS's verdict and, when the checker has it, the payload it parsed while verifying.
public struct CheckedJWS: Equatable, Sendable {
  public var verdict: SignatureVerdict
  public var payload: JSONObject?
  public init(verdict: SignatureVerdict, payload: JSONObject?) {
    self.verdict = verdict
    self.payload = payload
  }
}

/// The checker used when none is given: every JWS is marked unverified, so nothing is ever shown
/// as Apple-signed without proof. (The importer records the payload's own environment; this
/// checker does not decode the payload a second time to repeat it.)
public struct NoSignatureChecking: SignedDataChecking {
  public init() {}
  public func check(compactJWS: String) -> SignatureVerdict { .unverified(environment: "not checked") }
}
