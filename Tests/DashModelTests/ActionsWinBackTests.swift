import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

@Suite("Actions: win-back offers and what no subscription may do")
struct ActionsWinBackTests {
  typealias F = ActionsFixture
  static let may = utc("2026-05-01T08:00:00Z")

  /// Family Pass, first bought on the original purchase date (2025-01-01, one month, so the
  /// history is complete), then paid Jan 10 to Feb 10, lapsed on Feb 10 after the customer turned
  /// auto-renew off. `paid: false` leaves out the history: only the latest transaction is known.
  static func churned(paid: Bool = true, renewalExtras: String = "") -> SubscriptionState {
    let history = paid ? """
      "transactions": [ { "transactionId": "1000000111", "productId": "pass.family", "price": 7990,
        "purchaseDate": 1735732800000, "expiresDate": 1738411200000 },
        { "transactionId": "1000000999", "productId": "pass.family", "price": 7990,
        "purchaseDate": \(Int64(F.purchase.ms)), "expiresDate": \(Int64(F.expires.ms)) } ],
      """ : ""
    return F.state(autoRenew: 0, renewalExtras: #", "expirationIntent": 1"# + renewalExtras, subscriberExtras: history)
  }

  @Test func acceptingAWinBackOfferResumesTheSubscriptionWithIt() throws {
    let now = Self.may
    let state = Self.churned(renewalExtras: #", "eligibleWinBackOfferIds": ["wb-family-3m"]"#)
    #expect(Lifecycle.derive(state, at: now).winBack.eligible.map(\.offerId) == ["wb-family-3m"])
    let change = try applied(.acceptWinBack(offerId: "wb-family-3m"), to: state, at: now)
    #expect(change.transactions.count == 1)
    let t = try #require(change.latest)
    #expect(t.transactionId == Identifiers.transactionId(sequence: 2))  // after the two in the history
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
    #expect(n.notificationType == .subscribed)
    #expect(n.subtype == .resubscribe)
    #expect(n.status == .active)
    #expect(n.productId == "pass.family")
    let preview = try Actions.preview(.acceptWinBack(offerId: "wb-family-3m"), in: state, at: now).get()
    #expect(preview.summary == "Resubscribe now to Family Pass with win-back offer Come back to Family: 9.99 USD up front for 3 months, then 7.99 USD per 1 month; first period ends 2026-08-01 08:00 UTC.")
    // Once back, the customer is active and no longer eligible.
    #expect(refusal(.acceptWinBack(offerId: "wb-premium-free"), in: change.state, at: now)
      == .winBackNotEligible("wb-premium-free", reason: "subscription is active"))
  }

  @Test func eligibilityFollowsTheOffersRulesToTheMillisecond() throws {
    // wb-family-3m: at least one month after the lapse (Feb 10 12:00), one paid month.
    let opens = utc("2026-03-10T12:00:00Z")
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: Self.churned(), at: opens - .millisecond)
      == .winBackNotEligible("wb-family-3m", reason: "too soon: eligible from 2026-03-10 12:00 UTC"))
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: Self.churned(), at: opens) == nil)
    // Without history the latest transaction's paid month still counts (it used to count as none).
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: Self.churned(paid: false), at: Self.may) == nil)
  }

  /// Apple offers win-back for the customer's most recent subscription only: a Family Pass
  /// customer cannot take the Premium offer, however open it is.
  @Test func onlyTheMostRecentSubscriptionsOffersMayBeAccepted() {
    #expect(refusal(.acceptWinBack(offerId: "wb-premium-free"), in: Self.churned(), at: Self.may)
      == .winBackNotEligible("wb-premium-free", reason: "it is for pass.premium, not the subscriber's most recent subscription pass.family"))
  }

  @Test func theOffersProductMustBeTheSubscribersAndTheOfferMustExist() {
    #expect(refusal(.acceptWinBack(offerId: "wb-other"), in: Self.churned(), at: Self.may)
      == .winBackNotEligible("wb-other", reason: "it is for other.monthly, not the subscriber's most recent subscription pass.family"))
    #expect(refusal(.acceptWinBack(offerId: "wb-nothing"), in: Self.churned(), at: Self.may) == .unknownWinBack("wb-nothing"))
  }

  @Test func aStaleEligibleListInTheFileDoesNotDecide() {
    // SubDash recomputes eligibility from the offers' rules (and the lifecycle report warns when
    // renewalInfo.eligibleWinBackOfferIds disagrees), so an outdated list neither grants nor blocks.
    let stale = Self.churned(renewalExtras: #", "eligibleWinBackOfferIds": ["wb-other"]"#)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: stale, at: Self.may) == nil)
    #expect(refusal(.acceptWinBack(offerId: "wb-other"), in: stale, at: Self.may)
      == .winBackNotEligible("wb-other", reason: "it is for other.monthly, not the subscriber's most recent subscription pass.family"))
  }

  @Test func onlyAChurnedCustomerMayAcceptOne() {
    let active = F.state(renewalExtras: #", "eligibleWinBackOfferIds": ["wb-family-3m"]"#)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: active, at: F.expires - .millisecond)
      == .winBackNotEligible("wb-family-3m", reason: "subscription is active"))
    let grace = F.state(renewalExtras: """
      , "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": \(Int64(utc("2026-02-26T12:00:00Z").ms))
      """)
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: grace, at: utc("2026-02-20T00:00:00Z"))
      == .winBackNotEligible("wb-family-3m", reason: "in billing grace period"))
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: grace, at: utc("2026-03-01T00:00:00Z"))
      == .winBackNotEligible("wb-family-3m", reason: "in billing retry"))
    #expect(refusal(.acceptWinBack(offerId: "wb-family-3m"), in: F.newCustomer(), at: Self.may) == .noSubscription)
  }

  /// Nothing changes a refunded subscription; the customer, now lapsed, may only start again (buy,
  /// or a code for lapsed customers: ActionsRedeemCodeTests), so a code for active ones is refused
  /// for that reason.
  @Test func aRevokedSubscriptionRefusesEveryAction() {
    let revoked = F.state(transactionExtras: #", "revocationDate": 1768046400000, "revocationReason": 1"#)
    let actions: [PlanAction] = [
      .upgrade(toProductId: "pass.premium"), .downgrade(toProductId: "pass.individual"), .crossgrade(toProductId: "pass.duo"),
      .acceptWinBack(offerId: "wb-family-3m"), .setAutoRenew(false), .setAutoRenew(true),
    ]
    for a in actions { #expect(refusal(a, in: revoked, at: F.midPeriod) == .revoked, "\(a)") }
    #expect(refusal(.redeemOfferCode("LOYAL"), in: revoked, at: F.midPeriod)
      == .codeNotEligible("LOYAL", reason: "it is for existing (active) customers; this one is lapsed (refunded or revoked)"))
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
