import AppStoreSigning
import Foundation
import Testing
@testable import NotificationReceiver

/// A stranger posts a notification whose header carries a real certificate chain (Apple's, or the
/// test CA's the receiver trusts), whose `signedDate` no certificate library can represent, and
/// whose signature is 64 zero bytes. No key is needed to make one. It used to kill `listen`
/// (signal 4, no answer); it is refused with 403 and a reason, and nothing is written.
@Suite struct UnrepresentableSignedDateTests {
  static let dates = ["260000000000000", "2.6e14", "9300000000000000000", "-62200000000000"]

  static func forgedBody(headerOf jws: String, signedDate: String) -> [UInt8] {
    func b64url(_ data: Data) -> String {
      data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let payload = #"{"notificationType":"DID_RENEW","notificationUUID":"x","version":"2.0","data":{"bundleId":"com.example.subdash","environment":"Sandbox"},"signedDate":\#(signedDate)}"#
    let forged = jws.split(separator: ".")[0] + "." + b64url(Data(payload.utf8)) + "." + b64url(Data(count: 64))
    return Array(#"{"signedPayload":"\#(forged)"}"#.utf8)
  }

  @Test(arguments: dates)
  func aTrustedTestCAsChainWithAnUnrepresentableDateIs403(date: String) async throws {
    let ca = try LocalCertificateAuthority.create()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "test root")])
    let receiver = NotificationReceiver(verifier: verifier, sink: DirectorySink(directory: directory.path), bundleId: "com.example.subdash")
    let real = try ca.sign(payloadJSON: Array(#"{"notificationType":"TEST","signedDate":1780000000000}"#.utf8))

    let outcome = await receiver.receive(body: Self.forgedBody(headerOf: real, signedDate: date), contentType: "application/json")
    #expect(outcome.status == 403)
    #expect(outcome.message.hasPrefix("refused: signedPayload: payload signedDate "), "\(outcome.message)")
    #expect(outcome.message.hasSuffix(" is not a date from 1900-01-01 to 3000-01-01 (milliseconds since 1970)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
  }

  @Test(arguments: dates)
  func applesRealChainWithAnUnrepresentableDateIs403(date: String) async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let apple = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("AppStoreSigningTests/Fixtures/real-apple/py_sandbox_test_notification.jws"), encoding: .utf8)
    let outcome = await store.post(Self.forgedBody(headerOf: apple, signedDate: date))
    #expect(outcome.status == 403)
    #expect(outcome.message.hasPrefix("refused: signedPayload: payload signedDate "), "\(outcome.message)")
    #expect(store.files.isEmpty)
  }
}
