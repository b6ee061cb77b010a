import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Win-back eligibility from the offers' App Store Connect rules, each rule at its boundary ±1 ms,
/// the reason shown when nothing is eligible, and the best-first ranking.
@Suite("Lifecycle: win-back eligibility")
struct LifecycleWinBackTests {
  typealias F = LifecycleFixture
  /// The subscription lapsed at the usual expiresDate: 2026-05-01 10:00 UTC.
  let lapse = F.at(F.expires)

  /// A win-back offer in the inline form (App Store Connect attribute names).
  func offer(
    _ id: String, product: String = "pro.monthly", mode: String = "PAY_UP_FRONT", duration: String = "THREE_MONTHS",
    count: Int = 1, price: String = "9.99", paid: Int = 0, min: Int = 0, max: Int? = nil, wait: Int? = nil,
    start: String? = nil, end: String? = nil, priority: String = "NORMAL"
  ) -> String {
    var members = [
      #""offerId": "\#(id)""#, #""productId": "\#(product)""#, #""offerMode": "\#(mode)""#, #""duration": "\#(duration)""#,
      #""periodCount": \#(count)"#, #""displayPrice": "\#(price)""#, #""priority": "\#(priority)""#,
      #""customerEligibilityPaidSubscriptionDurationInMonths": \#(paid)"#,
      #""customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": \#(min)\#(max.map { #", "maximum": \#($0)"# } ?? "")}"#,
    ]
    if let wait { members.append(#""customerEligibilityWaitBetweenOffersInMonths": \#(wait)"#) }
    if let start { members.append(#""startDate": \#(start)"#) }
    if let end { members.append(#""endDate": \#(end)"#) }
    return "{" + members.joined(separator: ", ") + "}"
  }

  /// A customer who paid `paidMillis` in total (a journal summary that holds the latest
  /// transaction, so its time is not added again), who redeemed the win-back
  /// offers in `redeemed` (offer ID: date) before, auto-renew off, expired at `lapse`.
  func lapsed(_ offers: [String], paidMillis: Double = 4 * 30 * 86_400_000, redeemed: [String: String] = [:], renewal: String? = nil, transaction: String? = nil) -> (String, String) {
    let map = redeemed.sorted { $0.key < $1.key }.map { #""\#($0.key)": \#(F.ms($0.value))"# }.joined(separator: ", ")
    let last = redeemed.isEmpty ? "" : #", "winBackRedeemed": {\#(map)}"#
    let extra = """
      "winBackOffers": [\(offers.joined(separator: ",\n"))],
      "journal": {"file": "test.journal.jsonl", "committedBytes": 0, "summary": {"paidMillis": \(Int64(paidMillis)), "lastTransactionId": "2000000100000009"\(last)}},
      """
    let sub = F.subscriber(transaction: transaction ?? F.transaction(), renewal: renewal ?? F.renewal(#""expirationIntent": 1"#, autoRenew: 0))
    return (sub, extra)
  }

  func winBack(_ offers: [String], at now: Instant, paidMillis: Double = 4 * 30 * 86_400_000, redeemed: [String: String] = [:], renewal: String? = nil, transaction: String? = nil) throws -> WinBackReport {
    let (sub, extra) = lapsed(offers, paidMillis: paidMillis, redeemed: redeemed, renewal: renewal, transaction: transaction)
    return Lifecycle.derive(try F.state(sub, extra: extra), at: now).winBack
  }

  func ids(_ r: WinBackReport) -> [String] { r.eligible.map(\.offerId) }

  // MARK: - Time since last subscribed

  @Test func eligibleFromTheMinimumMonthsAfterTheLapse() throws {
    let offers = [offer("A", min: 1, max: 3)]
    let opens = F.at("2026-06-01 10:00")
    #expect(try winBack(offers, at: opens - .millisecond) == WinBackReport(eligible: [], whyNone: "too soon: eligible from 2026-06-01 10:00 UTC"))
    #expect(try ids(winBack(offers, at: opens)) == ["A"])
  }

  /// Whole months elapsed: "maximum 3" still admits 3 months and 30 days, not 4 months.
  @Test func eligibleUntilTheMaximumPlusOneMonthsAfterTheLapse() throws {
    let offers = [offer("A", min: 1, max: 3)]
    let closes = F.at("2026-09-01 10:00")
    #expect(try ids(winBack(offers, at: closes - .millisecond)) == ["A"])
    #expect(try winBack(offers, at: closes).whyNone == "last subscribed too long ago")
  }

  @Test func monthsAreCalendarMonthsClampedToShortMonths() throws {
    // Lapsed Jan 31: one month later is Feb 28 (2026 is not a leap year).
    let t = F.transaction(purchase: "2026-01-01 10:00", expires: "2026-01-31 10:00")
    let offers = [offer("A", min: 1)]
    #expect(try winBack(offers, at: F.at("2026-02-28 10:00") - .millisecond, transaction: t).whyNone == "too soon: eligible from 2026-02-28 10:00 UTC")
    #expect(try ids(winBack(offers, at: F.at("2026-02-28 10:00"), transaction: t)) == ["A"])
  }

  // MARK: - Offer window

  @Test func theOfferWindowOpensAtStartDate() throws {
    let offers = [offer("A", start: F.ms("2026-07-01 00:00"))]
    #expect(try winBack(offers, at: F.at("2026-07-01 00:00") - .millisecond).whyNone == "too soon: eligible from 2026-07-01 00:00 UTC")
    #expect(try ids(winBack(offers, at: F.at("2026-07-01 00:00"))) == ["A"])
  }

  @Test func aDayFormEndDateRunsThroughThatWholeDay() throws {
    let offers = [offer("A", start: #""2026-05-01""#, end: #""2026-07-31""#)]
    #expect(try ids(winBack(offers, at: F.at("2026-08-01 00:00") - .millisecond)) == ["A"])
    #expect(try winBack(offers, at: F.at("2026-08-01 00:00")).whyNone == "offer window closed")
  }

  @Test func aMillisecondEndDateIsExclusive() throws {
    let offers = [offer("A", end: F.ms("2026-06-15 12:00"))]
    #expect(try ids(winBack(offers, at: F.at("2026-06-15 12:00") - .millisecond)) == ["A"])
    #expect(try winBack(offers, at: F.at("2026-06-15 12:00")).whyNone == "offer window closed")
  }

  @Test func aWindowThatClosesBeforeTheCustomerQualifiesIsClosed() throws {
    let offers = [offer("A", min: 2, end: F.ms("2026-06-15 00:00"))]
    #expect(try winBack(offers, at: F.at("2026-05-20 00:00")).whyNone == "offer window closed")
  }

  // MARK: - Paid time and waiting between offers

  @Test func paidTimeCountsThirtyDayMonths() throws {
    let offers = [offer("A", paid: 4)]
    let now = F.at("2026-05-20 00:00")
    #expect(try ids(winBack(offers, at: now, paidMillis: 120 * 86_400_000)) == ["A"])
    #expect(try winBack(offers, at: now, paidMillis: 120 * 86_400_000 - 1).whyNone == "not enough paid time: 3 of 4 months")
  }

  @Test func paidTimeComesFromTheInlineHistoryToo() throws {
    // Two paid months (31 + 28 days) and a free trial that does not count: 59 days is 1 month.
    let history = """
      "transactions": [
        {"productId": "pro.monthly", "purchaseDate": \(F.ms("2025-12-18 10:00")), "expiresDate": \(F.ms("2026-01-01 10:00")), "offerType": 1, "offerDiscountType": "FREE_TRIAL"},
        {"productId": "pro.monthly", "purchaseDate": \(F.ms("2026-01-01 10:00")), "expiresDate": \(F.ms("2026-02-01 10:00"))},
        {"productId": "pro.monthly", "purchaseDate": \(F.ms("2026-02-01 10:00")), "expiresDate": \(F.ms("2026-03-01 10:00"))}
      ]
      """
    let t = F.transaction(purchase: "2026-02-01 10:00", expires: "2026-03-01 10:00")
    let sub = F.subscriber(transaction: t, renewal: F.renewal(autoRenew: 0)) + ",\n" + history
    let state = try F.state(sub, extra: #""winBackOffers": [\#(offer("A", paid: 2)), \#(offer("B", paid: 1))],"#)
    #expect(state.historySummary.paidMillis == 59 * 86_400_000)
    #expect(ids(Lifecycle.derive(state, at: F.at("2026-04-01 00:00")).winBack) == ["B"])
  }

  /// The wait is per offer and counts from the subscription's end: an offer redeemed before
  /// opens again `wait` months after the lapse; an offer never redeemed is not held back.
  @Test func waitBetweenOffersHoldsBackOnlyTheSameOfferCountedFromTheLapse() throws {
    let offers = [offer("A", wait: 2), offer("B", wait: 2)]
    let again = F.at("2026-07-01 10:00")  // lapse 2026-05-01 10:00 + 2 months
    let redeemed = ["A": "2026-01-10 08:00"]
    #expect(try ids(winBack(offers, at: again - .millisecond, redeemed: redeemed)) == ["B"])
    #expect(try ids(winBack(offers, at: again, redeemed: redeemed)) == ["A", "B"])
    #expect(try winBack([offers[0]], at: again - .millisecond, redeemed: redeemed).whyNone == "too soon: eligible from 2026-07-01 10:00 UTC")
    #expect(try ids(winBack(offers, at: lapse)) == ["A", "B"])
  }

  // MARK: - Who can have win-back at all

  /// Apple: the offers "you configure in App Store Connect for the customer's most recent
  /// subscription in the subscription group" (eligibleWinBackOfferIds), not the whole group's.
  @Test func onlyOffersOfTheMostRecentSubscriptionCount() throws {
    let r = try winBack([offer("other", product: "other.monthly")], at: F.at("2026-06-01 00:00"))
    #expect(r.whyNone == "no win-back offers configured for pro.monthly")
    #expect(try winBack([offer("plus", product: "plus.monthly")], at: F.at("2026-06-01 00:00")).whyNone == "no win-back offers configured for pro.monthly")
    #expect(try ids(winBack([offer("plus", product: "plus.monthly"), offer("pro")], at: F.at("2026-06-01 00:00"))) == ["pro"])
  }

  @Test func offersDeclaredInTheCatalogCount() throws {
    let catalogOffer = #""winbackOffers": [{"offerId": "cat", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH", "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": 0}}],"#
    let sub = F.subscriber(renewal: F.renewal(autoRenew: 0))
    let text = F.catalog.replacingOccurrences(of: #"{"productID": "pro.monthly","#, with: "{" + catalogOffer + #" "productID": "pro.monthly","#)
    let state = try StateFile.decode(Array(#"{"catalog": \#(text), "subscriber": {\#(sub)}}"#.utf8), fileName: "t.json") { (n: String) throws(StateFileError) -> Catalog in
      throw StateFileError(file: n, message: "unused")
    }
    #expect(Lifecycle.derive(state, at: F.at("2026-05-02 00:00")).winBack.eligible.map(\.offerId) == ["cat"])
  }

  @Test(arguments: [
    ("2026-04-15 00:00", F.renewal(), "subscription is active"),
    ("2026-05-05 00:00", F.renewal(#""isInBillingRetryPeriod": true, "gracePeriodExpiresDate": \#(F.ms("2026-05-17 10:00"))"#), "in billing grace period"),
    ("2026-05-20 00:00", F.renewal(#""isInBillingRetryPeriod": true"#), "in billing retry"),
  ])
  func notWhileTheSubscriptionStillLives(now: String, renewal: String, why: String) throws {
    let r = try winBack([offer("A")], at: F.at(now), renewal: renewal)
    #expect(r == WinBackReport(eligible: [], whyNone: why))
  }

  @Test func notAfterARefund() throws {
    let t = F.transaction(#""revocationDate": \#(F.ms("2026-04-10 00:00")), "revocationReason": 0"#)
    #expect(try winBack([offer("A")], at: F.at("2026-06-01 00:00"), transaction: t).whyNone == "refunded/revoked")
  }

  // MARK: - The reason shown when none is eligible

  @Test func anOfferThatWillOpenIsTheMostUsefulReason() throws {
    let offers = [offer("paid", paid: 12), offer("closed", end: F.ms("2026-05-10 00:00")), offer("soon", min: 2), offer("sooner", min: 1)]
    #expect(try winBack(offers, at: F.at("2026-05-20 00:00")).whyNone == "too soon: eligible from 2026-06-01 10:00 UTC")
  }

  @Test func thenTheSmallestPaidTimeShortfall() throws {
    let offers = [offer("closed", end: F.ms("2026-05-10 00:00")), offer("twelve", paid: 12), offer("six", paid: 6), offer("old", max: 0)]
    #expect(try winBack(offers, at: F.at("2026-06-20 00:00")).whyNone == "not enough paid time: 4 of 6 months")
  }

  @Test func paidTimeIsCheckedBeforeWaiting() throws {
    #expect(try winBack([offer("A", paid: 5, min: 3)], at: F.at("2026-05-20 00:00")).whyNone == "not enough paid time: 4 of 5 months")
  }

  @Test func oneMonthIsSingular() throws {
    #expect(try winBack([offer("A", paid: 1)], at: F.at("2026-05-20 00:00"), paidMillis: 0).whyNone == "not enough paid time: 0 of 1 month")
  }

  // MARK: - Ranking

  @Test func highPriorityComesFirst() throws {
    let offers = [offer("cheap", price: "0.99"), offer("high", price: "29.99", priority: "HIGH")]
    #expect(try ids(winBack(offers, at: F.at("2026-05-20 00:00"))) == ["high", "cheap"])
  }

  @Test func thenTheLowerEffectiveMonthlyPrice() throws {
    let offers = [
      offer("upfront", duration: "THREE_MONTHS", price: "8.97"),  // 2.99 a month
      offer("monthly", mode: "PAY_AS_YOU_GO", duration: "ONE_MONTH", count: 6, price: "2.49"),  // 2.49 a month
      offer("free", mode: "FREE_TRIAL", duration: "ONE_WEEK"),
    ]
    #expect(try ids(winBack(offers, at: F.at("2026-05-20 00:00"))) == ["free", "monthly", "upfront"])
  }

  @Test func thenTheLongerOfferThenTheOfferId() throws {
    let offers = [
      offer("b-short", mode: "FREE_TRIAL", duration: "ONE_MONTH"),
      offer("a-short", mode: "FREE_TRIAL", duration: "ONE_MONTH"),
      offer("long", mode: "FREE_TRIAL", duration: "TWO_MONTHS"),
    ]
    #expect(try ids(winBack(offers, at: F.at("2026-05-20 00:00"))) == ["long", "a-short", "b-short"])
  }

  @Test func absurdMonthCountsNeitherCrashNorQualify() throws {
    let offers = [offer("A", min: Int.max), offer("B", max: Int.max, wait: Int.max)]
    #expect(try ids(winBack(offers, at: F.at("2026-05-20 00:00"), redeemed: ["A": "2026-01-01 00:00", "B": "2026-01-01 00:00"])) == [])
  }
}
