import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The customer summary and timeline, derived from hand-made histories whose every date is
/// known, so each period's kind and boundaries can be checked to the millisecond.
@Suite struct CustomerStoryTests {
  static let t0 = Sim.at("2026-01-01T00:00:00Z")
  static func day(_ n: Double) -> Instant { t0 + .days(n) }

  static func tx(_ id: String, _ product: String = "pass.premium.monthly", from: Double, to: Double, price: Int64 = 9990,
                 offer: OfferType? = nil, discount: OfferDiscountType? = nil, currency: String = "USD") -> TransactionPayload {
    var t = TransactionPayload()
    t.transactionId = id
    t.originalTransactionId = "1"
    t.productId = product
    t.purchaseDate = day(from)
    t.originalPurchaseDate = day(0)
    t.expiresDate = day(to)
    t.price = price
    t.currency = currency
    t.offerType = offer
    t.offerDiscountType = discount
    return t
  }

  static func event(_ type: NotificationType, _ subtype: NotificationSubtype? = nil, at: Instant) -> NotificationRecord {
    NotificationRecord(type: type, subtype: subtype, uuid: nil, signedDate: at, status: nil)
  }

  /// A state whose latest transaction is `latest` (the Pass catalog of Examples/scenarios).
  static func state(latest: TransactionPayload?, retry: Bool = false) -> SubscriptionState {
    var s = Sim().state
    s.subscriber.latestTransaction = latest
    var info = RenewalInfoPayload()
    info.isInBillingRetryPeriod = retry
    s.subscriber.renewalInfo = info
    return s
  }

  static func story(_ txs: [TransactionPayload], _ events: [NotificationRecord] = [], now: Instant, latest: TransactionPayload? = nil) -> CustomerStory {
    var h = CustomerHistory()
    for t in txs { h.add(t) }
    for e in events { h.add(e) }
    return CustomerStory.derive(h, state: state(latest: latest ?? txs.last), now: now, extensionWindow: .days(365))
  }

  /// Free trial, introductory price, full price extended by ten days, a failed renewal with
  /// grace then billing retry then expiry, a win-back offer, a prorated refund, a lapse.
  static let everyKind: CustomerStory = {
    var extended = tx("3", from: 37, to: 77)
    var refunded = tx("5", from: 180, to: 210)
    refunded.revocationDate = day(190)
    refunded.revocationType = .refundProrated
    refunded.revocationPercentage = 50_000
    return story(
      [tx("1", from: 0, to: 7, price: 0, offer: .introductory, discount: .freeTrial),
       tx("2", from: 7, to: 37, price: 990, offer: .introductory, discount: .payAsYouGo),
       tx("3", from: 37, to: 67), { extended.expiresDate = day(77); return extended }(),
       tx("4", from: 150, to: 180, price: 4990, offer: .winBack, discount: .payAsYouGo),
       tx("5", from: 180, to: 210), refunded],
      [event(.didFailToRenew, .gracePeriod, at: day(77)), event(.gracePeriodExpired, at: day(93)),
       event(.expired, .billingRetry, at: day(137)), event(.refund, at: day(190))],
      now: day(220))
  }()

