import AppStoreSigning
import DashModel
import CoreValues
import Foundation
import Testing
@testable import NotificationReceiver
import SubscriberStorage

/// What `listen` answers for notifications that verify but are not quite what Apple sends, and
/// what it tells the operator about the apps it applies.
@Suite struct ReceiverContentTests {
  /// A test signer (or a sender's own tool) sends a notification without `notificationUUID`, and
  /// retries it: it is stored once, known by its signed payload.
  @Test func aNotificationWithoutAUUIDSentThreeTimesIsStoredOnce() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let payload = try LocalAppStore.notificationPayload("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: nil)
    // The same payload signed three times: the signatures differ (ECDSA), the notification does not.
    for _ in 0..<3 {
      let body = Array(#"{"signedPayload":"\#(try LocalAppStore.ca.sign(payloadJSON: payload))"}"#.utf8)
      #expect(await store.post(body).status == 200)
    }
    let path = store.directory.appendingPathComponent("2000000100.json").path
    let state = try StateFile.load(path: path)
    let log = try StateFile.recentNotifications(state, statePath: path, limit: 10)
    #expect(log.count == 1, "stored \(log.count) times")
    #expect(log.first?.identity == NotificationReceiver.digest(of: payload))
  }

  @Test func twoDifferentNotificationsWithoutUUIDsAreBothStored() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    #expect(await store.post(try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY", period: 1, uuid: nil)).status == 200)
    #expect(await store.post(try LocalAppStore.body("DID_RENEW", period: 2, uuid: nil)).status == 200)
    let path = store.directory.appendingPathComponent("2000000100.json").path
    #expect(try StateFile.recentNotifications(try StateFile.load(path: path), statePath: path, limit: 10).count == 2)
  }

  /// Signed, but a field is not of Apple's type: the same body never applies, so it is the
  /// sender's error (400, with where), not a 500 that Apple retries for days.
  @Test(arguments: [("\"123\"", nil), ("9990", "1e308")] as [(String, String?)])
  func aMistypedFieldIs400WithItsPathAndNothingIsWritten(price: String, expires: String?) async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let outcome = await store.post(try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY", price: price, expiresDate: expires))
    #expect(outcome.status == 400, "\(outcome.message)")
    #expect(outcome.message.contains(expires == nil ? "price" : "expiresDate"), "\(outcome.message)")
    #expect(outcome.message.hasSuffix("nothing applied"), "\(outcome.message)")
    #expect(store.files.filter { $0.hasSuffix(".json") }.isEmpty)
  }

  @Test func withoutABundleIdEveryAppIsAppliedAndEachNewOneIsSaidOnce() async throws {
    let store = try LocalAppStore(bundleId: nil)
    defer { store.remove() }
    #expect(store.receiver.acceptedApps.contains("every bundle id"))
    let first = await store.post(try LocalAppStore.body(period: 1))
    #expect(first.status == 200)
    #expect(first.notice?.contains("first notification for bundle id com.example.subdash") == true)
    let second = await store.post(try LocalAppStore.body(period: 2))
    #expect(second.notice == nil)
    let other = await store.post(try LocalAppStore.body(otid: "3000000100", period: 1, bundleId: #"com.example.other\u001b[2J"#))
    #expect(other.status == 200)
    #expect(other.notice?.contains("com.example.other") == true)
    #expect(other.notice?.contains("\u{1B}") == false, "an escape sequence reached the log")
  }

  @Test func withABundleIdTheStartLineSaysOnlyThatApp() throws {
    let store = try LocalAppStore(bundleId: "com.example.subdash")
    defer { store.remove() }
    #expect(store.receiver.acceptedApps == "accepting notifications for bundle id com.example.subdash only (--bundle-id)")
  }
}
