import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Extend a Subscription Renewal Date, with Apple's rules (AD: appstoreserverapi/extend-a-
/// subscription-renewal-date): each refusal is the error Apple's endpoint returns.
@Suite struct ExtendRenewalTests {
  /// A paid monthly subscriber bought on 1 May 2026 (expires 1 June), clock on 11 May.
  func paid() -> Sim {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.advance(by: .days(10))
    return sim
  }

  func refusal(_ sim: Sim, days: Int, reason: ExtendReasonCode = .customerSatisfaction, at: Instant? = nil) -> ActionError? {
    switch Actions.apply(.extendRenewalDate(days: days, reason: reason), to: sim.state, at: at ?? sim.now, timing: try! Simulator.rules(sim.state).rate) {
    case .success: return nil
    case .failure(let e): return e
    }
  }

  @Test func extensionMovesTheExpiryAndRenewalDateAndSendsRenewalExtended() {
    var sim = paid()
    sim.plan(.extendRenewalDate(days: 10, reason: .serviceIssueOrOutage))
    #expect(sim.labels.last == "RENEWAL_EXTENDED")
    #expect(sim.latest.expiresDate == Sim.at("2026-06-11T00:00:00Z"))
    #expect(sim.info.renewalDate == Sim.at("2026-06-11T00:00:00Z"))
    #expect(sim.status == .active)
    let record = sim.settings.renewalExtensions.last
    #expect(record?.days == 10 && record?.reason == .serviceIssueOrOutage)
    #expect(record?.previousExpiresDate == Sim.at("2026-06-01T00:00:00Z"))
    // The next renewal comes at the extended date, and the period after it counts from there.
    sim.next()
    #expect(sim.labels.last == "DID_RENEW")
    #expect(sim.now == Sim.at("2026-06-11T00:00:00Z"))
    #expect(sim.latest.expiresDate == Sim.at("2026-07-11T00:00:00Z"))
  }

  /// A Basic subscriber (no introductory offer) ten days into a paid month.
  func paidBasic() -> Sim {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.basic.monthly")
    sim.advance(by: .days(10))
    return sim
  }

  func upgradeRefund(_ sim: Sim) throws -> Int64? {
    let change = try Actions.apply(.upgrade(toProductId: "pass.premium.monthly"), to: sim.state, at: sim.now,
                                   timing: try Simulator.rules(sim.state).rate).get()
    let upgraded = change.transactions.first { $0.isUpgraded == true }
    guard case .number(let text)? = upgraded?.source[SwitchNow.refundField] else { return nil }
    return Int64(text)
  }

  /// The days an extension adds were free: an upgrade pays back only the unused paid time, the same
  /// as without the extension, and nothing once the paid time is over.
  @Test func anUpgradeAfterAnExtensionRefundsOnlyUnusedPaidTime() throws {
    let plain = paidBasic()
    let without = try #require(try upgradeRefund(plain))
    #expect(without > 0)
    var extended = paidBasic()
    extended.plan(.extendRenewalDate(days: 90, reason: .customerSatisfaction))
    #expect(try upgradeRefund(extended) == without)
    let paidUntil = try #require(extended.settings.renewalExtensions.last?.previousExpiresDate)
    extended.advance(to: paidUntil + .days(5))
    #expect(try upgradeRefund(extended) == 0)
  }

  @Test func daysOutsideOneToNinetyAreInvalidExtendByDays() {
    let sim = paid()
    #expect(refusal(sim, days: 0) == .extensionRefused(.invalidExtendByDays(0)))
    #expect(refusal(sim, days: 91) == .extensionRefused(.invalidExtendByDays(91)))
    #expect(refusal(sim, days: 1) == nil)
    #expect(refusal(sim, days: 90) == nil)
    #expect(ActionError.extensionRefused(.invalidExtendByDays(91)).message.hasPrefix("InvalidExtendByDaysError (4000009)"))
  }

  @Test func reasonCodesOutsideZeroToThreeAreInvalidExtendReasonCode() {
    #expect(throws: ActionError.extensionRefused(.invalidExtendReasonCode(4))) { try ExtendReasonCode.parse(4) }
    #expect((try? ExtendReasonCode.parse(3)) == .serviceIssueOrOutage)
  }

  @Test func aThirdExtensionWithin365DaysIsSubscriptionMaxExtensionToTheMillisecond() {
    var sim = paid()
    let first = sim.now
    sim.plan(.extendRenewalDate(days: 90, reason: .other))
    sim.advance(by: .days(30))
    sim.plan(.extendRenewalDate(days: 90, reason: .other))
    let window = first + .days(365)
    // Renewals run on through the year, so only the count can refuse.
    sim.advance(to: window - .ms(1))
    #expect(sim.status == .active)
    #expect(refusal(sim, days: 1, at: window - .ms(1)) == .extensionRefused(.maxExtensions(nextAllowed: window)))
    #expect(refusal(sim, days: 1, at: window) == nil)
    #expect(ActionError.extensionRefused(.maxExtensions(nextAllowed: window)).message.hasPrefix("SubscriptionMaxExtensionError (4030005)"))
  }

  @Test func freeTrialIsIneligible() {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.premium.monthly", intro: true)
    guard case .extensionRefused(.ineligible(let why))? = refusal(sim, days: 7) else {
      Issue.record("a free trial was extended"); return
    }
    #expect(why.contains("free offer period"))
  }

  @Test func expiredIsIneligibleFromItsExpiryToTheMillisecond() {
    var sim = paid()
    sim.plan(.setAutoRenew(false))
    let expiry = sim.latest.expiresDate!
    #expect(refusal(sim, days: 7, at: expiry - .ms(1)) == nil)
    guard case .extensionRefused(.ineligible)? = refusal(sim, days: 7, at: expiry) else {
      Issue.record("an expired subscription was extended"); return
    }
  }

