import DashModel
import FoundationEssentials
import CoreValues

/// Who vouches for a JWS.
public enum SignedBy: Sendable, Equatable {
  /// The chain ends in Apple Root CA - G3.
  case apple
  /// The chain ends in an extra trusted root (a test or local CA): never reported as Apple's.
  case extraRoot(name: String)
  /// Xcode / LocalTesting data: decoded, but signed by a local key that proves nothing (as Apple's
  /// libraries do, nothing is checked for these environments).
  case unverified(environment: String)
}

/// What a payload is, read from its fields.
public enum PayloadKind: Sendable, Equatable {
  case transaction
  case renewalInfo
  case notification(type: String, subtype: String?)
  case appTransaction
  /// Signed App Store data of no shape recognised here (still verified and returned).
  case other
}

/// A JWS whose signature and chain held (or an Xcode/LocalTesting one, marked unverified).
public struct VerifiedJWS: Sendable {
  public let signedBy: SignedBy
  /// `environment` of a transaction or renewal info, `data.environment` / `summary.environment` of a
  /// notification, `receiptType` of an app transaction.
  public let environment: String?
  /// The payload's `signedDate`, milliseconds since 1970 (Xcode writes fractions).
  public let signedDateMilliseconds: Double?
  public let kind: PayloadKind
  /// The payload exactly as signed: unknown fields are kept.
  public let payloadJSON: [UInt8]
  /// The payload as verification parsed it (strictly: no key twice), so no caller parses it again.
  public let payload: JSONObject
  /// A notification's `data.signedTransactionInfo` / `data.signedRenewalInfo`, verified too.
  public let nested: [NestedJWS]

  public var signedDate: Date? { signedDateMilliseconds.map { Date(timeIntervalSince1970: $0 / 1000) } }
}

/// A signed field inside a notification, by its JSON path (e.g. `data.signedTransactionInfo`).
public struct NestedJWS: Sendable {
  public let path: String
  public let verified: VerifiedJWS
}
