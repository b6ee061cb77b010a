import AppStoreSigning
import DashModel
import CoreValues
import Foundation
import Testing
import RetentionMessaging

/// The App Store shows a promotional offer from a realtime answer only when its signature verifies
/// against the developer's In-App Purchase key (issue 21 §2).
@Suite("Promotional-offer signatures in a realtime answer are checked against the developer's key")
struct PromotionalOfferVerifierTests {
  let developer = PromotionalOfferSigner()
  let customer = RetentionCustomer(originalTransactionId: "2000000871234560", productId: "pass.family.monthly", bundleId: "com.example.birdwatch")
  var appStore: PromotionalOfferVerifier { PromotionalOfferVerifier(keys: [developer.registered], now: Date().timeIntervalSince1970) }

  func verdict(_ signature: PromotionalOfferSignature, by verifier: PromotionalOfferVerifier? = nil) -> Result<SignedOffer, RefusedAnswer> {
    (verifier ?? appStore).check(signature, for: customer)
  }

  func refusal(_ signature: PromotionalOfferSignature, by verifier: PromotionalOfferVerifier? = nil) -> String? {
    if case .failure(let why) = verdict(signature, by: verifier) { return why.reason }
    return nil
  }

  @Test("A V2 signature made with the developer's key for this customer names its offer")
  func goodV2() throws {
    let jws = try developer.v2(transactionId: customer.originalTransactionId)
    let offer = try verdict(.v2(jws: jws)).get()
    let payload = try #require(Base64URL.decode(jws.split(separator: ".").map(String.init)[1]))
    let nonce = try #require((try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])?["nonce"] as? String)
    // The nonce comes back for the App Store to spend once (OfferNonceLedger).
    #expect(offer == SignedOffer(productId: "pass.premium.monthly", offerIdentifier: "premium_loyalty_3m", nonce: nonce))
  }

  @Test("A V2 signature whose payload was changed after signing is refused")
  func tamperedV2() throws {
    let jws = try developer.v2(transactionId: customer.originalTransactionId)
    let parts = jws.split(separator: ".").map(String.init)
    let payload = try #require(Base64URL.decode(parts[1]))
    var claims = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    claims["offerIdentifier"] = "premium_free_year"
    let forged = parts[0] + "." + Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims))) + "." + parts[2]
    #expect(refusal(.v2(jws: forged))?.contains("does not verify") == true)
  }

  @Test("A V2 signature made with another key, or naming a key the App Store does not hold, is refused")
  func wrongKey() throws {
    var impostor = PromotionalOfferSigner()
    let sameKid = try impostor.v2(transactionId: customer.originalTransactionId)
    #expect(refusal(.v2(jws: sameKid))?.contains("does not verify with key TESTKEY123") == true)
    impostor.keyId = "OTHERKEY99"
    let otherKid = try impostor.v2(transactionId: customer.originalTransactionId)
    #expect(refusal(.v2(jws: otherKid))?.contains("not the developer's key TESTKEY123") == true)
    let noKeys = PromotionalOfferVerifier(keys: [], now: Date().timeIntervalSince1970)
    let good = try developer.v2(transactionId: customer.originalTransactionId)
    #expect(refusal(.v2(jws: good), by: noKeys)?.contains("no In-App Purchase key is known") == true)
  }

  @Test("A V2 signature older than 24 hours or issued in the future is refused")
  func v2Time() throws {
    let old = try developer.v2(transactionId: customer.originalTransactionId, iat: Date().addingTimeInterval(-25 * 3600))
    #expect(refusal(.v2(jws: old)) == "answer refused: promotionalOfferSignatureV2: iat is more than 24 hours old")
    let future = try developer.v2(transactionId: customer.originalTransactionId, iat: Date().addingTimeInterval(600))
    #expect(refusal(.v2(jws: future)) == "answer refused: promotionalOfferSignatureV2: iat is in the future")
    let recent = try developer.v2(transactionId: customer.originalTransactionId, iat: Date().addingTimeInterval(-23 * 3600))
    #expect(refusal(.v2(jws: recent)) == nil)
  }

  @Test("A V2 signature for another customer, another app, another audience or without transactionId is refused, though signed well")
  func v2Claims() throws {
    let original = customer.originalTransactionId
    let cases: [(String?, (inout [String: Any]) -> Void, String)] = [
      ("2000000999999999", { _ in }, "transactionId is not the request's originalTransactionId"),
      (nil, { _ in }, "transactionId is missing"),
      (original, { $0["bid"] = "com.other.app" }, "bid is not com.example.birdwatch"),
      (original, { $0["aud"] = "appstoreconnect-v1" }, "aud is not promotional-offer"),
      (original, { $0["iss"] = "someone-else" }, "iss is not the key's issuer"),
      (original, { $0.removeValue(forKey: "nonce") }, "nonce is missing"),
      (original, { $0["nonce"] = "same-nonce-every-time" }, "nonce same-nonce-every-time is not a UUID"),
    ]
    for (transactionId, edit, why) in cases {
      let jws = try developer.v2(transactionId: transactionId, edit: edit)
      #expect(refusal(.v2(jws: jws))?.contains(why) == true, "\(why)")
    }
  }

  @Test("A V1 signature over the offer's fields verifies; one whose fields changed, or older than 24 hours, is refused")
  func v1() throws {
    let good = try developer.v1(appAccountToken: "5C3D6A1E-0B7F-4D2A-9E8C-1F2A3B4C5D6E")
    let offer = try verdict(.v1(good)).get()
    #expect(offer == SignedOffer(productId: "pass.premium.monthly", offerIdentifier: "premium_loyalty_3m", nonce: good.nonce))
    // Apple signs the nonce lowercased, so an uppercase one verifies, and is spent as the same nonce.
    let upper = try developer.v1(nonce: "4C5D2D47-1F0A-4D4E-9D7A-0A4A3C1F2B11")
    #expect(try verdict(.v1(upper)).get().nonce == "4c5d2d47-1f0a-4d4e-9d7a-0a4a3c1f2b11")
    let notUUID = try developer.v1(nonce: "12345")
    #expect(refusal(.v1(notUUID)) == "answer refused: promotionalOfferSignatureV1: nonce 12345 is not a UUID")
    var other = good
    other.offerIdentifier = "premium_free_year"
    #expect(refusal(.v1(other))?.contains("encodedSignature does not verify") == true)
    var foreign = good
    foreign.keyId = "OTHERKEY99"
    #expect(refusal(.v1(foreign))?.contains("not the developer's key") == true)
    let old = try developer.v1(at: Date().addingTimeInterval(-25 * 3600))
    #expect(refusal(.v1(old)) == "answer refused: promotionalOfferSignatureV1: timestamp is more than 24 hours old")
    var garbage = good
    garbage.encodedSignature = "not base64 at all!"
    #expect(refusal(.v1(garbage))?.contains("does not verify") == true)
  }

  @Test("Malformed V2 signatures are refused with a reason, never a crash")
  func malformed() {
    for text in ["", "a.b", "a.b.c", "....", "eyJhbGciOiJub25lIn0.e30.", String(repeating: "x.", count: 1000)] {
      #expect(refusal(.v2(jws: text))?.hasPrefix("answer refused: promotionalOfferSignatureV2: ") == true, "\(text.prefix(30))")
    }
  }
}