  @Test func billingRetryAndGraceWithAPastExpiryAreIneligible() {
    var sim = Sim(start: "2026-05-01T00:00:00Z", settings: [("gracePeriod", .string("16d"))])
    sim.buy("pass.premium.monthly")
    sim.run(.failNextRenewal)
    sim.next()
    #expect(sim.status == .billingGracePeriod)
    guard case .extensionRefused(.ineligible(let grace))? = refusal(sim, days: 7) else { Issue.record("grace was extended"); return }
    #expect(grace.contains("grace"))
    sim.next()
    #expect(sim.status == .billingRetry)
    guard case .extensionRefused(.ineligible(let retry))? = refusal(sim, days: 7) else { Issue.record("retry was extended"); return }
    #expect(retry.contains("billing retry"))
  }

  @Test func familyMembersAccessIsFamilySharedSubscriptionExtensionIneligible() {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.premium.monthly", family: true)
    #expect(refusal(sim, days: 7) == .extensionRefused(.familyShared))
  }

  @Test func massExtensionLeavesInactiveSubscribersOutAndRecordsFailures() {
    let active = paid()
    var twice = paid()
    twice.plan(.extendRenewalDate(days: 1, reason: .other))
    twice.plan(.extendRenewalDate(days: 1, reason: .other))
    var expired = paid()
    expired.plan(.setAutoRenew(false))
    expired.advance(by: .days(40))
    let rate = TimeRate.realTime
    guard case .extended(let c) = MassExtension.apply(days: 5, reason: .serviceIssueOrOutage, to: active.state, at: active.now, timing: rate) else {
      Issue.record("an active subscriber was not extended"); return
    }
    #expect(c.notifications.map(\.label) == ["RENEWAL_EXTENDED"])
    guard case .failed(let f, let e) = MassExtension.apply(days: 5, reason: .other, to: twice.state, at: twice.now, timing: rate) else {
      Issue.record("a third extension did not fail"); return
    }
    #expect(f.notifications.map(\.label) == ["RENEWAL_EXTENSION / FAILURE"])
    #expect(e.message.contains("SubscriptionMaxExtensionError"))
    guard case .notIncluded = MassExtension.apply(days: 5, reason: .other, to: expired.state, at: expired.now, timing: rate) else {
      Issue.record("an expired subscriber was part of the mass extension"); return
    }
    let summary = MassExtension.summary(succeeded: 1, failed: 1, days: 5, at: active.now)
    #expect(summary.label == "RENEWAL_EXTENSION / SUMMARY")
    #expect(summary.summary == "mass extension by 5 days: 1 succeeded, 1 failed")
  }

  @Test func extensionsRoundTripThroughTheSimulationObject() throws {
    var sim = paid()
    sim.plan(.extendRenewalDate(days: 3, reason: .undeclared))
    let again = try SimulationSettings(of: sim.state)
    #expect(again.renewalExtensions.count == 1)
    #expect(again == sim.settings)
  }
}

/// Issue 10 item 4: Apple's expirationIntent 2 (billing error) is set while billing is retried.
@Suite struct BillingErrorIntentTests {
  @Test func intentTwoFromTheFailedRenewalUntilRecovery() {
    var sim = Sim(start: "2026-05-01T00:00:00Z", settings: [("gracePeriod", .string("16d"))])
    sim.buy("pass.premium.monthly")
    sim.run(.failNextRenewal)
    let due = sim.latest.expiresDate!
    sim.advance(to: due - .ms(1))
    #expect(sim.info.expirationIntent == nil)
    sim.advance(to: due)
    #expect(sim.info.isInBillingRetryPeriod == true)
    #expect(sim.info.expirationIntent == .billingError)
    sim.run(.resolveBillingIssue)
    #expect(sim.info.expirationIntent == nil)
    #expect(sim.info.isInBillingRetryPeriod != true)
  }

  @Test func cancellingDuringRetryExpiresAsCustomerCancelled() {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.run(.failNextRenewal)
    sim.next()
    #expect(sim.info.expirationIntent == .billingError)
    sim.plan(.setAutoRenew(false))
    #expect(sim.info.expirationIntent == .customerCancelled)
  }
}

/// Issue 10 item 7: weekly subscriptions get at most 6 days of production grace.
@Suite struct WeeklyGraceTests {
  @Test func sixteenOrTwentyEightDaysAreSixForWeeklyAndThreeStaysThree() {
    #expect(SimulationRules.productionGrace(.days(16), period: ISOPeriod(weeks: 1)) == .days(6))
    #expect(SimulationRules.productionGrace(.days(28), period: ISOPeriod(weeks: 1)) == .days(6))
    #expect(SimulationRules.productionGrace(.days(3), period: ISOPeriod(weeks: 1)) == .days(3))
    #expect(SimulationRules.productionGrace(.days(16), period: .oneMonth) == .days(16))
  }

  @Test func aWeeklyRenewalFailingWithSixteenDaysOfGraceEndsGraceSixDaysLaterToTheMillisecond() {
    var sim = Sim(start: "2026-05-01T00:00:00Z", settings: [("gracePeriod", .string("16d"))])
    sim.buy("pass.basic.weekly")
    sim.run(.failNextRenewal)
    let due = sim.latest.expiresDate!
    sim.next()
    #expect(sim.info.gracePeriodExpiresDate == due + .days(6))
    sim.advance(to: due + .days(6) - .ms(1))
    #expect(sim.status == .billingGracePeriod)
    sim.advance(to: due + .days(6))
    #expect(sim.status == .billingRetry)
  }
}
