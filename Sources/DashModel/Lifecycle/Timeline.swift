import CoreValues
/// The subscription's story as periods on one lane: what the customer had, from the first
/// purchase to `now`. Derived from a `CustomerHistory` and the current state; pure (time is an
/// input) and linear in the history's length.
public struct Timeline: Equatable, Sendable {
  public enum Kind: String, CaseIterable, Sendable {
    /// Paid at the full price.
    case paid
    /// A free offer period (free trial, free code or promotion).
    case free
    /// A discounted introductory period (pay as you go, pay up front).
    case introductory
    /// A discounted promotional, offer-code or win-back period.
    case offer
    /// Billing failed; access kept until the grace period ends.
    case grace
    /// Billing failed; the App Store retries, no access.
    case billingRetry
    /// Not subscribed: expired, cancelled, or after a refund.
    case lapsed
    /// The rest of a refunded or revoked period: paid for, then taken back.
    case revoked
    /// Added by a renewal-date extension.
    case extended
    /// Before the history the file holds: the subscriber had the subscription since the first
    /// purchase (`originalPurchaseDate`), but what happened then is not in the file.
    case unknown
  }

  public struct Period: Equatable, Sendable {
    public var kind: Kind
    public var start: Instant
    public var end: Instant
    public var productId: String?
    public var transactionId: String?
    public init(kind: Kind, start: Instant, end: Instant, productId: String? = nil, transactionId: String? = nil) {
      self.kind = kind
      self.start = start
      self.end = end
      self.productId = productId
      self.transactionId = transactionId
    }
    /// `at` is in [start, end).
    public func contains(_ at: Instant) -> Bool { start <= at && at < end }
  }

  /// Moments rather than spans: marked on the lane, never stretched over it.
  public struct Mark: Equatable, Sendable {
    public enum Kind: String, Sendable {
      case priceChange, planChange, refundRequest, refund, refundDeclined, refundReversed, renewalExtension
    }
    public var kind: Kind
    public var at: Instant
    public var productId: String?
    public var text: String
  }

  /// Oldest first, not overlapping, each non-empty.
  public var periods: [Period]
  public var marks: [Mark]
  public var now: Instant

  public init(periods: [Period], marks: [Mark], now: Instant) {
    self.periods = periods
    self.marks = marks
    self.now = now
  }

  /// Where the lane begins and ends: the first period to the later of `now` and the last end.
  public var range: ClosedRange<Instant>? {
    guard let first = periods.first?.start, let last = periods.last?.end else { return nil }
    let end = max(last, now)
    return first...max(end, first + Span.millisecond)
  }

  /// The period `at` falls in.
  public func index(at: Instant) -> Int? {
    // Periods are sorted and disjoint: binary search.
    var lo = 0, hi = periods.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if periods[mid].end <= at { lo = mid + 1 } else { hi = mid }
    }
    return lo < periods.count && periods[lo].contains(at) ? lo : nil
  }
}

extension Timeline {
  /// What a timeline is before `now` is known: every period up to the end of the last dated
  /// transaction's own periods, the marks, and that transaction, for the time after it. Only
  /// that time depends on `now`, so a viewer whose clock ticks derives this once per file
  /// version (`CustomerStory.Prepared`) and adds the time after it at each instant: deriving the
  /// whole timeline of 100,000 transactions again was most of each keypress.
  struct Groundwork: Equatable, Sendable {
    var periods: [Period]
    var marks: [Mark]
    /// The last dated transaction: where its periods end, whether it was revoked, its ids.
    var last: Last?
    struct Last: Equatable, Sendable {
      var end: Instant
      var revoked: Bool
      var productId: String?
      var transactionId: String?
    }
  }

  /// The timeline at `now`: the groundwork, then the time from the last transaction's end to
  /// `now` (grace, billing retry or a lapse, as the notifications and the renewal info say).
  static func derive(_ g: Groundwork, events: [StoryEvent], renewal: RenewalInfoPayload?, now: Instant) -> Timeline {
    var periods = g.periods
    if let last = g.last, now > last.end {
      gap(from: last.end, to: now, last: true, revoked: last.revoked, events: events, renewal: renewal,
          productId: last.productId, transactionId: last.transactionId, into: &periods)
    }
    return Timeline(periods: periods, marks: g.marks, now: now)
  }

