import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// Set App Account Token, as a backend links a subscription to its customer account: 200, the
/// token on the latest transaction (a new version of it, in the history) and in the renewal info,
/// so Get Transaction Info answers it and later renewals carry it; refusals with Apple's codes.
@Suite struct AppAccountTokenAPITests {
  static func put(_ s: ServeFixture, _ id: String, _ body: String, sandbox: Bool = true) async -> LocalAppStoreAPI.Response {
    await s.api.respond(.init(method: "PUT", path: (sandbox ? "/sandbox" : "") + "/inApps/v1/transactions/\(id)/appAccountToken",
                              authorization: s.token(), body: Array(body.utf8)))
  }

  static let token = "5B0E8C1A-7D2F-4E3B-9A6C-1F0D2E3C4B5A"

  @Test func theTokenIsOnTheLatestTransactionAndTheRenewalInfo() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let before = try StateFile.load(path: s.path)
    let r = await Self.put(s, ServeFixture.id, #"{"appAccountToken": "\#(Self.token)"}"#)
    #expect(r.status == 200 && r.body.isEmpty)
    #expect(r.log.contains("changed from 7d1f3c52-9a4e-4b8e-a0c1-2f6d9b3e5a17 to 5b0e8c1a"))
    let after = try StateFile.load(path: s.path)
    #expect(after.subscriber.latestTransaction?.appAccountToken == Self.token.lowercased())
    #expect(after.subscriber.renewalInfo?.appAccountToken == Self.token.lowercased())
    #expect(after.subscriber.latestTransaction?.transactionId == before.subscriber.latestTransaction?.transactionId)
    // Get Transaction Info answers the new version, signed.
    let latestId = try #require(after.subscriber.latestTransaction?.transactionId)
    let info = await s.get("/sandbox/inApps/v1/transactions/\(latestId)")
    let signed = try #require(ServeFixture.object(info)["signedTransactionInfo"] as? String)
    #expect(try await ServeFixture.verified(signed)["appAccountToken"] as? String == Self.token.lowercased())
    // The next renewal carries it.
    _ = try StateFile.update(path: s.path, refusing: ActionError.self) { (current) throws(ActionError) -> Change in
      try Simulator.advanceToNextEvent(current)
    }
    let renewed = try StateFile.load(path: s.path).subscriber.latestTransaction
    #expect(renewed?.transactionId != latestId && renewed?.appAccountToken == Self.token.lowercased())
  }

  @Test func refusalsCarryApplesCodesAndWriteNothing() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    try s.add(example: "family-shared")
    let before = try Data(contentsOf: URL(fileURLWithPath: s.path))
    let renewalId = try #require(try SubscriberRecord(path: s.path, state: try StateFile.load(path: s.path)).transactions.last?.transactionId)
    let cases: [(String, String, Int, Int)] = [
      (ServeFixture.id, #"{"appAccountToken": "not-a-uuid"}"#, 400, 4_000_183),
      (ServeFixture.id, #"{"appAccountToken": 7}"#, 400, 4_000_183),
      (ServeFixture.id, #"{}"#, 400, 4_000_183),
      (renewalId, #"{"appAccountToken": "\#(Self.token)"}"#, 400, 4_000_187),
      ("2000000844310207", #"{"appAccountToken": "\#(Self.token)"}"#, 400, 4_000_185),
      ("123456", #"{"appAccountToken": "\#(Self.token)"}"#, 404, 4_040_010),
    ]
    for (id, body, status, code) in cases {
      let r = await Self.put(s, id, body)
      #expect(r.status == status && ServeFixture.object(r)["errorCode"] as? Int == code, "\(id) \(body)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: s.path)) == before)
  }

  /// A Production file is a real customer's, as fetched: SubDash does not change it.
  @Test func aProductionSubscriberIsNotChanged() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    try s.add(example: "refunded")
    let path = s.directory + "/refunded.json"
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let r = await Self.put(s, "510001873462915", #"{"appAccountToken": "\#(Self.token)"}"#, sandbox: false)
    #expect(r.status == 400 && ServeFixture.object(r)["errorCode"] as? Int == 4_000_000)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }
}
