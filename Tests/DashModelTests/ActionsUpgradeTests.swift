import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// The fields of a JSON object, for comparing a whole payload regardless of key order.
func fields(_ json: JSON) -> [String: JSON] {
  guard case .object(let o) = json else { return [:] }
  return Dictionary(uniqueKeysWithValues: o.entries.map { ($0.key, $0.value) })
}

func fields(_ text: String) -> [String: JSON] {
  do { return fields(try JSONParser.parse(Array(text.utf8))) } catch { fatalError("bad expected JSON: \(error)") }
}

@Suite("Actions: upgrade and same-duration crossgrade")
struct ActionsUpgradeTests {
  typealias F = ActionsFixture

  @Test func upgradeMidPeriodStartsANewPaidPeriodWithAProratedRefund() throws {
    let now = F.midPeriod  // Jan 25 12:00, 16 of the period's 31 days unused
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: F.state(), at: now)

    #expect(change.transactions.count == 2)
    let old = change.transactions[0], new = change.transactions[1]
    var expectedOld = F.state().subscriber.latestTransaction!
    expectedOld.isUpgraded = true
    #expect(fields(old.json) == fields(expectedOld.json).merging(["proratedRefundMilli": .int(4120)]) { $1 })
    // 7990 × 16/31 = 4123.87 milliunits → 4.12 USD, kept as 4120 milliunits.
    #expect(fields(new.json) == fields("""
      { "transactionId": "2000000000000001", "webOrderLineItemId": "3000000000000001",
        "originalTransactionId": "1000000111", "originalPurchaseDate": 1735732800000,
        "productId": "pass.premium", "subscriptionGroupIdentifier": "6F3A93AB", "bundleId": "com.example.birds",
        "purchaseDate": \(Int64(now.ms)), "expiresDate": \(Int64(utc("2026-02-25T12:00:00Z").ms)),
        "signedDate": \(Int64(now.ms)), "transactionReason": "PURCHASE", "price": 11990, "currency": "USD",
        "quantity": 1, "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
        "environment": "Sandbox", "storefront": "USA", "storefrontId": "143441",
        "appTransactionId": "704000000000000001" }
      """))
    #expect(change.latest == new)

    var expectedRenewal = F.state().subscriber.renewalInfo!
    expectedRenewal.productId = "pass.premium"
    expectedRenewal.autoRenewProductId = "pass.premium"
    expectedRenewal.renewalDate = utc("2026-02-25T12:00:00Z")
    expectedRenewal.renewalPrice = 11990
    expectedRenewal.signedDate = now
    #expect(change.renewal == expectedRenewal)
    #expect(change.state.subscriber.offerPeriodsRemaining == nil)

    let n = try #require(change.notification)
    #expect(n.notificationType == .didChangeRenewalPref)
    #expect(n.subtype == .upgrade)
    #expect(n.status == .active)
    #expect(n.productId == "pass.premium")
    #expect(n.signedDate == now)
    #expect(n.notificationUUID == Identifiers.notificationUUID(seed: 0, subscriber: "1000000111|", sequence: 0, at: now))
    #expect(n.source["proratedRefundMilli"] == .int(4120))
    #expect(n.summary?.contains("refund 4.12 USD") == true)
    #expect(change.message.contains("Upgraded to Premium Pass now"))

    let preview = try Actions.preview(.upgrade(toProductId: "pass.premium"), in: F.state(), at: now).get()
    #expect(preview.refundMilli == 4120)
    #expect(preview.effectiveDate == now)
    #expect(preview.summary == "Upgrade now to Premium Pass for 11.99 USD: refund 4.12 USD for the unused time of Family Pass; new period ends 2026-02-25 12:00 UTC.")
  }

  @Test func upgradeAtThePurchaseInstantRefundsTheWholePrice() throws {
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: F.state(), at: F.purchase)
    #expect(change.transactions[0].source["proratedRefundMilli"] == .int(7990))
  }

  @Test func upgradeOneMillisecondBeforeExpiryRefundsNothingAndAtExpiryIsRefused() throws {
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: F.state(), at: F.expires - .millisecond)
    #expect(change.transactions[0].source["proratedRefundMilli"] == .int(0))
    #expect(change.latest?.purchaseDate == F.expires - .millisecond)
    guard case .notActive(let why)? = refusal(.upgrade(toProductId: "pass.premium"), in: F.state(), at: F.expires) else {
      Issue.record("expected a refusal at expiresDate")
      return
    }
    #expect(why.hasPrefix("expired on 2026-02-10 12:00 UTC"))
  }

  /// KWD has three decimals, so these check the exact-integer rounding at milliunit precision.
  @Test func prorationRoundsHalfUpInExactIntegers() {
    let t0 = Instant(ms: 0)
    func refund(_ price: Int64, _ start: Instant, _ end: Instant, _ at: Instant) -> Int64 {
      Proration.refundMilli(priceMilli: price, purchaseDate: start, expiresDate: end, at: at, currency: "KWD")
    }
    #expect(refund(3, t0, Instant(ms: 2), Instant(ms: 1)) == 2)  // 1.5
    #expect(refund(1, t0, Instant(ms: 3), Instant(ms: 2)) == 0)  // 0.33
    #expect(refund(1, t0, Instant(ms: 3), Instant(ms: 1)) == 1)  // 0.67
    #expect(refund(9990, t0, Instant(ms: 2), Instant(ms: 1)) == 4995)
    // Before the purchase (clock skew) refunds no more than the price; after expiry nothing.
    #expect(refund(9990, Instant(ms: 10), Instant(ms: 20), t0) == 9990)
    #expect(refund(9990, t0, Instant(ms: 20), Instant(ms: 21)) == 0)
    // A year-long, expensive period does not overflow.
    let year = utc("2027-01-01T00:00:00Z")
    #expect(refund(999_999_990, utc("2026-01-01T00:00:00Z"), year, utc("2026-07-02T12:00:00Z")) == 499_999_995)
    // Xcode's fractional milliseconds.
    let xStart = Instant(ms: 1697679936049.7297), xEnd = Instant(ms: 1700358336049.7297)
    #expect(refund(10990, xStart, xEnd, xStart) == 10990)
    // A period of eleven centuries (the loader's whole date range) with a price in yen cannot overflow.
    let (from, to) = (utc("1900-01-01T00:00:00Z"), utc("3000-01-01T00:00:00Z"))
    let half = Instant(ms: (from.ms + to.ms) / 2)
    #expect(Proration.refundMilli(priceMilli: 1_000_000_000, purchaseDate: from, expiresDate: to, at: half, currency: "JPY") == 500_000_000)
    #expect(Proration.refundMilli(priceMilli: 1_000_000_000, purchaseDate: from, expiresDate: to, at: half + .millisecond, currency: "JPY") == 500_000_000)
  }

  /// Refunds are money a customer gets back, so they come in the currency's minor units:
  /// cents for USD and EUR, whole yen and won. The rounding is half up, straight from the exact
  /// fraction of the period left.
  @Test(arguments: [
    ("USD", Int64(9990), 4995.0, Int64(5000)),  // exactly half a cent rounds up
    ("USD", 9990, 4994.999, 4990),  // just under half a cent rounds down (no double rounding via 4.995)
    ("EUR", 7990, 4123.87, 4120),
    ("JPY", 1_200_000, 600_499.0, 600_000),
    ("JPY", 1_200_000, 600_500.0, 601_000),
    ("KRW", 14_900_000, 7_450_000.0, 7_450_000),
  ])
  func prorationRoundsToTheCurrencysMinorUnit(currency: String, price: Int64, exactMilli: Double, expected: Int64) {
    // A period `price` ms long with `exactMilli` ms unused: the exact refund is exactMilli milliunits.
    let start = Instant(ms: 0), end = Instant(ms: Double(price))
    let now = end - Span(ms: exactMilli)
    #expect(Proration.refundMilli(priceMilli: price, purchaseDate: start, expiresDate: end, at: now, currency: currency) == expected)
  }

  @Test func upgradeShowsTheRefundInCentsInThePreviewTheMessageAndTheNotification() throws {
    // The Premium (Annual) upgrade from the review: 7.99 USD × unused share = 2.436 USD exactly
    // would have read "refund 2.436 USD"; a customer is refunded 2.44 USD.
    let now = utc("2026-02-01T01:10:06Z")
    let exact = 7990.0 * (F.expires - now).ms / (F.expires - F.purchase).ms
    #expect(exact > 2435 && exact < 2437)
    let preview = try Actions.preview(.upgrade(toProductId: "pass.premium"), in: F.state(), at: now).get()
    #expect(preview.refundMilli == 2440)
    #expect(preview.summary.contains("refund 2.44 USD for the unused time of Family Pass"))
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: F.state(), at: now)
    #expect(change.message.contains("refund 2.44 USD"))
    #expect(change.notification?.summary?.contains("refund 2.44 USD") == true)
    #expect(change.notification?.source["proratedRefundMilli"] == .int(2440))
    #expect(change.transactions[0].source["proratedRefundMilli"] == .int(2440))
  }

  @Test func upgradeDuringGraceStartsAPaidPeriodAndEndsTheBillingProblem() throws {
    let state = F.state(renewalExtras: """
      , "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": \(Int64(utc("2026-02-26T12:00:00Z").ms))
      """)
    let now = utc("2026-02-12T12:00:00Z")
    #expect(Lifecycle.status(of: state.subscriber, at: now).status == .billingGracePeriod)
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: state, at: now)
    #expect(change.transactions[0].source["proratedRefundMilli"] == .int(0))
    #expect(change.renewal?.isInBillingRetryPeriod == false)
    #expect(change.renewal?.gracePeriodExpiresDate == nil)
    #expect(change.notification?.status == .active)
    #expect(Lifecycle.status(of: change.state.subscriber, at: now).status == .active)
  }

  @Test func aZeroRefundSaysWhyInsteadOfRefundingZero() throws {
    let grace = F.state(renewalExtras: """
      , "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": \(Int64(utc("2026-02-26T12:00:00Z").ms))
      """)
    let now = utc("2026-02-12T12:00:00Z")
    let preview = try Actions.preview(.upgrade(toProductId: "pass.premium"), in: grace, at: now).get()
    #expect(preview.refundMilli == 0)
    #expect(preview.summary == "Upgrade now to Premium Pass for 11.99 USD: no refund (the paid period of Family Pass ended 2026-02-10 12:00 UTC); new period ends 2026-03-12 12:00 UTC.")
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: grace, at: now)
    for text in [change.message, change.notification?.summary ?? ""] {
      #expect(!text.contains("refund 0"), "\(text)")
      #expect(text.contains("no refund (the paid period of Family Pass ended 2026-02-10 12:00 UTC)"), "\(text)")
    }

    // One millisecond before expiry a sliver of time is unused, worth far less than a cent.
    let sliver = try applied(.upgrade(toProductId: "pass.premium"), to: F.state(), at: F.expires - .millisecond)
    #expect(sliver.message.contains("no refund (the unused time of Family Pass is worth less than 0.01 USD)"))
    // A free period (a trial) refunds nothing either, and says so.
    let trial = try applied(.upgrade(toProductId: "pass.premium"), to: F.state(price: 0), at: F.midPeriod)
    #expect(trial.message.contains("no refund (the current period of Family Pass was free)"))
  }

  @Test func upgradeInBillingRetryOrAfterExpiryTellsToResubscribe() {
    let retry = F.state(renewalExtras: #", "isInBillingRetryPeriod": true"#)
    let now = utc("2026-02-12T12:00:00Z")
    guard case .notActive(let why)? = refusal(.upgrade(toProductId: "pass.premium"), in: retry, at: now) else {
      Issue.record("expected notActive")
      return
    }
    #expect(why.contains("billing retry") && why.contains("resubscribe"))
    let expired = F.state(autoRenew: 0)
    guard case .notActive(let why2)? = refusal(.upgrade(toProductId: "pass.premium"), in: expired, at: now) else {
      Issue.record("expected notActive")
      return
    }
    #expect(why2.contains("resubscribe"))
  }

  @Test func upgradeRefusesWhatIsNotAHigherLevelInTheGroup() {
    let now = F.midPeriod
    #expect(refusal(.upgrade(toProductId: "pass.family"), in: F.state(product: "pass.premium", price: 11990), at: now) == .alreadyTopLevel)
    #expect(refusal(.upgrade(toProductId: "pass.individual"), in: F.state(), at: now) == .notHigherLevel(productId: "pass.individual"))
    #expect(refusal(.upgrade(toProductId: "pass.duo"), in: F.state(), at: now) == .notHigherLevel(productId: "pass.duo"))
    #expect(refusal(.upgrade(toProductId: "other.monthly"), in: F.state(), at: now) == .differentGroup(productId: "other.monthly"))
    #expect(refusal(.upgrade(toProductId: "pass.platinum"), in: F.state(), at: now) == .unknownProduct("pass.platinum"))
    #expect(refusal(.upgrade(toProductId: "pass.family"), in: F.state(), at: now) == .alreadyOnProduct("pass.family"))
    #expect(refusal(.upgrade(toProductId: "pass.premium"), in: F.state(product: "pass.gone"), at: now) == .currentProductUnknown("pass.gone"))
  }

  @Test func sameDurationCrossgradeIsImmediateAndReportedAsUpgrade() throws {
    let change = try applied(.crossgrade(toProductId: "pass.duo"), to: F.state(), at: F.midPeriod)
    #expect(change.transactions.map(\.productId) == ["pass.family", "pass.duo"])
    #expect(change.transactions[0].isUpgraded == true)
    #expect(change.latest?.price == 6990)
    #expect(change.latest?.transactionReason == .purchase)
    #expect(change.latest?.expiresDate == utc("2026-02-25T12:00:00Z"))
    #expect(change.renewal?.autoRenewProductId == "pass.duo")
    #expect(change.notification?.notificationType == .didChangeRenewalPref)
    #expect(change.notification?.subtype == .upgrade)
    #expect(change.message.hasPrefix("Crossgraded to Duo Pass now"))
  }

  @Test func differentDurationCrossgradeWaitsForTheRenewalAndIsReportedAsDowngrade() throws {
    let before = F.state()
    let change = try applied(.crossgrade(toProductId: "pass.family.annual"), to: before, at: F.midPeriod)
    #expect(change.transactions.isEmpty)
    #expect(change.latest == before.subscriber.latestTransaction)
    #expect(change.renewal?.productId == "pass.family")
    #expect(change.renewal?.autoRenewProductId == "pass.family.annual")
    #expect(change.renewal?.renewalPrice == 79990)
    #expect(change.notification?.subtype == .downgrade)
    let preview = try Actions.preview(.crossgrade(toProductId: "pass.family.annual"), in: before, at: F.midPeriod).get()
    #expect(preview.effectiveDate == F.expires)
    #expect(preview.refundMilli == nil)
  }

  @Test func crossgradeRefusesOtherLevelsAndLonelyLevels() {
    #expect(refusal(.crossgrade(toProductId: "pass.premium"), in: F.state(), at: F.midPeriod) == .notSameLevel(productId: "pass.premium"))
    #expect(refusal(.crossgrade(toProductId: "pass.family"), in: F.state(product: "pass.individual", price: 4990), at: F.midPeriod) == .noCrossgradeTarget)
  }

  @Test func newPeriodsFollowTheSimulationRate() throws {
    let change = try Actions.apply(.upgrade(toProductId: "pass.premium"), to: F.state(), at: F.midPeriod,
                                   timing: TimeRate.monthlyRenewalEveryFiveMinutes).get()
    #expect(change.latest?.expiresDate == F.midPeriod + .minutes(5))
  }

  @Test func aPeriodThatWouldEndAfterTheYear3000IsRefusedRatherThanWritten() {
    let s = F.state()
    var catalog = s.catalog
    catalog.groups[0].subscriptions[0].period = "P2000Y"  // pass.premium
    let absurd = SubscriptionState(document: s.document, catalog: catalog)
    #expect(refusal(.upgrade(toProductId: "pass.premium"), in: absurd, at: F.midPeriod)
      == .other("A period of P2000Y from 2026-01-25 12:00 UTC would end after the year 3000."))
  }

  @Test func identifiersContinueTheHistoryAndUseTheSimulationSeed() throws {
    let state = F.state(
      subscriberExtras: """
        "transactions": [ { "transactionId": "1", "productId": "pass.family", "purchaseDate": 1735732800000, "expiresDate": 1738411200000 } ],
        "notifications": [ { "notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY" }, { "notificationType": "DID_RENEW" } ],
        """,
      documentExtras: #""simulation": { "seed": 42 },"#)
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: state, at: F.midPeriod)
    #expect(change.latest?.transactionId == Identifiers.transactionId(sequence: 2))
    #expect(change.notification?.notificationUUID == Identifiers.notificationUUID(seed: 42, subscriber: "1000000111|", sequence: 2, at: F.midPeriod))
    #expect(change.notification?.notificationUUID != Identifiers.notificationUUID(seed: 0, subscriber: "1000000111|", sequence: 2, at: F.midPeriod))
  }

  @Test func targetsListEachDirectionWithItsPreview() throws {
    let state = F.state()
    let up = Actions.targets(for: .upgrade, in: state, at: F.midPeriod)
    #expect(up.map(\.product.productID) == ["pass.premium"])
    #expect(up.first?.action == .upgrade(toProductId: "pass.premium"))
    #expect(try up.first?.preview.get().refundMilli == 4120)

    let down = Actions.targets(for: .downgrade, in: state, at: F.midPeriod)
    #expect(down.map(\.product.productID) == ["pass.individual"])
    #expect(try down.first?.preview.get().effectiveDate == F.expires)

    let cross = Actions.targets(for: .crossgrade, in: state, at: F.midPeriod)
    #expect(cross.map(\.product.productID) == ["pass.family.annual", "pass.duo"])
    #expect(try cross[0].preview.get().effectiveDate == F.expires)
    #expect(try cross[1].preview.get().effectiveDate == F.midPeriod)

    // A pending downgrade adds "keep the current plan" to the downgrade list.
    let pending = F.state(autoRenewProduct: "pass.individual")
    let keep = Actions.targets(for: .downgrade, in: pending, at: F.midPeriod)
    #expect(keep.map(\.product.productID) == ["pass.family", "pass.individual"])
    #expect(try keep[0].preview.get().summary.hasPrefix("Keep Family Pass: cancel the pending switch to Individual Pass"))
    #expect(keep[1].preview == .failure(.changeAlreadyPending("pass.individual")))

    // At the top there is nothing to upgrade to; a refused target carries its reason.
    #expect(Actions.targets(for: .upgrade, in: F.state(product: "pass.premium", price: 11990), at: F.midPeriod).isEmpty)
    let retry = F.state(renewalExtras: #", "isInBillingRetryPeriod": true"#)
    guard case .failure(.notActive)? = Actions.targets(for: .upgrade, in: retry, at: utc("2026-02-12T00:00:00Z")).first?.preview else {
      Issue.record("an upgrade target in billing retry should carry the refusal")
      return
    }
    #expect(Actions.targets(for: .upgrade, in: F.newCustomer(), at: F.midPeriod).isEmpty)
  }
}
