import Testing

@testable import DashModel
@testable import CoreValues

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

  @Test func aNewCustomersFirstPurchaseNamesItsAppTransactionInTheTransactionAndTheRenewalInfo() throws {
    let state = F.newCustomer(documentExtras: #""simulation": { "now": \#(Int64(Self.march.ms)) },"#)
    guard case .success(let bought) = Simulator.buy(PurchaseRequest(productId: "pass.premium"), state: state, at: Self.march) else {
      Issue.record("the simulator refused the purchase")
      return
    }
    let first = try #require(bought.latest)
    let original = try #require(first.originalTransactionId)
    let expected = AppTransactionIdentity.derived(bundleId: try #require(first.bundleId), originalTransactionId: original)
    #expect(first.source["appTransactionId"] == .string(expected))
    #expect(bought.state.subscriber.renewalInfo?.source["appTransactionId"] == .string(expected))
    // And it stays the customer's across the renewal that follows.
    guard case .success(let renewed) = Simulator.apply(.advanceToNextEvent, to: bought.state, at: Self.march) else {
      Issue.record("the simulator refused to renew")
      return
    }
    #expect(renewed.transactions.allSatisfy { $0.source["appTransactionId"] == .string(expected) })
    #expect(AppTransactionIdentity.id(of: renewed.state.subscriber, bundleId: nil) == expected)
  }

  @Test func aPlanActionOnAnOlderFileGivesTheRenewalInfoTheTransactionsAppTransactionId() throws {
    var state = F.state()
    state.subscriber.renewalInfo?.source["appTransactionId"] = nil
    let change = try #require(try? Actions.apply(.setAutoRenew(false), to: state, at: F.midPeriod).get())
    #expect(change.state.subscriber.renewalInfo?.source["appTransactionId"] == .string("704000000000000001"))
  }
}