  @Test func everyKindOfPeriodWithItsBoundaries() {
    let got = Self.everyKind.timeline.periods.map { "\($0.kind.rawValue) \(($0.start - Self.t0) / .day)-\(($0.end - Self.t0) / .day) \($0.transactionId ?? "-")" }
    #expect(got == [
      "free 0.0-7.0 1", "introductory 7.0-37.0 2", "paid 37.0-67.0 3", "extended 67.0-77.0 3",
      "grace 77.0-93.0 3", "billingRetry 93.0-137.0 3", "lapsed 137.0-150.0 -",
      "offer 150.0-180.0 4", "paid 180.0-190.0 5", "revoked 190.0-210.0 5", "lapsed 210.0-220.0 -",
    ])
    #expect(Self.everyKind.timeline.marks.map(\.kind) == [.refund])
  }

  /// The same history written out of purchase order (an import, a hand-made file): each id's
  /// versions still fold in the order written, and the extension moves with its transaction.
  @Test func aHistoryWrittenOutOfOrderTellsTheSameStory() {
    var extended = Self.tx("3", from: 37, to: 77)
    extended.expiresDate = Self.day(77)
    var refunded = Self.tx("5", from: 180, to: 210)
    refunded.revocationDate = Self.day(190)
    refunded.revocationType = .refundProrated
    refunded.revocationPercentage = 50_000
    var undated = Self.tx("6", from: 0, to: 0)
    undated.purchaseDate = nil
    let shuffled = Self.story(
      [Self.tx("5", from: 180, to: 210), undated, refunded, Self.tx("1", from: 0, to: 7, price: 0, offer: .introductory, discount: .freeTrial),
       Self.tx("3", from: 37, to: 67), Self.tx("4", from: 150, to: 180, price: 4990, offer: .winBack, discount: .payAsYouGo), extended,
       Self.tx("2", from: 7, to: 37, price: 990, offer: .introductory, discount: .payAsYouGo)],
      [Self.event(.didFailToRenew, .gracePeriod, at: Self.day(77)), Self.event(.gracePeriodExpired, at: Self.day(93)),
       Self.event(.expired, .billingRetry, at: Self.day(137)), Self.event(.refund, at: Self.day(190))],
      now: Self.day(220), latest: refunded)
    #expect(shuffled.timeline.periods == Self.everyKind.timeline.periods)
    // Each id once, its last version, by purchase date; the undated one at the end.
    #expect(shuffled.transactions.map(\.transactionId) == ["1", "2", "3", "4", "5", "6"])
    #expect(shuffled.transactions[2].expiresDate == Self.day(77))
    #expect(shuffled.transactions[4].revocationDate == Self.day(190))
    #expect(shuffled.summary.refunds.granted == Self.everyKind.summary.refunds.granted)
  }

  @Test func moneyPerCurrencyWithAProratedRefund() {
    let s = Self.everyKind.summary
    #expect(s.complete)
    #expect(s.spent == [CustomerSummary.Amount(currency: "USD", milliunits: 990 + 9990 + 4990 + 9990)])
    // 50 % of 9.99 is 4.995, refunded as the simulator rounds it: 5.00.
    #expect(s.refunded == [CustomerSummary.Amount(currency: "USD", milliunits: 5000)])
    #expect(s.net == [CustomerSummary.Amount(currency: "USD", milliunits: 25960 - 5000)])
    #expect(s.paidPeriods == 4)
    #expect(s.offers == CustomerSummary.Offers(introductory: 2, offerCode: 0, promotional: 0, winBack: 1))
    #expect(s.refunds.granted == 1)
    #expect(s.customerSince == Self.day(0))
    #expect(s.streak == nil)  // lapsed at `now`
    let json = JSONWriter.string(Self.everyKind.summaryJSON)
    #expect(json.contains("\"spent\":[{\"currency\":\"USD\",\"amount\":25.96}]") || json.contains("\"amount\": 25.96"))
  }

  @Test func currenciesAreSummedApartAndAnOverflowIsNamedNotWrapped() {
    let s = Self.story([Self.tx("1", from: 0, to: 30, price: 9990), Self.tx("2", from: 30, to: 60, price: 1200, currency: "EUR"),
                        Self.tx("3", from: 60, to: 90, price: .max), Self.tx("4", from: 90, to: 120, price: 5)], now: Self.day(100)).summary
    #expect(s.spent == [CustomerSummary.Amount(currency: "EUR", milliunits: 1200)])
    #expect(s.unsummable == ["USD"])
  }

  /// A renewal extended, then a failed renewal recovered in its grace period: the streak runs
  /// through both, counting each paid transaction once (extended and grace time are not periods
  /// paid for), and a version written again later is still one transaction.
  @Test func aStreakCountsEachPaidTransactionOnceThroughExtensionAndGrace() {
    var extended = Self.tx("2", from: 30, to: 70)
    extended.expiresDate = Self.day(70)
    let s = Self.story(
      [Self.tx("1", from: 0, to: 30), Self.tx("2", from: 30, to: 60), extended, Self.tx("3", from: 80, to: 110), Self.tx("3", from: 80, to: 110)],
      [Self.event(.didFailToRenew, .gracePeriod, at: Self.day(70))], now: Self.day(100))
    #expect(s.timeline.periods.map(\.kind) == [.paid, .paid, .extended, .grace, .paid])
    #expect(s.summary.streak == CustomerSummary.Streak(paidPeriods: 3, since: Self.day(0)))
  }

  /// A viewer prepares a history once and derives it at each instant its clock shows: the time
  /// after the last transaction (here a failed renewal, in grace then billing retry, as the
  /// renewal info says) follows `now` to the millisecond, as a story derived from scratch does.
  @Test func aPreparedHistoryFollowsNowAfterTheLastTransaction() {
    var h = CustomerHistory()
    for t in [Self.tx("1", from: 0, to: 30), Self.tx("2", from: 30, to: 60)] { h.add(t) }
    h.add(Self.event(.didFailToRenew, .gracePeriod, at: Self.day(60)))
    var state = Self.state(latest: Self.tx("2", from: 30, to: 60), retry: true)
    state.subscriber.renewalInfo?.gracePeriodExpiresDate = Self.day(66)
    let prepared = CustomerStory.prepare(h, state: state)
    /// Milliseconds from t0.
    func ms(_ at: Instant) -> Int { Int((at - Self.t0).ms) }
    func tail(_ now: Instant) -> [String] {
      let story = CustomerStory.derive(prepared, state: state, now: now, extensionWindow: .days(365))
      #expect(story == CustomerStory.derive(h, state: state, now: now, extensionWindow: .days(365)))
      return story.timeline.periods.dropFirst().map { "\($0.kind.rawValue) \(ms($0.start))-\(ms($0.end))" }
    }
    let paid = "paid \(ms(Self.day(30)))-\(ms(Self.day(60)))"
    #expect(tail(Self.day(60) - .millisecond) == [paid])
    #expect(tail(Self.day(60)) == [paid])
    #expect(tail(Self.day(60) + .millisecond) == [paid, "grace \(ms(Self.day(60)))-\(ms(Self.day(60)) + 1)"])
    #expect(tail(Self.day(70)) == [paid, "grace \(ms(Self.day(60)))-\(ms(Self.day(66)))", "billingRetry \(ms(Self.day(66)))-\(ms(Self.day(70)))"])
    #expect(CustomerStory.derive(prepared, state: state, now: Self.day(70), extensionWindow: .days(365)).summary.streak == nil)
  }

  @Test func streakEndsAtTheExpiryInstant() {
    let txs = [Self.tx("1", from: 0, to: 30), Self.tx("2", from: 30, to: 60)]
    let end = Self.day(60)
    #expect(Self.story(txs, now: end - .millisecond).summary.streak == CustomerSummary.Streak(paidPeriods: 2, since: Self.day(0)))
    #expect(Self.story(txs, now: end).summary.streak == nil)
    let after = Self.story(txs, now: end + .millisecond)
    #expect(after.summary.streak == nil)
    #expect(after.timeline.periods.last == Timeline.Period(kind: .lapsed, start: end, end: end + .millisecond, productId: "pass.premium.monthly"))
    #expect(Self.story(txs, now: end).timeline.periods.count == 2)  // no empty lapse at the instant itself
  }

  @Test func aFailureIsMatchedWithinAMinuteOfTheRenewalAndNotBefore() {
    let txs = [Self.tx("1", from: 0, to: 30)]
    let renewal = Self.day(30)
    let inside = Self.story(txs, [Self.event(.didFailToRenew, at: renewal - .minute)], now: Self.day(40))
    #expect(inside.timeline.periods.map(\.kind) == [.paid, .billingRetry])
    let before = Self.story(txs, [Self.event(.didFailToRenew, at: renewal - .minute - .millisecond)], now: Self.day(40))
    #expect(before.timeline.periods.map(\.kind) == [.paid, .lapsed])
  }

  @Test func theRenewalInfoSaysBillingRetryWhenNoNotificationDoes() {
    var h = CustomerHistory()
    h.add(Self.tx("1", from: 0, to: 30))
    let story = CustomerStory.derive(h, state: Self.state(latest: Self.tx("1", from: 0, to: 30), retry: true), now: Self.day(35), extensionWindow: .days(365))
    #expect(story.timeline.periods.map(\.kind) == [.paid, .billingRetry])
  }

  @Test func aRefundAtThePurchaseInstantRevokesTheWholePeriod() {
    var t = Self.tx("1", from: 0, to: 30)
    t.revocationDate = Self.day(0)
    let story = Self.story([t], now: Self.day(10))
    #expect(story.timeline.periods.map(\.kind) == [.revoked])
    #expect(story.summary.refunded == [CustomerSummary.Amount(currency: "USD", milliunits: 9990)])
  }

  @Test func anUpgradeEndsThePeriodBeforeWhereTheNewOneBegins() {
    let story = Self.story([Self.tx("1", from: 0, to: 30), Self.tx("2", "pass.basic.monthly", from: 10, to: 40)], now: Self.day(20))
    #expect(story.timeline.periods.map { "\($0.kind) \(($0.end - $0.start) / .day)" } == ["paid 10.0", "paid 30.0"])
    #expect(story.timeline.marks.map(\.kind) == [.planChange])
  }

  @Test func extensionsAreCountedOverTheLast365DaysToTheMillisecond() {
    let txs = [Self.tx("1", from: 0, to: 400)]
    let now = Self.day(380)
    let events = [Self.event(.renewalExtended, at: now - .days(365)), Self.event(.renewalExtended, at: now - .days(365) + .millisecond)]
    #expect(Self.story(txs, events, now: now).summary.extensionsInWindow == 1)
    #expect(Self.story(txs, [Self.event(.renewalExtended, at: now + .millisecond)], now: now).summary.extensionsInWindow == 0)
  }

  @Test func refundRequestsAndTheirOutcomes() {
    let events = [Self.event(.consumptionRequest, at: Self.day(1)), Self.event(.refundDeclined, at: Self.day(2)),
                  Self.event(.consumptionRequest, at: Self.day(3))]
    let r = Self.story([Self.tx("1", from: 0, to: 30)], events, now: Self.day(5)).summary.refunds
    #expect(r == CustomerSummary.Refunds(requested: 2, granted: 0, declined: 1, reversed: 0, pending: 1))
  }

  @Test func onlyTheLatestTransactionIsAPartialHistorySaidSo() {
    var latest = Self.tx("9", from: 300, to: 330)
    latest.originalPurchaseDate = Self.day(0)
    let story = CustomerStory.derive(CustomerHistory(), state: Self.state(latest: latest), now: Self.day(310), extensionWindow: .days(365))
    #expect(!story.summary.complete)
    #expect(story.summary.incompleteReason?.contains("only the latest transaction") == true)
    #expect(story.summary.customerSince == Self.day(0))
    #expect(story.timeline.periods.map(\.kind) == [.unknown, .paid])
    #expect(story.timeline.periods.first?.end == Self.day(300))
    #expect(JSONWriter.string(story.summaryJSON).contains("\"complete\""))
  }

  @Test func aHistoryStartingAfterTheFirstPurchaseIsPartial() {
    var later = Self.tx("5", from: 100, to: 130)
    later.originalPurchaseDate = Self.day(0)
    var h = CustomerHistory()
    h.add(later)
    let story = CustomerStory.derive(h, state: Self.state(latest: later), now: Self.day(110), extensionWindow: .days(365))
    #expect(story.summary.incompleteReason?.contains("history starts after the first purchase") == true)
  }

  @Test func aChosenPeriodHasItsTransactionAndItsNotifications() {
    let story = Self.everyKind
    let grace = story.timeline.periods.first { $0.kind == .grace }!
    let d = story.details(of: grace, maxEvents: 5)
    #expect(d.transaction?.transactionId == "3")
    #expect(d.events.map(\.label) == ["DID_FAIL_TO_RENEW / GRACE_PERIOD"])
  }
}

