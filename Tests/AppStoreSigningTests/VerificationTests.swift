import AppStoreSigning
import Foundation
import Testing
import X509

/// A support engineer verifies what Apple (or a local test CA) signed; every kind of tampering is
/// refused with its own reason.
@Suite struct VerificationTests {
  let ca: LocalCertificateAuthority
  let verifier: JWSVerifier

  init() throws {
    ca = try LocalCertificateAuthority.create()
    verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")])
  }

  @Test func aTransactionSignedByATrustedTestRootVerifiesButIsNotApples() async throws {
    let payload = Fixture.transaction()
    let result = try await verifier.verify(try ca.sign(payloadJSON: payload))
    #expect(result.signedBy == .extraRoot(name: "test CA"))
    #expect(result.kind == .transaction)
    #expect(result.environment == "Sandbox")
    #expect(result.signedDateMilliseconds == 1_700_000_000_000)
    #expect(result.payloadJSON == payload, "the payload comes back byte for byte, unknown fields included")
  }

  @Test func aNotificationVerifiesItsNestedTransactionAndRenewalInfo() async throws {
    let transaction = try ca.sign(payloadJSON: Fixture.transaction())
    let renewal = try ca.sign(payloadJSON: Fixture.renewalInfo())
    let result = try await verifier.verify(try ca.sign(payloadJSON: Fixture.notification(transaction: transaction, renewal: renewal)))
    #expect(result.kind == .notification(type: "DID_RENEW", subtype: "BILLING_RECOVERY"))
    #expect(result.nested.map(\.path) == ["data.signedTransactionInfo", "data.signedRenewalInfo"])
    #expect(result.nested.map(\.verified.kind) == [.transaction, .renewalInfo])
  }

