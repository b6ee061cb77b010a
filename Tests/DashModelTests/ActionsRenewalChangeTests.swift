import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

@Suite("Actions: downgrade, cancelling a pending change, auto-renew")
struct ActionsRenewalChangeTests {
  typealias F = ActionsFixture

  @Test func downgradeChangesOnlyWhatRenewsAndKeepsTheCurrentPlan() throws {
    let before = F.state()
    let now = F.midPeriod
    let change = try applied(.downgrade(toProductId: "pass.individual"), to: before, at: now)

    #expect(change.transactions.isEmpty)
    #expect(change.latest == before.subscriber.latestTransaction)
    var expected = before.subscriber.renewalInfo!
    expected.autoRenewProductId = "pass.individual"
    expected.renewalPrice = 4990
    expected.signedDate = now
    #expect(change.renewal == expected)

    let n = try #require(change.notification)
    #expect(n.notificationType == .didChangeRenewalPref)
    #expect(n.subtype == .downgrade)
    #expect(n.status == .active)
    #expect(n.productId == "pass.individual")
    #expect(n.signedDate == now)
    #expect(n.notificationUUID == Identifiers.notificationUUID(seed: 0, subscriber: "1000000111|", sequence: 0, at: now))

    let preview = try Actions.preview(.downgrade(toProductId: "pass.individual"), in: before, at: now).get()
    #expect(preview.effectiveDate == F.expires)
    #expect(preview.summary == "Downgrade to Individual Pass at the next renewal on 2026-02-10 12:00 UTC for 4.99 USD; Family Pass stays until then.")
  }

  @Test func choosingTheCurrentProductAgainCancelsThePendingDowngrade() throws {
    let pending = F.state(autoRenewProduct: "pass.individual", renewalPrice: 4990)
    let change = try applied(.downgrade(toProductId: "pass.family"), to: pending, at: F.midPeriod)
    #expect(change.renewal?.autoRenewProductId == "pass.family")
    #expect(change.renewal?.renewalPrice == 7990)
    let n = try #require(change.notification)
    #expect(n.notificationType == .didChangeRenewalPref)
    #expect(n.subtype == nil)
    #expect(n.productId == "pass.family")
    // The same choice made from the upgrade or crossgrade menu means the same thing.
    #expect(try applied(.upgrade(toProductId: "pass.family"), to: pending, at: F.midPeriod).renewal == change.renewal)
    #expect(try applied(.crossgrade(toProductId: "pass.family"), to: pending, at: F.midPeriod).renewal == change.renewal)
  }

  @Test func aPendingChangeIsNotScheduledTwiceAndCanBeRedirected() throws {
    let pending = F.state(autoRenewProduct: "pass.individual")
    #expect(refusal(.downgrade(toProductId: "pass.individual"), in: pending, at: F.midPeriod) == .changeAlreadyPending("pass.individual"))
    let premium = F.state(product: "pass.premium", price: 11990, autoRenewProduct: "pass.individual")
    let redirected = try applied(.downgrade(toProductId: "pass.family"), to: premium, at: F.midPeriod)
    #expect(redirected.renewal?.autoRenewProductId == "pass.family")
    #expect(redirected.notification?.subtype == .downgrade)
  }

  @Test func aDowngradeDropsTheOfferQueuedForTheProductThatNoLongerRenews() throws {
    let queued = F.state(renewalExtras: """
      , "offerType": 3, "offerIdentifier": "family-any", "offerDiscountType": "FREE_TRIAL", "offerPeriod": "P1W"
      """)
    let change = try applied(.downgrade(toProductId: "pass.individual"), to: queued, at: F.midPeriod)
    #expect(change.renewal?.offerType == nil)
    #expect(change.renewal?.offerIdentifier == nil)
    #expect(change.renewal?.offerDiscountType == nil)
    #expect(change.renewal?.offerPeriod == nil)
    #expect(change.renewal.map { fields($0.json)["offerType"] } == .some(nil))  // gone from the written file too
  }

