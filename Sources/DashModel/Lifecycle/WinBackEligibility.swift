import CoreValues
/// Which win-back offers a lapsed subscriber can redeem at `now`.
///
/// With the whole history, SubDash computes them from the offers' App Store Connect rules and
/// warns when `renewalInfo.eligibleWinBackOfferIds` (what Apple said at some moment) disagrees.
/// Without it (`SubscriptionState.historyIsComplete`: a file holding only `latestTransaction` and
/// `renewalInfo`, the App Store Server API's shape), paid time and earlier redemptions are
/// unknown, so Apple's list is shown as it is, in Apple's order ("best offers first").
///
/// Rules, all at millisecond precision:
/// - only an expired subscription (status 2) qualifies: not active, in grace, in retry or revoked
///   (Apple: appstoreserverapi/eligiblewinbackofferids);
/// - the offer is for the customer's most recent subscription in the group, the latest
///   transaction's product, not any product of the group (same page);
/// - `startDate <= now < endDate` (a day-form endDate runs through that whole day);
/// - whole calendar months since the last expiresDate lie in [minimum, maximum]: eligible from
///   lapse + minimum months until lapse + (maximum + 1) months (the window's end is inferred:
///   Apple gives the maximum in months, not where the last month ends);
/// - paid time (`HistorySummary.paidMillis`, 30-day months) is at least
///   `customerEligibilityPaidSubscriptionDurationInMonths`; with incomplete history, at least
///   `recentSubscriptionStartDate` → `expiresDate` (Apple's start date ignores lapses under 60
///   days, so this is a lower bound: inferred, not Apple's words);
/// - an offer redeemed before is eligible again `customerEligibilityWaitBetweenOffersInMonths`
///   calendar months after the subscription's end; other offers are not held back (App Store
///   Connect API WinBackOffer attributes).
public enum WinBackEligibility {
  /// Why one offer is not redeemable right now.
  public enum Block: Equatable, Sendable, CustomStringConvertible {
    case tooSoon(eligibleFrom: Instant)
    case notEnoughPaid(haveMonths: Int, needMonths: Int)
    case windowClosed
    case tooLongAgo

    public var description: String {
      switch self {
      case .tooSoon(let from): return "too soon: eligible from \(LifecycleCalendar.date(from))"
      case .notEnoughPaid(let have, let need): return "not enough paid time: \(have) of \(counted(need, "month"))"
      case .windowClosed: return "offer window closed"
      case .tooLongAgo: return "last subscribed too long ago"
      }
    }

    /// Most useful first: an offer that will open beats one that never will.
    var usefulness: Int {
      switch self {
      case .tooSoon: return 0
      case .notEnoughPaid: return 1
      case .windowClosed: return 2
      case .tooLongAgo: return 3
      }
    }
  }

  /// What the rules need to know about the customer's past, beyond the latest transaction.
  public struct Past: Equatable, Sendable {
    public var paidMillis: Double
    /// Latest redemption of each win-back offer, by offer ID.
    public var redeemed: [String: Instant]
    public init(paidMillis: Double, redeemed: [String: Instant] = [:]) {
      self.paidMillis = paidMillis
      self.redeemed = redeemed
    }

    /// The history's facts; with incomplete history the paid time is at least
    /// `recentSubscriptionStartDate` → `expiresDate`.
    init(_ state: SubscriptionState) {
      let h = state.historySummary
      var paid = h.paidMillis
      if !state.historyIsComplete, let start = state.subscriber.renewalInfo?.recentSubscriptionStartDate,
         let end = state.subscriber.latestTransaction?.expiresDate, end > start {
        paid = max(paid, (end - start).ms)
      }
      self.init(paidMillis: paid, redeemed: h.winBackRedeemed)
    }
  }

