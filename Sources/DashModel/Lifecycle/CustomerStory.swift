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
    var versions = history.transactions
    if let latest = state.subscriber.latestTransaction { versions.append(StoryTransaction(latest)) }
    let events = history.events.filter { $0.date != nil }.enumerated()
      .sorted { ($0.element.date ?? .epoch, $0.offset) < ($1.element.date ?? .epoch, $1.offset) }.map(\.element)
    return Prepared(folded: fold(versions), events: events, incompleteReason: incompleteReason(history, state: state))
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
    return CustomerStory(summary: summary, timeline: timeline, events: prepared.events, transactions: prepared.folded.map(\.last))
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
  static func fold(_ versions: [StoryTransaction]) -> [FoldedTransaction] {
    var byId: [String: Int] = [:]
    var out: [FoldedTransaction] = []
    out.reserveCapacity(versions.count)
    for v in versions {
      guard let id = v.transactionId, let k = byId[id] else {
        if let id = v.transactionId { byId[id] = out.count }
        out.append(FoldedTransaction(last: v, extendedFrom: nil))
        continue
      }
      let before = out[k].last
      if let old = before.expiresDate, let new = v.expiresDate, new > old, before.purchaseDate == v.purchaseDate, before.revocationDate == nil {
        out[k].extendedFrom = out[k].extendedFrom ?? old
      }
      out[k].last = v
    }
    // Stable by purchase date; undated ones keep their place at the end.
    return out.enumerated().sorted {
      switch ($0.element.last.purchaseDate, $1.element.last.purchaseDate) {
      case let (a?, b?) where a != b: return a < b
      case (.some, nil): return true
      case (nil, .some): return false
      default: return $0.offset < $1.offset
      }
    }.map(\.element)
  }

  /// The period's transaction (by id) and the notifications dated within it.
  public func details(of period: Timeline.Period, maxEvents: Int) -> (transaction: StoryTransaction?, events: [StoryEvent], moreEvents: Int) {
    let t = period.transactionId.flatMap { id in transactions.last { $0.transactionId == id } }
    let inside = Timeline.eventsBetween(period.start, period.end, events)
    return (t, Array(inside.prefix(maxEvents)), max(0, inside.count - maxEvents))
  }
}
