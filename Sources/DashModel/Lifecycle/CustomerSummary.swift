import CoreValues
/// The customer in numbers, for support: since when, how much paid and refunded, which offers,
/// extensions and refund requests, and how long they have been paying without a break.
public struct CustomerSummary: Equatable, Sendable {
  /// An amount in one currency, in App Store milliunits (9990 is 9.99).
  public struct Amount: Equatable, Sendable {
    public var currency: String
    public var milliunits: Int64
  }

  public struct Offers: Equatable, Sendable {
    public var introductory = 0, offerCode = 0, promotional = 0, winBack = 0
    public var total: Int { introductory + offerCode + promotional + winBack }
  }

  public struct Refunds: Equatable, Sendable {
    /// CONSUMPTION_REQUEST notifications: the customer asked Apple.
    public var requested = 0
    /// Transactions refunded (or revoked by a refund) as the history holds them now.
    public var granted = 0
    public var declined = 0
    public var reversed = 0
    /// Requests with no answer yet.
    public var pending = 0
  }

  /// The current run of service without a lapse: paid periods counted, from `since`.
  public struct Streak: Equatable, Sendable {
    public var paidPeriods: Int
    public var since: Instant
  }

  /// Apple allows two renewal-date extensions per subscription in any 365 days.
  public static let extensionsAllowed = 2

  /// False when the file does not hold the history back to the first purchase (a Server API
  /// response has only the latest transaction): counts and sums are then lower bounds.
  public var complete: Bool
  /// Why, in words, when not complete.
  public var incompleteReason: String?
  public var customerSince: Instant?
  public var paidPeriods: Int
  public var spent: [Amount]
  public var refunded: [Amount]
  public var net: [Amount]
  /// Currencies whose sum does not fit in 64-bit milliunits (a hostile file): left out of the
  /// sums above and named instead of wrapped around.
  public var unsummable: [String]
  public var offers: Offers
  public var extensionsInWindow: Int
  public var refunds: Refunds
  public var streak: Streak?
}

extension CustomerSummary {
  /// The figures that do not depend on `now`: since when, the sums, the offers and the refunds.
  /// Derived once per file version (`CustomerStory.Prepared`), not at every instant a viewer asks.
  struct Totals: Equatable, Sendable {
    var first: Instant?
    var paid: Int
    var spent: [Amount], refunded: [Amount], net: [Amount], unsummable: [String]
    var offers: Offers
    var refunds: Refunds
  }

  /// The summary at `now`: the totals, the extensions in the window that ends at `now`, and the
  /// streak `now` falls in.
  static func derive(_ t: Totals, timeline: Timeline, extensionDates: [Instant], extensionWindow: Span,
                     incompleteReason: String?, now: Instant) -> CustomerSummary {
    let windowStart = now - extensionWindow
    return CustomerSummary(
      complete: incompleteReason == nil, incompleteReason: incompleteReason, customerSince: t.first, paidPeriods: t.paid,
      spent: t.spent, refunded: t.refunded, net: t.net, unsummable: t.unsummable, offers: t.offers,
      extensionsInWindow: extensionDates.filter { $0 > windowStart && $0 <= now }.count,
      refunds: t.refunds, streak: streak(timeline, now: now))
  }

  static func totals(_ transactions: FoldedHistory, events: [StoryEvent], originalPurchase: Instant?) -> Totals {
    var spent: [String: Int64] = [:], refunded: [String: Int64] = [:]
    var bad = Set<String>()
    var paid = 0
    var offers = Offers()
    var refunds = Refunds()
    var first = originalPurchase
    // Read in place (`f[k].field`): a copy of each transaction would retain all its strings.
    transactions.withItems { f in
      for k in f.indices {
        if let p = f[k].purchaseDate, first.map({ p < $0 }) ?? true { first = p }
        if !f[k].isFree { paid += 1 }
        switch f[k].offerType {
        case .introductory?: offers.introductory += 1
        case .offerCode?: offers.offerCode += 1
        case .promotional?: offers.promotional += 1
        case .winBack?: offers.winBack += 1
        default: break
        }
        let refund = f[k].revocationDate != nil && f[k].revocationType != .familyRevoke
        if refund { refunds.granted += 1 }
        // A family member's access is the purchaser's money, counted on the purchaser's file.
        guard !f[k].familyShared, let price = f[k].price, let currency = f[k].currency, !currency.isEmpty else { continue }
        add(price, to: &spent, currency, &bad)
        let returned = returnedAmount(f[k], price: price, revoked: refund)
        if returned > 0 { add(returned, to: &refunded, currency, &bad) }
      }
    }
    var open = 0
    for e in events {
      switch e.type {
      case .consumptionRequest: refunds.requested += 1; open += 1
      case .refund: open = max(0, open - 1)
      case .refundDeclined: refunds.declined += 1; open = max(0, open - 1)
      case .refundReversed: refunds.reversed += 1
      default: break
      }
    }
    refunds.pending = open
    var net: [String: Int64] = [:]
    for (c, s) in spent where !bad.contains(c) {
      let (n, o) = s.subtractingReportingOverflow(refunded[c] ?? 0)
      if o { bad.insert(c) } else { net[c] = n }
    }
    func amounts(_ m: [String: Int64]) -> [Amount] {
      m.filter { !bad.contains($0.key) }.map { Amount(currency: $0.key, milliunits: $0.value) }.sorted { $0.currency < $1.currency }
    }
    return Totals(first: first, paid: paid, spent: amounts(spent), refunded: amounts(refunded.filter { spent[$0.key] != nil }),
                  net: amounts(net), unsummable: bad.sorted(), offers: offers, refunds: refunds)
  }

