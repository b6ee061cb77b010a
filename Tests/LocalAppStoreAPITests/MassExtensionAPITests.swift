import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// Extend Subscription Renewal Dates for All Active Subscribers, as a backend calls it: the answer
/// is only the requestIdentifier, the work runs afterwards, Get Status of Subscription Renewal Date
/// Extensions reports it, each subscriber's file records its outcome, and the SUMMARY ends it.
@Suite struct MassExtensionAPITests {
  static let mass = "/sandbox/inApps/v1/subscriptions/extend/mass"

  /// The directory: active.json's Family subscriber (eligible), three other Family subscribers
  /// Apple's rules refuse (grace with a past expiry twice, a family member's access), a Premium
  /// subscriber (another product) and an expired one (not active).
  static func directory() throws -> ServeFixture {
    let s = try ServeFixture()
    for name in ["contradictory", "family-shared", "grace-period", "auto-renew-off", "expired-voluntary"] { try s.add(example: name) }
    return s
  }

  static func request(_ id: String, days: Int = 5, product: String = "pass.family.monthly", storefronts: [String]? = nil) -> [String: Any] {
    var body: [String: Any] = ["requestIdentifier": id, "extendByDays": days, "extendReasonCode": 3, "productId": product]
    if let storefronts { body["storefrontCountryCodes"] = storefronts }
    return body
  }

