import Testing

@testable import DashModel
@testable import CoreValues

/// What happens at the next renewal: outlook, pending plan changes, price increases, offers, expiry.
@Suite("Lifecycle: renewal outlook, changes, offers, expiry")
struct LifecycleRenewalTests {
  typealias F = LifecycleFixture
  let midPeriod = "2026-04-15 00:00"

  func report(transaction t: String = F.transaction(), renewal r: String, at now: String? = nil) throws -> LifecycleReport {
    try F.report(F.subscriber(transaction: t, renewal: r), at: now ?? midPeriod)
  }

  @Test func renewsIntoTheSameProductAtTheCatalogPrice() throws {
    let r = try report(renewal: F.renewal())
    #expect(r.renewal == .renews(date: F.at(F.expires), productId: "pro.monthly", priceMilli: 9990, currency: "USD"))
    #expect(r.pendingChange == nil)
    #expect(r.expiry == nil)
  }

  @Test func renewalPriceAndCurrencyFromRenewalInfoWin() throws {
    let r = try report(renewal: F.renewal(#""renewalPrice": 8990, "currency": "EUR""#))
    #expect(r.renewal == .renews(date: F.at(F.expires), productId: "pro.monthly", priceMilli: 8990, currency: "EUR"))
  }

  @Test func autoRenewOffEndsAccessAtExpiresDateWithAnUpcomingExpiry() throws {
    let r = try report(renewal: F.renewal(autoRenew: 0))
    #expect(r.renewal == .expiresAutoRenewOff(date: F.at(F.expires)))
    #expect(r.expiry == ExpiryInfo(date: F.at(F.expires), intent: nil, reason: "auto-renew is off: access ends at expiresDate (not expired yet)"))
    #expect(r.access.level == .yes)
  }

  @Test func aLowerLevelAutoRenewProductIsAPendingDowngrade() throws {
    let r = try report(renewal: F.renewal(autoRenewProductId: "basic.monthly"))
    #expect(r.pendingChange == PendingChange(kind: .downgrade, toProductId: "basic.monthly", effectiveDate: F.at(F.expires)))
    #expect(r.renewal == .switches(date: F.at(F.expires), toProductId: "basic.monthly"))
    #expect(r.warnings.isEmpty)
  }

  @Test func theSameLevelWithAnotherDurationIsAPendingCrossgrade() throws {
    let r = try report(renewal: F.renewal(autoRenewProductId: "pro.annual"))
    #expect(r.pendingChange?.kind == .crossgrade)
    #expect(r.renewal == .switches(date: F.at(F.expires), toProductId: "pro.annual"))
  }

  @Test func aHigherLevelAutoRenewProductIsCalledAnUpgradeAndFlagged() throws {
    let t = F.transaction(productId: "plus.monthly")
    let r = try report(transaction: t, renewal: F.renewal(autoRenewProductId: "pro.monthly").replacingOccurrences(of: #""productId": "pro.monthly""#, with: #""productId": "plus.monthly""#))
    #expect(r.pendingChange?.kind == .upgrade)
    #expect(r.warnings == [#"autoRenewProductId "pro.monthly" is a higher level than "plus.monthly": an upgrade takes effect at once, not at renewal"#])
  }

  @Test func anUnknownTargetIsAPendingDowngradeInApplesWords() throws {
    let r = try report(renewal: F.renewal(autoRenewProductId: "gone.monthly"))
    #expect(r.pendingChange?.kind == .downgrade)
    #expect(r.warnings == [#"autoRenewProductId "gone.monthly" is not in the catalog"#])
  }

  @Test func noPendingChangeWhenAutoRenewIsOff() throws {
    let r = try report(renewal: F.renewal(autoRenew: 0, autoRenewProductId: "basic.monthly"))
    #expect(r.pendingChange == nil)
    #expect(r.renewal == .expiresAutoRenewOff(date: F.at(F.expires)))
  }

  @Test func aPriceIncreaseAwaitingConsentBlocksTheRenewal() throws {
    let r = try report(renewal: F.renewal(#""priceIncreaseStatus": 0, "renewalPrice": 12990, "currency": "USD""#))
    #expect(r.renewal == .awaitsPriceConsent(date: F.at(F.expires), newPriceMilli: 12990))
    #expect(r.priceIncrease == PriceIncreaseInfo(status: .customerHasNotResponded, newPriceMilli: 12990, currency: "USD", effectiveDate: F.at(F.expires)))
  }

  @Test func priceConsentOutranksAPendingDowngrade() throws {
    let r = try report(renewal: F.renewal(#""priceIncreaseStatus": 0, "renewalPrice": 3990"#, autoRenewProductId: "basic.monthly"))
    #expect(r.renewal == .awaitsPriceConsent(date: F.at(F.expires), newPriceMilli: 3990))
    #expect(r.pendingChange?.kind == .downgrade)
  }

  @Test func anAcceptedPriceIncreaseRenewsAtTheNewPrice() throws {
    let r = try report(renewal: F.renewal(#""priceIncreaseStatus": 1, "renewalPrice": 12990"#))
    #expect(r.renewal == .renews(date: F.at(F.expires), productId: "pro.monthly", priceMilli: 12990, currency: "USD"))
    #expect(r.priceIncrease?.status == .customerConsented)
  }

  @Test func inGraceTheOverdueRenewalIsStillTheOutlook() throws {
    let r = try report(renewal: F.renewal(#""isInBillingRetryPeriod": true, "gracePeriodExpiresDate": \#(F.ms("2026-05-17 10:00"))"#), at: "2026-05-02 00:00")
    #expect(r.status == .billingGracePeriod)
    #expect(r.renewal == .renews(date: F.at(F.expires), productId: "pro.monthly", priceMilli: 9990, currency: "USD"))
  }

  @Test func nothingRenewsOnceExpired() throws {
    let r = try report(renewal: F.renewal(#""priceIncreaseStatus": 0, "offerType": 2, "offerIdentifier": "loyal""#, autoRenewProductId: "basic.monthly"), at: "2026-05-02 00:00")
    #expect(r.renewal == .none)
    #expect(r.pendingChange == nil)
    #expect(r.priceIncrease == nil)
    #expect(r.offerQueued == nil)
  }

  @Test func theOfferInEffectComesFromTheLatestTransaction() throws {
    let t = F.transaction(#""offerType": 3, "offerIdentifier": "Spring 2026", "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P3M""#)
    let r = try F.report(F.subscriber(transaction: t) + #", "offerPeriodsRemaining": 1"#, at: midPeriod)
    #expect(r.offerInEffect == OfferInfo(
      type: .offerCode, identifier: "Spring 2026", discountType: .payAsYouGo, period: "P3M", periodsRemaining: 1,
      text: "offer code Spring 2026 (pay as you go, 3 months, 1 period left)"))
  }

  @Test func anIntroductoryTrialHasNoIdentifier() throws {
    let t = F.transaction(#""offerType": 1, "offerDiscountType": "FREE_TRIAL", "offerPeriod": "P1W""#)
    let r = try report(transaction: t, renewal: F.renewal())
    #expect(r.offerInEffect?.text == "introductory offer (free trial, 1 week)")
    #expect(r.offerInEffect?.periodsRemaining == nil)
  }

  @Test func theQueuedOfferComesFromRenewalInfo() throws {
    let r = try report(renewal: F.renewal(#""offerType": 3, "offerIdentifier": "Spring 2026", "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P3M""#))
    #expect(r.offerQueued?.text == "offer code Spring 2026 (pay as you go, 3 months)")
    #expect(r.offerInEffect == nil)
  }

  @Test(arguments: [
    (#""expirationIntent": 1"#, 0, "customer cancelled (auto-renew turned off)"),
    (#""expirationIntent": 2"#, 0, "billing error"),
    (#""expirationIntent": 3"#, 0, "did not consent to a price increase"),
    (#""expirationIntent": 4"#, 0, "product not available at renewal"),
    (#""expirationIntent": 9"#, 0, "unknown (9)"),
    ("", 0, "auto-renew was off"),
    ("", 1, "expired without renewal (no expirationIntent)"),
  ])
  func expiryExplainsWhy(renewalFields: String, autoRenew: Int, reason: String) throws {
    let r = try report(renewal: F.renewal(renewalFields, autoRenew: autoRenew), at: F.expires)
    #expect(r.status == .expired)
    #expect(r.expiry?.date == F.at(F.expires))
    #expect(r.expiry?.reason == reason)
  }
}
