import CoreValues
/// The signed promotional offer of a realtime answer's `promotionalOffer`, as the developer's
/// server sent it and before anything is verified (Retention Messaging API:
/// promotionalOfferSignatureV2, a JWS; promotionalOfferSignatureV1, the fields and an ECDSA
/// signature of StoreKit's original promotional offers). Verifying needs the developer's key and a
/// signature library: `PromotionalOfferVerifier` (AppStoreSigning) does it.
public enum PromotionalOfferSignature: Equatable, Sendable {
  case v2(jws: String)
  case v1(V1)

  /// Apple's PromotionalOfferSignatureV1.
  public struct V1: Equatable, Sendable {
    public var encodedSignature: String
    public var productId: String
    public var offerIdentifier: String
    public var nonce: String
    /// UNIX time in milliseconds, when the developer signed it.
    public var timestamp: Int64
    public var keyId: String
    public var appAccountToken: String?

    public init(encodedSignature: String, productId: String, offerIdentifier: String, nonce: String, timestamp: Int64, keyId: String,
                appAccountToken: String? = nil) {
      self.encodedSignature = encodedSignature
      self.productId = productId
      self.offerIdentifier = offerIdentifier
      self.nonce = nonce
      self.timestamp = timestamp
      self.keyId = keyId
      self.appAccountToken = appAccountToken
    }
  }

  /// The signature a `promotionalOffer` object carries: exactly one of V2 and V1, with V1's
  /// required fields (encodedSignature, productId, nonce, timestamp, keyId, offerIdentifier).
  public static func read(_ part: JSONObject) -> Result<PromotionalOfferSignature, RefusedAnswer> {
    let v1 = part["promotionalOfferSignatureV1"]
    let v2 = part["promotionalOfferSignatureV2"]
    switch (v1, v2) {
    case (nil, nil): return .failure(RefusedAnswer("answer refused: promotionalOffer has no promotionalOfferSignatureV2 or V1"))
    case (_?, _?): return .failure(RefusedAnswer("answer refused: promotionalOfferSignatureV1 and V2 are mutually exclusive"))
    case (nil, let jws?):
      guard let text = jws.stringValue else { return .failure(RefusedAnswer("answer refused: promotionalOfferSignatureV2 is not a string")) }
      return .success(.v2(jws: text))
    case (let s?, nil):
      guard let o = s.objectValue, let signature = o["encodedSignature"]?.stringValue, let product = o["productId"]?.stringValue,
            let offer = o["offerIdentifier"]?.stringValue, let nonce = o["nonce"]?.stringValue, let keyId = o["keyId"]?.stringValue,
            let timestamp = o["timestamp"].flatMap(Self.integer) else {
        return .failure(RefusedAnswer("answer refused: promotionalOfferSignatureV1 lacks encodedSignature, productId, offerIdentifier, nonce, timestamp or keyId"))
      }
      let token = o["appAccountToken"]
      if let token, token.stringValue == nil, token != .null {
        return .failure(RefusedAnswer("answer refused: promotionalOfferSignatureV1.appAccountToken is not a string"))
      }
      return .success(.v1(V1(encodedSignature: signature, productId: product, offerIdentifier: offer, nonce: nonce, timestamp: timestamp,
                             keyId: keyId, appAccountToken: token?.stringValue)))
    }
  }

  /// A whole number that fits (a timestamp in milliseconds), else nil.
  static func integer(_ value: JSON) -> Int64? {
    guard case .number(let text) = value else { return nil }
    if let n = Int64(text) { return n }
    guard let d = Double(text), d.isFinite, d == d.rounded(), abs(d) < 9.0e15 else { return nil }
    return Int64(d)
  }
}

/// The App Store's verdict on a promotional offer's signature: the product and offer it names,
/// once the signature verifies against the developer's key, or why no offer is shown.
public typealias PromotionalOfferCheck = @Sendable (PromotionalOfferSignature, RetentionCustomer) -> Result<SignedOffer, RefusedAnswer>

/// What a verified promotional-offer signature names.
public struct SignedOffer: Equatable, Sendable {
  public var productId: String
  public var offerIdentifier: String
  /// The signature's one-time nonce, lowercased: the App Store accepts it once (`OfferNonceLedger`).
  public var nonce: String?
  public init(productId: String, offerIdentifier: String, nonce: String? = nil) {
    self.productId = productId
    self.offerIdentifier = offerIdentifier
    self.nonce = nonce
  }
}
