import Crypto
import DashModel
import Foundation
import RetentionMessaging

/// Checks an App Store Server API bearer token the way Apple documents it: ES256 over header.payload
/// with the key registered under `kid`, `aud` appstoreconnect-v1, the right issuer and bundle id,
/// `exp` at most 60 minutes after `iat` (or from now when, as in Apple's own library, there is no
/// `iat`), and not expired or issued in the future.
public struct BearerCheck: Sendable {
  public let publicKey: P256.Signing.PublicKey
  public let keyID: String
  public let issuerID: String
  public let bundleID: String
  /// Tolerated clock difference between client and server.
  public var skew: TimeInterval = 60

  public init(publicKey: P256.Signing.PublicKey, keyID: String, issuerID: String, bundleID: String) {
    self.publicKey = publicKey
    self.keyID = keyID
    self.issuerID = issuerID
    self.bundleID = bundleID
  }

  /// nil when the token is good, otherwise why Apple would answer 401.
  public func rejection(authorization: String?, now: Date) -> String? {
    guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
    let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
          let headerData = Base64URL.decode(parts[0]), let claimsData = Base64URL.decode(parts[1]),
          let signatureData = Base64URL.decode(parts[2]),
          let header = try? JSONSerialization.jsonObject(with: Data(headerData)) as? [String: Any],
          let claims = try? JSONSerialization.jsonObject(with: Data(claimsData)) as? [String: Any]
    else { return "malformed token" }
    guard header["alg"] as? String == "ES256" else { return "alg is not ES256" }
    guard header["typ"] as? String == "JWT" else { return "typ is not JWT" }
    guard header["kid"] as? String == keyID else { return "unknown kid" }
    guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
          publicKey.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8))
    else { return "bad signature" }
    guard claims["aud"] as? String == "appstoreconnect-v1" else { return "wrong aud" }
    guard claims["iss"] as? String == issuerID else { return "wrong iss" }
    guard claims["bid"] as? String == bundleID else { return "wrong bid" }
    guard let exp = (claims["exp"] as? NSNumber)?.doubleValue else { return "exp missing" }
    let t = now.timeIntervalSince1970
    // Apple's own app-store-server-library sends no `iat` (only bid, iss, aud, exp), and Apple's
    // servers accept its tokens: without `iat`, the 60-minute limit is counted from now.
    if let iat = (claims["iat"] as? NSNumber)?.doubleValue {
      guard exp - iat <= 3600 else { return "exp more than 60 minutes after iat" }
      guard iat <= t + skew else { return "iat in the future" }
    } else {
      guard exp <= t + 3600 + skew else { return "exp more than 60 minutes from now (and no iat)" }
    }
    guard exp > t - skew else { return "expired" }
    return nil
  }
}

extension BearerCheck {
  /// The key as the App Store knows it for promotional offers (its public half, never a secret).
  public var inAppPurchaseKey: InAppPurchaseKey {
    InAppPurchaseKey(keyId: keyID, issuerId: issuerID, bundleId: bundleID, publicKeyPEM: publicKey.pemRepresentation)
  }
}
