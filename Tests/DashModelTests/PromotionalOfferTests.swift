import Testing

@testable import DashModel
@testable import CoreValues
@testable import SimulationRuns

/// Promotional offers (issue 10 item 12) and offer codes for new or lapsed customers (item 8).
@Suite struct PromotionalOfferTests {
  /// pass.premium.monthly gets a two-month 4.99 promotional offer.
  func sim() -> Sim {
    Sim(start: "2026-05-01T00:00:00Z") { catalog in
      let offer = SubscriptionOffer(id: "premium.promo.stay", referenceName: "Stay with us", paymentMode: .payAsYouGo,
                                    period: "P1M", numberOfPeriods: 2, priceMilli: 4990)
      for g in catalog.groups.indices {
        for p in catalog.groups[g].subscriptions.indices where catalog.groups[g].subscriptions[p].productID == "pass.premium.monthly" {
          catalog.groups[g].subscriptions[p].promotionalOffers = [offer]
        }
      }
    }
  }

  func refusal(_ sim: Sim, _ action: PlanAction) -> ActionError? {
    if case .failure(let e) = Actions.apply(action, to: sim.state, at: sim.now, timing: try! Simulator.rules(sim.state).rate) { return e }
    return nil
  }

  let promo = PlanAction.applyPromotionalOffer(offerId: "premium.promo.stay", productId: nil)

  @Test func newCustomersAreNotEligible() {
    guard case .promotionalOfferNotEligible(_, let reason)? = refusal(sim(), promo) else {
      Issue.record("a new customer got a promotional offer"); return
    }
    #expect(reason.contains("never subscribed"))
  }

  @Test func anActiveSubscribersOfferAppliesAtTheNextRenewalWithOfferTypeTwo() {
    var s = sim()
    s.buy("pass.premium.monthly")
    s.plan(promo)
    #expect(s.labels.last == "OFFER_REDEEMED")
    #expect(s.info.offerType == .promotional)
    #expect(s.info.offerIdentifier == "premium.promo.stay")
    #expect(s.latest.offerType == nil)
    s.next()
    #expect(s.latest.offerType == .promotional)
    #expect(s.latest.price == 4990)
  }

  @Test func aLapsedSubscriberResubscribesWithTheOfferAtOnce() {
    var s = sim()
    s.buy("pass.premium.monthly")
    s.plan(.setAutoRenew(false))
    s.next()
    #expect(s.status == .expired)
    s.plan(promo)
    #expect(s.labels.last == "SUBSCRIBED / RESUBSCRIBE")
    #expect(s.latest.offerType == .promotional)
    #expect(s.status == .active)
  }

  @Test func unknownOffersAndRevokedSubscriptionsAreRefused() {
    var s = sim()
    s.buy("pass.premium.monthly")
    #expect(refusal(s, .applyPromotionalOffer(offerId: "nope", productId: nil)) == .unknownPromotionalOffer("nope"))
    s.run(.refund)
    #expect(refusal(s, promo) == .revoked)
  }

  @Test func anOfferCodeRedeemedByALapsedCustomerIsSubscribedResubscribeWithOfferTypeThree() {
    var s = Sim(start: "2026-05-01T00:00:00Z")
    s.buy("pass.premium.monthly")
    s.plan(.setAutoRenew(false))
    s.next()
    s.commit(ScenarioRunner.declare(code: "BACK26", offerReference: "Spring 2026", limit: nil, in: s.state))
    s.plan(.redeemOfferCode("BACK26"))
    #expect(s.labels.last == "SUBSCRIBED / RESUBSCRIBE")
    #expect(s.latest.offerType == .offerCode)
  }
}
