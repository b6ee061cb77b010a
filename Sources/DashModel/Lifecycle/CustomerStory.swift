/// A subscriber's story for support: the summary in numbers and the timeline, derived from the
/// whole history and the current state at `now`. Pure: the history is read by the caller
/// (`CustomerHistory.load`/`refreshed`), and time is an input.
public struct CustomerStory: Equatable, Sendable {
  public var summary: CustomerSummary
  public var timeline: Timeline
  /// Notifications sorted by date (undated ones left out), for the events of a chosen period.
  public var events: [StoryEvent]
  /// Each transaction's last version, by purchase date, for the details of a chosen period.
  public var transactions: [StoryTransaction]

  /// The history folded and sorted for `state`: the part of the derivation that does not
  /// depend on `now`, so a viewer whose clock ticks derives it once per file version.
  public struct Prepared: Equatable, Sendable {
    var folded: [FoldedTransaction]
    var events: [StoryEvent]
    var incompleteReason: String?
  }

  public static func prepare(_ history: CustomerHistory, state: SubscriptionState) -> Prepared {
    let latest = state.subscriber.latestTransaction.map(StoryTransaction.init)
    return Prepared(folded: fold(history.transactions, then: latest), events: datedInOrder(history.events),
                    incompleteReason: incompleteReason(history, state: state))
  }

  /// The dated events, by date, ties in the order written. A history is almost always written in
  /// date order already: then the list is shared as it is, not copied and sorted (a long
  /// history has 100,000 of them, and that sort was a tenth of `show --json`).
  static func datedInOrder(_ events: [StoryEvent]) -> [StoryEvent] {
    let inOrder = events.withUnsafeBufferPointer { e in
      var previous: Instant? = nil
      for k in e.indices {
        guard let d = e[k].date else { return false }
        if let p = previous, d < p { return false }
        previous = d
      }
      return true
    }
    if inOrder { return events }
    return events.filter { $0.date != nil }.enumerated()
      .sorted { ($0.element.date ?? .epoch, $0.offset) < ($1.element.date ?? .epoch, $1.offset) }.map(\.element)
  }

  /// - Parameters:
  ///   - state: the current state (its latest transaction counts even when the history lacks it).
  ///   - extensionWindow: Apple's 365 days, as wall-clock time at the file's rate (an accelerated
  ///     simulation counts its extension limit over the accelerated year, as `ExtendRenewal` does).
  public static func derive(_ history: CustomerHistory, state: SubscriptionState, now: Instant,
                            extensionWindow: Span? = nil) -> CustomerStory {
    derive(prepare(history, state: state), state: state, now: now, extensionWindow: extensionWindow)
  }

  public static func derive(_ prepared: Prepared, state: SubscriptionState, now: Instant, extensionWindow: Span? = nil) -> CustomerStory {
    let extensionWindow = extensionWindow ?? Self.extensionWindow(state)
    var timeline = Timeline.derive(prepared.folded, events: prepared.events, renewal: state.subscriber.renewalInfo, now: now)
    // A partial history says where it is partial: from the first purchase to the first period known.
    if prepared.incompleteReason != nil, let original = state.subscriber.latestTransaction?.originalPurchaseDate,
       let first = timeline.periods.first?.start, original < first {
      timeline.periods.insert(Timeline.Period(kind: .unknown, start: original, end: first), at: 0)
    }
    let settings = try? SimulationSettings(of: state)
    var extensionDates = settings?.renewalExtensions.map(\.date) ?? []
    if extensionDates.isEmpty {
      extensionDates = prepared.events.filter { $0.type == .renewalExtended }.compactMap(\.date)
    }
    let summary = CustomerSummary.derive(
      prepared.folded, events: prepared.events, timeline: timeline, originalPurchase: state.subscriber.latestTransaction?.originalPurchaseDate,
      extensionDates: extensionDates, extensionWindow: extensionWindow,
      incompleteReason: prepared.incompleteReason, now: now)
    return CustomerStory(summary: summary, timeline: timeline, events: prepared.events, transactions: prepared.folded.map { $0.last })
  }

