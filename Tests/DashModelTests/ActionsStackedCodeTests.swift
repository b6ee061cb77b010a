import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// Someone who never subscribed types a code that stacks with introductory offers (App Store
/// Connect's STACK_WITH_INTRO_OFFERS, `.storekit` `isStackable`): they get the introductory offer
/// first and renew into the code's offer. A code that replaces introductory offers starts with the
/// code's offer at once.
@Suite struct ActionsStackedCodeTests {
  typealias F = ActionsFixture
  static let march = utc("2026-03-01T00:00:00Z")

  /// Premium with a one-week free trial as its introductory offer, and SPRING26 (premium-intro:
  /// 0.99 × 3 months, for new customers) stacking or not.
  static func newCustomer(stackable: Bool, intro: String = #"{ "internalID": "trial", "paymentMode": "free", "subscriptionPeriod": "P1W", "numberOfPeriods": 1 }"#) -> SubscriptionState {
    var catalog = F.catalog.replacingOccurrences(
      of: #""eligibility": ["new", "expired"], "isStackable": false"#, with: #""eligibility": ["new"], "isStackable": \#(stackable)"#)
    catalog = catalog.replacingOccurrences(
      of: #""recurringSubscriptionPeriod": "P1M", "displayPrice": "11.99","#,
      with: #""recurringSubscriptionPeriod": "P1M", "displayPrice": "11.99", "introductoryOffer": \#(intro),"#)
    return F.decode("""
      { "format": "subdash-state/1", "catalog": \(catalog), "offerCodes": \(F.offerCodes), "winBackOffers": \(F.winBackOffers), "subscriber": {} }
      """)
  }

  @Test func aStackingCodeStartsWithTheIntroductoryOfferAndRenewsIntoTheCodesOffer() throws {
    let change = try applied(.redeemOfferCode("SPRING26"), to: Self.newCustomer(stackable: true), at: Self.march)
    let latest = try #require(change.latest)
    #expect(latest.offerType == .introductory)
    #expect(latest.offerDiscountType == .freeTrial)
    #expect(latest.price == 0)
    #expect(latest.expiresDate == Self.march + .days(7))
    #expect(change.notification?.notificationType == .subscribed && change.notification?.subtype == .initialBuy)
    let r = try #require(change.renewal)
    #expect(r.offerType == .offerCode && r.offerIdentifier == "premium-intro")
    #expect(change.message.contains("then offer code premium-intro"))
    #expect(change.state.subscriber.redeemedOfferCodes.map(\.offerReference) == ["premium-intro"])
  }

  @Test func aCodeThatReplacesIntroductoryOffersStartsWithTheCodesOffer() throws {
    let change = try applied(.redeemOfferCode("SPRING26"), to: Self.newCustomer(stackable: false), at: Self.march)
    #expect(change.latest?.offerType == .offerCode)
    #expect(change.renewal?.offerType == .offerCode)  // the code's remaining pay-as-you-go periods
  }

  @Test func aStackingCodeBehindAMultiPeriodIntroductoryOfferIsRefusedWithTheReason() {
    let intro = #"{ "internalID": "cheap", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 2, "displayPrice": "1.99" }"#
    #expect(refusal(.redeemOfferCode("SPRING26"), in: Self.newCustomer(stackable: true, intro: intro), at: Self.march)
      == .codeNotEligible("SPRING26", reason: "it stacks after the introductory offer, whose 2 pay-as-you-go periods SubDash cannot yet queue an offer behind (one queued offer at a time)"))
  }
}
