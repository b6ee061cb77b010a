import Testing

@testable import DashModel
@testable import CoreValues

/// Failed renewals: the WWDC22 billing-retry flow, grace lengths, the 60-day retry boundary and
/// how recovery picks the new period's dates.
@Suite struct SimulationBillingTests {
  /// A monthly subscriber bought on Jan 10 whose second renewal (Mar 10) fails, 16-day grace.
  func failingSecondRenewal(grace: JSON = .int(16)) -> Sim {
    var sim = Sim(start: "2026-01-10T08:00:00Z", settings: [
      ("gracePeriod", grace), ("renewalOutcomes", .array([.string("ok"), .string("fail")])),
    ])
    sim.buy("pass.premium.monthly")
    sim.next()
    sim.next()
    return sim
  }

  @Test func wwdc22FlowEndsExpiredAfterBillingRetry() {
    var sim = failingSecondRenewal()
    sim.next()
    sim.next()
    #expect(sim.labels == [
      "SUBSCRIBED / INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW / GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
      "EXPIRED / BILLING_RETRY",
    ])
    #expect(sim.statuses == [1, 1, 4, 3, 2])
    #expect(sim.log.map(\.signedDate) == [
      Sim.at("2026-01-10T08:00:00Z"), Sim.at("2026-02-10T08:00:00Z"), Sim.at("2026-03-10T08:00:00Z"),
      Sim.at("2026-03-26T08:00:00Z"), Sim.at("2026-05-09T08:00:00Z"),
    ])
    #expect(sim.info.expirationIntent == .billingError)
    #expect(sim.info.isInBillingRetryPeriod == false)
    #expect(sim.info.autoRenewStatus == .off)
    #expect(sim.nextEvent == nil)
  }

  @Test func wwdc22FlowRecoveredEndsWithBillingRecovery() {
    var sim = failingSecondRenewal()
    sim.next()
    sim.advance(by: .days(5))
    sim.run(.resolveBillingIssue)
    #expect(sim.labels == [
      "SUBSCRIBED / INITIAL_BUY", "DID_RENEW", "DID_FAIL_TO_RENEW / GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
      "DID_RENEW / BILLING_RECOVERY",
    ])
    #expect(sim.statuses == [1, 1, 4, 3, 1])
    #expect(sim.info.isInBillingRetryPeriod == nil)
    #expect(sim.settings.billingIssue == nil)
  }

  @Test func withoutGraceTheFailureHasNoSubtypeAndNoAccess() {
    let sim = failingSecondRenewal(grace: .bool(false))
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW")
    #expect(sim.status == .billingRetry)
    #expect(sim.info.gracePeriodExpiresDate == nil)
    #expect(sim.info.isInBillingRetryPeriod == true)
    #expect(sim.nextEvent == SimEvent(date: Sim.at("2026-05-09T08:00:00Z"), kind: .billingRetryEnd))
  }

  @Test(arguments: [3, 16, 28])
  func productionGraceLengthsAreDays(days: Int) {
    let sim = failingSecondRenewal(grace: .int(days))
    #expect(sim.info.gracePeriodExpiresDate == Sim.at("2026-03-10T08:00:00Z") + .days(Double(days)))
  }

  @Test func storeKitRuleIsSixDaysWeeklyAndSixteenOtherwise() {
    var weekly = Sim(start: "2026-01-01T00:00:00Z", settings: [("gracePeriod", .string("storekit")), ("failRenewals", .bool(true))])
    weekly.buy("pass.basic.weekly")
    weekly.next()
    #expect(weekly.info.gracePeriodExpiresDate == Sim.at("2026-01-08T00:00:00Z") + .days(6))

    var monthly = Sim(start: "2026-01-01T00:00:00Z", settings: [("gracePeriod", .bool(true)), ("failRenewals", .bool(true))])
    monthly.buy("pass.premium.monthly")
    monthly.next()
    #expect(monthly.info.gracePeriodExpiresDate == Sim.at("2026-02-01T00:00:00Z") + .days(16))
  }

  @Test func catalogGraceSettingTurnsTheStoreKitRuleOn() {
    var sim = Sim(settings: [("failRenewals", .bool(true))]) { $0.settings.billingGracePeriodEnabled = true }
    sim.buy("pass.premium.monthly")
    sim.next()
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW / GRACE_PERIOD")
    #expect(sim.info.gracePeriodExpiresDate == Sim.at("2026-02-01T00:00:00Z") + .days(16))
  }

  @Test func scaledRateUsesTheTableForGraceAndRetry() {
    // monthlyRenewalEveryFiveMinutes: month 5 min, weekly grace 2 min 34 s, other 2 min 30 s, retry 10 min.
    var monthly = Sim(start: "2026-01-01T00:00:00Z", settings: [
      ("timeRate", .string("monthlyRenewalEveryFiveMinutes")), ("gracePeriod", .string("storekit")), ("failRenewals", .bool(true)),
    ])
    monthly.buy("pass.premium.monthly")
    #expect(monthly.latest.expiresDate == Sim.at("2026-01-01T00:05:00Z"))
    monthly.next()
    #expect(monthly.info.gracePeriodExpiresDate == Sim.at("2026-01-01T00:07:30Z"))
    #expect(monthly.settings.billingIssue?.retryExpiresDate == Sim.at("2026-01-01T00:15:00Z"))

    var weekly = Sim(start: "2026-01-01T00:00:00Z", settings: [
      ("timeRate", .string("monthlyRenewalEveryFiveMinutes")), ("gracePeriod", .string("storekit")), ("failRenewals", .bool(true)),
    ])
    weekly.buy("pass.basic.weekly")
    #expect(weekly.latest.expiresDate == Sim.at("2026-01-01T00:03:00Z"))
    weekly.next()
    #expect(weekly.info.gracePeriodExpiresDate == Sim.at("2026-01-01T00:05:34Z"))
  }

  @Test func productionGraceShrinksWithTheRate() {
    // 16 days of a 30-day month at "a month every five minutes" is 16/30 × 5 min = 2 min 40 s.
    var sim = Sim(start: "2026-01-01T00:00:00Z", settings: [
      ("timeRate", .string("monthlyRenewalEveryFiveMinutes")), ("gracePeriod", .string("16d")), ("failRenewals", .bool(true)),
    ])
    sim.buy("pass.premium.monthly")
    sim.next()
    #expect(sim.info.gracePeriodExpiresDate == Sim.at("2026-01-01T00:07:40Z"))
  }

  @Test func fixedRateGraceEqualsThePeriodAndRetryTwice() {
    var sim = Sim(start: "2026-01-01T00:00:00Z", settings: [
      ("timeRate", .string("oneRenewalEveryTenSeconds")), ("gracePeriod", .string("storekit")), ("failRenewals", .bool(true)),
    ])
    sim.buy("pass.premium.annual")
    sim.next()
    #expect(sim.info.gracePeriodExpiresDate == Sim.at("2026-01-01T00:00:20Z"))
    #expect(sim.settings.billingIssue?.retryExpiresDate == Sim.at("2026-01-01T00:00:30Z"))
  }

  @Test func graceEndsExactlyAtItsDate() {
    var sim = failingSecondRenewal()
    let grace = sim.info.gracePeriodExpiresDate!
    sim.advance(to: grace - .millisecond)
    #expect(sim.status == .billingGracePeriod)
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW / GRACE_PERIOD")
    sim.advance(to: grace)
    #expect(sim.status == .billingRetry)
    #expect(sim.labels.last == "GRACE_PERIOD_EXPIRED")
  }

  @Test func billingRetryEndsSixtyDaysAfterTheFailedRenewal() {
    var sim = failingSecondRenewal()
    let end = Sim.at("2026-03-10T08:00:00Z") + .days(60)
    sim.advance(to: end - .millisecond)
    #expect(sim.status == .billingRetry)
    #expect(sim.labels.last == "GRACE_PERIOD_EXPIRED")
    sim.advance(to: end)
    #expect(sim.labels.last == "EXPIRED / BILLING_RETRY")
    #expect(sim.log.last?.signedDate == end)
    #expect(sim.status == .expired)
  }

  @Test func recoveryInGraceKeepsTheBillingDate() {
    var sim = failingSecondRenewal()
    sim.advance(to: "2026-03-13T17:00:00Z")
    sim.run(.resolveBillingIssue)
    #expect(sim.labels.last == "DID_RENEW / BILLING_RECOVERY")
    #expect(sim.latest.purchaseDate == Sim.at("2026-03-13T17:00:00Z"))
    #expect(sim.latest.expiresDate == Sim.at("2026-04-10T08:00:00Z"))
    #expect(sim.info.gracePeriodExpiresDate == nil)
  }

  @Test func recoveryInRetryStartsANewPeriodAtTheRecovery() {
    var sim = failingSecondRenewal()
    sim.advance(to: "2026-04-02T17:00:00Z")
    sim.run(.resolveBillingIssue)
    #expect(sim.latest.purchaseDate == Sim.at("2026-04-02T17:00:00Z"))
    #expect(sim.latest.expiresDate == Sim.at("2026-05-02T17:00:00Z"))
  }

  /// Paid time (win-back eligibility counts it) after a recovery: in grace the customer paid for
  /// the whole period from its renewal date; in billing retry service had stopped, so the period
  /// and the paid time start at the payment.
  @Test func paidTimeAfterARecoveryInGraceCountsFromThePeriodsStart() {
    var sim = failingSecondRenewal()
    let before = sim.state.historySummary.paidMillis
    let periodStart = sim.latest.expiresDate!
    sim.advance(to: "2026-03-13T17:00:00Z")
    sim.run(.resolveBillingIssue)
    let added = sim.state.historySummary.paidMillis - before
    #expect(added == (sim.latest.expiresDate! - periodStart).ms)

    var retry = failingSecondRenewal()
    let retryBefore = retry.state.historySummary.paidMillis
    retry.advance(to: "2026-04-02T17:00:00Z")
    retry.run(.resolveBillingIssue)
    #expect(retry.state.historySummary.paidMillis - retryBefore == (retry.latest.expiresDate! - retry.latest.purchaseDate!).ms)
  }

  /// A month's lapse, then a resubscription: two periods after the old end, not one, so the
  /// lapse is not counted as paid.
  @Test func aLapseOfAWholePeriodIsNotPaidTime() {
    var s = HistorySummary()
    let jan = Sim.at("2026-01-10T08:00:00Z"), feb = Sim.at("2026-02-10T08:00:00Z")
    let mar = Sim.at("2026-03-10T08:00:00Z"), apr = Sim.at("2026-04-10T08:00:00Z")
    func paid(_ from: Instant, _ to: Instant) -> TransactionPayload {
      var t = TransactionPayload()
      t.purchaseDate = from
      t.expiresDate = to
      return t
    }
    s.add(paid(jan, feb))
    s.add(paid(mar, apr))  // resubscribed a month after it lapsed
    #expect(s.paidMillis == (feb - jan).ms + (apr - mar).ms)
    var grace = HistorySummary()
    grace.add(paid(jan, feb))
    grace.add(paid(feb + .days(3), mar))  // recovered in grace: the renewal date kept
    #expect(grace.paidMillis == (mar - jan).ms)
  }

  @Test func recoveryAtTheGraceDateIsARecoveryInRetry() {
    var sim = failingSecondRenewal()
    let grace = sim.info.gracePeriodExpiresDate!
    sim.advance(to: grace)
    sim.run(.resolveBillingIssue)
    #expect(sim.labels.suffix(2) == ["GRACE_PERIOD_EXPIRED", "DID_RENEW / BILLING_RECOVERY"])
    #expect(sim.latest.expiresDate == ISOPeriod.oneMonth.adding(to: grace))
  }

  @Test func resolvingWithoutABillingIssueIsRefused() {
    var sim = Sim()
    sim.buy("pass.premium.monthly")
    #expect(sim.refusal(.resolveBillingIssue)?.message.contains("no billing issue") == true)
  }

  @Test func paidToPaidOnlyGraceSkipsAFreeTrialConversion() {
    var sim = Sim(settings: [("gracePeriod", .int(16)), ("graceRenewalType", .string("PAID_TO_PAID_ONLY")), ("failRenewals", .bool(true))])
    sim.buy("pass.premium.monthly", intro: true)
    #expect(sim.latest.offerDiscountType == .freeTrial)
    sim.next()
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW")
    #expect(sim.info.gracePeriodExpiresDate == nil)
  }

  @Test func billingRetryFromAFileWithoutSimulationRecordStillEnds() {
    // A state copied from a real payload: in retry, grace over, no `simulation.billingIssue`.
    var sim = failingSecondRenewal()
    sim.next()
    sim.configure { $0.billingIssue = nil }
    #expect(sim.state.document.simulation?["billingIssue"] == nil)
    #expect(sim.nextEvent == SimEvent(date: Sim.at("2026-05-09T08:00:00Z"), kind: .billingRetryEnd))
    sim.next()
    #expect(sim.labels.suffix(2) == ["GRACE_PERIOD_EXPIRED", "EXPIRED / BILLING_RETRY"])
  }

  /// A downgrade while a renewal is being retried cannot wait for the renewal date (it has
  /// passed): it takes effect with the retry that succeeds, and says so.
  @Test func aDowngradeInGraceTakesEffectAtBillingRecovery() throws {
    var sim = failingSecondRenewal()
    sim.advance(by: .days(2))
    let preview = try Actions.preview(.downgrade(toProductId: "pass.basic.monthly"), in: sim.state, at: sim.now).get()
    #expect(preview.waitsForBillingRecovery)
    #expect(preview.summary.contains("when the overdue renewal (due 2026-03-10 08:00 UTC) succeeds"), "\(preview.summary)")
    sim.plan(.downgrade(toProductId: "pass.basic.monthly"))
    #expect(sim.latest.productId == "pass.premium.monthly")
    sim.run(.resolveBillingIssue)
    #expect(sim.labels.last == "DID_RENEW / BILLING_RECOVERY")
    #expect(sim.latest.productId == "pass.basic.monthly")
  }
}
