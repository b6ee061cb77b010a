import Crypto
import DashModel
import FoundationEssentials
import CoreValues
import RetentionMessaging

/// Checks a promotional offer in a realtime answer as the App Store would before it shows it: the
/// signature verifies against the developer's In-App Purchase key named in it, and the signed
/// fields are for this app and this customer, made recently.
///
/// - V2 (a JWS, "Generating JWS to sign App Store requests"; Apple's PromotionalOfferV2SignatureCreator):
///   header `alg` ES256 and `kid` a known key (`typ`, when present, JWT); ES256 over
///   `header.payload`; claims `aud` "promotional-offer", `iss` the key's issuer, `bid` the app,
///   `nonce`, `iat`, `productId`, `offerIdentifier`, and `transactionId`, which the Retention
///   Messaging API requires to be the realtime request's originalTransactionId.
/// - V1 ("Generating a signature for promotional offers"; Apple's PromotionalOfferSignatureCreator):
///   ECDSA P-256 with SHA-256, DER, base64, over bundleId, keyId, productId, offerIdentifier,
///   appAccountToken (lowercase, empty when none), nonce (lowercase) and timestamp joined by
///   U+2063; `keyId` a known key.
///
/// Nonce: a UUID (Apple's models type it so, and its libraries make one per signature), returned
/// lowercased in `SignedOffer` for the caller to spend once (`OfferNonceLedger`).
///
/// Time: Apple documents that a V1 timestamp "keeps the offer active for 24 hours"; the same 24
/// hours is applied to a V2 `iat` (SubDash's inference: Apple states no V2 lifetime), and a time
/// more than `skew` in the future is refused, as bearer tokens are.
public struct PromotionalOfferVerifier: Sendable {
  public static let lifetimeSeconds: Double = 24 * 3600
  public static let audience = "promotional-offer"
  public let keys: [InAppPurchaseKey]
  /// Wall-clock seconds since 1970: the developer signs with the real clock, whatever the
  /// simulated customer's clock says.
  public let now: Double
  public var skew: Double = 60

  public init(keys: [InAppPurchaseKey], now: Double) {
    self.keys = keys
    self.now = now
  }

  public func check(_ signature: PromotionalOfferSignature, for customer: RetentionCustomer) -> Result<SignedOffer, RefusedAnswer> {
    switch signature {
    case .v2(let jws): return checkV2(jws, customer).mapError { RefusedAnswer("answer refused: promotionalOfferSignatureV2: " + $0.reason) }
    case .v1(let v1): return checkV1(v1, customer).mapError { RefusedAnswer("answer refused: promotionalOfferSignatureV1: " + $0.reason) }
    }
  }

