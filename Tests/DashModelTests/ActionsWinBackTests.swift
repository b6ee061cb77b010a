import Foundation
import Testing

@testable import DashModel

@Suite("Actions: win-back offers and what no subscription may do")
struct ActionsWinBackTests {
  typealias F = ActionsFixture
  static let may = utc("2026-05-01T08:00:00Z")

  /// Family Pass lapsed on Feb 10 after the customer turned auto-renew off.
  static func churned(eligible: String? = #"["wb-family-3m", "wb-premium-free"]"#) -> SubscriptionState {
    let list = eligible.map { #", "eligibleWinBackOfferIds": \#($0)"# } ?? ""
    return F.state(autoRenew: 0, renewalExtras: #", "expirationIntent": 1"# + list)
  }

  @Test func acceptingAWinBackOfferResumesTheSubscriptionWithIt() throws {
    let now = Self.may
    let change = try applied(.acceptWinBack(offerId: "wb-family-3m"), to: Self.churned(), at: now)
    #expect(change.transactions.count == 1)
    let t = try #require(change.latest)
    #expect(t.transactionId == Identifiers.transactionId(sequence: 0))
    #expect(t.originalTransactionId == "1000000111")
    #expect(t.productId == "pass.family")
    #expect(t.transactionReason == .purchase)
    #expect(t.purchaseDate == now)
    #expect(t.expiresDate == utc("2026-08-01T08:00:00Z"))
    #expect(t.price == 9990)
    #expect(t.offerType == .winBack)
    #expect(t.offerIdentifier == "wb-family-3m")
    #expect(t.offerDiscountType == .payUpFront)
    #expect(t.offerPeriod == "P3M")

    let r = try #require(change.renewal)
    #expect(r.autoRenewStatus == .on)
    #expect(r.expirationIntent == nil)
    #expect(r.eligibleWinBackOfferIds == nil)
    #expect(fields(r.json)["eligibleWinBackOfferIds"] == nil)
    #expect(r.renewalPrice == 7990)
    #expect(r.renewalDate == utc("2026-08-01T08:00:00Z"))
    #expect(r.recentSubscriptionStartDate == now)  // lapsed 80 days: a new series
    #expect(change.state.subscriber.offerPeriodsRemaining == 0)

    let n = try #require(change.notification)
    #expect(n.notificationType == "SUBSCRIBED")
    #expect(n.subtype == "RESUBSCRIBE")
    #expect(n.status == .active)
    #expect(n.productId == "pass.family")
    let preview = try Actions.preview(.acceptWinBack(offerId: "wb-family-3m"), in: Self.churned(), at: now).get()
    #expect(preview.summary == "Resubscribe now to Family Pass with win-back offer wb-family-3m: 9.99 USD up front for 3 months, then 7.99 USD per 1 month; first period ends 2026-08-01 08:00 UTC.")
  }

  @Test func theAppStoresEligibleListDecides() throws {
    let listed = Self.churned(eligible: #"["wb-premium-free"]"#)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: listed, at: Self.may)
      == .winBackNotEligible("wb-family-3m", reason: "not in renewalInfo.eligibleWinBackOfferIds (it lists wb-premium-free)"))
    let premium = try applied(.acceptWinBack(offerId: "wb-premium-free"), to: listed, at: Self.may)
    #expect(premium.latest?.productId == "pass.premium")
    #expect(premium.latest?.price == 0)
    #expect(premium.latest?.offerDiscountType == .freeTrial)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: Self.churned(eligible: "[]"), at: Self.may)
      == .winBackNotEligible("wb-family-3m", reason: "not in renewalInfo.eligibleWinBackOfferIds (it is empty)"))
  }

  @Test func withoutTheListTheOffersGroupDecides() throws {
    let unlisted = Self.churned(eligible: nil)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: unlisted, at: Self.may) == nil)
    #expect(refusal(.acceptWinBack(offerId: "wb-other"), in: unlisted, at: Self.may)
      == .winBackNotEligible("wb-other", reason: "it is for other.monthly, outside the subscriber's group Birds Pass"))
    #expect(refusal(.acceptWinBack(offerId: "wb-nothing"), in: unlisted, at: Self.may) == .unknownWinBack("wb-nothing"))
  }

  @Test func onlyAChurnedCustomerMayAcceptOne() {
    let active = F.state(renewalExtras: #", "eligibleWinBackOfferIds": ["wb-family-3m"]"#)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: active, at: F.expires - .millisecond)
      == .winBackNotEligible("wb-family-3m", reason: "the subscription is active"))
    let grace = F.state(renewalExtras: """
      , "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": \(Int64(utc("2026-02-26T12:00:00Z").ms))
      """)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: grace, at: utc("2026-02-20T00:00:00Z"))
      == .winBackNotEligible("wb-family-3m", reason: "the subscription is in its billing grace period"))
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: grace, at: utc("2026-03-01T00:00:00Z"))
      == .winBackNotEligible("wb-family-3m", reason: "the subscription is in billing retry"))
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: F.newCustomer(), at: Self.may) == .noSubscription)
  }

  @Test func aRevokedSubscriptionRefusesEveryAction() {
    let revoked = F.state(transactionExtras: #", "revocationDate": 1768046400000, "revocationReason": 1"#)
    let actions: [PlanAction] = [
      .upgrade(toProductId: "pass.premium"), .downgrade(toProductId: "pass.individual"), .crossgrade(toProductId: "pass.duo"),
      .redeemOfferCode("LOYAL"), .acceptWinBack(offerId: "wb-family-3m"), .setAutoRenew(false), .setAutoRenew(true),
    ]
    for a in actions { #expect(refusal(a, in: revoked, at: F.midPeriod) == .revoked, "\(a)") }
  }

  @Test func withoutASubscriptionOnlyACodeForNewCustomersWorks() {
    let actions: [PlanAction] = [
      .upgrade(toProductId: "pass.premium"), .downgrade(toProductId: "pass.individual"), .crossgrade(toProductId: "pass.duo"),
      .acceptWinBack(offerId: "wb-family-3m"), .setAutoRenew(true), .setAutoRenew(false),
    ]
    for a in actions { #expect(refusal(a, in: F.newCustomer(), at: F.midPeriod) == .noSubscription, "\(a)") }
    #expect(refusal(.redeemOfferCode("FAM-AAAA-1111"), in: F.newCustomer(), at: F.midPeriod) == nil)
    #expect(Actions.targets(for: .downgrade, in: F.newCustomer(), at: F.midPeriod).isEmpty)
  }

  @Test func everyRefusalReadsAsOneLine() {
    let errors: [ActionError] = [
      .noSubscription, .revoked, .unknownProduct("x"), .differentGroup(productId: "x"), .alreadyOnProduct("x"),
      .notHigherLevel(productId: "x"), .notLowerLevel(productId: "x"), .notSameLevel(productId: "x"), .alreadyTopLevel,
      .alreadyBottomLevel, .noCrossgradeTarget, .notActive("expired"), .autoRenewAlready(true), .emptyCode, .unknownCode("X"),
      .codeExpired("X", Instant(ms: 0)), .codeLimitReached("X", limit: 1), .codeAlreadyUsed("X"),
      .codeAlreadyRedeemedBySubscriber("X"), .codeNotEligible("X", reason: "r"), .codeWrongGroup("X"),
      .winBackNotEligible("o", reason: "r"), .unknownWinBack("o"), .currentProductUnknown("x"), .changeAlreadyPending("x"),
      .autoRenewOff, .codeOfferMissing("X", offerReference: "r", productId: "p"), .offerAlreadyQueued("o"),
    ]
    for e in errors {
      #expect(!e.message.isEmpty && !e.message.contains("\n") && e.message.hasSuffix("."), "\(e)")
    }
  }
}
