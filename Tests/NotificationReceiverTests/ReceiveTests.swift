import AppStoreSigning
import DashModel
import Foundation
import Testing
@testable import NotificationReceiver
import CoreValues
import SubscriberStorage

/// A developer points their local App Store (or Apple's sandbox through a tunnel) at
/// `subdash listen`: each notification lands in its subscriber's state file, once.
@Suite struct ReceiveTests {
  @Test func aNotificationCreatesItsSubscribersFileAndTheNextOneIsAppended() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let first = await store.post(try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY", period: 1))
    #expect(first.status == 200)
    #expect(first.message.hasPrefix("SUBSCRIBED/INITIAL_BUY "))
    #expect(first.message.hasSuffix("created 2000000100.json: 1 new notification, 1 new transaction"))
    let second = await store.post(try LocalAppStore.body("DID_RENEW", period: 2))
    #expect(second.status == 200)
    #expect(second.message.hasSuffix("applied to 2000000100.json: 1 new notification, 1 new transaction"))

    let path = store.directory.appendingPathComponent("2000000100.json").path
    let state = try StateFile.load(path: path)
    #expect(state.subscriber.latestTransaction?.transactionId == "20000001002")
    #expect(state.importProvenance?.badge(ascii: true).contains("locally signed, not Apple") == true)
    #expect(try StateFile.recentNotifications(state, statePath: path, limit: 10).count == 2)
  }