  /// Eligible offers best first, or the most useful reason why there are none. `appleList`:
  /// show Apple's `eligibleWinBackOfferIds` when the history is incomplete (the simulator, which
  /// plays Apple, passes false and always applies the rules).
  public static func evaluate(_ state: SubscriptionState, status: SubscriptionStatus?, at now: Instant, appleList: Bool = true) -> WinBackReport {
    guard let t = state.subscriber.latestTransaction, let status else { return none("never subscribed") }
    switch status {
    case .revoked: return none("refunded/revoked")
    case .active: return none("subscription is active")
    case .billingGracePeriod: return none("in billing grace period")
    case .billingRetry: return none("in billing retry")
    default: break
    }
    if appleList, !state.historyIsComplete, let ids = state.subscriber.renewalInfo?.eligibleWinBackOfferIds {
      return applesList(ids, in: state)
    }
    let offers = offersForMostRecent(t, in: state)
    guard !offers.isEmpty else { return none("no win-back offers configured for \(t.productId ?? "the subscription's product")") }
    guard let lapse = t.expiresDate else { return none("no expiresDate: cannot tell when the subscription lapsed") }
    let past = Past(state)
    var eligible: [WinBackOffer] = []
    var blocks: [Block] = []
    for offer in offers {
      if let block = check(offer, lapse: lapse, past: past, at: now) {
        blocks.append(block)
      } else {
        eligible.append(offer)
      }
    }
    if !eligible.isEmpty { return WinBackReport(eligible: rank(eligible), whyNone: nil) }
    return none(mostUseful(blocks).description)
  }

  /// Apple's list in Apple's order; IDs SubDash has no configuration for are kept by name.
  static func applesList(_ ids: [String], in state: SubscriptionState) -> WinBackReport {
    let all = state.allWinBackOffers
    var known: [WinBackOffer] = []
    var unknown: [String] = []
    for id in ids {
      if let o = all.first(where: { $0.offerId == id }) { known.append(o) } else { unknown.append(id) }
    }
    let why = ids.isEmpty ? "Apple lists none (eligibleWinBackOfferIds is empty)" : nil
    return WinBackReport(eligible: known, whyNone: why, source: .apple, unconfiguredIds: unknown)
  }

  /// Win-back offers (catalog and state file) for the product of the customer's most recent
  /// subscription in the group: Apple orders "the available offers you configure in App Store
  /// Connect for the customer's most recent subscription in the subscription group".
  static func offersForMostRecent(_ t: TransactionPayload, in state: SubscriptionState) -> [WinBackOffer] {
    guard let product = t.productId else { return [] }
    return state.allWinBackOffers.filter { $0.productId == product }
  }

  /// The first rule `offer` fails at `now`, checking rules that never heal (paid time, closed
  /// windows) before those that only need waiting.
  public static func check(_ offer: WinBackOffer, lapse: Instant, past: Past, at now: Instant) -> Block? {
    let need = offer.paidSubscriptionMonths
    let paidMillis = past.paidMillis
    if paidMillis < Double(need) * LifecycleCalendar.paidMonthLength.ms {
      let have = Int(min((max(0, paidMillis) / LifecycleCalendar.paidMonthLength.ms).rounded(.down), 1e9))
      return .notEnoughPaid(haveMonths: have, needMonths: need)
    }
    // The window closes at the earlier of the offer's endDate and the last eligible month.
    var closes: (Instant, Block)?
    if let end = offer.endDate { closes = (end, .windowClosed) }
    if let max = offer.monthsSinceLastSubscribedMax {
      let limit = LifecycleCalendar.adding(months: min(max, LifecycleCalendar.monthLimit) + 1, to: lapse)
      if closes == nil || limit < closes!.0 { closes = (limit, .tooLongAgo) }
    }
    var opens = LifecycleCalendar.adding(months: offer.monthsSinceLastSubscribedMin, to: lapse)
    if let start = offer.startDate, start > opens { opens = start }
    if let again = redeemableAgain(offer, lapse: lapse, past: past), again > opens { opens = again }
    if let (limit, block) = closes, now >= limit || opens >= limit { return block }
    if now < opens { return .tooSoon(eligibleFrom: opens) }
    return nil
  }

  /// When an offer the customer redeemed before may be redeemed again: its wait, counted from
  /// the end of the subscription. nil when it was never redeemed or has no wait.
  public static func redeemableAgain(_ offer: WinBackOffer, lapse: Instant, past: Past) -> Instant? {
    guard past.redeemed[offer.offerId] != nil, let wait = offer.waitBetweenOffersMonths else { return nil }
    return LifecycleCalendar.adding(months: wait, to: lapse)
  }

  /// Best first: priority HIGH before NORMAL, then the lower effective monthly price, then the
  /// longer total offer duration, then offerId (so the order is stable). SubDash's inference:
  /// Apple says only "sorted with the best offers first" (docs/simulation.md, Win-back eligibility).
  public static func rank(_ offers: [WinBackOffer]) -> [WinBackOffer] {
    offers.sorted(by: isBetter)
  }

  static func isBetter(_ a: WinBackOffer, _ b: WinBackOffer) -> Bool {
    if a.priority != b.priority { return a.priority == .high }
    let (costA, daysA) = (totalCost(a), totalDays(a))
    let (costB, daysB) = (totalCost(b), totalDays(b))
    // cost/days compared by cross-multiplying, so no rounding decides a tie.
    let monthlyA = costA * Double(max(daysB, 1)), monthlyB = costB * Double(max(daysA, 1))
    if monthlyA != monthlyB { return monthlyA < monthlyB }
    if daysA != daysB { return daysA > daysB }
    return a.offerId < b.offerId
  }

  /// What the customer pays over the whole offer, in milliunits.
  static func totalCost(_ o: WinBackOffer) -> Double {
    switch o.paymentMode {
    case .freeTrial: return 0
    case .payUpFront: return Double(o.priceMilli)
    case .payAsYouGo: return Double(o.priceMilli) * Double(o.periodCount)
    }
  }

  static func totalDays(_ o: WinBackOffer) -> Int {
    LifecycleCalendar.roughDays(o.period) * min(o.periodCount, 10_000)
  }

  static func mostUseful(_ blocks: [Block]) -> Block {
    blocks.min { a, b in
      if a.usefulness != b.usefulness { return a.usefulness < b.usefulness }
      switch (a, b) {
      case (.tooSoon(let x), .tooSoon(let y)): return x < y
      case (.notEnoughPaid(_, let x), .notEnoughPaid(_, let y)): return x < y
      default: return false
      }
    }!
  }

  static func none(_ why: String) -> WinBackReport { WinBackReport(eligible: [], whyNone: why) }
}
