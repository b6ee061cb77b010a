import AppStoreSigning
import Foundation
import Testing

/// A stranger copies a real certificate chain into a header, writes a payload whose `signedDate` no
/// certificate library can represent and signs nothing (64 zero bytes). The chain is validated at
/// that date before the signature can be checked, so the date must be refused first, with a reason:
/// it used to trap inside swift-certificates (signal 4 in `listen`, a backtrace in the CLI).
@Suite struct SignedDateRangeTests {
  static let hostileDates = ["260000000000000", "2.6e14", "9300000000000000000", "-62200000000000"]

  static func reason(_ text: String) -> String {
    "payload signedDate \(text) is not a date from 1900-01-01 to 3000-01-01 (milliseconds since 1970)"
  }

  /// The header of a real JWS, a payload with `signedDate` written as `date`, and 64 zero bytes.
  static func forged(headerOf jws: String, signedDate date: String) -> String {
    var parts = JWSParts(jws)
    parts.payload = JWSParts.encode(#"{"notificationType":"TEST","notificationUUID":"x","version":"2.0","data":{"bundleId":"com.example","environment":"Sandbox"},"signedDate":\#(date)}"#)
    parts.signature = JWSParts.encode(Data(count: 64))
    return parts.compact
  }

  @Test(arguments: zip(hostileDates, ["260000000000000", "260000000000000", "9.3e+18", "-62200000000000"]))
  func applesRealChainWithAnUnrepresentableDateIsRefusedWithAReason(date: String, shown: String) async throws {
    let verifier = try JWSVerifier()
    let jws = Self.forged(headerOf: try Fixture.text("real-apple/py_sandbox_test_notification.jws"), signedDate: date)
    #expect(await outcome(verifier, jws) == Self.reason(shown))
  }

  @Test(arguments: hostileDates)
  func aTestCAChainWithAnUnrepresentableDateIsRefusedWithAReason(date: String) async throws {
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    let jws = Self.forged(headerOf: try ca.sign(payloadJSON: Fixture.transaction()), signedDate: date)
    #expect(await outcome(verifier, jws).hasPrefix("payload signedDate "))
  }

  @Test func aCorrectlySignedPayloadWithAnUnrepresentableDateIsStillRefused() async throws {
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    let jws = try ca.sign(payloadJSON: Fixture.transaction(signedDate: 260_000_000_000_000))
    #expect(await outcome(verifier, jws) == Self.reason("260000000000000"))
  }

  @Test func aNestedTransactionWithAnUnrepresentableDateFailsTheNotification() async throws {
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    let transaction = Self.forged(headerOf: try ca.sign(payloadJSON: Fixture.transaction()), signedDate: "-62200000000000")
    let renewal = try ca.sign(payloadJSON: Fixture.renewalInfo())
    let jws = try ca.sign(payloadJSON: Fixture.notification(transaction: transaction, renewal: renewal))
    #expect(await outcome(verifier, jws) == "data.signedTransactionInfo: " + Self.reason("-62200000000000"))
  }

  @Test func anXcodePayloadWithAnUnrepresentableDateIsRefusedToo() async throws {
    // Xcode data is never verified, but its date is still printed and imported.
    var parts = JWSParts(try Fixture.text("samples/xcode_xcode-signed-transaction.jws"))
    parts.payload = JWSParts.encode(#"{"transactionId":"1","environment":"Xcode","signedDate":9300000000000000000}"#)
    #expect(await outcome(try JWSVerifier(), parts.compact) == Self.reason("9.3e+18"))
  }

  @Test(arguments: [("1e400", reason("inf")), ("-1e400", reason("-inf")),
                     ("123456789012345678901234567890", reason("1.2345678901234568e+29"))])
  func numbersNoDoubleHoldsOrNoDateFitsAreRefused(date: String, expected: String) async throws {
    var parts = JWSParts(try Fixture.text("real-apple/py_sandbox_test_notification.jws"))
    parts.payload = JWSParts.encode(#"{"notificationType":"TEST","signedDate":\#(date)}"#)
    parts.signature = JWSParts.encode(Data(count: 64))
    #expect(await outcome(try JWSVerifier(), parts.compact) == expected)
  }

  @Test func theRangeEndsAreExactTo1900And3000() async throws {
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test CA")], trustApple: false)
    // Inside the range the chain is checked (and these certificates are not valid then).
    let first = try ca.sign(payloadJSON: Fixture.transaction(signedDate: -2_208_988_800_000))
    #expect(await outcome(verifier, first).hasPrefix("leaf certificate is valid only from "))
    let last = try ca.sign(payloadJSON: Fixture.transaction(signedDate: 32_503_680_000_000))
    #expect(await outcome(verifier, last).hasPrefix("leaf certificate expired "))
    let before = try ca.sign(payloadJSON: Fixture.transaction(signedDate: -2_208_988_800_001))
    #expect(await outcome(verifier, before) == Self.reason("-2208988800001"))
    let after = try ca.sign(payloadJSON: Fixture.transaction(signedDate: 32_503_680_000_001))
    #expect(await outcome(verifier, after) == Self.reason("32503680000001"))
  }

  @Test func iso8601NeverTrapsOnADateItCannotWrite() {
    #expect(iso8601(Date(timeIntervalSince1970: 1_700_000_000.5)) == "2023-11-14T22:13:20.500Z")
    #expect(iso8601(Date(timeIntervalSince1970: 9.3e15)) == "9.3e+15 s since 1970")
    #expect(iso8601(Date(timeIntervalSince1970: -62_200_000_000)) == "-62200000000.0 s since 1970")
    #expect(iso8601(Date(timeIntervalSince1970: .infinity)) == "inf s since 1970")
  }
}