  @Test func aRedeliveryAnswers200AndChangesNothing() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let body = try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "11111111-2222-3333-4444-555555555555")
    #expect(await store.post(body).status == 200)
    let path = store.directory.appendingPathComponent("2000000100.json")
    let before = try Data(contentsOf: path)
    let fileBefore = try FileManager.default.attributesOfItem(atPath: path.path)
    // Its history is inline (a young subscriber's) or in a journal: every file but the lock.
    let filesBefore = try store.contents()
    let again = await store.post(body)
    #expect(again.status == 200)
    #expect(again.message.contains("already applied to 2000000100.json (redelivery; nothing changed)"))
    #expect(try Data(contentsOf: path) == before)
    // Not rewritten either: the same file (no rename put a new one in place), no journal started
    // or appended to, no other file.
    let fileAfter = try FileManager.default.attributesOfItem(atPath: path.path)
    #expect(fileAfter[.systemFileNumber] as? UInt64 == fileBefore[.systemFileNumber] as? UInt64)
    #expect(try store.contents() == filesBefore)
  }

  /// Apple does not promise order: a renewal signed earlier arriving after a later one is kept in
  /// the history but never replaces the newer latest transaction.
  @Test func anOlderNotificationArrivingLateNeverOverwritesNewerState() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    #expect(await store.post(try LocalAppStore.body("DID_RENEW", period: 3)).status == 200)
    #expect(await store.post(try LocalAppStore.body("DID_RENEW", period: 2)).status == 200)
    let path = store.directory.appendingPathComponent("2000000100.json").path
    let state = try StateFile.load(path: path)
    #expect(state.subscriber.latestTransaction?.transactionId == "20000001003")
    #expect(try StateFile.recentNotifications(state, statePath: path, limit: 10).count == 2)
  }

  @Test func aTestNotificationIsAcknowledgedAndWritesNothing() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let outcome = await store.post(try LocalAppStore.testBody())
    #expect(outcome.status == 200)
    #expect(outcome.message.hasPrefix("TEST "))
    #expect(store.files.isEmpty)
  }

  /// An Xcode-environment notification is not trusted even from a trusted CA: Apple's verifiers
  /// skip its signature, so nothing vouches for it. The refusal names the environment.
  @Test func anXcodeEnvironmentNotificationIsRefusedNamingItsEnvironment() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    // Re-signed with data.environment Xcode (the nested JWS stay as they are).
    let n = #"{"notificationType":"DID_RENEW","notificationUUID":"\#(UUID().uuidString.lowercased())","version":"2.0","signedDate":\#(LocalAppStore.start),"data":{"bundleId":"com.example.subdash","environment":"Xcode","status":1}}"#
    let body = Array(#"{"signedPayload":"\#(try LocalAppStore.ca.sign(payloadJSON: Array(n.utf8)))"}"#.utf8)
    let outcome = await store.post(body)
    #expect(outcome.status == 403 && outcome.message.contains("for the Xcode environment, which nothing verifies"), "\(outcome.message)")
    #expect(store.files.isEmpty)
  }

  /// Even a trusted signer's strings reach the log and the answer without escape sequences.
  @Test func aSignedTypeWithEscapeSequencesIsLoggedAsPlainText() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let outcome = await store.post(try LocalAppStore.body("DID_RENEW\\u001b[2J\\u001b]0;owned\\u0007"))
    #expect(!outcome.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(outcome.message)")
    #expect(outcome.message.hasPrefix("DID_RENEW?[2J?]0;owned? "))
  }

  /// Thirty-odd ways a request can be wrong or hostile. Each is refused with its reason, nothing is
  /// written anywhere, and the receiver still takes a good notification afterwards.
  @Test func hostileRequestsAreRefusedAndNothingIsWritten() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let good = try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY")
    let goodJWS = String(decoding: good, as: UTF8.self).dropFirst(#"{"signedPayload":""#.count).dropLast(2)
    let parts = goodJWS.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    func body(_ text: String) -> [UInt8] { Array(text.utf8) }
    func signed(_ json: String, by ca: LocalCertificateAuthority = LocalAppStore.ca) throws -> [UInt8] {
      body(#"{"signedPayload":"\#(try ca.sign(payloadJSON: Array(json.utf8)))"}"#)
    }
    let cases: [(String, [UInt8], String?, Int, String)] = [
      ("empty body", [], "application/json", 400, "not a JSON object"),
      ("not JSON", body("hello"), "application/json", 400, "not a JSON object"),
      ("truncated JSON", Array(good.prefix(40)), "application/json", 400, "not a JSON object"),
      ("a JSON array", body("[1,2]"), "application/json", 400, "not a JSON object"),
      ("a JSON string", body(#""signedPayload""#), "application/json", 400, "not a JSON object"),
      ("null", body("null"), "application/json", 400, "not a JSON object"),
      ("no signedPayload", body(#"{"payload":"x"}"#), "application/json", 400, "must be {\"signedPayload\""),
      ("signedPayload a number", body(#"{"signedPayload":42}"#), "application/json", 400, "must be {\"signedPayload\""),
      ("signedPayload null", body(#"{"signedPayload":null}"#), "application/json", 400, "must be {\"signedPayload\""),
      ("extra fields", body(#"{"signedPayload":"a.b.c","x":1}"#), "application/json", 400, "and nothing else"),
      ("empty JWS", body(#"{"signedPayload":""}"#), "application/json", 403, "signedPayload:"),
      ("one segment", body(#"{"signedPayload":"abc"}"#), "application/json", 403, "not a compact JWS"),
      ("four segments", body(#"{"signedPayload":"a.b.c.d"}"#), "application/json", 403, "not a compact JWS"),
      ("truncated signature", body(#"{"signedPayload":"\#(parts[0]).\#(parts[1]).\#(parts[2].prefix(20))"}"#), "application/json", 403, "signedPayload:"),
      ("no signature", body(#"{"signedPayload":"\#(parts[0]).\#(parts[1])."}"#), "application/json", 403, "signedPayload:"),
      ("tampered payload", body(#"{"signedPayload":"\#(parts[0]).\#(parts[1].dropLast(4))AAAA.\#(parts[2])"}"#), "application/json", 403, "signedPayload:"),
      ("header not base64", body(#"{"signedPayload":"!!!.\#(parts[1]).\#(parts[2])"}"#), "application/json", 403, "header is not base64url"),
      ("alg none", body(#"{"signedPayload":"\#(Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))).\#(parts[1])."}"#), "application/json", 403, "signedPayload:"),
      ("a foreign chain", try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY", signer: LocalAppStore.otherCA), "application/json", 403, "signedPayload:"),
      ("another app's bundle id", try LocalAppStore.body("SUBSCRIBED", bundleId: "com.evil.app"), "application/json", 403, "is for bundle id com.evil.app, not com.example.subdash"),
      ("a signed transaction, not a notification", body(#"{"signedPayload":"\#(try LocalAppStore.ca.sign(payloadJSON: Array(#"{"transactionId":"1","originalTransactionId":"1","signedDate":1780000000000}"#.utf8)))"}"#), "application/json", 400, "is not a notification"),
      ("path tricks in the id", try LocalAppStore.body(otid: "../../etc/passwd"), "application/json", 400, "is not a string of digits"),
      ("a slash in the id", try LocalAppStore.body(otid: "2000/000"), "application/json", 400, "is not a string of digits"),
      ("letters in the id", try LocalAppStore.body(otid: "abc"), "application/json", 400, "is not a string of digits"),
      ("an empty id", try LocalAppStore.body(otid: ""), "application/json", 400, "is not a string of digits"),
      ("a 40-digit id", try LocalAppStore.body(otid: String(repeating: "9", count: 40)), "application/json", 400, "is not a string of digits"),
      ("a control character in the id", try LocalAppStore.body(otid: "12\\u001b[2J"), "application/json", 400, "is not a string of digits"),
      ("no signedTransactionInfo id", try signed(#"{"notificationType":"DID_RENEW","notificationUUID":"u","signedDate":1780000000000,"data":{"bundleId":"com.example.subdash","signedTransactionInfo":"\#(try LocalAppStore.ca.sign(payloadJSON: Array(#"{"transactionId":"5","signedDate":1780000000000}"#.utf8)))"}}"#), "application/json", 400, "has no originalTransactionId"),
      ("no Content-Type", good, nil, 415, "Content-Type must be application/json"),
      ("text/plain", good, "text/plain", 415, "Content-Type must be application/json"),
      ("form data", good, "application/x-www-form-urlencoded", 415, "Content-Type must be application/json"),
      ("header injection in Content-Type", good, "text/html\r\nX-Evil: 1", 415, "Content-Type must be application/json, not text/htmlX-Evil: 1"),
      ("a huge body", Array(repeating: UInt8(ascii: " "), count: NotificationReceiver.bodyLimit + 1), "application/json", 413, "over the"),
      ("deeply nested JSON", body(String(repeating: "[", count: 100_000)), "application/json", 400, "not a JSON object"),
    ]
    #expect(cases.count >= 30)
    for (name, bytes, contentType, status, reason) in cases {
      let outcome = await store.post(bytes, contentType: contentType)
      #expect(outcome.status == status, "\(name): \(outcome.message)")
      #expect(outcome.message.hasPrefix("refused: ") && outcome.message.contains(reason), "\(name): \(outcome.message)")
      #expect(!outcome.message.contains("\u{1B}") && !outcome.message.contains("\r"), "\(name): raw control characters in the answer")
    }
    #expect(store.files.isEmpty, "a refused request wrote \(store.files)")
    #expect(!FileManager.default.fileExists(atPath: store.directory.deletingLastPathComponent().appendingPathComponent("passwd.json").path))
    // The same receiver still takes a good notification.
    #expect(await store.post(good).status == 200)
    #expect(store.files.contains("2000000100.json"))
  }

  /// Fifty deliveries for five subscribers at once, ten duplicates among them: each subscriber's
  /// file ends with every distinct notification exactly once (the state file lock serialises them).
  @Test func concurrentDeliveriesLoseNothingAndDuplicateNothing() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    var bodies: [[UInt8]] = []
    for s in 0..<5 {
      for n in 1...8 { bodies.append(try LocalAppStore.body("DID_RENEW", otid: "20000002\(s)0", period: n, uuid: "uuid-\(s)-\(n)")) }
    }
    bodies += bodies.prefix(10)
    // A sender retries a 503 (a subscriber's lock busy past its bound, which a machine running the
    // whole suite in parallel can reach), as Apple does; every other answer is final.
    let outcomes = await withTaskGroup(of: Int.self) { group in
      for b in bodies.shuffled() {
        group.addTask {
          var status = 503
          for _ in 0..<5 where status == 503 { status = await store.post(b).status }
          return status
        }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(outcomes.allSatisfy { $0 == 200 }, "\(outcomes.filter { $0 != 200 })")
    for s in 0..<5 {
      let path = store.directory.appendingPathComponent("20000002\(s)0.json").path
      let state = try StateFile.load(path: path)
      let uuids = try StateFile.recentNotifications(state, statePath: path, limit: 100).compactMap(\.notificationUUID)
      #expect(uuids.sorted() == (1...8).map { "uuid-\(s)-\($0)" }.sorted())
      #expect(state.subscriber.latestTransaction?.transactionId == "20000002\(s)08")
    }
  }
}
