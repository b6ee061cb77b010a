import Testing

@testable import DashModel

/// Plan actions and the simulator make their transactions in one place, so a subscriber's first
/// purchase looks the same whichever started it, and account fields survive every renewal.
@Suite("One payload factory")
struct PayloadFactoryTests {
  typealias F = ActionsFixture
  static let march = utc("2026-03-01T09:30:00Z")

  /// The account fields of a transaction (not its ids, dates, price or offer).
  func account(_ t: TransactionPayload) -> [String?] {
    [t.bundleId, t.storefront, t.currency, t.environment?.rawValue, t.type, t.quantity.map(String.init),
     t.inAppOwnershipType?.rawValue, t.subscriptionGroupIdentifier]
  }

  @Test func aFirstPurchaseByCodeAndByTheSimulatorBelongToTheSameAccount() throws {
    let state = F.newCustomer(documentExtras: #""simulation": { "now": \#(Int64(Self.march.ms)) },"#)
    let byCode = try #require(try applied(.redeemOfferCode("SPRING26"), to: state, at: Self.march).latest)
    guard case .success(let bought) = Simulator.buy(PurchaseRequest(productId: "pass.premium"), state: state, at: Self.march) else {
      Issue.record("the simulator refused the purchase")
      return
    }
    let bySimulator = try #require(bought.latest)
    #expect(account(byCode) == account(bySimulator))
    #expect(byCode.bundleId == AccountDefaults.exampleBundleId)
  }

  @Test func aSimulatedRenewalKeepsTheAppTransactionId() throws {
    let state = F.state(documentExtras: #""simulation": { "now": \#(Int64(F.midPeriod.ms)) },"#)
    guard case .success(let change) = Simulator.apply(.advanceToNextEvent, to: state, at: F.midPeriod) else {
      Issue.record("the simulator refused to renew")
      return
    }
    let renewal = try #require(change.transactions.first { $0.transactionReason == .renewal })
    #expect(renewal.source["appTransactionId"] == .string("704000000000000001"))
    #expect(renewal.bundleId == "com.example.birds")
  }
}