  private static func add(_ v: Int64, to m: inout [String: Int64], _ c: String, _ bad: inout Set<String>) {
    let (s, o) = (m[c] ?? 0).addingReportingOverflow(v)
    if o { bad.insert(c) } else { m[c] = s }
  }

  /// What the customer got back for a transaction: its refund (`refundedAmount`) and the
  /// prorated refund an upgrade gave for the unused time (`upgradeRefundMilli`), never more than
  /// the price together.
  static func returnedAmount(_ t: StoryTransaction, price: Int64, revoked: Bool) -> Int64 {
    let refund = revoked ? refundedAmount(t, price: price) : 0
    // A share outside 0...price is no refund of this price (a hostile file): left out.
    let upgrade = t.upgradeRefundMilli.flatMap { (0...max(0, price)).contains($0) ? $0 : nil } ?? 0
    let (sum, overflow) = refund.addingReportingOverflow(upgrade)
    return overflow ? price : min(max(price, 0), sum)
  }

  /// What a refund gave back: all of the price, or the prorated share (`revocationPercentage`,
  /// milliunits of a percent: 50000 is half) rounded to the currency's minor unit as the
  /// simulator rounds it. A percentage outside 0...100,000 is not a share: the full price.
  static func refundedAmount(_ t: StoryTransaction, price: Int64) -> Int64 {
    guard t.revocationType == .refundProrated, let share = t.revocationPercentage, (0...100_000).contains(share) else { return price }
    let exact = Int64(100_000).dividingFullWidth(price.multipliedFullWidth(by: Int64(share))).quotient
    let unit = Int64(Proration.minorUnitMilli(t.currency))
    let (half, overflow) = exact.addingReportingOverflow(unit / 2)
    return overflow ? price : min(price, half / unit * unit)
  }

  /// The run of periods `now` falls in, back to the last lapse, billing retry or revocation.
  static func streak(_ timeline: Timeline, now: Instant) -> Streak? {
    // At the expiry instant itself the subscription has expired (Apple: expired when now >= expiresDate).
    // The time after the last transaction is derived up to `now` and ends there, so no period
    // holds `now` itself: a grace period running to `now` is the one `now` falls in (grace keeps
    // access, so the streak must agree with the access verdict; retry and a lapse are breaks).
    guard let k = timeline.index(at: now) ?? timeline.periods.indices.last.flatMap({
      timeline.periods[$0].kind == .grace && timeline.periods[$0].end == now ? $0 : nil
    }) else { return nil }
    func isBreak(_ kind: Timeline.Kind) -> Bool { kind == .lapsed || kind == .billingRetry || kind == .revoked }
    guard !isBreak(timeline.periods[k].kind) else { return nil }
    return timeline.periods.withUnsafeBufferPointer { periods in
      var i = k
      // A transaction's periods follow each other in a derived timeline (its paid, extended,
      // revoked, grace… periods are appended together, and the fold has one transaction per
      // id), so an id is counted when it differs from the one just counted; a set of every id
      // (100,000 hashed strings in a long streak) told nothing more.
      var previousId: String? = nil
      var count = 0
      // A partial history's unknown stretch ends the count: the streak is at least this long.
      while i >= 0, !isBreak(periods[i].kind), periods[i].kind != .unknown {
        let kind = periods[i].kind
        if kind == .paid || kind == .introductory || kind == .offer {
          if let id = periods[i].transactionId {
            if id != previousId { count += 1 }
            previousId = id
          } else {
            count += 1
          }
        }
        i -= 1
      }
      return Streak(paidPeriods: count, since: periods[i + 1].start)
    }
  }
}
