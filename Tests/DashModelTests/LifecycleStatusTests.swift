import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Status, status rule and access verdict, at every boundary ±1 ms.
@Suite("Lifecycle: status and access")
struct LifecycleStatusTests {
  typealias F = LifecycleFixture

  func report(_ subscriber: String = F.subscriber(), extra: String = "", at now: Instant) throws -> LifecycleReport {
    Lifecycle.derive(try F.state(subscriber, extra: extra), at: now)
  }

  @Test func activeUntilTheLastMillisecondBeforeExpiresDate() throws {
    let expires = F.at(F.expires)
    let before = try report(at: expires - .millisecond)
    #expect(before.status == .active)
    #expect(before.statusRule == "expiresDate 2026-05-01 10:00:00 UTC is after now")
    #expect(before.access == AccessVerdict(.yes, rule: "subscribed"))

    let at = try report(at: expires)
    #expect(at.status == .expired)
    #expect(at.statusRule == "expiresDate 2026-05-01 10:00:00 UTC passed and no renewal is pending")
    #expect(at.access == AccessVerdict(.no, rule: "expired 2026-05-01 10:00:00 UTC"))
  }

  /// Grace: expiresDate passed, gracePeriodExpiresDate 16 days later, retry flag on.
  let inGrace = F.subscriber(renewal: F.renewal(#""isInBillingRetryPeriod": true, "gracePeriodExpiresDate": \#(F.ms("2026-05-17 10:00"))"#))

  @Test func graceEntitlesUntilGracePeriodExpiresDate() throws {
    let graceEnd = F.at("2026-05-17 10:00")
    let start = try report(inGrace, at: F.at(F.expires))
    #expect(start.status == .billingGracePeriod)
    #expect(start.access == AccessVerdict(.yes, rule: "in billing grace period until 2026-05-17 10:00 UTC"))
    #expect(start.grace == GraceInfo(expiresDate: graceEnd, remaining: .days(16)))

    let last = try report(inGrace, at: graceEnd - .millisecond)
    #expect(last.status == .billingGracePeriod)
    #expect(last.grace?.remaining == .millisecond)
    #expect(last.statusRule == "expiresDate 2026-05-01 10:00 UTC passed; gracePeriodExpiresDate 2026-05-17 10:00:00 UTC is after now")

    let after = try report(inGrace, at: graceEnd)
    #expect(after.status == .billingRetry)
    #expect(after.grace == nil)
    #expect(after.access.level == .no)
  }

  @Test func graceAndRetryShareTheSixtyDayRetryWindow() throws {
    let expires = F.at(F.expires)
    let window = BillingRetryInfo(since: expires, retryUntil: F.at("2026-06-30 10:00"), accessDuringRetry: .none)
    #expect(try report(inGrace, at: expires).billingRetry == window)
    #expect(try report(inGrace, at: F.at("2026-06-01 00:00")).billingRetry == window)
    #expect(try report(at: expires - .millisecond).billingRetry == nil)
  }

  @Test func billingRetryIsNotEntitledByDefault() throws {
    let r = try report(inGrace, at: F.at("2026-05-20 00:00"))
    #expect(r.status == .billingRetry)
    #expect(r.statusRule == "expiresDate 2026-05-01 10:00 UTC passed and isInBillingRetryPeriod is true")
    #expect(r.access == AccessVerdict(.no, rule: "in billing retry, not in grace (policy billingRetryAccess: none)"))
    #expect(r.renewal == .none)
  }

  /// After billing retry ends, expiresDate is the renewal that was never paid, not the day
  /// access ended; the access rule says so instead of "expired <that date>".
  @Test func aBillingExpirySaysTheRenewalWasNeverPaid() throws {
    let state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("expired-billing.json").path)
    let r = Lifecycle.derive(state, at: try Simulator.clock(state))
    #expect(r.access == AccessVerdict(.no, rule: "expired: the renewal due 2026-02-09 08:10 UTC was never paid"))
    let voluntary = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("expired-voluntary.json").path)
    #expect(Lifecycle.derive(voluntary, at: try Simulator.clock(voluntary)).access.rule == "expired 2026-03-08 13:00 UTC")
  }