  @Test func aNotificationWithATamperedNestedTransactionIsRefused() async throws {
    var transaction = JWSParts(try ca.sign(payloadJSON: Fixture.transaction()))
    transaction.payload = JWSParts.encode(#"{"transactionId":"999","environment":"Sandbox","signedDate":1700000000000}"#)
    let renewal = try ca.sign(payloadJSON: Fixture.renewalInfo())
    let jws = try ca.sign(payloadJSON: Fixture.notification(transaction: transaction.compact, renewal: renewal))
    #expect(await outcome(verifier, jws) == "data.signedTransactionInfo: signature does not match header.payload for the leaf certificate's key")
  }

  @Test func eachTamperingFailsWithItsOwnReason() async throws {
    let good = try ca.sign(payloadJSON: Fixture.transaction())
    func changed(_ edit: (inout JWSParts) -> Void) -> String {
      var parts = JWSParts(good)
      edit(&parts)
      return parts.compact
    }
    let other = try LocalCertificateAuthority.create(.init(name: "Stranger"))
    let cases: [(String, String)] = [
      (String(good.split(separator: ".")[0]), "not a compact JWS: 1 segment separated by '.', need 3"),
      (good + ".x", "not a compact JWS: 4 segments separated by '.', need 3"),
      (changed { $0.header = "e30*" }, "header is not base64url"),
      (changed { $0.header = JWSParts.encode("[1]") }, "header is not a JSON object with string alg and x5c"),
      (changed { $0.payload = "!!" }, "payload is not base64url"),
      (changed { $0.payload = JWSParts.encode("null") }, "payload is JSON null, not an object"),
      (changed { $0.payload = JWSParts.encode("[]") }, "payload is not a JSON object"),
      (changed { $0.payload = JWSParts.encode("{\"signedDate\":") }, "payload is not valid JSON: line 1, column 15: unexpected end of file (the JSON is truncated)"),
      // A key twice is refused, as the importer refuses it: no reader may take another value than the verdict's.
      (changed { $0.payload = JWSParts.encode(#"{"signedDate":1700000000000,"environment":"Sandbox","environment":"Production"}"#) },
       "payload is not valid JSON: line 1, column 53: duplicate key \"environment\""),
      (changed { $0.payload = JWSParts.encode(#"{"signedDate":"yesterday"}"#) }, "payload field signedDate has the wrong type"),
      (changed { $0.payload = JWSParts.encode(#"{"data":"Sandbox"}"#) }, "payload field data has the wrong type"),
      (changed { $0.payload = JWSParts.encode(#"{"data":{"environment":5}}"#) }, "payload field data.environment has the wrong type"),
      (changed { $0.payload = JWSParts.encode(#"{"autoRenewStatus":1.5}"#) }, "payload field autoRenewStatus has the wrong type"),
      (changed { $0.payload = JWSParts.encode(#"{"environment":"Sandbox"}"#) }, "payload has no signedDate to validate the chain at"),
      (changed { $0.signature = "a+b" }, "signature is not base64url"),
      (changed { $0.signature.removeLast(8) }, "signature is 58 bytes, ES256 needs 64 (r‖s)"),
      (changed { $0.headerJSON["alg"] = "RS256" }, #"header alg is "RS256", not "ES256""#),
      (changed { $0.headerJSON["alg"] = nil }, "header has no alg"),
      (changed { $0.headerJSON["x5c"] = nil }, "header has no x5c certificate chain"),
      (changed { $0.headerJSON["x5c"] = Array((($0.headerJSON["x5c"] as? [String]) ?? []).prefix(2)) }, "header x5c has 2 certificates, need 3"),
      (changed { var x5c = $0.headerJSON["x5c"] as! [String]; x5c[0] = "MII_-"; $0.headerJSON["x5c"] = x5c }, "header x5c[0] is not standard base64"),
      (changed { var x5c = $0.headerJSON["x5c"] as! [String]; x5c[1] = "AAAA"; $0.headerJSON["x5c"] = x5c }, "header x5c[1] is not a DER X.509 certificate"),
      (changed { $0.payload = JWSParts.encode(String(decoding: Fixture.transaction(signedDate: 1_700_000_000_001), as: UTF8.self)) },
       "signature does not match header.payload for the leaf certificate's key"),
      (try other.sign(payloadJSON: Fixture.transaction()),
       "certificate chain does not end in a trusted root (intermediate issued by O=Stranger,CN=Stranger Root)"),
    ]
    for (jws, reason) in cases {
      #expect(await outcome(verifier, jws) == reason)
    }
    #expect(Set(cases.map(\.1)).count == cases.count, "every case has its own message")
  }

  @Test func theFirstWrongFieldIsNamedInDeclarationOrderAndALongReasonIsClipped() async throws {
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    var parts = JWSParts(try ca.sign(payloadJSON: Fixture.transaction()))
    // JSONDecoder read signedDate before data, and data's own fields before summary.
    parts.payload = JWSParts.encode(#"{"summary":3,"data":{"environment":5},"signedDate":"x"}"#)
    #expect(await outcome(verifier, parts.compact) == "payload field signedDate has the wrong type")
    parts.payload = JWSParts.encode(#"{"summary":3,"data":{"environment":5}}"#)
    #expect(await outcome(verifier, parts.compact) == "payload field data.environment has the wrong type")
    // A duplicate key of 10,000 characters is quoted in part, not whole.
    let key = String(repeating: "k", count: 10_000)
    parts.payload = JWSParts.encode("{\"\(key)\":1,\"\(key)\":2}")
    let reason = await outcome(verifier, parts.compact)
    #expect(reason.hasPrefix("payload is not valid JSON: line 1, column ") && reason.hasSuffix("…") && reason.count < 250)
  }

  @Test func aPayloadAfterAByteOrderMarkIsNotAnObject() async throws {
    // The state-file parser skips a BOM in files; in signed data it is refused, as Apple's Python library refuses it.
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    var parts = JWSParts(try ca.sign(payloadJSON: Fixture.transaction()))
    parts.payload = JWSParts.encode(Data([0xEF, 0xBB, 0xBF]) + Data(Fixture.transaction()))
    #expect(await outcome(verifier, parts.compact) == "payload is not a JSON object")
  }

  @Test func aLeafOrIntermediateWithoutApplesOIDIsRefused() async throws {
    let noLeafOID = try LocalCertificateAuthority.create(.init(leafHasAppleOID: false))
    let noIntermediateOID = try LocalCertificateAuthority.create(.init(intermediateHasAppleOID: false))
    let verifier = try JWSVerifier(extraRoots: [
      TrustedRoot(certificate: noLeafOID.root, name: "a"), TrustedRoot(certificate: noIntermediateOID.root, name: "b"),
    ])
    #expect(await outcome(verifier, try noLeafOID.sign(payloadJSON: Fixture.transaction()))
      == "certificate chain rejected: leaf certificate lacks Apple's receipt-signing OID 1.2.840.113635.100.6.11.1")
    #expect(await outcome(verifier, try noIntermediateOID.sign(payloadJSON: Fixture.transaction()))
      == "certificate chain rejected: intermediate certificate lacks Apple's WWDR OID 1.2.840.113635.100.6.2.1")
  }

  /// The chain is judged at the payload's signedDate, to the millisecond, also when cached.
  @Test func theLeafMustBeValidAtSignedDateToTheMillisecond() async throws {
    let leafEnd = Date(timeIntervalSince1970: 1_800_000_000)
    let ca = try LocalCertificateAuthority.create(.init(leafNotValidAfter: leafEnd))
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")])
    let last: Int64 = 1_800_000_000_000
    #expect(await outcome(verifier, try ca.sign(payloadJSON: Fixture.transaction(signedDate: last))) == "valid")
    // Now cached: the window still applies.
    #expect(await outcome(verifier, try ca.sign(payloadJSON: Fixture.transaction(signedDate: last + 1)))
      == "leaf certificate expired 2027-01-15T08:00:00Z, before the payload's signedDate 2027-01-15T08:00:00.001Z")
    let start: Int64 = 1_577_836_800_000
    #expect(await outcome(verifier, try ca.sign(payloadJSON: Fixture.transaction(signedDate: start))) == "valid")
    #expect(await outcome(verifier, try ca.sign(payloadJSON: Fixture.transaction(signedDate: start - 1)))
      == "leaf certificate is valid only from 2020-01-01T00:00:00Z, after the payload's signedDate 2019-12-31T23:59:59.999Z")
    // A fresh verifier (no cache) says the same.
    let fresh = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")])
    #expect(await outcome(fresh, try ca.sign(payloadJSON: Fixture.transaction(signedDate: last + 1)))
      == "leaf certificate expired 2027-01-15T08:00:00Z, before the payload's signedDate 2027-01-15T08:00:00.001Z")
  }

  @Test func xcodeAndLocalTestingDataDecodeButAreMarkedUnverified() async throws {
    let transaction = try await verifier.verify(try Fixture.text("samples/xcode_xcode-signed-transaction.jws"))
    #expect(transaction.signedBy == .unverified(environment: "Xcode"))
    #expect(transaction.kind == .transaction)
    #expect(transaction.signedDateMilliseconds == 1697679936056.485)
    let renewal = try await verifier.verify(try Fixture.text("samples/xcode_xcode-signed-renewal-info.jws"))
    #expect(renewal.signedBy == .unverified(environment: "Xcode"))
    #expect(renewal.kind == .renewalInfo)
    // A local-testing payload is never checked, whoever signed it: it cannot pass as Apple's.
    let forged = try await verifier.verify(try ca.sign(payloadJSON: Fixture.transaction(environment: "LocalTesting")))
    #expect(forged.signedBy == .unverified(environment: "LocalTesting"))
  }

  @Test func applesLibraryTestVectorsVerifyOnlyAgainstTheirOwnTestRoot() async throws {
    let names = ["mock_signed_data_transactionInfo", "mock_signed_data_renewalInfo", "mock_signed_data_testNotification"]
    for name in names {
      let jws = try Fixture.text("samples/\(name).jws")
      let untrusted = await outcome(try JWSVerifier(), jws)
      #expect(untrusted.hasPrefix("certificate chain does not end in a trusted root (intermediate issued by "), "\(untrusted)")
      // Their x5c[2] is the Apple library's test root: trusted explicitly, they verify (as in Apple's tests).
      let x5c = try #require(JWSParts(jws).headerJSON["x5c"] as? [String])
      let testRoot = try Certificate(derEncoded: Array(try #require(Data(base64Encoded: x5c[2]))))
      let result = try await JWSVerifier(extraRoots: [TrustedRoot(certificate: testRoot, name: "Apple library test CA")]).verify(jws)
      #expect(result.signedBy == .extraRoot(name: "Apple library test CA"))
      #expect(result.environment == "Sandbox")
    }
  }

  @Test func realAppleSignedDataVerifiesAgainstAppleRootCAG3AtItsSignedDate() async throws {
    let apple = try JWSVerifier()
    let transaction = try await apple.verify(try Fixture.text("real-apple/ruby_sandbox_transaction.jws"))
    #expect(transaction.signedBy == .apple)
    #expect(transaction.kind == .transaction)
    #expect(transaction.environment == "Sandbox")
    #expect(transaction.signedDate.map(iso8601) == "2025-02-10T04:29:32.561Z")
    let notification = try await apple.verify(try Fixture.text("real-apple/py_sandbox_test_notification.jws"))
    #expect(notification.signedBy == .apple)
    #expect(notification.kind == .notification(type: "TEST", subtype: nil))
    // Without Apple's root (only a test root), the same data is refused.
    let testOnly = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    #expect(await outcome(testOnly, try Fixture.text("real-apple/ruby_sandbox_transaction.jws"))
      == "certificate chain does not end in a trusted root (intermediate issued by C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA - G3)")
  }

  @Test func theEmbeddedAppleRootIsTheShippedCertificate() throws {
    let root = try TrustedRoot.appleRootCAG3()
    let shipped = try Certificate(derEncoded: try Fixture.bytes("AppleRootCA-G3.cer"))
    #expect(root.certificate == shipped)
    #expect(root.isApple)
    #expect(root.name == "Apple Root CA - G3")
  }

  @Test func extraRootsLoadFromDEROrPEMAndBadFilesAreNamed() throws {
    let der = try TrustedRoot(fileContents: ca.rootDER, source: "root.der")
    let pem = try TrustedRoot(fileContents: Array(ca.rootPEM.utf8), source: "root.pem")
    #expect(der.certificate == ca.root && pem.certificate == ca.root)
    #expect(throws: SigningError("notes.txt: not a DER or PEM certificate")) {
      try TrustedRoot(fileContents: Array("hello".utf8), source: "notes.txt")
    }
  }
}
