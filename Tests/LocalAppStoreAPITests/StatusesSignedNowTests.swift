import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// Apple signs an answer when it gives it: the status's signedTransactionInfo and
/// signedRenewalInfo carry the server's now as signedDate. For `serve` that now is the file's own
/// clock, and `fetch` reads it to place its notification-history window (issue 22 §6).
@Suite struct StatusesSignedNowTests {
  @Test func statusesAreSignedAtTheFilesClock() async throws {
    let s = try ServeFixture()  // the wall clock is now; the file's clock is in May 2026
    defer { s.remove() }
    let clock = try Simulator.clock(try StateFile.load(path: s.path)).ms
    let all = ServeFixture.object(await s.get("/sandbox/inApps/v1/subscriptions/\(ServeFixture.id)"))
    let last = try #require(((all["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]])?.first)
    let transaction = try await ServeFixture.verified(last["signedTransactionInfo"] as! String)
    let renewal = try await ServeFixture.verified(last["signedRenewalInfo"] as! String)
    #expect((transaction["signedDate"] as? NSNumber)?.doubleValue == clock)
    #expect((renewal["signedDate"] as? NSNumber)?.doubleValue == clock)
    // Everything else is the file's transaction as it is.
    #expect(transaction["transactionId"] as? String != nil)
  }
}
