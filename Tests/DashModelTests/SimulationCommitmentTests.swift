import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// Monthly subscriptions with a 12-month commitment, simulated (issue 21 §1), against
/// Examples/scenarios/commitment.storekit (format 5, as Xcode 26.5 writes billing plans):
///
///   level 1  pass.premium.annual   P1Y 99.99, or monthly 9.49 with a 12-month commitment (113.88)
///            pass.premium.monthly  P1M  9.99
///   level 2  pass.basic.annual     P1Y 49.99, or monthly 4.49 with a 12-month commitment (53.88)
///            pass.basic.monthly    P1M  4.99
///
/// Apple's rules: "Managing the life cycle of monthly subscriptions with a 12-month commitment" and
/// "Supporting monthly subscriptions with a 12-month commitment" (docs/simulation.md).
@Suite struct SimulationCommitmentTests {
  static func commitmentCatalog() -> Catalog {
    let bytes = [UInt8](FileManager.default.contents(atPath: Sim.scenariosDir + "/commitment.storekit")!)
    return try! StoreKitReader.read(ObjectReader(JSONParser.parse(bytes), at: .root))
  }

  /// A customer who buys Premium Annual's monthly plan on 1 March 2026.
  func committed(_ product: String = "pass.premium.annual") -> Sim {
    var sim = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = Self.commitmentCatalog() })
    sim.commit(Simulator.buy(PurchaseRequest(productId: product, billingPlan: .monthly), state: sim.state, at: sim.now))
    return sim
  }

  func payment(_ sim: Sim) -> Int? { sim.latest.commitmentInfo?.billingPeriodNumber }

  @Test func theStoreKitFileGivesTheMonthlyPlanAndOnlyOneYearProductsHaveOne() throws {
    let catalog = Self.commitmentCatalog()
    #expect(catalog.formatVersion == "5.0")
    #expect(catalog.product("pass.premium.annual")?.monthlyPlan == MonthlyBillingPlan(monthlyPriceMilli: 9490, commitmentPriceMilli: 113_880))
    #expect(catalog.product("pass.premium.monthly")?.monthlyPlan == nil)

    func read(_ period: String, _ plans: String) throws -> Catalog {
      let text = """
        {"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "p", "groupNumber": 1,
         "recurringSubscriptionPeriod": "\(period)", "displayPrice": "60.00", "billingPlans": \(plans)}]}]}
        """
      return try StoreKitReader.read(ObjectReader(JSONParser.parse(Array(text.utf8)), at: .root))
    }
    // The total defaults to 12 payments; a disabled plan is not offered.
    #expect(try read("P1Y", #"[{"billingPlanType": "MONTHLY", "displayPrice": "5.50"}]"#).product("p")?.monthlyPlan?.commitmentPriceMilli == 66_000)
    #expect(try read("P1Y", #"[{"billingPlanType": "MONTHLY", "displayPrice": "5.50", "isEnabled": false}]"#).product("p")?.monthlyPlan == nil)
    #expect(throws: DecodeError.self) { try read("P1M", #"[{"billingPlanType": "MONTHLY", "displayPrice": "5.50"}]"#) }
    #expect(throws: DecodeError.self) { try read("P1Y", #"[{"billingPlanType": "WEEKLY", "displayPrice": "5.50"}]"#) }
  }

  @Test func aPurchaseIsPaymentOneOfTwelveWithTheCommitmentInTransactionAndRenewalInfo() {
    let sim = committed()
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY"])
    #expect(sim.latest.billingPlanType == .monthly)
    #expect(sim.latest.price == 9490)
    #expect(sim.latest.expiresDate == Sim.at("2026-04-01T00:00:00Z"))
    #expect(sim.latest.commitmentInfo == TransactionCommitmentInfo(
      billingPeriodNumber: 1, totalBillingPeriods: 12, commitmentExpiresDate: Sim.at("2027-03-01T00:00:00Z"), commitmentPrice: 113_880))
    #expect(sim.info.renewalBillingPlanType == .monthly)
    #expect(sim.info.autoRenewStatus == .on)
    #expect(sim.info.renewalPrice == 9490)
    let rc = sim.info.commitmentInfo
    #expect(rc?.commitmentAutoRenewStatus == .on)
    #expect(rc?.commitmentAutoRenewProductId == "pass.premium.annual")
    #expect(rc?.commitmentRenewalBillingPlanType == .monthly)
    #expect(rc?.commitmentRenewalDate == Sim.at("2027-03-01T00:00:00Z"))
    #expect(rc?.commitmentRenewalPrice == 113_880)
  }

  @Test func aProductWithoutAMonthlyPlanIsRefused() {
    var sim = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = Self.commitmentCatalog() })
    guard case .failure(let e) = Simulator.buy(PurchaseRequest(productId: "pass.premium.monthly", billingPlan: .monthly), state: sim.state, at: sim.now) else {
      Issue.record("a monthly product was bought with a 12-month commitment"); return
    }
    #expect(e.message.contains("no monthly billing plan"))
    sim.buy("pass.premium.annual")
    #expect(sim.latest.commitmentInfo == nil)
  }

  @Test func twelveMonthlyPaymentsThenANewCommitmentBeginsAtTheMillisecondTheOldEnds() {
    var sim = committed()
    let end = Sim.at("2027-03-01T00:00:00Z")
    for n in 2...12 {
      sim.next()
      #expect(sim.labels.last == "DID_RENEW")
      #expect(payment(sim) == n)
      #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == end)
      #expect(sim.latest.price == 9490)
    }
    #expect(sim.latest.expiresDate == end)
    #expect(sim.info.renewalBillingPlanType == .monthly)
    #expect(sim.info.renewalPrice == 9490)
    sim.advance(to: end - .ms(1))
    #expect(payment(sim) == 12)
    sim.advance(to: end)
    #expect(sim.labels.last == "DID_RENEW")
    #expect(payment(sim) == 1)
    #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == Sim.at("2028-03-01T00:00:00Z"))
    #expect(sim.info.commitmentInfo?.commitmentRenewalDate == Sim.at("2028-03-01T00:00:00Z"))
    #expect(sim.labels.count == 13)
  }

  @Test func cancellingInMonthFourKeepsBillingToTheTwelfthPaymentThenExpires() {
    var sim = committed()
    for _ in 2...4 { sim.next() }
    sim.advance(to: "2026-06-15T00:00:00Z")
    let before = sim.log.count
    sim.plan(.setAutoRenew(false))
    #expect(sim.labels(since: before) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED"])
    #expect(sim.log.last?.summary?.contains("8 remaining monthly payments (5–12 of 12) are still charged") == true)
    // Apple: the commitment's willAutoRenew goes to 0, the renewal info's stays 1.
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewStatus == .off)
    #expect(sim.info.autoRenewStatus == .on)
    #expect(sim.status == .active)
    for n in 5...12 {
      sim.next()
      #expect(sim.labels.last == "DID_RENEW")
      #expect(payment(sim) == n)
    }
    // On the last payment nothing is left to renew (inferred: the plain status follows).
    #expect(sim.info.autoRenewStatus == .off)
    let end = Sim.at("2027-03-01T00:00:00Z")
    sim.advance(to: end - .ms(1))
    #expect(sim.status == .active)
    sim.advance(to: end)
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(sim.status == .expired)
    #expect(sim.labels.filter { $0 == "DID_RENEW" }.count == 11)
  }

  /// `show --json`'s `commitment.keys` and the `a` key's direction come from the same previews.
  @Test func theKeysSayWhatTheyWouldDoToTheCommitment() throws {
    var sim = committed()
    for _ in 2...4 { sim.next() }
    let rate = try Simulator.rules(sim.state).rate
    #expect(CommitmentKeys.autoRenewIsOn(sim.state, at: sim.now))
    var keys = try #require(CommitmentKeys.json(sim.state, at: sim.now, timing: rate)?.objectValue)
    #expect(keys["a"]?.objectValue?["preview"]?.stringValue?.contains("8 remaining monthly payments (5–12 of 12) are still charged") == true)
    let plans = keys["plans"]?.arrayValue?.compactMap(\.objectValue) ?? []
    let basic = try #require(plans.first { $0["productId"]?.stringValue == "pass.basic.monthly" })
    #expect(basic["key"]?.stringValue == "d")
    #expect(basic["preview"]?.stringValue?.contains("when the 12-month commitment ends on 2027-03-01") == true)
    sim.plan(.setAutoRenew(false))
    // The renewal info's own status is still on, but the key turns the commitment's back on.
    #expect(!CommitmentKeys.autoRenewIsOn(sim.state, at: sim.now))
    keys = try #require(CommitmentKeys.json(sim.state, at: sim.now, timing: rate)?.objectValue)
    #expect(keys["a"]?.objectValue?["preview"]?.stringValue?.hasPrefix("Turn auto-renew on: the 12-month commitment renews") == true)
    var plain = Sim(start: "2026-03-01T00:00:00Z", catalog: { $0 = Self.commitmentCatalog() })
    plain.buy("pass.premium.annual")
    #expect(CommitmentKeys.json(plain.state, at: plain.now, timing: rate) == nil)
  }

  /// Apple: a refund of the current billing period ends the commitment at once. (A prior
  /// period's refund, which revokes that payment alone, is the "refund a chosen transaction"
  /// action's; its own tests cover it.)
  @Test func refundingTheCurrentPaymentEndsTheCommitment() throws {
    var sim = committed()
    sim.next(); sim.next(); sim.next()
    #expect(payment(sim) == 4)
    sim.run(.refund)
    #expect(sim.labels.contains("REFUND"))
    #expect(sim.status == .revoked)
    sim.advance(by: .days(400))
    #expect(!sim.labels.contains("EXPIRED / VOLUNTARY"))
    #expect(sim.labels.filter { $0 == "DID_RENEW" }.count == 3)
  }

  @Test func turningAutoRenewBackOnMidCommitmentRenewsTheCommitmentAgain() {
    var sim = committed()
    sim.plan(.setAutoRenew(false))
    sim.plan(.setAutoRenew(true))
    #expect(sim.labels.suffix(2) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED"])
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewStatus == .on)
  }

  @Test func aBillingFailureInMonthSevenHasNoGraceAndExpiresAfterNinetyDaysOfRetry() {
    var sim = Sim(start: "2026-03-01T00:00:00Z", settings: [("gracePeriod", .string("16d"))], catalog: { $0 = Self.commitmentCatalog() })
    sim.commit(Simulator.buy(PurchaseRequest(productId: "pass.premium.annual", billingPlan: .monthly), state: sim.state, at: sim.now))
    for _ in 2...6 { sim.next() }
    sim.run(.failNextRenewal)
    let due = Sim.at("2026-09-01T00:00:00Z")
    sim.advance(to: due)
    // Apple: grace does not apply to commitments; revoke access on DID_FAIL_TO_RENEW.
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW")
    #expect(sim.status == .billingRetry)
    #expect(sim.info.gracePeriodExpiresDate == nil)
    #expect(sim.info.isInBillingRetryPeriod == true)
    let retryEnd = due + .days(90)
    sim.advance(to: retryEnd - .ms(1))
    #expect(sim.status == .billingRetry)
    sim.advance(to: retryEnd)
    #expect(sim.labels.last == "EXPIRED / BILLING_RETRY")
    #expect(sim.info.isInBillingRetryPeriod == false)
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewStatus == .off)
  }

  @Test func aRecoveryInRetryShiftsTheCommitmentEndByTheNewBillingDate() {
    var sim = committed()
    for _ in 2...6 { sim.next() }
    sim.run(.failNextRenewal)
    sim.advance(to: "2026-09-11T00:00:00Z")
    sim.run(.resolveBillingIssue)
    #expect(sim.labels.last == "DID_RENEW / BILLING_RECOVERY")
    #expect(payment(sim) == 7)
    #expect(sim.latest.expiresDate == Sim.at("2026-10-11T00:00:00Z"))
    #expect(sim.latest.commitmentInfo?.commitmentExpiresDate == Sim.at("2027-03-11T00:00:00Z"))
    #expect(sim.info.commitmentInfo?.commitmentRenewalDate == Sim.at("2027-03-11T00:00:00Z"))
    for _ in 8...12 { sim.next() }
    #expect(payment(sim) == 12)
    #expect(sim.latest.expiresDate == Sim.at("2027-03-11T00:00:00Z"))
  }

  @Test func anUpgradeInMonthTwoEndsTheCommitmentAtOnce() throws {
    var sim = committed("pass.basic.annual")
    sim.next()
    #expect(payment(sim) == 2)
    sim.advance(to: "2026-04-11T00:00:00Z")
    let change = try Actions.apply(.upgrade(toProductId: "pass.premium.monthly"), to: sim.state, at: sim.now,
                                   timing: try Simulator.rules(sim.state).rate).get()
    #expect(change.message.contains("the 12-month commitment ends now (payments 3–12 are not charged)"))
    sim.commit(change)
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_PREF / UPGRADE")
    #expect(sim.latest.productId == "pass.premium.monthly")
    #expect(sim.latest.billingPlanType == nil && sim.latest.commitmentInfo == nil)
    #expect(sim.info.commitmentInfo == nil && sim.info.renewalBillingPlanType == nil)
    // The upgraded payment is marked and refunded for its unused days (Apple: a prorated refund
    // "for the unused portion of the commitment's current period").
    let upgraded = change.transactions.first { $0.isUpgraded == true }
    #expect(upgraded?.commitmentInfo?.billingPeriodNumber == 2)
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.latest.productId == "pass.premium.monthly")
    #expect(sim.latest.commitmentInfo == nil)
  }

  @Test func aDowngradeWaitsForTheCommitmentToEndThenRenewsBilledUpFront() {
    var sim = committed()
    sim.next(); sim.next()
    sim.plan(.downgrade(toProductId: "pass.basic.monthly"))
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_PREF / DOWNGRADE")
    #expect(sim.info.autoRenewProductId == "pass.premium.annual")
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewProductId == "pass.basic.monthly")
    #expect(sim.info.commitmentInfo?.commitmentRenewalBillingPlanType == .billedUpfront)
    #expect(sim.info.commitmentInfo?.commitmentRenewalPrice == 4990)
    // Choosing the current plan again cancels it; choosing the downgrade again brings it back.
    sim.plan(.downgrade(toProductId: "pass.premium.annual"))
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_PREF")
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewProductId == "pass.premium.annual")
    #expect(sim.info.commitmentInfo?.commitmentRenewalPrice == 113_880)
    sim.plan(.downgrade(toProductId: "pass.basic.monthly"))
    #expect(sim.info.commitmentInfo?.commitmentAutoRenewProductId == "pass.basic.monthly")
    for n in 4...12 {
      sim.next()
      #expect(sim.latest.productId == "pass.premium.annual")
      #expect(payment(sim) == n)
    }
    #expect(sim.info.autoRenewProductId == "pass.basic.monthly")
    #expect(sim.info.renewalBillingPlanType == .billedUpfront)
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.now == Sim.at("2027-03-01T00:00:00Z"))
    #expect(sim.latest.productId == "pass.basic.monthly")
    #expect(sim.latest.billingPlanType == .billedUpfront)
    #expect(sim.latest.commitmentInfo == nil)
    #expect(sim.latest.price == 4990)
    #expect(sim.info.commitmentInfo == nil)
  }
}