  @Test func downgradeRefusals() {
    let now = F.midPeriod
    let bottom = F.state(product: "pass.individual", price: 4990)
    #expect(refusal(.downgrade(toProductId: "pass.family"), in: bottom, at: now) == .alreadyBottomLevel)
    #expect(refusal(.downgrade(toProductId: "pass.premium"), in: F.state(), at: now) == .notLowerLevel(productId: "pass.premium"))
    #expect(refusal(.downgrade(toProductId: "pass.duo"), in: F.state(), at: now) == .notLowerLevel(productId: "pass.duo"))
    #expect(refusal(.downgrade(toProductId: "pass.family"), in: F.state(), at: now) == .alreadyOnProduct("pass.family"))
    guard case .notActive(let why)? = refusal(.downgrade(toProductId: "pass.individual"), in: F.state(autoRenew: 0), at: F.expires) else {
      Issue.record("expected notActive once expired")
      return
    }
    #expect(why.contains("nothing renews"))
  }

  /// In the App Store, choosing another plan after cancelling resubscribes to it: auto-renew
  /// turns back on with the new product. Two fields changed, so two notifications, same instant.
  @Test func downgradeAfterCancellingTurnsAutoRenewBackOnWithTheLowerPlan() throws {
    let cancelled = F.state(autoRenew: 0)
    let now = F.midPeriod
    let preview = try Actions.preview(.downgrade(toProductId: "pass.individual"), in: cancelled, at: now).get()
    #expect(preview.summary == "Downgrade to Individual Pass at the next renewal on 2026-02-10 12:00 UTC for 4.99 USD; Family Pass stays until then; auto-renew turns back on.")
    #expect(preview.effectiveDate == F.expires)

    let change = try applied(.downgrade(toProductId: "pass.individual"), to: cancelled, at: now)
    var expected = cancelled.subscriber.renewalInfo!
    expected.autoRenewStatus = .on
    expected.autoRenewProductId = "pass.individual"
    expected.renewalPrice = 4990
    expected.signedDate = now
    #expect(change.renewal == expected)
    #expect(change.transactions.isEmpty)
    #expect(change.notifications.map(\.label) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED", "DID_CHANGE_RENEWAL_PREF / DOWNGRADE"])
    #expect(change.notifications.map(\.status) == [.active, .active])
    #expect(change.notifications.map(\.signedDate) == [now, now])
    #expect(change.notifications.map(\.productId) == ["pass.family", "pass.individual"])
    #expect(Set(change.notifications.map(\.notificationUUID)).count == 2)
    #expect(change.message == "Individual Pass starts at the next renewal on 2026-02-10 12:00 UTC for 4.99 USD; Family Pass stays until then; auto-renew turned back on.")
  }

  @Test func crossgradeToAnotherDurationAfterCancellingAlsoResubscribes() throws {
    let change = try applied(.crossgrade(toProductId: "pass.family.annual"), to: F.state(autoRenew: 0), at: F.midPeriod)
    #expect(change.renewal?.autoRenewStatus == .on)
    #expect(change.renewal?.autoRenewProductId == "pass.family.annual")
    #expect(change.notifications.map(\.label) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED", "DID_CHANGE_RENEWAL_PREF / DOWNGRADE"])
  }

  @Test func choosingTheProductThatWasPendingBeforeCancellingResubscribesToIt() throws {
    // Downgrade scheduled, then auto-renew turned off: nothing is pending any more.
    let cancelled = F.state(autoRenew: 0, autoRenewProduct: "pass.individual", renewalPrice: 4990)
    let change = try applied(.downgrade(toProductId: "pass.individual"), to: cancelled, at: F.midPeriod)
    #expect(change.renewal?.autoRenewStatus == .on)
    #expect(change.notifications.count == 2)
  }

