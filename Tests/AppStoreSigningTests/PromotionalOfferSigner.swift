import AppStoreSigning
import Crypto
import DashModel
import CoreValues
import Foundation
import RetentionMessaging

/// The developer's side of a promotional offer, signed as Apple's library signs it
/// (PromotionalOfferV2SignatureCreator: an ES256 JWS with kid, iss, bid, aud "promotional-offer",
/// iat, nonce, productId, offerIdentifier, transactionId; PromotionalOfferSignatureCreator: ECDSA
/// over the fields joined by U+2063), with every field open to change so a test can tamper.
struct PromotionalOfferSigner {
  var key = P256.Signing.PrivateKey()
  var keyId = "TESTKEY123"
  var issuerId = "57246542-96fe-1a63-e053-0824d011072a"
  var bundleId = "com.example.birdwatch"

  /// What the App Store holds: the public half under the key ID.
  var registered: InAppPurchaseKey {
    InAppPurchaseKey(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKeyPEM: key.publicKey.pemRepresentation)
  }

  func v2(product: String = "pass.premium.monthly", offer: String = "premium_loyalty_3m", transactionId: String?,
          iat: Date = Date(), edit: (inout [String: Any]) -> Void = { _ in }) throws -> String {
    var claims: [String: Any] = ["iss": issuerId, "bid": bundleId, "aud": "promotional-offer", "iat": Int(iat.timeIntervalSince1970),
                                 "nonce": UUID().uuidString.lowercased(), "productId": product, "offerIdentifier": offer]
    if let transactionId { claims["transactionId"] = transactionId }
    edit(&claims)
    let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyId)","typ":"JWT"}"#.utf8))
    let payload = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims)))
    let signature = try key.signature(for: Array("\(header).\(payload)".utf8))
    return "\(header).\(payload).\(Base64URL.encode(Array(signature.rawRepresentation)))"
  }

  func v1(product: String = "pass.premium.monthly", offer: String = "premium_loyalty_3m", appAccountToken: String? = nil,
          at time: Date = Date(), nonce: String = UUID().uuidString.lowercased()) throws -> PromotionalOfferSignature.V1 {
    let timestamp = Int64(time.timeIntervalSince1970 * 1000)
    let text = [bundleId, keyId, product, offer, (appAccountToken ?? "").lowercased(), nonce.lowercased(), String(timestamp)].joined(separator: "\u{2063}")
    let signature = try key.signature(for: Array(text.utf8))
    return PromotionalOfferSignature.V1(encodedSignature: Data(signature.derRepresentation).base64EncodedString(), productId: product,
                                        offerIdentifier: offer, nonce: nonce, timestamp: timestamp, keyId: keyId, appAccountToken: appAccountToken)
  }
}
