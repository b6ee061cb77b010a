import CoreValues
/// The public half of the developer's In-App Purchase key, as App Store Connect holds it under its
/// key ID: the App Store checks a promotional-offer signature in a realtime answer against it and
/// shows no offer whose signature does not verify. `subdash serve` records the key it checks
/// bearer tokens with (`--key-id`, `--issuer-id`, `--key`, `--bundle-id`) in the Retention
/// Messaging configuration, so the simulated App Store knows the same key Apple would. Never the
/// private key: a public key in PEM, which is no secret.
public struct InAppPurchaseKey: Equatable, Sendable {
  public var keyId: String
  public var issuerId: String
  public var bundleId: String
  /// "-----BEGIN PUBLIC KEY-----…" (P-256, SubjectPublicKeyInfo).
  public var publicKeyPEM: String

  public init(keyId: String, issuerId: String, bundleId: String, publicKeyPEM: String) {
    self.keyId = keyId
    self.issuerId = issuerId
    self.bundleId = bundleId
    self.publicKeyPEM = publicKeyPEM
  }

  /// `{"keyId", "issuerId", "bundleId", "publicKey"}`, as the configuration document keeps it.
  public var json: JSON {
    .object(JSONObject([("keyId", .string(keyId)), ("issuerId", .string(issuerId)), ("bundleId", .string(bundleId)),
                        ("publicKey", .string(publicKeyPEM))]))
  }

  public init?(json: JSON) {
    guard let o = json.objectValue, let keyId = o["keyId"]?.stringValue, !keyId.isEmpty, let issuer = o["issuerId"]?.stringValue,
          let bundle = o["bundleId"]?.stringValue, let pem = o["publicKey"]?.stringValue,
          pem.hasPrefix("-----BEGIN PUBLIC KEY-----") else { return nil }
    self.init(keyId: keyId, issuerId: issuer, bundleId: bundle, publicKeyPEM: pem)
  }
}