  @Test func billingRetryAccessIsLimitedWhenThePolicySaysSo() throws {
    let r = try report(inGrace, extra: #""policy": {"billingRetryAccess": "limited"},"#, at: F.at("2026-05-20 00:00"))
    #expect(r.access.level == .limited)
    #expect(r.access.rule == "in billing retry, not in grace: limited access (policy billingRetryAccess: limited)")
    #expect(r.billingRetry?.accessDuringRetry == .limited)
  }

  @Test func theLimitedPolicyDoesNotChangeGraceOrExpiry() throws {
    let limited = #""policy": {"billingRetryAccess": "limited"},"#
    #expect(try report(inGrace, extra: limited, at: F.at("2026-05-10 00:00")).access.level == .yes)
    #expect(try report(extra: limited, at: F.at(F.expires)).access.level == .no)
  }

  @Test func revokedAtRevocationDateWhateverElseSays() throws {
    let refunded = F.subscriber(transaction: F.transaction(#""revocationDate": \#(F.ms("2026-04-10 12:00")), "revocationReason": 1, "revocationType": "REFUND_FULL""#))
    let before = try report(refunded, at: F.at("2026-04-10 12:00") - .millisecond)
    #expect(before.status == .active)
    #expect(before.revocation == nil)

    let at = try report(refunded, at: F.at("2026-04-10 12:00"))
    #expect(at.status == .revoked)
    #expect(at.statusRule == "revocationDate 2026-04-10 12:00:00 UTC: refunded or revoked")
    #expect(at.access == AccessVerdict(.no, rule: "refunded/revoked 2026-04-10 12:00:00 UTC"))
    #expect(at.renewal == .none)
    #expect(at.revocation == RevocationInfo(
      date: F.at("2026-04-10 12:00"), reason: .issueInApp, type: .refundFull,
      text: "refunded 2026-04-10 12:00:00 UTC: full refund; refunded due to an issue in the app"))
  }

  @Test func proratedRefundShowsItsPercentage() throws {
    let t = F.transaction(#""revocationDate": \#(F.ms("2026-04-10 12:00")), "revocationReason": 0, "revocationType": "REFUND_PRORATED", "revocationPercentage": 37500"#)
    let r = try report(F.subscriber(transaction: t), at: F.at("2026-04-11 00:00"))
    #expect(r.revocation?.text == "refunded 2026-04-10 12:00 UTC: prorated refund (37.5%); refunded for another reason")
  }

  @Test func familySharingIsNamedInTheAccessRule() throws {
    let shared = F.subscriber(transaction: F.transaction(#""webOrderLineItemId": "2000000100000002""#)
      .replacingOccurrences(of: "PURCHASED", with: "FAMILY_SHARED"))
    let active = try report(shared, at: F.at("2026-04-15 00:00"))
    #expect(active.ownership == .familyShared)
    #expect(active.access.rule == "subscribed; shared through Family Sharing")

    let revoked = F.subscriber(transaction: F.transaction(#""revocationDate": \#(F.ms("2026-04-10 12:00")), "revocationType": "FAMILY_REVOKE""#)
      .replacingOccurrences(of: "PURCHASED", with: "FAMILY_SHARED"))
    let r = try report(revoked, at: F.at("2026-04-15 00:00"))
    #expect(r.access.rule == "Family Sharing revoked 2026-04-10 12:00 UTC; shared through Family Sharing")
    #expect(r.revocation?.text == "Family Sharing access revoked 2026-04-10 12:00 UTC: Family Sharing revoked")
  }

  @Test func someoneWhoNeverSubscribedHasNoStatusAndNoAccess() throws {
    let r = try report(#""askToBuy": {"productId": "plus.monthly", "requestedDate": \#(F.ms("2026-05-01 09:00"))}"#, at: F.at("2026-05-01 10:00"))
    #expect(r.status == nil)
    #expect(r.statusRule == "no transaction: never subscribed")
    #expect(r.access == AccessVerdict(.no, rule: "never subscribed"))
    #expect(r.renewal == .none)
    #expect(r.winBack.whyNone == "never subscribed")
    #expect(r.askToBuy?.productId == "plus.monthly")
    #expect(r.group?.id == "G1")
    #expect(r.warnings.isEmpty)
  }

  @Test func aDeclinedAskToBuyIsNotReported() throws {
    let r = try report(#""askToBuy": {"productId": "plus.monthly", "requestedDate": \#(F.ms("2026-05-01 09:00")), "status": "declined"}"#, at: F.at("2026-05-01 10:00"))
    #expect(r.askToBuy == nil)
  }

  @Test func reportNamesProductGroupAndEnvironment() throws {
    let r = try report(at: F.at("2026-04-15 00:00"))
    #expect(r.product?.productID == "pro.monthly")
    #expect(r.group?.name == "Test Pass")
    #expect(r.environment == .sandbox)
    #expect(r.ownership == .purchased)
    #expect(r.now == F.at("2026-04-15 00:00"))
    #expect(r.warnings.isEmpty)
  }
}
