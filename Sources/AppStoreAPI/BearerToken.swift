import Crypto
import DashModel
import Foundation
import CoreValues

/// The ES256 JWT Apple wants on every request. One token is reused until it is close to expiry
/// (Apple allows reuse; signing per request is wasted work on a 100-page history). Time is passed
/// in, so expiry and reuse are tested without waiting.
public final class BearerToken: @unchecked Sendable {
  /// Apple rejects tokens whose `exp` is more than 60 minutes after `iat`; 20 minutes leaves margin.
  public static let lifetime: TimeInterval = 20 * 60
  /// A token this close to `exp` is replaced, so a slow request never arrives with an expired one.
  public static let renewBefore: TimeInterval = 60

  private let credentials: Credentials
  private let lock = NSLock()
  private var current: (token: String, expires: Date)?

  public init(credentials: Credentials) { self.credentials = credentials }

  public func token(now: Date) throws -> String {
    lock.lock()
    defer { lock.unlock() }
    if let current, now < current.expires.addingTimeInterval(-Self.renewBefore), now >= current.expires.addingTimeInterval(-Self.lifetime) {
      return current.token
    }
    let issued = Int(now.timeIntervalSince1970.rounded(.down))
    let expires = issued + Int(Self.lifetime)
    let token = try Self.sign(credentials: credentials, issuedAt: issued, expiresAt: expires)
    current = (token, Date(timeIntervalSince1970: TimeInterval(expires)))
    return token
  }

  /// Hand-assembled (server-notes §2): integer times, fixed key order, raw r‖s signature.
  static func sign(credentials: Credentials, issuedAt: Int, expiresAt: Int) throws -> String {
    let header = #"{"alg":"ES256","kid":\#(jsonString(credentials.keyID)),"typ":"JWT"}"#
    let claims = #"{"iss":\#(jsonString(credentials.issuerID)),"iat":\#(issuedAt),"exp":\#(expiresAt),"aud":"appstoreconnect-v1","bid":\#(jsonString(credentials.bundleID))}"#
    let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
    let signature = try credentials.privateKey.signature(for: Array(signingInput.utf8))
    return signingInput + "." + Base64URL.encode(Array(signature.rawRepresentation))
  }

  /// `s` as a JSON string literal, quotes included (the one JSON writer, which cannot fail).
  static func jsonString(_ s: String) -> String {
    JSONWriter.string(.string(s), pretty: false)
  }
}
