import Testing

@testable import DashModel
@testable import CoreValues

/// Issue 21 §4: `gracePeriodExpiresDate` once grace is over, and renewal-date extensions during
/// grace, as Apple's pages say. StoreKit's RenewalInfo.gracePeriodExpirationDate: "This value is
/// nil if the subscription is not in a billing grace period" (the app reads the same signed renewal
/// info the server gets). SubscriptionExtensionIneligibleError: "Subscriptions in a grace period
/// state with an expiration date in the past" are not eligible.
@Suite struct GraceEndBoundaryTests {
  /// A monthly subscriber with 16 days of grace whose first renewal (1 June 2026) fails.
  func failing() -> (Sim, due: Instant) {
    var sim = Sim(start: "2026-05-01T00:00:00Z", settings: [("gracePeriod", .string("16d"))])
    sim.buy("pass.premium.monthly")
    sim.run(.failNextRenewal)
    return (sim, sim.latest.expiresDate!)
  }

  @Test func theGraceDateIsInRenewalInfoUntilGraceEndsAndGoneFromTheMillisecondItEnds() {
    var (sim, due) = failing()
    let grace = due + .days(16)
    sim.advance(to: grace - .ms(1))
    #expect(sim.status == .billingGracePeriod)
    #expect(sim.info.gracePeriodExpiresDate == grace)
    sim.advance(to: grace)
    #expect(sim.labels.last == "GRACE_PERIOD_EXPIRED")
    #expect(sim.status == .billingRetry)
    #expect(sim.info.gracePeriodExpiresDate == nil)
    #expect(sim.info.isInBillingRetryPeriod == true)
    // The simulation still knows grace is over, so the retry runs out on its own day.
    #expect(sim.settings.billingIssue?.graceExpired == true)
    sim.next()
    #expect(sim.labels.last == "EXPIRED / BILLING_RETRY")
    #expect(sim.info.gracePeriodExpiresDate == nil)
  }

  @Test func cancellingInGraceEndsAtTheGraceDateWithNoGraceDateLeft() {
    var (sim, due) = failing()
    sim.advance(to: due + .days(2))
    sim.plan(.setAutoRenew(false))
    #expect(sim.info.gracePeriodExpiresDate == due + .days(16))
    sim.advance(to: due + .days(16))
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(sim.info.gracePeriodExpiresDate == nil)
  }

  func extensionRefusal(_ sim: Sim, at: Instant) -> ActionError? {
    switch Actions.apply(.extendRenewalDate(days: 7, reason: .customerSatisfaction), to: sim.state, at: at, timing: try! Simulator.rules(sim.state).rate) {
    case .success: return nil
    case .failure(let e): return e
    }
  }

  @Test func anExtensionIsPossibleUpToTheFailedRenewalAndRefusedThroughGraceAndRetry() {
    var (sim, due) = failing()
    sim.advance(to: due - .ms(1))
    #expect(extensionRefusal(sim, at: due - .ms(1)) == nil)
    sim.advance(to: due)
    #expect(sim.status == .billingGracePeriod)
    guard case .extensionRefused(.ineligible(let atFailure))? = extensionRefusal(sim, at: due) else {
      Issue.record("extended in grace at the failed renewal"); return
    }
    #expect(atFailure.contains("grace"))
    let grace = due + .days(16)
    sim.advance(to: grace - .ms(1))
    guard case .extensionRefused(.ineligible(let lastGraceMs))? = extensionRefusal(sim, at: grace - .ms(1)) else {
      Issue.record("extended in the last millisecond of grace"); return
    }
    #expect(lastGraceMs.contains("grace"))
    sim.advance(to: grace)
    guard case .extensionRefused(.ineligible(let retry))? = extensionRefusal(sim, at: grace) else {
      Issue.record("extended in billing retry"); return
    }
    #expect(retry.contains("billing retry"))
  }
}