/// The history behind the story, read from a real state file and journal, and kept up to date
/// by reading only what the journal gained.
@Suite struct CustomerHistoryFileTests {
  /// One simulator step through the real write path (lock, journal append, atomic rename).
  func write(_ path: String, _ body: (SubscriptionState) -> Result<Change, ActionError>) throws(StateFileError) {
    _ = try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
      switch body(s) {
      case .success(let c): return c
      case .failure(let e): throw StateFileError(file: "simulation", message: e.message)
      }
    }
  }

  /// A subscriber whose history goes to its journal from the first entry (an older one's, past
  /// `StateFile.inlineHistoryLimit`): these tests are about reading the journal.
  static func journaling(_ dir: TempDir) -> String {
    var doc = Sim().state.document
    doc.journal = JournalInfo(file: "s.journal.jsonl")
    return dir.write("s.json", JSONWriter.string(doc.json))
  }

  @Test func aRefreshReadsOnlyWhatTheJournalGained() throws {
    let dir = TempDir()
    dir.write("pass.storekit", Array(FileManager.default.contents(atPath: Sim.catalogPath)!))
    let path = Self.journaling(dir)
    let start = Sim.at("2026-01-01T00:00:00Z")
    try write(path) { Simulator.buy(PurchaseRequest(productId: "pass.premium.monthly", useIntroductoryOffer: false), state: $0, at: start) }
    let first = try StateFile.load(path: path)
    let before = CustomerHistory.load(first, statePath: path)
    #expect(before.transactions.count == 1)
    #expect(before.journalProblem == nil)

    try write(path) { s in
      do throws(ActionError) { return .success(try Simulator.advance(s, to: start + .days(65))) } catch { return .failure(error) }
    }
    let second = try StateFile.load(path: path)
    let whole = CustomerHistory.load(second, statePath: path)
    let refreshed = CustomerHistory.refreshed(before, for: second, statePath: path)
    #expect(refreshed.transactions == whole.transactions)
    #expect(refreshed.events == whole.events)
    #expect(whole.transactions.count == 3)
    // The story grows with the renewals: three paid periods now.
    #expect(CustomerStory.derive(refreshed, state: second, now: start + .days(65)).timeline.periods.filter { $0.kind == .paid }.count == 3)

    // Proof that the refresh did not re-read the start: spoil the first line (same length); a
    // whole read now fails, the refresh from `before` does not read those bytes.
    let journal = dir.file("s.journal.jsonl")
    var bytes = dir.bytes("s.journal.jsonl")
    bytes[0] = UInt8(ascii: "x")
    dir.write("s.journal.jsonl", bytes)
    _ = journal
    #expect(CustomerHistory.load(second, statePath: path).journalProblem != nil)
    #expect(CustomerHistory.refreshed(before, for: second, statePath: path).transactions == whole.transactions)
  }

  @Test func aYoungSubscribersRefreshSeesTheHistoryItGainedInline() throws {
    let dir = TempDir()
    dir.write("pass.storekit", Array(FileManager.default.contents(atPath: Sim.catalogPath)!))
    let path = dir.write("s.json", JSONWriter.string(Sim().state.document.json))
    let start = Sim.at("2026-01-01T00:00:00Z")
    try write(path) { Simulator.buy(PurchaseRequest(productId: "pass.premium.monthly", useIntroductoryOffer: false), state: $0, at: start) }
    let before = CustomerHistory.load(try StateFile.load(path: path), statePath: path)
    try write(path) { s in
      do throws(ActionError) { return .success(try Simulator.advance(s, to: start + .days(65))) } catch { return .failure(error) }
    }
    let second = try StateFile.load(path: path)
    #expect(second.document.journal == nil, "three months of history are inline")
    let refreshed = CustomerHistory.refreshed(before, for: second, statePath: path)
    #expect(refreshed.transactions.count == 3)
    #expect(refreshed.transactions == CustomerHistory.load(second, statePath: path).transactions)
    #expect(refreshed.events == CustomerHistory.load(second, statePath: path).events)
  }

  @Test func anUnreadableJournalMakesThePartialHistoryItsReason() throws {
    let dir = TempDir()
    dir.write("pass.storekit", Array(FileManager.default.contents(atPath: Sim.catalogPath)!))
    let path = Self.journaling(dir)
    try write(path) { Simulator.buy(PurchaseRequest(productId: "pass.premium.monthly"), state: $0, at: Sim.at("2026-01-01T00:00:00Z")) }
    try FileManager.default.removeItem(atPath: dir.file("s.journal.jsonl"))
    let state = try StateFile.load(path: path)
    let story = CustomerStory.derive(CustomerHistory.load(state, statePath: path), state: state, now: Sim.at("2026-01-02T00:00:00Z"))
    #expect(!story.summary.complete)
    #expect(story.summary.incompleteReason?.contains("journal could not be read") == true)
  }
}
