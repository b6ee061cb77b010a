import AppStoreSigning
import Foundation
import Testing

/// An import verifies a history page's JWS together (`verifyAll`, on every core, each chain
/// validated once): every JWS gets exactly the verdict, payload and reason `verify` gives it alone.
@Suite struct BatchVerificationTests {
  let ca: LocalCertificateAuthority

  init() throws { ca = try LocalCertificateAuthority.create() }

  func newVerifier() throws -> JWSVerifier {
    try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")])
  }

  /// What a batch result says, in the words `outcome` uses for a single verification.
  static func said(_ result: Result<VerifiedJWS, any Error>) -> String {
    switch result {
    case .success: return "valid"
    case .failure(let error as SigningError): return error.message
    case .failure(let error): return "unexpected error \(error)"
    }
  }

  @Test func aMixedPageGetsTheVerdictEachJWSGetsAlone() async throws {
    let good = try ca.sign(payloadJSON: Fixture.transaction())
    var tampered = JWSParts(good)
    tampered.payload = JWSParts.encode(String(decoding: Fixture.transaction(signedDate: 1_700_000_000_001), as: UTF8.self))
    var shortChain = JWSParts(good)
    shortChain.headerJSON["x5c"] = Array(((shortChain.headerJSON["x5c"] as? [String]) ?? []).prefix(2))
    var badNested = JWSParts(try ca.sign(payloadJSON: Fixture.transaction()))
    badNested.signature = String(badNested.signature.reversed())
    let stranger = try LocalCertificateAuthority.create(.init(name: "Stranger"))
    let notification = try ca.sign(payloadJSON: Fixture.notification(
      transaction: try ca.sign(payloadJSON: Fixture.transaction()), renewal: try ca.sign(payloadJSON: Fixture.renewalInfo())))
    let notificationWithBadNested = try ca.sign(payloadJSON: Fixture.notification(
      transaction: badNested.compact, renewal: try ca.sign(payloadJSON: Fixture.renewalInfo())))
    var page: [String] = []
    for k in 0..<40 {
      // Valid transactions (each signed on its own, so every signature differs) between the bad ones.
      page.append(try ca.sign(payloadJSON: Fixture.transaction(signedDate: 1_700_000_000_000 + Int64(k))))
      switch k % 8 {
      case 1: page.append(tampered.compact)
      case 2: page.append(shortChain.compact)
      case 3: page.append(try stranger.sign(payloadJSON: Fixture.transaction()))
      case 4: page.append(notification)
      case 5: page.append(notificationWithBadNested)
      case 6: page.append(try Fixture.text("samples/xcode_xcode-signed-transaction.jws"))
      case 7: page.append("not.a.jws.at.all")
      default: break
      }
    }
    let batch = await (try newVerifier()).verifyAll(page)
    #expect(batch.count == page.count)
    let verifier = try newVerifier()
    for (jws, result) in zip(page, batch) {
      let fresh = await outcome(try newVerifier(), jws)
      let cached = await outcome(verifier, jws)
      #expect(Self.said(result) == fresh, "alone, on a fresh verifier")
      #expect(Self.said(result) == cached, "alone, on a verifier with its chain cached")
      if case .success(let v) = result {
        let alone = try await verifier.verify(jws)
        #expect(v.payloadJSON == alone.payloadJSON && v.signedBy == alone.signedBy && v.kind == alone.kind)
        #expect(v.nested.map(\.path) == alone.nested.map(\.path))
        #expect(v.nested.map(\.verified.payloadJSON) == alone.nested.map(\.verified.payloadJSON))
      }
    }
    let reasons = Set(batch.map(Self.said))
    #expect(reasons.contains("signature does not match header.payload for the leaf certificate's key"))
    #expect(reasons.contains("data.signedTransactionInfo: signature does not match header.payload for the leaf certificate's key"))
    #expect(reasons.contains("header x5c has 2 certificates, need 3"))
    #expect(batch.filter { Self.said($0) == "valid" }.count == 40 + 5 + 5)
  }

  /// The chain is validated once for the page, and still judged at each payload's own signedDate.
  @Test func aPageChecksEveryPayloadsSignedDateAgainstTheChain() async throws {
    let leafEnd = Date(timeIntervalSince1970: 1_800_000_000)
    let ca = try LocalCertificateAuthority.create(.init(leafNotValidAfter: leafEnd))
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")])
    let last: Int64 = 1_800_000_000_000
    let page = [try ca.sign(payloadJSON: Fixture.transaction(signedDate: last)),
                try ca.sign(payloadJSON: Fixture.transaction(signedDate: last + 1)),
                try ca.sign(payloadJSON: Fixture.transaction(signedDate: last - 1))]
    #expect(await verifier.verifyAll(page).map(Self.said) == [
      "valid", "leaf certificate expired 2027-01-15T08:00:00Z, before the payload's signedDate 2027-01-15T08:00:00.001Z", "valid",
    ])
    // The first of a chain outside its window: nothing is cached from it, the next still validates.
    let fresh = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")])
    #expect(await fresh.verifyAll(Array(page.reversed().dropFirst())).map(Self.said) == [
      "leaf certificate expired 2027-01-15T08:00:00Z, before the payload's signedDate 2027-01-15T08:00:00.001Z", "valid",
    ])
  }

  @Test func anEmptyPageIsNoWork() async throws {
    let verifier = try newVerifier()
    #expect(await verifier.verifyAll([]).isEmpty)
  }
}
