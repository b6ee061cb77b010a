import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// `subdash serve` as a backend developer's client meets it: Apple's paths, tokens, paging and
/// error bodies, answered from the state file and signed by the local CA.
@Suite struct ServeAPITests {
  static let sandbox = "/sandbox/inApps"

  @Test func tokensAreCheckedAsAppleChecksThem() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let path = "\(Self.sandbox)/v1/transactions/\(ServeFixture.id)"
    #expect(await s.get(path).status == 200)
    // Apple's own Python library sends no iat: accepted while exp is within the hour.
    #expect(await s.get(path, authorization: s.token(["iat": nil])).status == 200)
    let refused: [(String, String)] = [
      ("no token", ""), ("another key id", s.token(kid: "KEY2")), ("another key", s.token(signer: .init())),
      ("expired", s.token(["iat": Int(Date().timeIntervalSince1970) - 7200, "exp": Int(Date().timeIntervalSince1970) - 3600])),
      ("another app", s.token(["bid": "com.example.other"])), ("another audience", s.token(["aud": "appstoreconnect-v2"])),
      ("exp two hours ahead without iat", s.token(["iat": nil, "exp": Int(Date().timeIntervalSince1970) + 7200])),
    ]
    for (what, token) in refused {
      let r = await s.get(path, authorization: token)
      #expect(r.status == 401 && r.body.isEmpty, "\(what): \(r.status)")
    }
  }

  @Test func transactionInfoIsTheFilesTransactionSignedAsItIs() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let state = try StateFile.load(path: s.path)
    let renewal = try #require(state.subscriber.transactions.typed()[2])
    let r = await s.get("\(Self.sandbox)/v1/transactions/\(renewal.transactionId!)")
    let jws = try #require(ServeFixture.object(r)["signedTransactionInfo"] as? String)
    let payload = try await ServeFixture.verified(jws)
    #expect(payload["transactionId"] as? String == renewal.transactionId)
    #expect(payload["expiresDate"] as? Double == renewal.expiresDate?.ms)
  }

  @Test func historyPagesByRevisionAndSortsOnRequest() async throws {
    let s = try ServeFixture(pageSize: 2)
    defer { s.remove() }
    var ids: [String] = [], revision: String?, pages = 0
    repeat {
      let r = await s.get("\(Self.sandbox)/v2/history/\(ServeFixture.id)", revision.map { [("revision", $0)] } ?? [])
      let o = ServeFixture.object(r)
      for jws in o["signedTransactions"] as? [String] ?? [] { ids.append(try await ServeFixture.verified(jws)["transactionId"] as! String) }
      revision = o["revision"] as? String
      pages += 1
      if o["hasMore"] as? Bool != true { break }
    } while pages < 10
    let state = try StateFile.load(path: s.path)
    let expected = try state.subscriber.transactions.typed().compactMap(\.transactionId)
    #expect(ids == expected && pages == 3)
    let newestFirst = ServeFixture.object(await s.get("\(Self.sandbox)/v2/history/\(ServeFixture.id)", [("sort", "DESCENDING")]))
    let first = try await ServeFixture.verified((newestFirst["signedTransactions"] as! [String])[0])
    #expect(first["transactionId"] as? String == expected.last)
    let bad = await s.get("\(Self.sandbox)/v2/history/\(ServeFixture.id)", [("revision", "r999")])
    #expect(bad.status == 400 && ServeFixture.object(bad)["errorCode"] as? Int == 4_000_005)
  }

  @Test func aSandboxSubscriberIsNotFoundInProductionAndHostileIdsAreRefused() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let production = await s.get("/inApps/v1/transactions/\(ServeFixture.id)")
    #expect(production.status == 404 && ServeFixture.object(production)["errorCode"] as? Int == 4_040_010)
    for id in ["..%2F..%2Fetc", "../etc", "12a", String(repeating: "9", count: 40), ""] {
      let r = await s.get("\(Self.sandbox)/v1/transactions/\(id)")
      #expect(r.status == 400 || r.status == 404, "\(id): \(r.status)")
    }
    let malformed = await s.get("\(Self.sandbox)/v1/transactions/12a")
    #expect(ServeFixture.object(malformed)["errorCode"] as? Int == 4_000_006)
    #expect(await s.get("\(Self.sandbox)/v9/whatever/1").status == 404)
    #expect(await s.api.respond(.init(method: "DELETE", path: "\(Self.sandbox)/v1/transactions/1", authorization: s.token())).status == 404)
  }

  @Test func statusesAreAsOfTheFilesClockAndFilterByStatus() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let all = ServeFixture.object(await s.get("\(Self.sandbox)/v1/subscriptions/\(ServeFixture.id)"))
    let group = try #require((all["data"] as? [[String: Any]])?.first)
    let last = try #require((group["lastTransactions"] as? [[String: Any]])?.first)
    #expect(last["status"] as? Int == 1)
    #expect(all["environment"] as? String == "Sandbox")
    let renewal = try await ServeFixture.verified(last["signedRenewalInfo"] as! String)
    #expect(renewal["autoRenewStatus"] as? Int == 1)
    let expiredOnly = ServeFixture.object(await s.get("\(Self.sandbox)/v1/subscriptions/\(ServeFixture.id)", [("status", "2")]))
    #expect((expiredOnly["data"] as? [Any])?.isEmpty == true)
    #expect(await s.get("\(Self.sandbox)/v1/subscriptions/\(ServeFixture.id)", [("status", "9")]).status == 400)
  }

  @Test func notificationHistoryKeepsApplesWindowAndFilters() async throws {
    // The server's clock just after the example's newest notification, so the window holds it.
    let s = try ServeFixture(now: Date(timeIntervalSince1970: 1_777_000_000))
    defer { s.remove() }
    let nowMs = 1_777_000_000_000.0
    let path = "\(Self.sandbox)/v1/notifications/history"
    let tooOld = await s.send("POST", path, json: ["startDate": nowMs - 31 * 86_400_000, "endDate": nowMs])
    #expect(ServeFixture.object(tooOld)["errorCode"] as? Int == 4_000_012)
    let backwards = await s.send("POST", path, json: ["startDate": nowMs - 86_400_000, "endDate": nowMs - 2 * 86_400_000])
    #expect(ServeFixture.object(backwards)["errorCode"] as? Int == 4_000_013)
    let state = try StateFile.load(path: s.path)
    // One subscriber's window counts back from its file's clock (oneSubscribersWindowIsCountedFromItsOwnClock).
    let clock = try Simulator.clock(state).ms
    let inWindow = state.subscriber.notifications.filter { ($0.signedDate?.ms ?? 0) >= clock - 29 * 86_400_000 && ($0.signedDate?.ms ?? 0) < clock }
    let r = ServeFixture.object(await s.send("POST", path, json: ["startDate": clock - 29 * 86_400_000, "endDate": clock, "transactionId": ServeFixture.id]))
    let items = r["notificationHistory"] as? [[String: Any]] ?? []
    var uuids: [String] = []
    for item in items { uuids.append(try await ServeFixture.verified(item["signedPayload"] as! String)["notificationUUID"] as! String) }
    #expect(!inWindow.isEmpty)
    #expect(uuids == inWindow.compactMap(\.notificationUUID))
    let onlyOther = ServeFixture.object(await s.send("POST", path, json: ["startDate": nowMs - 29 * 86_400_000, "endDate": nowMs, "notificationType": "REFUND"]))
    #expect((onlyOther["notificationHistory"] as? [Any])?.isEmpty == true)
  }

  /// A simulated subscriber's "now" is its file's clock: its window is counted back from there, so
  /// a file whose clock is months behind the wall clock still answers for its recent notifications.
  @Test func oneSubscribersWindowIsCountedFromItsOwnClock() async throws {
    let s = try ServeFixture(now: Date(timeIntervalSince1970: 1_790_000_000))  // 2026-09: months after the file's clock
    defer { s.remove() }
    let clock = try Simulator.clock(try StateFile.load(path: s.path)).ms
    let path = "\(Self.sandbox)/v1/notifications/history"
    let window: [String: Any] = ["startDate": clock - 29 * 86_400_000, "endDate": clock + 1]
    var one = window
    one["transactionId"] = ServeFixture.id
    let r = await s.send("POST", path, json: one)
    #expect(r.status == 200 && (ServeFixture.object(r)["notificationHistory"] as? [Any])?.isEmpty == false)
    // Every subscriber at once has no one clock: the wall clock's window, which this is outside.
    let all = await s.send("POST", path, json: window)
    #expect(all.status == 400 && ServeFixture.object(all)["errorCode"] as? Int == 4_000_012)
  }

  /// v1 of Get Transaction History is deprecated but is what Apple's Python library calls by
  /// default: the same pages as v2.
  @Test func historyV1AnswersAsV2() async throws {
    let s = try ServeFixture(pageSize: 3)
    defer { s.remove() }
    let v1 = await s.get("\(Self.sandbox)/v1/history/\(ServeFixture.id)")
    let v2 = await s.get("\(Self.sandbox)/v2/history/\(ServeFixture.id)")
    #expect(v1.status == 200 && v2.status == 200)
    let ids = { (r: LocalAppStoreAPI.Response) async throws -> [String] in
      var out: [String] = []
      for jws in ServeFixture.object(r)["signedTransactions"] as? [String] ?? [] {
        out.append(try await ServeFixture.verified(jws)["transactionId"] as? String ?? "")
      }
      return out
    }
    let first = try await ids(v1)
    let second = try await ids(v2)
    #expect(first.count == 3 && first == second)
    #expect((await s.get("\(Self.sandbox)/v1/refund/lookup/\(ServeFixture.id)")).status == 200)
  }

  /// Apple: history payloads show the state "at original send time". A renewal later refunded
  /// keeps its unrevoked transaction in DID_RENEW; the REFUND carries the revoked one.
  @Test func notificationHistoryShowsEachTransactionAsItWasWhenSent() async throws {
    let s = try ServeFixture(now: Date(timeIntervalSince1970: 1_780_000_000))  // 2026-05-28, after the renewal
    defer { s.remove() }
    try StateFile.update(path: s.path, refusing: ActionError.self) { st throws(ActionError) in try Simulator.advanceToNextEvent(st) }
    try StateFile.update(path: s.path, refusing: ActionError.self) { st throws(ActionError) in
      try Simulator.apply(.refund, to: st, at: try Simulator.clock(st)).get()
    }
    let nowMs = 1_780_000_000_000.0
    let r = ServeFixture.object(await s.send("POST", "\(Self.sandbox)/v1/notifications/history",
                                             json: ["startDate": nowMs - 29 * 86_400_000, "endDate": nowMs, "transactionId": ServeFixture.id]))
    var revokedBy: [String: Bool] = [:]
    for item in r["notificationHistory"] as? [[String: Any]] ?? [] {
      let n = try await ServeFixture.verified(item["signedPayload"] as! String)
      let data = try #require(n["data"] as? [String: Any])
      let t = try await ServeFixture.verified(data["signedTransactionInfo"] as! String)
      revokedBy[n["notificationType"] as! String] = t["revocationDate"] != nil
    }
    #expect(revokedBy["DID_RENEW"] == false)
    #expect(revokedBy["REFUND"] == true)
  }

  @Test func extendingARenewalDateIsWrittenThroughTheLockedPath() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let before = try StateFile.load(path: s.path)
    let expires = try #require(before.subscriber.latestTransaction?.expiresDate)
    let r = await s.send("PUT", "\(Self.sandbox)/v1/subscriptions/extend/\(ServeFixture.id)",
                         json: ["extendByDays": 7, "extendReasonCode": 1, "requestIdentifier": "b2c3"])
    let o = ServeFixture.object(r)
    #expect(r.status == 200 && o["success"] as? Bool == true)
    #expect(o["effectiveDate"] as? Double == (expires + .days(7)).ms)
    let after = try StateFile.load(path: s.path)
    #expect(after.subscriber.latestTransaction?.expiresDate == expires + .days(7))
    let log = try StateFile.recentNotifications(after, statePath: s.path, limit: 1)
    #expect(log.first?.notificationType == .renewalExtended)
    let tooMany = await s.send("PUT", "\(Self.sandbox)/v1/subscriptions/extend/\(ServeFixture.id)",
                               json: ["extendByDays": 91, "extendReasonCode": 1, "requestIdentifier": "c3d4"])
    #expect(tooMany.status == 400 && ServeFixture.object(tooMany)["errorCode"] as? Int == 4_000_009)
  }

  /// Apple allows two extensions in 365 days; the third is 403 (don't retry), not 400.
  @Test func aThirdExtensionInAYearIsForbidden() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let path = "\(Self.sandbox)/v1/subscriptions/extend/\(ServeFixture.id)"
    for id in ["first", "second"] {
      #expect(await s.send("PUT", path, json: ["extendByDays": 1, "extendReasonCode": 1, "requestIdentifier": id]).status == 200)
    }
    let third = await s.send("PUT", path, json: ["extendByDays": 1, "extendReasonCode": 1, "requestIdentifier": "third"])
    #expect(third.status == 403 && ServeFixture.object(third)["errorCode"] as? Int == 4_030_005)
  }

  @Test func anUnknownTestNotificationTokenIsNotFound() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let r = await s.get("\(Self.sandbox)/v1/notifications/test/no-such-token")
    #expect(r.status == 404 && ServeFixture.object(r)["errorCode"] as? Int == 4_040_008)
  }
}
