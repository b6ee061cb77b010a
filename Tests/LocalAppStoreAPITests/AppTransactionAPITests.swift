import AppStoreAuth
import DashModel
import Foundation
import Testing
@testable import LocalAppStoreAPI

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
