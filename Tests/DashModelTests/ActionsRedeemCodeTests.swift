import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

@Suite("Actions: redeeming offer codes")
struct ActionsRedeemCodeTests {
  typealias F = ActionsFixture
  static let march = utc("2026-03-01T09:30:00Z")

  @Test func aNewCustomerStartsASubscriptionWithTheCode() throws {
    let now = Self.march
    let state = F.newCustomer(documentExtras: #""simulation": { "bundleId": "com.example.birds" },"#)
    let change = try applied(.redeemOfferCode("  spring26 "), to: state, at: now)

    #expect(change.transactions.count == 1)
    let t = try #require(change.latest)
    #expect(change.transactions[0] == t)
    let expires = utc("2026-04-01T09:30:00Z")
    // The customer's appTransactionId, in the transaction and the renewal info.
    let app = AppTransactionIdentity.derived(bundleId: "com.example.birds", originalTransactionId: "2000000000000000")
    #expect(fields(t.json) == fields("""
      { "transactionId": "2000000000000000", "webOrderLineItemId": "3000000000000000",
        "originalTransactionId": "2000000000000000", "originalPurchaseDate": \(Int64(now.ms)),
        "bundleId": "com.example.birds", "productId": "pass.premium", "subscriptionGroupIdentifier": "6F3A93AB",
        "purchaseDate": \(Int64(now.ms)), "expiresDate": \(Int64(expires.ms)), "signedDate": \(Int64(now.ms)),
        "transactionReason": "PURCHASE", "price": 990, "currency": "USD", "quantity": 1,
        "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED",
        "environment": "Xcode", "storefront": "USA",
        "offerType": 3, "offerIdentifier": "premium-intro", "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P3M",
        "appTransactionId": "\(app)" }
      """))
    // Two more pay-as-you-go periods at 0.99: the next renewal still carries the offer.
    #expect(fields(try #require(change.renewal).json) == fields("""
      { "originalTransactionId": "2000000000000000", "productId": "pass.premium", "autoRenewProductId": "pass.premium",
        "autoRenewStatus": 1, "renewalDate": \(Int64(expires.ms)), "renewalPrice": 990, "currency": "USD",
        "offerType": 3, "offerIdentifier": "premium-intro", "offerDiscountType": "PAY_AS_YOU_GO", "offerPeriod": "P3M",
        "environment": "Xcode", "recentSubscriptionStartDate": \(Int64(now.ms)), "signedDate": \(Int64(now.ms)),
        "appTransactionId": "\(app)" }
      """))
    #expect(change.state.subscriber.offerPeriodsRemaining == 2)
    #expect(change.state.subscriber.redeemedOfferCodes == [
      RedeemedCode(code: "SPRING26", offerReference: "premium-intro", productId: "pass.premium", redeemedDate: now)
    ])
    #expect(change.state.document.offerCodes[0].redemptionCount == 1)

    let n = try #require(change.notification)
    // Since 23 January 2024 a new customer's redemption is SUBSCRIBED / INITIAL_BUY, offerType 3.
    #expect(n.notificationType == .subscribed)
    #expect(n.subtype == .initialBuy)
    #expect(n.status == .active)
    #expect(n.productId == "pass.premium")
    // Someone who never subscribed has no ids yet: the empty identity.
    #expect(n.notificationUUID == Identifiers.notificationUUID(seed: 0, subscriber: "|", sequence: 0, at: now))
    #expect(Lifecycle.status(of: change.state.subscriber, at: now).status == .active)
    #expect(change.message == "Subscribed to Premium Pass with offer code premium-intro: 0.99 USD per 1 month for 3 periods, then 11.99 USD per 1 month; first period ends 2026-04-01 09:30 UTC.")
  }

  @Test func anExpiredCustomerResubscribesAsTheSameSubscription() throws {
    let lapsed = F.state(autoRenew: 0, renewalExtras: #", "expirationIntent": 1"#)
    let change = try applied(.redeemOfferCode("SPRING26"), to: lapsed, at: Self.march)
    let t = try #require(change.latest)
    #expect(t.originalTransactionId == "1000000111")
    #expect(t.originalPurchaseDate == Instant(ms: 1735732800000))
    #expect(t.environment == .sandbox)
    #expect(t.bundleId == "com.example.birds")
    #expect(t.source["appTransactionId"] == .string("704000000000000001"))
    #expect(t.offerType == .offerCode)
    let r = try #require(change.renewal)
    #expect(r.expirationIntent == nil)
    #expect(r.autoRenewStatus == .on)
    // A lapse shorter than 60 days does not restart the series.
    #expect(r.recentSubscriptionStartDate == Instant(ms: 1735732800000))
    #expect(change.notification?.subtype == .resubscribe)

    let later = utc("2026-05-01T00:00:00Z")  // 80 days after the lapse
    #expect(try applied(.redeemOfferCode("SPRING26"), to: lapsed, at: later).renewal?.recentSubscriptionStartDate == later)
  }

  @Test func aCodeForAHigherLevelUpgradesNowWithTheOffer() throws {
    let now = F.midPeriod
    let change = try applied(.redeemOfferCode("loyal"), to: F.state(), at: now)
    #expect(change.transactions.count == 2)
    #expect(change.transactions[0].isUpgraded == true)
    #expect(change.transactions[0].source["proratedRefundMilli"] == .int(4120))
    let t = try #require(change.latest)
    #expect(t.productId == "pass.premium")
    #expect(t.price == 0)
    #expect(t.expiresDate == now + .weeks(1))
    #expect(t.offerType == .offerCode)
    #expect(t.offerIdentifier == "premium-loyal")
    #expect(t.offerDiscountType == .freeTrial)
    #expect(t.offerPeriod == "P1W")
    #expect(t.transactionReason == .purchase)
    let r = try #require(change.renewal)
    #expect(r.renewalPrice == 11990)
    #expect(r.offerType == nil)
    #expect(r.renewalDate == now + .weeks(1))
    #expect(change.state.subscriber.offerPeriodsRemaining == 0)
    #expect(change.notification?.notificationType == .offerRedeemed)
    #expect(change.notification?.subtype == .upgrade)
    #expect(change.state.document.offerCodes[1].redemptionCount == 1)
  }

  @Test func aCodeForTheCurrentProductAppliesAtTheNextRenewal() throws {
    let before = F.state()
    let change = try applied(.redeemOfferCode("fam-aaaa-1111"), to: before, at: F.midPeriod)
    #expect(change.transactions.isEmpty)
    #expect(change.latest == before.subscriber.latestTransaction)
    var expected = before.subscriber.renewalInfo!
    expected.offerType = .offerCode
    expected.offerIdentifier = "family-any"
    expected.offerDiscountType = .freeTrial
    expected.offerPeriod = "P1W"
    expected.renewalPrice = 0
    expected.signedDate = F.midPeriod
    #expect(change.renewal == expected)
    #expect(change.state.subscriber.offerPeriodsRemaining == nil)
    #expect(change.state.document.offerCodes[2].redeemedCodes == ["FAM-AAAA-1111"])
    #expect(change.state.subscriber.redeemedOfferCodes.map(\.code) == ["FAM-AAAA-1111"])
    let n = try #require(change.notification)
    #expect(n.notificationType == .offerRedeemed)
    #expect(n.subtype == nil)
    #expect(n.status == .active)
    let preview = try Actions.preview(.redeemOfferCode("FAM-AAAA-1111"), in: before, at: F.midPeriod).get()
    #expect(preview.effectiveDate == F.expires)
  }

  @Test func aCodeForALowerLevelSwitchesWithTheOfferAtTheNextRenewal() throws {
    let change = try applied(.redeemOfferCode("SMALLER"), to: F.state(), at: F.midPeriod)
    #expect(change.transactions.isEmpty)
    let r = try #require(change.renewal)
    #expect(r.productId == "pass.family")
    #expect(r.autoRenewProductId == "pass.individual")
    #expect(r.offerType == .offerCode)
    #expect(r.offerIdentifier == "individual-cut")
    #expect(r.offerDiscountType == .payUpFront)
    #expect(r.offerPeriod == "P3M")
    #expect(r.renewalPrice == 2990)
    #expect(change.notification?.notificationType == .offerRedeemed)
    #expect(change.notification?.subtype == .downgrade)

    // Redeeming while auto-renew is off is a request to renew with the code: it turns back on.
    let cancelled = try applied(.redeemOfferCode("SMALLER"), to: F.state(autoRenew: 0), at: F.midPeriod)
    #expect(cancelled.renewal?.autoRenewStatus == .on)
    #expect(cancelled.message.hasSuffix("auto-renew turned back on."))
  }

  @Test func typingMistakesAndUnknownCodes() {
    #expect(refusal(.redeemOfferCode(" \t "), in: F.state(), at: F.midPeriod) == .emptyCode)
    #expect(refusal(.redeemOfferCode("nope"), in: F.state(), at: F.midPeriod) == .unknownCode("NOPE"))
    #expect(refusal(.redeemOfferCode("GHOST"), in: F.state(), at: F.midPeriod)
      == .codeOfferMissing("GHOST", offerReference: "no-such-offer", productId: "pass.premium"))
  }

  @Test func aCustomCodeExpiresAtItsExpiresDate() throws {
    let end = Instant(ms: 1782864000000)
    #expect(refusal(.redeemOfferCode("SPRING26"), in: F.newCustomer(), at: end - .millisecond) == nil)
    #expect(refusal(.redeemOfferCode("SPRING26"), in: F.newCustomer(), at: end) == .codeExpired("SPRING26", end))
    #expect(ActionError.codeExpired("SPRING26", end).message == "Offer code SPRING26 has expired.")
  }

  @Test func aCustomCodeStopsAtItsRedemptionLimit() throws {
    var state = F.newCustomer()
    state.document.offerCodes[0].redemptionCount = 1
    let last = try applied(.redeemOfferCode("SPRING26"), to: state, at: Self.march)
    #expect(last.state.document.offerCodes[0].redemptionCount == 2)
    state.document.offerCodes[0].redemptionCount = 2
    #expect(refusal(.redeemOfferCode("SPRING26"), in: state, at: Self.march) == .codeLimitReached("SPRING26", limit: 2))
  }

  @Test func oneTimeCodesWorkOnceAndOffersOncePerCustomer() throws {
    let first = try applied(.redeemOfferCode("FAM-AAAA-1111"), to: F.state(), at: F.midPeriod)
    #expect(refusal(.redeemOfferCode("FAM-AAAA-1111"), in: first.state, at: F.midPeriod) == .codeAlreadyUsed("FAM-AAAA-1111"))
    // Another code of the same offer: Apple allows one redemption per offer per customer.
    #expect(refusal(.redeemOfferCode("FAM-BBBB-2222"), in: first.state, at: F.midPeriod) == .codeAlreadyRedeemedBySubscriber("FAM-BBBB-2222"))
    // A code someone else used is gone for everyone; the batch's other codes still work.
    var used = F.state()
    used.document.offerCodes[2].redeemedCodes = ["FAM-AAAA-1111"]
    #expect(refusal(.redeemOfferCode("FAM-AAAA-1111"), in: used, at: F.midPeriod) == .codeAlreadyUsed("FAM-AAAA-1111"))
    #expect(refusal(.redeemOfferCode("FAM-BBBB-2222"), in: used, at: F.midPeriod) == nil)
    // The same custom code twice by the same customer.
    let subscribed = try applied(.redeemOfferCode("SPRING26"), to: F.newCustomer(), at: Self.march)
    #expect(refusal(.redeemOfferCode("SPRING26"), in: subscribed.state, at: Self.march) == .codeAlreadyRedeemedBySubscriber("SPRING26"))
  }

  /// A new subscriber in a free-trial introductory offer for Premium, and SPRING26 (premium-intro)
  /// made a new-customer-only code that does or does not stack with introductory offers.
  static func inIntroductoryTrial(stackable: Bool) -> SubscriptionState {
    let catalog = F.catalog.replacingOccurrences(
      of: #""eligibility": ["new", "expired"], "isStackable": false"#,
      with: #""eligibility": ["new"], "isStackable": \#(stackable)"#)
    return F.state(product: "pass.premium", price: 0, renewalPrice: 11990,
                   transactionExtras: #", "offerType": 1, "offerDiscountType": "FREE_TRIAL", "offerPeriod": "P1M""#, catalogText: catalog)
  }

  @Test func aStackableNewCustomerCodeIsRedeemableOnTopOfAnIntroductoryOffer() throws {
    let change = try applied(.redeemOfferCode("SPRING26"), to: Self.inIntroductoryTrial(stackable: true), at: F.midPeriod)
    // It waits for the trial to end: the next renewal carries the code's offer.
    let r = try #require(change.renewal)
    #expect(r.offerType == .offerCode && r.offerIdentifier == "premium-intro")
    #expect(change.latest?.offerType == .introductory)
    #expect(change.notification?.notificationType == .offerRedeemed)

    #expect(refusal(.redeemOfferCode("SPRING26"), in: Self.inIntroductoryTrial(stackable: false), at: F.midPeriod)
      == .codeNotEligible("SPRING26", reason: "it is for new customers; this one is an existing subscriber (active) in an introductory offer, which this code does not stack with (isStackable is false)"))
    // Stacking is for subscribers still in their introductory offer, not for any existing one.
    let catalog = F.catalog.replacingOccurrences(of: #""eligibility": ["new", "expired"], "isStackable": false"#, with: #""eligibility": ["new"], "isStackable": true"#)
    #expect(refusal(.redeemOfferCode("SPRING26"), in: F.state(product: "pass.premium", price: 11990, catalogText: catalog), at: F.midPeriod)
      == .codeNotEligible("SPRING26", reason: "it is for new customers; this one is an existing subscriber (active)"))
  }

  @Test func eligibilityFollowsTheCodeOffersCustomerTypes() {
    #expect(refusal(.redeemOfferCode("LOYAL"), in: F.newCustomer(), at: Self.march)
      == .codeNotEligible("LOYAL", reason: "it is for existing (active) customers; this one is new (never subscribed)"))
    #expect(refusal(.redeemOfferCode("SPRING26"), in: F.state(), at: F.midPeriod)
      == .codeNotEligible("SPRING26", reason: "it is for new or expired customers; this one is an existing subscriber (active)"))
    #expect(refusal(.redeemOfferCode("LOYAL"), in: F.state(autoRenew: 0), at: Self.march)
      == .codeNotEligible("LOYAL", reason: "it is for existing (active) customers; this one is expired (lapsed)"))
    // Grace and billing retry count as existing customers.
    let retry = F.state(renewalExtras: #", "isInBillingRetryPeriod": true"#)
    #expect(refusal(.redeemOfferCode("FAM-AAAA-1111"), in: retry, at: Self.march) == nil)
    // A higher-level code in billing retry would be an immediate upgrade, which needs access.
    guard case .notActive? = refusal(.redeemOfferCode("LOYAL"), in: retry, at: Self.march) else {
      Issue.record("expected notActive for an upgrade code in billing retry")
      return
    }
  }

  @Test func codesForAnotherGroupRevokedSubscriptionsAndQueuedOffers() throws {
    #expect(refusal(.redeemOfferCode("ELSEWHERE"), in: F.state(), at: F.midPeriod) == .codeWrongGroup("ELSEWHERE"))
    // A new customer has no group yet: the code's group becomes theirs.
    let other = try applied(.redeemOfferCode("ELSEWHERE"), to: F.newCustomer(), at: Self.march)
    #expect(other.latest?.subscriptionGroupIdentifier == "OTHER")
    // A refunded customer has lapsed: a code for lapsed customers resubscribes them.
    let revoked = F.state(transactionExtras: #", "revocationDate": 1768046400000, "revocationReason": 0"#)
    let back = try Actions.apply(.redeemOfferCode("FAM-AAAA-1111"), to: revoked, at: F.midPeriod, timing: TimeRate.realTime).get()
    #expect(back.notifications.map(\.label) == ["SUBSCRIBED / RESUBSCRIBE"])
    #expect(back.state.subscriber.latestTransaction?.revocationDate == nil)
    let queued = F.state(renewalExtras: #", "offerType": 3, "offerIdentifier": "family-any""#)
    #expect(refusal(.redeemOfferCode("FAM-AAAA-1111"), in: queued, at: F.midPeriod) == .offerAlreadyQueued("family-any"))
  }
}