  /// - Parameters:
  ///   - transactions: the history's transactions with each id's versions folded into one
  ///     (`FoldedHistory`), by purchase date.
  ///   - events: notifications sorted by date.
  ///   - renewal: the current renewal info, for the state after the last transaction (a file
  ///     imported from the Server API has no notifications to tell grace from a lapse).
  static func groundwork(_ transactions: FoldedHistory, events: [StoryEvent], renewal: RenewalInfoPayload?) -> Groundwork {
    var periods: [Period] = []
    var last: Groundwork.Last?
    // Every transaction of a long history is usually dated: then the fold is read as it is,
    // not filtered into another.
    let allDated = transactions.withItems { t in t.indices.allSatisfy { t[$0].purchaseDate != nil && t[$0].expiresDate != nil } }
    let dated = allDated ? transactions : transactions.filter { $0.purchaseDate != nil && $0.expiresDate != nil }
    periods.reserveCapacity(dated.count + 1)
    dated.withItems { d in
      // The transaction's two strings, not the transaction: a copy of it retained all of them.
      func append(_ kind: Kind, _ start: Instant, _ end: Instant, _ i: Int) {
        guard end > start else { return }
        periods.append(Period(kind: kind, start: start, end: end, productId: d[i].productId, transactionId: d[i].transactionId))
      }
      for i in d.indices {
        // Checked by the filter above; `??` keeps the compiler from needing a force unwrap.
        let purchase = d[i].purchaseDate ?? .epoch
        let start = max(purchase, periods.last?.end ?? .epoch - Span(ms: 1e15))
        let nextStart = i + 1 < d.count ? d[i + 1].purchaseDate : nil
        var end = d[i].expiresDate ?? start
        // An upgrade (or any overlap) ends this period where the next one begins.
        if let n = nextStart, n < end { end = max(start, n) }
        let kind = kindOf(d[i])
        let revokedAt = d[i].revocationDate.map { min(max($0, start), end) }
        let extendedFrom = d.extendedFrom(i)
        let paidEnd = min(revokedAt ?? end, extendedFrom.map { max($0, start) } ?? end)
        append(kind, start, paidEnd, i)
        if let from = extendedFrom { append(.extended, max(from, start), revokedAt ?? end, i) }
        if let r = revokedAt { append(.revoked, r, end, i) }
        guard let next = nextStart else {
          // The time after the last one runs to `now`: added by `derive(_:events:renewal:now:)`.
          last = Groundwork.Last(end: end, revoked: revokedAt != nil, productId: d[i].productId, transactionId: d[i].transactionId)
          continue
        }
        if next > end {
          gap(from: end, to: next, last: false, revoked: revokedAt != nil, events: events, renewal: renewal,
              productId: d[i].productId, transactionId: d[i].transactionId, into: &periods)
        }
      }
    }
    return Groundwork(periods: periods, marks: marks(dated, events), last: last)
  }

  static func kindOf(_ t: StoryTransaction) -> Kind {
    if t.isFree { return .free }
    switch t.offerType {
    case .introductory?: return .introductory
    case nil: return .paid
    default: return .offer
    }
  }

