import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// Offers on the monthly plan with a 12-month commitment, against
/// Examples/scenarios/commitment-offers.storekit: Premium Annual (99.99 a year, or 9.49 a month
/// for 12 months, 113.88) whose monthly plan has a one-week free trial and two promotional offers
/// ("month-free", "three-at-4.99"), and an up-front promotional offer ("year-at-79.99").
///
/// Apple says offers "are specific to each billing plan"; where they fall among the 12 payments
/// is SubDash's inference (docs/simulation.md, "Offers on the monthly plan"): the trial comes
/// before payment 1, and a discount keeps the payments' numbers and the commitment's end.
@Suite struct SimulationCommitmentOfferPlacementTests {
  static func catalog() -> Catalog {
    let bytes = [UInt8](FileManager.default.contents(atPath: Sim.scenariosDir + "/commitment-offers.storekit")!)
    return try! StoreKitReader.read(ObjectReader(JSONParser.parse(bytes), at: .root))
  }

  func bought(_ plan: BillingPlanType? = .monthly, edit: (inout Catalog) -> Void = { _ in }) -> Sim {
    var sim = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = Self.catalog(); edit(&$0) })
    sim.commit(Simulator.buy(PurchaseRequest(productId: "pass.premium.annual", billingPlan: plan), state: sim.state, at: sim.now))
    return sim
  }

  /// A catalog edit of Premium Annual, the product these tests buy.
  func editingAnnual(_ change: @escaping (inout SubscriptionProduct) -> Void) -> (inout Catalog) -> Void {
    { catalog in
      for g in catalog.groups.indices {
        for p in catalog.groups[g].subscriptions.indices where catalog.groups[g].subscriptions[p].productID == "pass.premium.annual" {
          change(&catalog.groups[g].subscriptions[p])
        }
      }
    }
  }

  func payment(_ sim: Sim) -> Int? { sim.latest.commitmentInfo?.billingPeriodNumber }

  func refusal(_ action: PlanAction, _ sim: Sim) -> String? {
    switch Actions.apply(action, to: sim.state, at: sim.now, timing: try! Simulator.rules(sim.state).rate) {
    case .success: return nil
    case .failure(let e): return e.message
    }
  }

  @Test func theMonthlyPlansFreeTrialComesBeforePaymentOne() {
    var sim = bought()
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY"])
    #expect(sim.latest.billingPlanType == .monthly)
    #expect(sim.latest.offerType == .introductory && sim.latest.offerDiscountType == .freeTrial && sim.latest.offerPeriod == "P1W")
    #expect(sim.latest.price == 0)
    #expect(sim.latest.expiresDate == Sim.at("2026-03-08T00:00:00Z"))
    // In the commitment already, but no payment made: 12 payments counted from the trial's end.
    #expect(payment(sim) == nil)
    #expect(sim.latest.commitmentInfo?.totalBillingPeriods == 12)
    #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == Sim.at("2027-03-08T00:00:00Z"))
    #expect(sim.latest.commitmentInfo?.commitmentPrice == 113_880)
    #expect(sim.info.renewalBillingPlanType == .monthly && sim.info.renewalPrice == 9490)
    #expect(Lifecycle.derive(sim.state, at: sim.now).commitment?.text(currentProductId: nil, productName: { $0 })
            == "free trial, then 12 monthly payments · commitment ends 2027-03-08")

    sim.advance(to: "2026-03-07T23:59:59.999Z")
    #expect(sim.labels.count == 1 && payment(sim) == nil)
    sim.advance(by: .millisecond)
    #expect(sim.labels.last == "DID_RENEW")
    #expect(payment(sim) == 1 && sim.latest.price == 9490 && sim.latest.offerType == nil)
    #expect(sim.latest.expiresDate == Sim.at("2026-04-08T00:00:00Z"))
    #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == Sim.at("2027-03-08T00:00:00Z"))
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewStatus == .on)

    sim.advance(to: "2027-02-08T00:00:00Z")
    #expect(payment(sim) == 12 && sim.latest.expiresDate == Sim.at("2027-03-08T00:00:00Z"))
  }

  @Test func theBuyKeysPreviewSaysTheTrialComesFirst() throws {
    let sim = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = Self.catalog() })
    let preview = try Actions.preview(.buy(productId: "pass.premium.annual", billingPlan: .monthly), in: sim.state, at: sim.now,
                                      timing: try Simulator.rules(sim.state).rate).get()
    #expect(preview.summary.contains("with the introductory offer (free trial) (then 12 monthly payments from the trial's end"))
    #expect(preview.summary.contains("commitment ends 2027-03-08"))
  }

  @Test func cancellingDuringTheTrialMeansNoPaymentIsCharged() {
    var sim = bought()
    sim.plan(.setAutoRenew(false))
    #expect(sim.info.autoRenewStatus == .off)
    sim.advance(to: "2026-03-08T00:00:00Z")
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(sim.latest.price == 0 && payment(sim) == nil)
    #expect(sim.status == .expired)
  }

  @Test func payAsYouGoDiscountsTheFirstPaymentsWhichKeepTheirNumbers() {
    var sim = bought(edit: editingAnnual { annual in
      var o = SubscriptionOffer(id: "i", referenceName: "i", paymentMode: .payAsYouGo, period: "P1M", numberOfPeriods: 3, priceMilli: 4990)
      o.billingPlanType = .monthly
      annual.introductoryOffers = [o]
    })
    #expect(payment(sim) == 1 && sim.latest.price == 4990)
    #expect(sim.latest.offerType == .introductory && sim.latest.offerDiscountType == .payAsYouGo && sim.latest.offerPeriod == "P3M")
    #expect(sim.latest.commitmentInfo?.commitmentPrice == 113_880)
    sim.next()
    sim.next()
    #expect(payment(sim) == 3 && sim.latest.price == 4990 && sim.latest.offerType == .introductory)
    sim.next()
    #expect(payment(sim) == 4 && sim.latest.price == 9490 && sim.latest.offerType == nil)
    #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == Sim.at("2027-03-01T00:00:00Z"))
  }

  @Test func aPromotionalOfferDuringTheCommitmentDiscountsTheNextPaymentOnly() {
    var sim = bought()
    sim.advance(to: "2026-06-10T00:00:00Z")
    #expect(payment(sim) == 4)
    sim.plan(.applyPromotionalOffer(offerId: "month-free", productId: nil))
    #expect(sim.labels.last == "OFFER_REDEEMED")
    #expect(sim.log.last?.summary?.contains("free trial for 1 month for payment 5 of 12 (the commitment still ends on 2027-03-08") == true)
    #expect(sim.info.renewalPrice == 0)
    sim.advance(to: "2026-07-08T00:00:00Z")
    #expect(payment(sim) == 5 && sim.latest.price == 0)
    #expect(sim.latest.offerType == .promotional && sim.latest.offerIdentifier == "month-free" && sim.latest.offerDiscountType == .freeTrial)
    #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == Sim.at("2027-03-08T00:00:00Z"))
    sim.next()
    #expect(payment(sim) == 6 && sim.latest.price == 9490 && sim.latest.offerType == nil)
  }

  @Test func offersOfTheOtherBillingPlanAreRefused() {
    var committed = bought()
    committed.next()
    let upFrontOffer = refusal(.applyPromotionalOffer(offerId: "year-at-79.99", productId: nil), committed)
    #expect(upFrontOffer?.contains("Premium Annual's up-front plan; this customer pays monthly with a 12-month commitment") == true)

    let upFront = bought(nil)
    #expect(upFront.latest.offerType == nil)
    let monthlyOffer = refusal(.applyPromotionalOffer(offerId: "month-free", productId: nil), upFront)
    #expect(monthlyOffer?.contains("Premium Annual's monthly plan with a 12-month commitment; this customer pays up front") == true)
  }

  @Test func anOfferThatIsNotWholeMonthsDoesNotFitTheMonthlyPayments() {
    var sim = bought(edit: editingAnnual { annual in
      var week = SubscriptionOffer(id: "week-free", referenceName: "A week free", paymentMode: .freeTrial, period: "P1W", numberOfPeriods: 1, priceMilli: 0)
      week.billingPlanType = .monthly
      annual.promotionalOffers.append(week)
    })
    sim.next()
    #expect(payment(sim) == 1)
    let refused = refusal(.applyPromotionalOffer(offerId: "week-free", productId: nil), sim)
    #expect(refused?.contains("does not fit the monthly plan with a 12-month commitment, which is billed one month at a time") == true)
    #expect(refusal(.applyPromotionalOffer(offerId: "month-free", productId: nil), sim) == nil)
  }

  @Test func aMonthlyPlanWinBackOfferResubscribesIntoACommitment() {
    var sim = bought(nil, edit: editingAnnual { annual in
      var w = WinBackOffer(
        offerId: "come-back", referenceName: "Come back", productId: "pass.premium.annual", paymentMode: .freeTrial,
        period: "P1M", periodCount: 1, priceMilli: 0, paidSubscriptionMonths: 0, monthsSinceLastSubscribedMin: 0,
        monthsSinceLastSubscribedMax: nil, waitBetweenOffersMonths: nil, startDate: nil, endDate: nil, priority: .high)
      w.billingPlanType = .monthly
      annual.winBackOffers = [w]
    })
    sim.plan(.setAutoRenew(false))
    sim.advance(to: "2027-04-01T00:00:00Z")
    #expect(sim.status == .expired)
    sim.plan(.acceptWinBack(offerId: "come-back"))
    #expect(sim.labels.contains("SUBSCRIBED / RESUBSCRIBE"))
    #expect(sim.latest.billingPlanType == .monthly && sim.latest.offerType == .winBack && sim.latest.price == 0)
    #expect(payment(sim) == nil && sim.latest.expiresDate == Sim.at("2027-05-01T00:00:00Z"))
    sim.advance(to: "2027-05-01T00:00:00Z")
    #expect(payment(sim) == 1 && sim.latest.price == 9490)
    #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == Sim.at("2028-05-01T00:00:00Z"))
  }

  @Test func expectPaymentNoneHoldsOnlyInTheTrialBeforePaymentOne() throws {
    let trial = "catalog commitment-offers.storekit\nstart 2026-03-01T00:00:00Z\nbuy pass.premium.annual monthly\nexpect payment none\n"
    #expect(try ScenarioTests.run(trial).0.expectations == 1)
    let paid = trial.replacingOccurrences(of: "commitment-offers.storekit", with: "commitment.storekit")
    #expect(throws: (any Error).self) { try ScenarioTests.run(paid) }
  }

  /// WWDC26 session 210: "for transactions with an .upfront billingPlanType, commitmentInfo is
  /// nil". A product that has a monthly plan, bought or renewed up front, says BILLED_UPFRONT;
  /// a product without billing plans keeps its payloads as they were.
  @Test func upFrontPaymentsOfAProductWithAMonthlyPlanSayBilledUpfront() {
    var sim = bought(nil)
    #expect(sim.latest.billingPlanType == .billedUpfront && sim.latest.commitmentInfo == nil)
    #expect(sim.info.renewalBillingPlanType == .billedUpfront && sim.info.commitmentInfo == nil)
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.billingPlanType == .billedUpfront)

    var plain = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = Self.catalog() })
    plain.buy("pass.premium.monthly")
    #expect(plain.latest.billingPlanType == nil && plain.info.renewalBillingPlanType == nil)
  }
}