  private func checkV2(_ jws: String, _ customer: RetentionCustomer) -> Result<SignedOffer, RefusedAnswer> {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0], as: .url), let claimBytes = Base64URL.decode(parts[1], as: .url),
          let signatureBytes = Base64URL.decode(parts[2], as: .url) else { return refuse("not a compact JWS of three base64url parts") }
    guard case .object(let header)? = try? JSONParser.parse(headerBytes) else { return refuse("the header is not a JSON object") }
    guard header["alg"]?.stringValue == "ES256" else { return refuse("alg is not ES256") }
    if let typ = header["typ"], typ.stringValue != "JWT" { return refuse("typ is not JWT") }
    guard let kid = header["kid"]?.stringValue else { return refuse("the header names no kid") }
    let key: (InAppPurchaseKey, P256.Signing.PublicKey)
    switch known(kid) {
    case .failure(let why): return .failure(why)
    case .success(let k): key = k
    }
    guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
          key.1.isValidSignature(signature, for: Array("\(parts[0]).\(parts[1])".utf8)) else {
      return refuse("the signature does not verify with key \(clip(kid))")
    }
    guard case .object(let claims)? = try? JSONParser.parse(claimBytes) else { return refuse("the payload is not a JSON object") }
    guard claims["aud"]?.stringValue == Self.audience else { return refuse("aud is not \(Self.audience)") }
    guard claims["iss"]?.stringValue == key.0.issuerId else { return refuse("iss is not the key's issuer") }
    let app = customer.bundleId ?? key.0.bundleId
    guard claims["bid"]?.stringValue == app else { return refuse("bid is not \(clip(app))") }
    guard let nonce = claims["nonce"]?.stringValue, !nonce.isEmpty else { return refuse("nonce is missing") }
    guard UUID(uuidString: nonce) != nil else { return refuse("nonce \(clip(nonce)) is not a UUID") }
    guard let iat = claims["iat"].flatMap(Self.seconds) else { return refuse("iat is missing or not a number") }
    if let late = age(iat) { return refuse("iat \(late)") }
    guard let product = claims["productId"]?.stringValue, let offer = claims["offerIdentifier"]?.stringValue else {
      return refuse("productId or offerIdentifier is missing")
    }
    guard let transaction = claims["transactionId"]?.stringValue else {
      return refuse("transactionId is missing (the Retention Messaging API requires the request's originalTransactionId)")
    }
    guard transaction == customer.originalTransactionId else { return refuse("transactionId is not the request's originalTransactionId") }
    return .success(SignedOffer(productId: product, offerIdentifier: offer, nonce: nonce.lowercased()))
  }

  private func checkV1(_ s: PromotionalOfferSignature.V1, _ customer: RetentionCustomer) -> Result<SignedOffer, RefusedAnswer> {
    let key: (InAppPurchaseKey, P256.Signing.PublicKey)
    switch known(s.keyId) {
    case .failure(let why): return .failure(why)
    case .success(let k): key = k
    }
    let app = customer.bundleId ?? key.0.bundleId
    let separator = "\u{2063}"
    let signed = [app, s.keyId, s.productId, s.offerIdentifier, (s.appAccountToken ?? "").lowercased(), s.nonce.lowercased(), String(s.timestamp)]
      .joined(separator: separator)
    guard let der = Base64URL.decode(s.encodedSignature, as: .any), let signature = try? P256.Signing.ECDSASignature(derRepresentation: der),
          key.1.isValidSignature(signature, for: Array(signed.utf8)) else {
      return refuse("encodedSignature does not verify with key \(clip(s.keyId)) over the offer's fields")
    }
    if let late = age(Double(s.timestamp) / 1000) { return refuse("timestamp \(late)") }
    guard UUID(uuidString: s.nonce) != nil else { return refuse("nonce \(clip(s.nonce)) is not a UUID") }
    return .success(SignedOffer(productId: s.productId, offerIdentifier: s.offerIdentifier, nonce: s.nonce.lowercased()))
  }

  /// The key registered under `kid`, or why there is none to check with.
  private func known(_ kid: String) -> Result<(InAppPurchaseKey, P256.Signing.PublicKey), RefusedAnswer> {
    guard !keys.isEmpty else {
      return refuse("no In-App Purchase key is known to check it (subdash serve records the key of its --key-id and --key)")
    }
    guard let key = keys.first(where: { $0.keyId == kid }) else {
      return refuse("signed with key \(clip(kid)), not the developer's key \(keys.map { clip($0.keyId) }.joined(separator: ", "))")
    }
    guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM) else {
      return refuse("the recorded key \(clip(kid)) is not a P-256 public key")
    }
    return .success((key, publicKey))
  }

  /// nil when `t` (seconds) is within the offer's lifetime, else how it is not.
  private func age(_ t: Double) -> String? {
    if t > now + skew { return "is in the future" }
    if t < now - Self.lifetimeSeconds { return "is more than 24 hours old" }
    return nil
  }

  static func seconds(_ value: JSON) -> Double? {
    guard case .number(let text) = value, let d = Double(text), d.isFinite else { return nil }
    return d
  }

  private func refuse<T>(_ why: String) -> Result<T, RefusedAnswer> { .failure(RefusedAnswer(why)) }
  private func clip(_ s: String) -> String { LogText.clip(s) }
}