  /// Between one period's end and the next purchase (or `now`): grace and billing retry when a
  /// renewal failed there, else a lapse. The notifications say which; for the time after the
  /// last transaction the renewal info says it too (an imported file has no notifications).
  private static func gap(from start: Instant, to end: Instant, last: Bool, revoked: Bool, events: [StoryEvent],
                          renewal: RenewalInfoPayload?, productId: String?, transactionId: String?, into periods: inout [Period]) {
    func add(_ kind: Kind, _ a: Instant, _ b: Instant) {
      guard b > a else { return }
      periods.append(Period(kind: kind, start: a, end: b, productId: productId, transactionId: kind == .lapsed ? nil : transactionId))
    }
    guard !revoked else { add(.lapsed, start, end); return }
    // The failure is signed at the renewal instant, the period's end: a minute's tolerance for
    // files written by other tools, never reaching into the period before.
    let inGap = eventsBetween(start - Span.minute, end, events)
    var failed = inGap.first { $0.type == .didFailToRenew }
    var graceEnd = inGap.first { $0.type == .gracePeriodExpired }?.date
    var retryEnd = inGap.first { $0.type == .expired || ($0.type == .didRenew && $0.subtype == .billingRecovery) }?.date
    if failed == nil, last, renewal?.isInBillingRetryPeriod == true {
      failed = StoryEvent(type: .didFailToRenew, subtype: renewal?.gracePeriodExpiresDate == nil ? nil : .gracePeriod, date: start)
      graceEnd = renewal?.gracePeriodExpiresDate
      retryEnd = nil
    }
    guard let failure = failed else { add(.lapsed, start, end); return }
    var at = start
    if failure.subtype == .gracePeriod || (last && renewal?.gracePeriodExpiresDate != nil && graceEnd == nil) {
      let g = min(end, graceEnd ?? renewal?.gracePeriodExpiresDate ?? end)
      add(.grace, at, g)
      at = max(at, g)
    }
    let r = min(end, retryEnd ?? end)
    add(.billingRetry, at, r)
    add(.lapsed, max(at, r), end)
  }

  /// Events with a date in [from, to), from a date-sorted list, found by binary search.
  static func eventsBetween(_ from: Instant, _ to: Instant, _ events: [StoryEvent]) -> ArraySlice<StoryEvent> {
    func firstIndex(notBefore t: Instant) -> Int {
      var lo = 0, hi = events.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if (events[mid].date ?? .epoch) < t { lo = mid + 1 } else { hi = mid }
      }
      return lo
    }
    let a = firstIndex(notBefore: from), b = firstIndex(notBefore: to)
    return a < b ? events[a..<b] : []
  }

  private static func marks(_ transactions: FoldedHistory, _ events: [StoryEvent]) -> [Mark] {
    var out: [Mark] = []
    for e in events {
      guard let at = e.date else { continue }
      let kind: Mark.Kind?
      switch e.type {
      case .priceIncrease, .priceChange: kind = .priceChange
      case .didChangeRenewalPref: kind = .planChange
      case .consumptionRequest: kind = .refundRequest
      case .refund: kind = .refund
      case .refundDeclined: kind = .refundDeclined
      case .refundReversed: kind = .refundReversed
      case .renewalExtended, .renewalExtension: kind = .renewalExtension
      default: kind = nil
      }
      if let kind { out.append(Mark(kind: kind, at: at, productId: e.productId, text: e.summary ?? e.label)) }
    }
    // Neighbours are compared in place: pairs of copies would retain every string of every
    // transaction twice over in a long history.
    transactions.withItems { t in
      // A plan change that happened without a notification in the file (an import): the product
      // differs from the one before.
      for k in t.indices.dropFirst() where t[k - 1].productId != t[k].productId {
        let a = t[k - 1], b = t[k]
        if let at = b.purchaseDate, !out.contains(where: { $0.kind == .planChange && abs(($0.at - at).ms) < Span.day.ms }) {
          out.append(Mark(kind: .planChange, at: at, productId: b.productId, text: "\(a.productId ?? "?") → \(b.productId ?? "?")"))
        }
      }
      // Prices that moved for the same product, renewal to renewal.
      for k in t.indices.dropFirst()
      where t[k - 1].productId == t[k].productId && t[k - 1].offerType == nil && t[k].offerType == nil
        && t[k - 1].currency == t[k].currency && t[k - 1].price != nil && t[k].price != nil
        && t[k - 1].price != t[k].price {
        let a = t[k - 1], b = t[k]
        if let at = b.purchaseDate, !out.contains(where: { $0.kind == .priceChange && abs(($0.at - at).ms) < Span.days(40).ms }) {
          let cur = b.currency ?? ""
          out.append(Mark(kind: .priceChange, at: at, productId: b.productId,
                          text: "price \(Format.money(milliunits: a.price ?? 0, currency: cur)) → \(Format.money(milliunits: b.price ?? 0, currency: cur))"))
        }
      }
    }
    return out.sorted { $0.at < $1.at }
  }
}