  /// Polls the status endpoint, as a backend does, until the request is complete.
  static func completed(_ s: ServeFixture, _ id: String, product: String = "pass.family.monthly") async throws -> [String: Any] {
    for _ in 0..<1000 {
      let r = await s.get("\(mass)/\(product)/\(id)")
      try #require(r.status == 200, "status answered \(r.status)")
      let o = ServeFixture.object(r)
      if o["complete"] as? Bool == true { return o }
      try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("the mass extension \(id) never completed")
    return [:]
  }

  @Test func everyActiveSubscriberOfTheProductIsExtendedOrRecordsItsFailure() async throws {
    let s = try Self.directory()
    defer { s.remove() }
    let expires = try #require(try StateFile.load(path: s.path).subscriber.latestTransaction?.expiresDate)
    let premiumBefore = try Data(contentsOf: URL(fileURLWithPath: s.directory + "/auto-renew-off.json"))
    let r = await s.send("POST", Self.mass, json: Self.request("mass-1"))
    #expect(r.status == 200 && ServeFixture.object(r)["requestIdentifier"] as? String == "mass-1")
    let status = try await Self.completed(s, "mass-1")
    #expect(status["succeededCount"] as? Int == 1 && status["failedCount"] as? Int == 3)
    #expect(status["completeDate"] as? Double == (s.now.timeIntervalSince1970 * 1000).rounded(.down))

    let active = try StateFile.load(path: s.path)
    #expect(active.subscriber.latestTransaction?.expiresDate == expires + .days(5))
    #expect(try StateFile.recentNotifications(active, statePath: s.path, limit: 1).first?.notificationType == .renewalExtended)
    for refused in ["contradictory", "family-shared", "grace-period"] {
      let path = s.directory + "/\(refused).json"
      let last = try StateFile.recentNotifications(try StateFile.load(path: path), statePath: path, limit: 1).first
      #expect(last?.notificationType == .renewalExtension && last?.subtype == .failure, "\(refused)")
    }
    // Another product's subscriber is not part of the request: not a byte changed.
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.directory + "/auto-renew-off.json")) == premiumBefore)

    // The same requestIdentifier again: 200, and no second run starts (so nobody is extended twice).
    let again = await s.send("POST", Self.mass, json: Self.request("mass-1"))
    #expect(again.status == 200 && ServeFixture.object(again)["requestIdentifier"] as? String == "mass-1")
    #expect(s.api.lock.withLock { s.api.massExtensions.count } == 1)
    #expect(try StateFile.load(path: s.path).subscriber.latestTransaction?.expiresDate == expires + .days(5))
    #expect(try await Self.completed(s, "mass-1")["succeededCount"] as? Int == 1)
  }

  @Test func theSummaryEndsTheRequestAndIsInTheNotificationHistory() async throws {
    let s = try Self.directory()
    defer { s.remove() }
    _ = await s.send("POST", Self.mass, json: Self.request("mass-2", storefronts: ["USA", "CAN"]))
    _ = try await Self.completed(s, "mass-2")
    let now = (s.now.timeIntervalSince1970 * 1000).rounded(.down)
    let history = await s.send("POST", "/sandbox/inApps/v1/notifications/history", json: [
      "startDate": now - 86_400_000, "endDate": now + 1, "notificationType": "RENEWAL_EXTENSION", "notificationSubtype": "SUMMARY",
    ])
    let items = try #require(ServeFixture.object(history)["notificationHistory"] as? [[String: Any]])
    try #require(items.count == 1)
    let payload = try await ServeFixture.verified(try #require(items[0]["signedPayload"] as? String))
    #expect(payload["data"] == nil)
    let summary = try #require(payload["summary"] as? [String: Any])
    #expect(summary["requestIdentifier"] as? String == "mass-2" && summary["productId"] as? String == "pass.family.monthly")
    #expect(summary["succeededCount"] as? Int == 1 && summary["failedCount"] as? Int == 3)
    #expect(summary["storefrontCountryCodes"] as? [String] == ["USA", "CAN"])
    #expect(summary["environment"] as? String == "Sandbox" && summary["bundleId"] as? String == "com.example.birdwatch")
    // A history asked for one subscriber does not list it: it names no transaction. (Apple takes
    // a transactionId or a notificationType, not both: 4000019.)
    let one = await s.send("POST", "/sandbox/inApps/v1/notifications/history", json: [
      "startDate": now - 86_400_000, "endDate": now + 1, "transactionId": ServeFixture.id,
    ])
    #expect(one.status == 200)
    for item in ServeFixture.object(one)["notificationHistory"] as? [[String: Any]] ?? [] {
      let payload = try await ServeFixture.verified(item["signedPayload"] as! String)
      #expect(payload["subtype"] as? String != "SUMMARY")
    }
  }

  @Test func storefrontsNarrowTheRequest() async throws {
    let s = try Self.directory()
    defer { s.remove() }
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    _ = await s.send("POST", Self.mass, json: Self.request("canada-only", storefronts: ["CAN"]))
    let status = try await Self.completed(s, "canada-only")
    #expect(status["succeededCount"] as? Int == 0 && status["failedCount"] as? Int == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  @Test(arguments: [
    (#"not json"#, 4_000_011),
    (#"{"extendByDays": 5, "extendReasonCode": 3, "productId": "p"}"#, 4_000_011),
    (#"{"requestIdentifier": "", "extendByDays": 5, "extendReasonCode": 3, "productId": "p"}"#, 4_000_011),
    (#"{"requestIdentifier": "\#(String(repeating: "x", count: 129))", "extendByDays": 5, "extendReasonCode": 3, "productId": "p"}"#, 4_000_011),
    (#"{"requestIdentifier": "r", "extendByDays": 0, "extendReasonCode": 3, "productId": "p"}"#, 4_000_009),
    (#"{"requestIdentifier": "r", "extendByDays": 91, "extendReasonCode": 3, "productId": "p"}"#, 4_000_009),
    (#"{"requestIdentifier": "r", "extendByDays": 5.5, "extendReasonCode": 3, "productId": "p"}"#, 4_000_009),
    (#"{"requestIdentifier": "r", "extendByDays": "5", "extendReasonCode": 3, "productId": "p"}"#, 4_000_009),
    (#"{"requestIdentifier": "r", "extendByDays": true, "extendReasonCode": 3, "productId": "p"}"#, 4_000_009),
    (#"{"requestIdentifier": "r", "extendByDays": 5, "extendReasonCode": 4, "productId": "p"}"#, 4_000_010),
    (#"{"requestIdentifier": "r", "extendByDays": 5, "extendReasonCode": 3}"#, 4_000_023),
    (#"{"requestIdentifier": "r", "extendByDays": 5, "extendReasonCode": 3, "productId": ""}"#, 4_000_023),
    (#"{"requestIdentifier": "r", "extendByDays": 5, "extendReasonCode": 3, "productId": "p", "storefrontCountryCodes": []}"#, 4_000_027),
    (#"{"requestIdentifier": "r", "extendByDays": 5, "extendReasonCode": 3, "productId": "p", "storefrontCountryCodes": "USA"}"#, 4_000_027),
    (#"{"requestIdentifier": "r", "extendByDays": 5, "extendReasonCode": 3, "productId": "p", "storefrontCountryCodes": ["US"]}"#, 4_000_028),
    (#"{"requestIdentifier": "r", "extendByDays": 5, "extendReasonCode": 3, "productId": "p", "storefrontCountryCodes": ["usa"]}"#, 4_000_028),
  ])
  func aBadRequestIsRefusedWithApplesCodeAndExtendsNobody(body: String, code: Int) async throws {
    let s = try Self.directory()
    defer { s.remove() }
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    let r = await s.api.respond(.init(method: "POST", path: Self.mass, authorization: s.token(), body: Array(body.utf8)))
    #expect(r.status == 400 && ServeFixture.object(r)["errorCode"] as? Int == code, "\(body.prefix(80))")
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  @Test func theStatusOfAnUnknownRequestOrOfAnotherProductIsNotFound() async throws {
    let s = try Self.directory()
    defer { s.remove() }
    _ = await s.send("POST", Self.mass, json: Self.request("known"))
    _ = try await Self.completed(s, "known")
    for path in ["\(Self.mass)/pass.family.monthly/unknown", "\(Self.mass)/pass.premium.monthly/known"] {
      let r = await s.get(path)
      #expect(r.status == 404 && ServeFixture.object(r)["errorCode"] as? Int == 4_040_009, "\(path)")
    }
    // Production asks about production's requests: this one was made in the sandbox.
    let production = await s.get("/inApps/v1/subscriptions/extend/mass/pass.family.monthly/known")
    #expect(production.status == 404 && ServeFixture.object(production)["errorCode"] as? Int == 4_040_009)
  }

  /// SubDash changes test data only: a production request is refused before anything starts.
  @Test func aProductionRequestIsRefused() async throws {
    let s = try Self.directory()
    defer { s.remove() }
    let r = await s.send("POST", "/inApps/v1/subscriptions/extend/mass", json: Self.request("prod"))
    #expect(r.status == 403 && ServeFixture.object(r)["errorCode"] as? Int == 4_030_004)
    #expect(s.api.lock.withLock { s.api.massExtensions.count } == 0)
  }
}
