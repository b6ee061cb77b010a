import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// Get App Transaction Info and Finish Transaction, as a backend calls them, and `--rate-limit`.
@Suite struct AppTransactionAPITests {
  @Test func theAppTransactionIsSignedAndNamesTheCustomer() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let record = try SubscriberRecord(path: s.path, state: try StateFile.load(path: s.path))
    let renewalId = try #require(record.transactions.last?.transactionId)
    // Any transaction of the customer's answers the same app transaction.
    let first = await s.get("/sandbox/inApps/v1/transactions/appTransactions/\(ServeFixture.id)")
    let second = await s.get("/sandbox/inApps/v1/transactions/appTransactions/\(renewalId)")
    #expect(first.status == 200 && second.status == 200)
    let a = try await ServeFixture.verified(try #require(ServeFixture.object(first)["signedAppTransactionInfo"] as? String))
    let b = try await ServeFixture.verified(try #require(ServeFixture.object(second)["signedAppTransactionInfo"] as? String))
    let appTransactionId = try #require(a["appTransactionId"] as? String)
    #expect(appTransactionId.count == 18 && appTransactionId.allSatisfy(\.isNumber))
    #expect(b["appTransactionId"] as? String == appTransactionId)
    #expect(a["receiptType"] as? String == "Sandbox" && a["bundleId"] as? String == "com.example.birdwatch")
    #expect(a["originalPurchaseDate"] as? Double == record.transactions.first?.originalPurchaseDate?.ms)
    #expect(a["originalPlatform"] as? String == "iOS" && a["applicationVersion"] as? String == "1.0")
    // And the appTransactionId itself names the customer.
    let byApp = await s.get("/sandbox/inApps/v1/transactions/appTransactions/\(appTransactionId)")
    #expect(byApp.status == 200)
    // Not in production (the file is Sandbox), and an unknown id: Apple's 4040019.
    let production = await s.get("/inApps/v1/transactions/appTransactions/\(ServeFixture.id)")
    let unknown = await s.get("/sandbox/inApps/v1/transactions/appTransactions/123456")
    for r in [production, unknown] { #expect(r.status == 404 && ServeFixture.object(r)["errorCode"] as? Int == 4_040_019) }
    let bad = await s.get("/sandbox/inApps/v1/transactions/appTransactions/abc")
    #expect(bad.status == 400 && ServeFixture.object(bad)["errorCode"] as? Int == 4_000_006)
  }

  @Test func theEndpointsApplesPagesOpenToAnyIdTakeTheAppTransactionIdAndTransactionInfoRefusesIt() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    try s.add(example: "expired-voluntary")
    let state = try StateFile.load(path: s.path)
    let record = try SubscriberRecord(path: s.path, state: state)
    let appTransactionId = try #require(AppTransactionIdentity.id(of: state.subscriber, history: record.transactions, bundleId: s.bundleID))
    // Get All Subscription Statuses: the customer's, and every signed payload names its app transaction.
    let statuses = await s.get("/sandbox/inApps/v1/subscriptions/\(appTransactionId)")
    #expect(statuses.status == 200)
    let groups = try #require(ServeFixture.object(statuses)["data"] as? [[String: Any]])
    let last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
    #expect(last["originalTransactionId"] as? String == ServeFixture.id)
    let transaction = try await ServeFixture.verified(try #require(last["signedTransactionInfo"] as? String))
    let renewal = try await ServeFixture.verified(try #require(last["signedRenewalInfo"] as? String))
    #expect(transaction["appTransactionId"] as? String == appTransactionId && renewal["appTransactionId"] as? String == appTransactionId)
    // Get Transaction History and Get Refund History.
    let history = await s.get("/sandbox/inApps/v2/history/\(appTransactionId)")
    let signed = try #require(ServeFixture.object(history)["signedTransactions"] as? [String])
    #expect(history.status == 200 && signed.count == record.transactions.count)
    for jws in signed { #expect(try await ServeFixture.verified(jws)["appTransactionId"] as? String == appTransactionId) }
    #expect(await s.get("/sandbox/inApps/v2/refund/lookup/\(appTransactionId)").status == 200)
    // Get Transaction Info takes transaction ids only: Apple's AppTransactionIdNotSupportedError.
    let info = await s.get("/sandbox/inApps/v1/transactions/\(appTransactionId)")
    #expect(info.status == 400 && ServeFixture.object(info)["errorCode"] as? Int == 4_000_048)
    // The other customer's appTransactionId answers the other customer; a made-up one is still 4040010.
    let other = try StateFile.load(path: s.directory + "/expired-voluntary.json")
    let otherId = try #require(AppTransactionIdentity.id(of: other.subscriber, bundleId: s.bundleID))
    #expect(otherId != appTransactionId)
    let otherStatuses = ServeFixture.object(await s.get("/sandbox/inApps/v1/subscriptions/\(otherId)"))
    let otherLast = ((otherStatuses["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]])?.first
    #expect(otherLast?["originalTransactionId"] as? String == other.subscriber.originalTransactionId)
    let unknown = await s.get("/sandbox/inApps/v1/subscriptions/704999999999999999")
    #expect(unknown.status == 404 && ServeFixture.object(unknown)["errorCode"] as? Int == 4_040_010)
  }

  @Test func aFileWithApplesOwnAppTransactionIdKeepsIt() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    var text = try String(contentsOfFile: s.path, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"originalTransactionId\"", with: "\"appTransactionId\": \"704289572311065432\", \"originalTransactionId\"")
    try text.write(toFile: s.path, atomically: true, encoding: .utf8)
    let r = await s.get("/sandbox/inApps/v1/transactions/appTransactions/\(ServeFixture.id)")
    let payload = try await ServeFixture.verified(try #require(ServeFixture.object(r)["signedAppTransactionInfo"] as? String))
    #expect(payload["appTransactionId"] as? String == "704289572311065432")
  }

  @Test func finishingIsRecordedOnceAtTheFilesClock() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let state = try StateFile.load(path: s.path)
    let clock = try #require(try Simulator.settings(state).now)
    let finish = LocalAppStoreAPI.Request(method: "POST", path: "/sandbox/inApps/v1/transactions/\(ServeFixture.id)/finish", authorization: s.token())
    let r = await s.api.respond(finish)
    #expect(r.status == 200 && r.body.isEmpty)
    let recorded = FinishedTransactions.read(try StateFile.load(path: s.path).document)
    #expect(recorded == [.init(transactionId: ServeFixture.id, finishedDate: clock)])
    // Again: 200, and the first date stays.
    let again = await s.api.respond(finish)
    #expect(again.status == 200 && again.log.contains("already finished"))
    #expect(FinishedTransactions.read(try StateFile.load(path: s.path).document).count == 1)
  }

  @Test func finishRefusalsCarryApplesCodesAndWriteNothing() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    let state = try StateFile.load(path: s.path)
    let appTransactionId = try #require(AppTransactionIdentity.id(of: state.subscriber, bundleId: "com.example.birdwatch"))
    let cases: [(String, Int, Int)] = [(appTransactionId, 400, 4_000_048), ("123456", 404, 4_040_010), ("12a", 400, 4_000_006)]
    for (id, status, code) in cases {
      let r = await s.api.respond(.init(method: "POST", path: "/sandbox/inApps/v1/transactions/\(id)/finish", authorization: s.token()))
      #expect(r.status == status && ServeFixture.object(r)["errorCode"] as? Int == code, "\(id)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  @Test func overTheRateLimitIs429WithRetryAfterAndEachEndpointCountsAlone() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    var settings = LocalAppStoreAPI.Settings(check: BearerCheck(publicKey: s.key.publicKey, keyID: "KEY1", issuerID: "issuer-1", bundleID: s.bundleID))
    settings.rateLimit = 2
    let second = s.now.timeIntervalSince1970.rounded(.down)
    let now = Date(timeIntervalSince1970: second + 0.25)
    let api = LocalAppStoreAPI(directory: s.directory, settings: settings, authority: ServeFixture.ca, sender: nil, wallClock: { now })
    func get(_ path: String) async -> LocalAppStoreAPI.Response { await api.respond(.init(method: "GET", path: path, authorization: s.token())) }
    let info = "/sandbox/inApps/v1/transactions/\(ServeFixture.id)"
    #expect(await get(info).status == 200)
    #expect(await get(info).status == 200)
    let third = await get(info)
    #expect(third.status == 429 && ServeFixture.object(third)["errorCode"] as? Int == 4_290_000)
    #expect(third.retryAfter == Int64(second) * 1000 + 1000)
    // Another endpoint (and another transaction id of the same endpoint is the same endpoint).
    #expect(await get("/sandbox/inApps/v1/subscriptions/\(ServeFixture.id)").status == 200)
    #expect(await get("/sandbox/inApps/v1/transactions/123").status == 429)
    #expect(LocalAppStoreAPI.rateLimit("5/s") == 5 && LocalAppStoreAPI.rateLimit("0/s") == nil && LocalAppStoreAPI.rateLimit("x") == nil)
  }
}
