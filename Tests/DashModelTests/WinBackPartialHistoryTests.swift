import Testing

@testable import DashModel
@testable import CoreValues

/// Files from the App Store Server API hold only `latestTransaction` and `renewalInfo`. SubDash
/// counts the latest transaction, knows its history is incomplete, and then shows Apple's
/// `eligibleWinBackOfferIds` in Apple's order instead of its own rules' answer.
@Suite("Win-back with partial history")
struct WinBackPartialHistoryTests {
  typealias F = LifecycleFixture

  /// pro.monthly bought 2026-02-01 10:00 (the original purchase), latest period until
  /// 2026-05-01 10:00, auto-renew off; `history` is the inline transactions array, if any.
  func lapsed(renewal more: String = "", history: String? = nil, offers: String = #"{"offerId": "A", "productId": "pro.monthly", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH", "periodCount": 1, "customerEligibilityPaidSubscriptionDurationInMonths": 2, "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 0}}"#) throws -> SubscriptionState {
    let t = F.transaction(#""originalPurchaseDate": \#(F.ms("2026-02-01 10:00"))"#)
    var sub = F.subscriber(transaction: t, renewal: F.renewal(more, autoRenew: 0))
    if let history { sub += ",\n\"transactions\": [\(history)]" }
    return try F.state(sub, extra: #""winBackOffers": [\#(offers)],"#)
  }

  func entry(purchase: String) -> String {
    #"{"transactionId": "1", "productId": "pro.monthly", "purchaseDate": \#(F.ms(purchase)), "expiresDate": \#(F.ms("2026-05-01 10:00"))}"#
  }

  @Test func historyIsCompleteOnlyWhenItReachesTheOriginalPurchase() throws {
    #expect(try lapsed().historyIsComplete == false)
    #expect(try lapsed(history: entry(purchase: "2026-02-01 10:00")).historyIsComplete)
    let late = #"{"transactionId": "1", "productId": "pro.monthly", "purchaseDate": \#(Int64((F.at("2026-02-01 10:00") + .millisecond).ms)), "expiresDate": \#(F.ms("2026-05-01 10:00"))}"#
    #expect(try lapsed(history: late).historyIsComplete == false)
  }

  @Test func theLatestTransactionCountsWhenTheHistoryLacksIt() throws {
    let intro = F.transaction(#""offerType": 1, "offerDiscountType": "FREE_TRIAL""#)
    let state = try F.state(F.subscriber(transaction: intro, renewal: F.renewal()))
    #expect(state.historySummary.usedIntroductoryOffer)
    #expect(state.historySummary.paidMillis == 0)  // a free trial is not paid time
    #expect(state.historySummary.transactionCount == 0)  // numbering follows the history SubDash holds
    let paid = try F.state(F.subscriber())
    #expect(paid.historySummary.paidMillis == (F.at(F.expires) - F.at(F.purchase)).ms)
  }

  @Test func incompleteHistoryShowsApplesListInApplesOrder() throws {
    let offers = #"{"offerId": "A", "productId": "pro.monthly", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH", "periodCount": 1, "customerEligibilityPaidSubscriptionDurationInMonths": 24, "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 0}}"#
    let state = try lapsed(renewal: #""eligibleWinBackOfferIds": ["unknown_offer", "A"]"#, offers: offers)
    let report = Lifecycle.derive(state, at: F.at("2026-05-02 00:00"))
    #expect(report.winBack == WinBackReport(eligible: state.allWinBackOffers, whyNone: nil, source: .apple, unconfiguredIds: ["unknown_offer"]))
    #expect(!report.warnings.contains { $0.contains("eligibleWinBackOfferIds") })
  }

  @Test func completeHistoryAppliesTheRulesAndWarnsWhenAppleDisagrees() throws {
    let state = try lapsed(renewal: #""eligibleWinBackOfferIds": []"#, history: entry(purchase: "2026-02-01 10:00"))
    let report = Lifecycle.derive(state, at: F.at("2026-05-02 00:00"))
    #expect(report.winBack.source == .rules)
    #expect(report.winBack.eligible.map(\.offerId) == ["A"])
    #expect(report.warnings.contains { $0.contains("differs from SubDash's rules") })
  }

  /// Without Apple's list, incomplete history counts at least recentSubscriptionStartDate →
  /// expiresDate as paid time (A needs 2 months of 30 days).
  @Test func recentSubscriptionStartDateIsALowerBoundOfPaidTime() throws {
    let end = F.at("2026-05-01 10:00")
    let twoMonths = end - LifecycleCalendar.paidMonthLength - LifecycleCalendar.paidMonthLength
    func ids(startingAt start: Instant) throws -> [String] {
      let state = try lapsed(renewal: #""recentSubscriptionStartDate": \#(Int64(start.ms))"#)
      return Lifecycle.derive(state, at: F.at("2026-05-02 00:00")).winBack.eligible.map(\.offerId)
    }
    #expect(try ids(startingAt: twoMonths) == ["A"])
    #expect(try ids(startingAt: twoMonths + .millisecond) == [])
  }
}
