import Testing

@testable import DashModel
@testable import CoreValues

/// Cancelling (auto-renew off) while a renewal has failed: Apple retries billing "for 60 days, or
/// until the user resolves their billing issue or cancels their subscription". In grace the
/// customer keeps access until the grace date, so it expires then; in billing retry nothing is
/// paid for, so it expires at once. Turning auto-renew back on before that resumes the retry.
@Suite struct SimulationCancelInBillingIssueTests {
  /// pass.premium.monthly bought Jan 1; the Feb 1 renewal fails into a 16-day grace period
  /// (until Feb 17), billing retry until Apr 2.
  func inGrace() -> Sim {
    var sim = Sim(start: "2026-01-01T00:00:00Z", settings: [
      ("gracePeriod", .string("16d")), ("renewalOutcomes", .array([.string("fail")])),
    ])
    sim.buy("pass.premium.monthly")
    sim.next()
    #expect(sim.labels.last == "DID_FAIL_TO_RENEW / GRACE_PERIOD")
    return sim
  }

  static let graceEnd = Sim.at("2026-02-17T00:00:00Z")
  static let retryEnd = Sim.at("2026-04-02T00:00:00Z")

  @Test func cancellingInGraceKeepsAccessUntilGraceEndsThenExpiresVoluntarily() throws {
    var sim = inGrace()
    sim.advance(by: .days(2))
    let change = try Actions.apply(.setAutoRenew(false), to: sim.state, at: sim.now).get()
    sim.commit(change)
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED")
    #expect(change.message.contains("2026-02-17"))
    #expect(!change.message.contains("ends on 2026-02-01"))
    #expect(sim.nextEvent == SimEvent(date: Self.graceEnd, kind: .expiration))

    sim.advance(to: Self.graceEnd - .millisecond)
    #expect(sim.status == .billingGracePeriod)
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED")
    sim.next()
    #expect(sim.labels.suffix(2) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED", "EXPIRED / VOLUNTARY"])
    #expect(sim.log.last?.signedDate == Self.graceEnd)
    #expect(sim.log.last?.status == .expired)
    #expect(sim.info.expirationIntent == .customerCancelled)
    #expect(sim.info.isInBillingRetryPeriod == false)
    #expect(sim.settings.billingIssue == nil)
    #expect(sim.status == .expired)
  }

  /// The reviewer's script: grace 16d, fail, buy, advance to next event, auto-renew off, advance
  /// to next event twice. No GRACE_PERIOD_EXPIRED, no 60 days of retry, no EXPIRED / BILLING_RETRY.
  @Test func reviewScriptEndsAsCancelledNotAsBillingRetry() {
    var sim = inGrace()
    sim.plan(.setAutoRenew(false))
    sim.next()
    if let event = sim.nextEvent { sim.next(); #expect(event.kind == .winBackEligibility) }
    #expect(!sim.labels.contains("GRACE_PERIOD_EXPIRED"))
    #expect(!sim.labels.contains("EXPIRED / BILLING_RETRY"))
    #expect(sim.labels.filter { $0.hasPrefix("EXPIRED") } == ["EXPIRED / VOLUNTARY"])
    #expect(sim.info.expirationIntent == .customerCancelled)
  }

  @Test func cancellingInBillingRetryExpiresAtOnce() throws {
    var sim = inGrace()
    sim.next()
    #expect(sim.labels.last == "GRACE_PERIOD_EXPIRED")
    sim.advance(by: .days(3))
    // The key press alone, with no simulator step after it: the file is consistent at once.
    let change = try Actions.apply(.setAutoRenew(false), to: sim.state, at: sim.now).get()
    sim.commit(change)
    #expect(change.notifications.map(\.label) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED", "EXPIRED / VOLUNTARY"])
    #expect(change.notifications.map(\.status) == [.billingRetry, .expired])
    #expect(change.notifications.map(\.signedDate) == [Sim.at("2026-02-20T00:00:00Z"), Sim.at("2026-02-20T00:00:00Z")])
    #expect(change.message.contains("billing retry stopped"))
    #expect(!change.message.contains("ends on 2026-02-01"))
    #expect(sim.status == .expired)
    #expect(sim.info.autoRenewStatus == .off)
    #expect(sim.info.expirationIntent == .customerCancelled)
    #expect(sim.info.isInBillingRetryPeriod == false)
    #expect(sim.settings.billingIssue == nil)
    #expect(sim.nextEvent?.kind != .billingRetryEnd)
    // Nothing renews any more: turning auto-renew on is refused (resubscribe by buying).
    #expect(throws: ActionError.self) { try Actions.apply(.setAutoRenew(true), to: sim.state, at: sim.now).get() }
  }

  @Test func autoRenewBackOnInGraceResumesTheRetry() throws {
    var sim = inGrace()
    sim.plan(.setAutoRenew(false))
    sim.advance(to: Self.graceEnd - .millisecond)
    let change = try Actions.apply(.setAutoRenew(true), to: sim.state, at: sim.now).get()
    sim.commit(change)
    #expect(sim.labels.last == "DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED")
    #expect(change.message.contains("retr"))
    #expect(sim.nextEvent == SimEvent(date: Self.graceEnd, kind: .gracePeriodEnd))
    sim.next()
    sim.next()
    #expect(sim.labels.suffix(2) == ["GRACE_PERIOD_EXPIRED", "EXPIRED / BILLING_RETRY"])
    #expect(sim.log.last?.signedDate == Self.retryEnd)
    #expect(sim.info.expirationIntent == .billingError)
  }

  @Test func autoRenewOnAtTheGraceEndIsTooLate() {
    var sim = inGrace()
    sim.plan(.setAutoRenew(false))
    sim.advance(to: Self.graceEnd)
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(throws: ActionError.self) { try Actions.apply(.setAutoRenew(true), to: sim.state, at: sim.now).get() }
  }

  @Test func aScriptedRecoveryDoesNotRenewACancelledSubscription() {
    var sim = Sim(start: "2026-01-01T00:00:00Z", settings: [
      ("gracePeriod", .string("16d")), ("renewalOutcomes", .array([.string("recover-in-grace")])),
    ])
    sim.buy("pass.premium.monthly")
    sim.next()
    sim.plan(.setAutoRenew(false))
    #expect(sim.nextEvent == SimEvent(date: Self.graceEnd, kind: .expiration))
    sim.next()
    #expect(sim.labels.last == "EXPIRED / VOLUNTARY")
    #expect(!sim.labels.contains("DID_RENEW / BILLING_RECOVERY"))
  }

  @Test func resolvingTheBillingIssueAfterCancellingIsRefused() {
    var sim = inGrace()
    sim.plan(.setAutoRenew(false))
    let refusal = sim.refusal(.resolveBillingIssue)
    #expect(refusal?.message.contains("auto-renew is off") == true)
  }
}
