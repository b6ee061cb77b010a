/// Which win-back offers a lapsed subscriber can redeem at `now`, computed from the offers'
/// App Store Connect rules and the history, never from `renewalInfo.eligibleWinBackOfferIds`
/// (that is what Apple said at some moment; SubDash recomputes and warns when the two disagree).
///
/// Rules, all at millisecond precision:
/// - only an expired subscription (status 2) qualifies: not active, in grace, in retry or revoked;
/// - the offer is for a product in the lapsed product's subscription group;
/// - `startDate <= now < endDate` (a day-form endDate runs through that whole day);
/// - whole calendar months since the last expiresDate lie in [minimum, maximum]: eligible from
///   lapse + minimum months until lapse + (maximum + 1) months;
/// - paid time (`HistorySummary.paidMillis`, 30-day months) is at least
///   `customerEligibilityPaidSubscriptionDurationInMonths`;
/// - at least `customerEligibilityWaitBetweenOffersInMonths` calendar months since the last
///   win-back purchase.
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
      case .notEnoughPaid(let have, let need): return "not enough paid time: \(have) of \(need) month\(need == 1 ? "" : "s")"
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

  /// Eligible offers best first, or the most useful reason why there are none.
  public static func evaluate(_ state: SubscriptionState, status: SubscriptionStatus?, at now: Instant) -> WinBackReport {
    guard let t = state.subscriber.latestTransaction, let status else { return none("never subscribed") }
    switch status {
    case .revoked: return none("refunded/revoked")
    case .active: return none("subscription is active")
    case .billingGracePeriod: return none("in billing grace period")
    case .billingRetry: return none("in billing retry")
    default: break
    }
    let offers = offersInGroup(of: t, in: state)
    guard !offers.isEmpty else { return none("no win-back offers configured for this group") }
    guard let lapse = t.expiresDate else { return none("no expiresDate: cannot tell when the subscription lapsed") }
    let history = state.historySummary
    var eligible: [WinBackOffer] = []
    var blocks: [Block] = []
    for offer in offers {
      if let block = check(offer, lapse: lapse, paidMillis: history.paidMillis, lastWinBack: history.lastWinBackPurchase, at: now) {
        blocks.append(block)
      } else {
        eligible.append(offer)
      }
    }
    if !eligible.isEmpty { return WinBackReport(eligible: rank(eligible), whyNone: nil) }
    return none(mostUseful(blocks).description)
  }

  /// Win-back offers (catalog and state file) for any product in the lapsed product's group.
  static func offersInGroup(of t: TransactionPayload, in state: SubscriptionState) -> [WinBackOffer] {
    let group = state.catalog.group(of: t.productId)
      ?? state.catalog.groups.first { $0.id == t.subscriptionGroupIdentifier }
    guard let group else { return [] }
    let ids = Set(group.subscriptions.map(\.productID))
    return state.allWinBackOffers.filter { ids.contains($0.productId) }
  }

  /// The first rule `offer` fails at `now`, checking rules that never heal (paid time, closed
  /// windows) before those that only need waiting.
  public static func check(_ offer: WinBackOffer, lapse: Instant, paidMillis: Double, lastWinBack: Instant?, at now: Instant) -> Block? {
    let need = offer.paidSubscriptionMonths
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
    if let last = lastWinBack, let wait = offer.waitBetweenOffersMonths {
      let after = LifecycleCalendar.adding(months: wait, to: last)
      if after > opens { opens = after }
    }
    if let (limit, block) = closes, now >= limit || opens >= limit { return block }
    if now < opens { return .tooSoon(eligibleFrom: opens) }
    return nil
  }

  /// Best first: priority HIGH before NORMAL, then the lower effective monthly price, then the
  /// longer total offer duration, then offerId (so the order is stable).
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