  @Test func resubscribingToAnotherPlanNeedsARenewalToCome() {
    let cancelled = F.state(autoRenew: 0)
    // One millisecond before expiresDate the period still runs; at it, the subscription lapsed.
    #expect(refusal(.downgrade(toProductId: "pass.individual"), in: cancelled, at: F.expires - .millisecond) == nil)
    guard case .notActive(let why)? = refusal(.downgrade(toProductId: "pass.individual"), in: cancelled, at: F.expires) else {
      Issue.record("expected notActive once expired")
      return
    }
    #expect(why.contains("nothing renews"))
    let revoked = F.state(autoRenew: 0, transactionExtras: #", "revocationDate": \#(Int64(F.purchase.ms) + 1000), "revocationReason": 0"#)
    #expect(refusal(.downgrade(toProductId: "pass.individual"), in: revoked, at: F.midPeriod) == .revoked)
  }

  @Test func theResubscribedLowerPlanRenewsAtTheEndOfThePeriod() {
    var sim = Sim(start: "2026-05-01T00:00:00Z")
    sim.buy("pass.premium.monthly")
    sim.plan(.setAutoRenew(false))
    sim.advance(to: "2026-05-10T00:00:00Z")
    sim.plan(.downgrade(toProductId: "pass.basic.monthly"))
    sim.advance(to: "2026-06-01T00:00:00Z")
    #expect(sim.labels.suffix(3) == ["DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED", "DID_CHANGE_RENEWAL_PREF / DOWNGRADE", "DID_RENEW"])
    #expect(sim.latest.productId == "pass.basic.monthly")
    #expect(sim.latest.price == 4990)
  }

  @Test func downgradeInBillingRetryAppliesToTheRecoveredRenewal() throws {
    let retry = F.state(renewalExtras: #", "isInBillingRetryPeriod": true"#)
    let now = utc("2026-02-20T00:00:00Z")
    let change = try applied(.downgrade(toProductId: "pass.individual"), to: retry, at: now)
    #expect(change.notification?.status == .billingRetry)
    #expect(change.renewal?.autoRenewProductId == "pass.individual")
  }

  @Test func turningAutoRenewOffAndOn() throws {
    let now = F.midPeriod
    let off = try applied(.setAutoRenew(false), to: F.state(), at: now)
    var expected = F.state().subscriber.renewalInfo!
    expected.autoRenewStatus = .off
    expected.signedDate = now
    #expect(off.renewal == expected)
    #expect(off.renewal?.expirationIntent == nil)  // set only when it actually expires
    #expect(off.transactions.isEmpty)
    let n = try #require(off.notification)
    #expect(n.notificationType == .didChangeRenewalStatus)
    #expect(n.subtype == .autoRenewDisabled)
    #expect(n.status == .active)
    #expect(n.productId == "pass.family")
    #expect(off.message == "Turned auto-renew off: Family Pass ends on 2026-02-10 12:00 UTC instead of renewing.")

    let on = try applied(.setAutoRenew(true), to: off.state, at: now + .hours(1))
    #expect(on.renewal?.autoRenewStatus == .on)
    #expect(on.notification?.subtype == .autoRenewEnabled)
    #expect(on.message == "Turned auto-renew on: Family Pass renews on 2026-02-10 12:00 UTC for 7.99 USD.")
  }

  @Test func autoRenewRefusesNoOpsAndSubscriptionsWithNothingToRenew() {
    #expect(refusal(.setAutoRenew(true), in: F.state(), at: F.midPeriod) == .autoRenewAlready(true))
    #expect(refusal(.setAutoRenew(false), in: F.state(autoRenew: 0), at: F.midPeriod) == .autoRenewAlready(false))
    // Boundary: one millisecond before expiresDate it is still active; at expiresDate it has lapsed.
    #expect(refusal(.setAutoRenew(true), in: F.state(autoRenew: 0), at: F.expires - .millisecond) == nil)
    guard case .notActive? = refusal(.setAutoRenew(true), in: F.state(autoRenew: 0), at: F.expires) else {
      Issue.record("expected notActive at expiresDate")
      return
    }
  }
}