  /// Apple's 365 days at the file's time rate, measured as `ExtendRenewal` measures its limit.
  public static func extensionWindow(_ state: SubscriptionState) -> Span {
    let period = (try? ISOPeriod(parsing: state.currentProduct?.period ?? "P1M")) ?? .oneMonth
    return Simulator.timing(state).wallClock(for: .days(365), period: period)
  }

  /// Why the figures are lower bounds, or nil when the history is whole.
  static func incompleteReason(_ history: CustomerHistory, state: SubscriptionState) -> String? {
    if let problem = history.journalProblem { return "the history journal could not be read (\(problem))" }
    if history.skippedEntries > 0 { return "\(history.skippedEntries) history entries could not be read" }
    guard state.subscriber.latestTransaction != nil else { return nil }
    if history.transactions.isEmpty { return "the file holds only the latest transaction, not the history before it" }
    if let original = state.subscriber.latestTransaction?.originalPurchaseDate,
       let first = history.transactions.compactMap(\.purchaseDate).min(), first > original {
      return "the history starts after the first purchase (\(Format.date(original)))"
    }
    return nil
  }

  /// One entry per transaction id, its last version, by purchase date; an expiry a later
  /// version moved further out (same purchase, not revoked before) is a renewal-date extension.
  static func fold(_ versions: [StoryTransaction], then latest: StoryTransaction? = nil) -> [FoldedTransaction] {
    var byId: [String: Int] = [:]
    byId.reserveCapacity(versions.count + 1)
    var out: [FoldedTransaction] = []
    out.reserveCapacity(versions.count + 1)
    func add(_ v: StoryTransaction) {
      guard let id = v.transactionId else {
        out.append(FoldedTransaction(last: v, extendedFrom: nil))
        return
      }
      // One hash of the id (an in-place access), whether it is new or a later version.
      let (k, isNew) = claim(&byId[id, default: -1], next: out.count)
      guard !isNew else {
        out.append(FoldedTransaction(last: v, extendedFrom: nil))
        return
      }
      if let old = out[k].last.expiresDate, let new = v.expiresDate, new > old, out[k].last.purchaseDate == v.purchaseDate,
         out[k].last.revocationDate == nil {
        out[k].extendedFrom = out[k].extendedFrom ?? old
      }
      out[k].last = v
    }
    for k in versions.indices { add(versions[k]) }
    if let latest { add(latest) }
    // Stable by purchase date; undated ones keep their place at the end. A history written in
    // purchase order (the usual case) is already that order: checked in one pass, not sorted.
    let inOrder = out.withUnsafeBufferPointer { f in
      var k = 1
      while k < f.count {
        switch (f[k - 1].last.purchaseDate, f[k].last.purchaseDate) {
        case let (a?, b?) where b < a: return false
        case (nil, .some): return false
        default: k += 1
        }
      }
      return true
    }
    if inOrder { return out }
    return out.enumerated().sorted {
      switch ($0.element.last.purchaseDate, $1.element.last.purchaseDate) {
      case let (a?, b?) where a != b: return a < b
      case (.some, nil): return true
      case (nil, .some): return false
      default: return $0.offset < $1.offset
      }
    }.map(\.element)
  }

  @inline(__always)
  private static func claim(_ slot: inout Int, next: Int) -> (index: Int, isNew: Bool) {
    if slot < 0 { slot = next; return (next, true) }
    return (slot, false)
  }

  /// The period's transaction (by id) and the notifications dated within it.
  public func details(of period: Timeline.Period, maxEvents: Int) -> (transaction: StoryTransaction?, events: [StoryEvent], moreEvents: Int) {
    let t = period.transactionId.flatMap { id in transactions.last { $0.transactionId == id } }
    let inside = Timeline.eventsBetween(period.start, period.end, events)
    return (t, Array(inside.prefix(maxEvents)), max(0, inside.count - maxEvents))
  }
}
