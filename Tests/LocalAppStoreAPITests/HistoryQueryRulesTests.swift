import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// A backend's history and notification-history calls get Apple's answers for every filter and
/// Apple's errors for every bad one (docs/appstore-server-api.md §3.3, §3.5).
@Suite struct HistoryQueryRulesTests {
  static let history = "/sandbox/inApps/v2/history/\(ServeFixture.id)"
  static let notifications = "/sandbox/inApps/v1/notifications/history"

  func transactionIds(_ s: ServeFixture, _ query: [(String, String)]) async throws -> [String] {
    let r = await s.get(Self.history, query)
    #expect(r.status == 200, "\(String(decoding: r.body, as: UTF8.self))")
    var ids: [String] = []
    for jws in ServeFixture.object(r)["signedTransactions"] as? [String] ?? [] {
      ids.append(try await ServeFixture.verified(jws)["transactionId"] as! String)
    }
    return ids
  }

  func errorCode(_ r: LocalAppStoreAPI.Response) -> Int? { ServeFixture.object(r)["errorCode"] as? Int }

  @Test func badHistoryParametersGetTheirOwnErrorCodes() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    for (query, code) in [(("sort", "SIDEWAYS"), 4_000_021), (("revoked", "maybe"), 4_000_030), (("endDate", "nan"), 4_000_016),
                          (("startDate", "1e400"), 4_000_015), (("productType", "SUBSCRIPTION"), 4_000_022),
                          (("inAppOwnershipType", "GIFTED"), 4_000_026), (("excludeRevoked", "yes"), 4_000_025)] {
      let r = await s.get(Self.history, [query])
      #expect(r.status == 400 && errorCode(r) == code, "\(query) answered \(r.status) \(errorCode(r) ?? 0), not \(code)")
    }
  }

  @Test func productTypeGroupAndOwnershipFilterTheHistory() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let state = try StateFile.load(path: s.path)
    let all = try state.subscriber.transactions.typed().compactMap(\.transactionId)
    let group = try #require(state.subscriber.latestTransaction?.subscriptionGroupIdentifier)
    #expect(try await transactionIds(s, []) == all)
    #expect(try await transactionIds(s, [("productType", "AUTO_RENEWABLE")]) == all)
    #expect(try await transactionIds(s, [("productType", "CONSUMABLE")]).isEmpty)
    // Several values of one parameter are OR'd.
    #expect(try await transactionIds(s, [("productType", "CONSUMABLE"), ("productType", "AUTO_RENEWABLE")]) == all)
    #expect(try await transactionIds(s, [("subscriptionGroupIdentifier", group)]) == all)
    #expect(try await transactionIds(s, [("subscriptionGroupIdentifier", "99999999")]).isEmpty)
    #expect(try await transactionIds(s, [("inAppOwnershipType", "PURCHASED")]) == all)
    #expect(try await transactionIds(s, [("inAppOwnershipType", "FAMILY_SHARED")]).isEmpty)
    // Filters are AND'd.
    #expect(try await transactionIds(s, [("productType", "AUTO_RENEWABLE"), ("inAppOwnershipType", "FAMILY_SHARED")]).isEmpty)
  }

  @Test func notificationHistoryFiltersFollowApplesRules() async throws {
    let s = try ServeFixture(now: Date(timeIntervalSince1970: 1_777_000_000))
    defer { s.remove() }
    let now = 1_777_000_000_000.0
    let window: [String: Any] = ["startDate": now - 29 * 86_400_000, "endDate": now]
    func post(_ extra: [String: Any]) async -> LocalAppStoreAPI.Response {
      await s.send("POST", Self.notifications, json: window.merging(extra) { $1 })
    }
    let both = await post(["transactionId": ServeFixture.id, "notificationType": "DID_RENEW"])
    #expect(both.status == 400 && errorCode(both) == 4_000_019)
    let subtypeAlone = await post(["notificationSubtype": "VOLUNTARY"])
    #expect(subtypeAlone.status == 400 && errorCode(subtypeAlone) == 4_000_018)
    let noSuchPair = await post(["notificationType": "SUBSCRIBED", "notificationSubtype": "VOLUNTARY"])
    #expect(noSuchPair.status == 400 && errorCode(noSuchPair) == 4_000_018)
    let noSuchType = await post(["notificationType": "DID_RENEWED"])
    #expect(noSuchType.status == 400 && errorCode(noSuchType) == 4_000_018)
    #expect(await post(["notificationType": "EXPIRED", "notificationSubtype": "VOLUNTARY"]).status == 200)
    #expect(await post(["notificationType": "EXTERNAL_PURCHASE_TOKEN", "notificationSubtype": "ACTIVE_TOKEN_REMINDER"]).status == 200)
  }

  /// `onlyFailures`: the notifications that never reached the backend, including those still being
  /// retried; one that failed and then got through is not among them.
  @Test func onlyFailuresListsNotificationsWithNoSuccessfulAttempt() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let state = try StateFile.load(path: s.path)
    // Two notifications less than 29 days apart, and the file's clock just after the second, so
    // one sandbox window (30 days back from the subscriber's clock) holds both.
    let dates = state.subscriber.notifications.compactMap { n in n.signedDate.map { ($0.ms, n) } }.sorted { $0.0 < $1.0 }
    let pair = try #require(zip(dates, dates.dropFirst()).filter { $1.0 - $0.0 < 29 * 86_400_000 }.last)
    let clock = pair.1.0 + 3_600_000
    let recovered = try #require(pair.0.1.notificationUUID), failing = try #require(pair.1.1.notificationUUID)
    func attempt(_ result: String, _ at: Double) -> [String: Any] { ["attemptDate": at, "sendAttemptResult": result] }
    func delivery(_ uuid: String, _ attempts: [[String: Any]]) -> [String: Any] {
      ["notificationUUID": uuid, "notificationType": "DID_RENEW", "signedDate": clock, "sendAttempts": attempts]
    }
    var document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: s.path))) as! [String: Any]
    var simulation = document["simulation"] as? [String: Any] ?? [:]
    simulation["now"] = clock
    document["simulation"] = simulation
    document["deliveries"] = [
      "url": "http://127.0.0.1:9/", "journalOffset": 0, "retrySchedule": "production", "delivered": 1, "failed": 0, "duplicatesSent": 0,
      "recent": [delivery(recovered, [attempt("UNSUCCESSFUL_HTTP_RESPONSE_CODE", clock), attempt("SUCCESS", clock + 1000)])],
      "pending": [delivery(failing, [attempt("TIMED_OUT", clock)]).merging(["nextAttemptDate": clock + 3_600_000, "signedPayload": "x.y.z"]) { $1 }],
    ]
    try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: s.path))
    let r = await s.send("POST", Self.notifications, json: ["startDate": pair.0.0, "endDate": clock,
                                                            "transactionId": ServeFixture.id, "onlyFailures": true])
    #expect(r.status == 200, "\(String(decoding: r.body, as: UTF8.self))")
    var uuids: [String] = []
    for item in ServeFixture.object(r)["notificationHistory"] as? [[String: Any]] ?? [] {
      uuids.append(try await ServeFixture.verified(item["signedPayload"] as! String)["notificationUUID"] as! String)
    }
    #expect(uuids.contains(failing))
    #expect(!uuids.contains(recovered))
  }
}
