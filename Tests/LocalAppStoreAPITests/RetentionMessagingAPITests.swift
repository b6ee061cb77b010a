import Crypto
import DashModel
import Foundation
import NotificationDelivery
import Testing
@testable import LocalAppStoreAPI
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// The Retention Messaging API's configuration endpoints, as a developer's backend calls them.
@Suite struct RetentionMessagingAPITests {
  static func call(_ s: ServeFixture, _ method: String, _ path: String, _ body: String = "") async -> LocalAppStoreAPI.Response {
    await s.api.respond(.init(method: method, path: "/sandbox/inApps/v1/messaging/" + path, authorization: s.token(), body: Array(body.utf8)))
  }

  static let id = "a1b2c3d4-0000-4000-8000-000000000001"
  static let message = #"{"header": "Before you go", "body": "Stay for 50% off your next three months.", "bulletPoints": [{"text": "Ad-free", "imageIdentifier": "a1b2c3d4-0000-4000-8000-0000000000aa", "altText": "star"}]}"#

  @Test func aMessageIsUploadedListedMadeTheDefaultAndDeleted() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    #expect(await Self.call(s, "PUT", "message/\(Self.id)", Self.message).status == 200)
    let list = ServeFixture.object(await Self.call(s, "GET", "message/list"))
    #expect((list["messageIdentifiers"] as? [[String: String]]) == [["messageIdentifier": Self.id, "messageState": "APPROVED"]])
    #expect(await Self.call(s, "PUT", "default/com.example.birdwatch.monthly/en-US", #"{"messageIdentifier": "\#(Self.id)"}"#).status == 200)
    let got = ServeFixture.object(await Self.call(s, "GET", "default/com.example.birdwatch.monthly/en-US"))
    #expect(got["messageIdentifier"] as? String == Self.id)
    // Kept private in the served directory.
    let attributes = try FileManager.default.attributesOfItem(atPath: s.directory + "/.retention-messaging.json")
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    // Deleting the message removes the default that named it.
    #expect(await Self.call(s, "DELETE", "message/\(Self.id)").status == 200)
    let gone = await Self.call(s, "GET", "default/com.example.birdwatch.monthly/en-US")
    #expect(gone.status == 404 && ServeFixture.object(gone)["errorCode"] as? Int == 4_040_020)
  }

  @Test func theRealtimeURLIsSetReadAndDeleted() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let none = await Self.call(s, "GET", "realtime/url")
    #expect(none.status == 404 && ServeFixture.object(none)["errorCode"] as? Int == 4_040_021)
    #expect(await Self.call(s, "PUT", "realtime/url", #"{"realtimeURL": "https://example.com/retention"}"#).status == 200)
    #expect(ServeFixture.object(await Self.call(s, "GET", "realtime/url"))["realtimeURL"] as? String == "https://example.com/retention")
    #expect(await Self.call(s, "DELETE", "realtime/url").status == 200)
    #expect(await Self.call(s, "GET", "realtime/url").status == 404)
    let bad = await Self.call(s, "PUT", "realtime/url", #"{"realtimeURL": "ftp://x"}"#)
    #expect(bad.status == 400 && ServeFixture.object(bad)["errorCode"] as? Int == 4_000_215)
  }

  @Test func refusalsCarryApplesCodesAndWriteNothing() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let long = String(repeating: "x", count: 67)
    let six = Array(repeating: #"{"text": "a", "imageIdentifier": "a1b2c3d4-0000-4000-8000-0000000000aa", "altText": "a"}"#, count: 6).joined(separator: ",")
    let cases: [(String, String, String, Int, Int)] = [
      ("PUT", "message/\(Self.id)", #"{"header": "\#(long)", "body": "b"}"#, 400, 4_000_162),
      ("PUT", "message/\(Self.id)", #"{"header": "h", "body": "\#(String(repeating: "y", count: 145))"}"#, 400, 4_000_163),
      ("PUT", "message/\(Self.id)", #"{"header": "h", "body": "b", "bulletPoints": [\#(six)]}"#, 400, 4_000_218),
      ("PUT", "message/\(Self.id)", #"{"header": "h", "body": "b", "headerPosition": "ABOVE_IMAGE"}"#, 400, 4_000_224),
      ("PUT", "message/not-a-uuid", #"{"header": "h", "body": "b"}"#, 400, 4_000_000),
      ("DELETE", "message/\(Self.id)", "", 404, 4_040_015),
      ("PUT", "default/com.example.birdwatch.monthly/en-US", #"{"messageIdentifier": "\#(Self.id)"}"#, 404, 4_040_015),
      ("GET", "default/com.example.birdwatch.monthly/english!", "", 400, 4_000_164),
    ]
    for (method, path, body, status, code) in cases {
      let r = await Self.call(s, method, path, body)
      #expect(r.status == status && ServeFixture.object(r)["errorCode"] as? Int == code, "\(method) \(path) \(body.prefix(40))")
    }
    #expect(!FileManager.default.fileExists(atPath: s.directory + "/.retention-messaging.json"))
    // The same identifier twice: 409 4090001.
    #expect(await Self.call(s, "PUT", "message/\(Self.id)", Self.message).status == 200)
    let again = await Self.call(s, "PUT", "message/\(Self.id)", Self.message)
    #expect(again.status == 409 && ServeFixture.object(again)["errorCode"] as? Int == 4_090_001)
  }

  @Test func thePerformanceTestNeedsARealtimeURLAndAKnownRun() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let noURL = await Self.call(s, "POST", "performanceTest", #"{"originalTransactionId": "\#(ServeFixture.id)"}"#)
    #expect(noURL.status == 404 && ServeFixture.object(noURL)["errorCode"] as? Int == 4_040_021)
    let badBody = await Self.call(s, "POST", "performanceTest", "{}")
    #expect(badBody.status == 400 && ServeFixture.object(badBody)["errorCode"] as? Int == 4_000_211)
    let unknown = await Self.call(s, "GET", "performanceTest/result/nothing")
    #expect(unknown.status == 404 && ServeFixture.object(unknown)["errorCode"] as? Int == 4_040_018)
  }

  /// The realtime request is signed by the local CA with Apple's fields.
  @Test func theRealtimeRequestIsSignedWithApplesFields() async throws {
    let jws = try RealtimeRequest.signedPayload(originalTransactionId: ServeFixture.id, productId: "com.example.birdwatch.monthly", userLocale: "en-US",
                                                environment: .sandbox, appAppleId: nil, requestIdentifier: "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9",
                                                signedDate: Instant(ms: 1_790_000_000_000), authority: ServeFixture.ca)
    let p = try await ServeFixture.verified(jws)
    #expect(p["originalTransactionId"] as? String == ServeFixture.id && p["environment"] as? String == "Sandbox" && p["appAppleId"] as? Int == 0)
    #expect(p["userLocale"] as? String == "en-US" && p["requestIdentifier"] as? String == "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9")
  }
}

/// The App Store checks promotional offers with the developer's In-App Purchase key: `serve`
/// records the public half of the key it checks bearer tokens with beside the files, where the
/// cancel flow (`subdash-retention`) reads it.
@Suite struct RetentionDeveloperKeyTests {
  @Test func theConfigurationNamesServesKeyForPromotionalOffers() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    #expect(await RetentionMessagingAPITests.call(s, "PUT", "realtime/url", #"{"realtimeURL": "https://example.com/retention"}"#).status == 200)
    let setup = try RetentionSetup.load(besideStateFile: s.directory + "/customer.json")
    #expect(setup.inAppPurchaseKeys == [InAppPurchaseKey(keyId: "KEY1", issuerId: "issuer-1", bundleId: "com.example.birdwatch",
                                                         publicKeyPEM: s.key.publicKey.pemRepresentation)])
    #expect(!String(decoding: try #require(FileManager.default.contents(atPath: s.directory + "/" + RetentionSetup.fileName)), as: UTF8.self)
      .contains("PRIVATE"))
  }

  @Test func aServerStartedWithAnotherKeyRecordsItsOwnAndCreatesNothingWhereNothingIsConfigured() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let path = s.directory + "/" + RetentionSetup.fileName
    #expect(await s.api.recordDeveloperKey() == nil)
    #expect(!FileManager.default.fileExists(atPath: path))
    var before = RetentionSetup(realtimeURL: "https://example.com/retention")
    before.inAppPurchaseKeys = [InAppPurchaseKey(keyId: "OLDKEY", issuerId: "issuer-1", bundleId: "com.example.birdwatch",
                                                 publicKeyPEM: P256.Signing.PrivateKey().publicKey.pemRepresentation)]
    try before.save(besideStateFile: s.directory + "/customer.json")
    #expect(await s.api.recordDeveloperKey()?.contains("checked with key KEY1") == true)
    let after = try RetentionSetup.load(besideStateFile: s.directory + "/customer.json")
    #expect(after.inAppPurchaseKeys.map(\.keyId) == ["KEY1"] && after.realtimeURL == "https://example.com/retention")
    #expect(await s.api.recordDeveloperKey() == nil)
  }
}
