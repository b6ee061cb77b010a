import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// Offers belong to one billing plan (Apple, "Supporting monthly subscriptions with a 12-month
/// commitment": offers "are specific to each billing plan"; WWDC26 session 210: "a free trial only
/// for the customers who subscribe to a 12-month commitment"). A `.storekit` 5 offer carries the
/// plan in `billingPlanType`; one without it is the up-front plan's.
@Suite struct SimulationCommitmentOffersTests {
  /// A one-year product whose free trial is configured for the monthly plan only, and whose
  /// pay-up-front introductory offer is the up-front plan's.
  static func catalog(introductory: String) throws -> Catalog {
    let text = """
      {"subscriptionGroups": [{"id": "g", "name": "Pass", "subscriptions": [{"productID": "pass.annual", "groupNumber": 1,
       "recurringSubscriptionPeriod": "P1Y", "displayPrice": "99.99", "type": "RecurringSubscription",
       "localizations": [{"displayName": "Annual", "locale": "en_GB"}],
       "introductoryOffers": \(introductory),
       "billingPlans": [{"billingPlanType": "MONTHLY", "displayPrice": "9.49", "commitmentDisplayPrice": "113.88"}]}]}]}
      """
    return try StoreKitReader.read(ObjectReader(JSONParser.parse(Array(text.utf8)), at: .root))
  }

  func bought(_ catalog: Catalog) -> Sim {
    var sim = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = catalog })
    sim.commit(Simulator.buy(PurchaseRequest(productId: "pass.annual"), state: sim.state, at: sim.now))
    return sim
  }

  @Test func anUpFrontPurchaseDoesNotTakeTheMonthlyPlansFreeTrial() throws {
    let onlyMonthly = try Self.catalog(introductory: """
      [{"internalID": "T1", "paymentMode": "free", "subscriptionPeriod": "P1M", "billingPlanType": "MONTHLY"}]
      """)
    let sim = bought(onlyMonthly)
    #expect(sim.latest.offerType == nil)
    #expect(sim.latest.price == 99_990)
    #expect(sim.latest.expiresDate == Sim.at("2027-03-01T00:00:00Z"))
  }

  @Test func anUpFrontPurchaseTakesTheUpFrontPlansOfferWhenBothHaveOne() throws {
    let both = try Self.catalog(introductory: """
      [{"internalID": "T1", "paymentMode": "free", "subscriptionPeriod": "P1M", "billingPlanType": "MONTHLY"},
       {"internalID": "U1", "paymentMode": "free", "subscriptionPeriod": "P2W"}]
      """)
    let sim = bought(both)
    #expect(sim.latest.offerType == .introductory)
    #expect(sim.latest.expiresDate == Sim.at("2026-03-15T00:00:00Z"))
  }
}
