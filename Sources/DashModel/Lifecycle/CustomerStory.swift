import CoreValues
/// A subscriber's story for support: the summary in numbers and the timeline, derived from the
/// whole history and the current state at `now`. Pure: the history is read by the caller
/// (`CustomerHistory.load`/`refreshed`), and time is an input.
public struct CustomerStory: Equatable, Sendable {
  public var summary: CustomerSummary
  public var timeline: Timeline
  /// Notifications sorted by date (undated ones left out), for the events of a chosen period.
  public var events: [StoryEvent]
  /// Each transaction's last version, by purchase date, for the details of a chosen period.
  public var transactions: StoryTransactions

  /// The history folded and sorted for `state`, and everything derived from it that does not
  /// depend on `now` (the timeline up to the last transaction's end, the sums and counts), so a
  /// viewer whose clock ticks derives it once per file version and adds only what `now` changes.
  public struct Prepared: Equatable, Sendable {
    var folded: FoldedHistory
    var events: [StoryEvent]
    var incompleteReason: String?
    var groundwork: Timeline.Groundwork
    var totals: CustomerSummary.Totals
    /// Renewal-date extensions (the simulator's record, else the notifications), for the window.
    var extensionDates: [Instant]
  }

  public static func prepare(_ history: CustomerHistory, state: SubscriptionState) -> Prepared {
    let latest = state.subscriber.latestTransaction.map(StoryTransaction.init)
    let folded = FoldedHistory(folding: history.transactions, then: latest)
    let events = datedInOrder(history.events)
    let settings = try? SimulationSettings(of: state)
    var extensionDates = settings?.renewalExtensions.map(\.date) ?? []
    if extensionDates.isEmpty {
      extensionDates = events.filter { $0.type == .renewalExtended }.compactMap(\.date)
    }
    return Prepared(folded: folded, events: events, incompleteReason: incompleteReason(history, state: state),
                    groundwork: Timeline.groundwork(folded, events: events, renewal: state.subscriber.renewalInfo),
                    totals: CustomerSummary.totals(folded, events: events, originalPurchase: state.subscriber.latestTransaction?.originalPurchaseDate),
                    extensionDates: extensionDates)
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

  /// The story at `now`, from the history prepared for `state` (the same state).
  public static func derive(_ prepared: Prepared, state: SubscriptionState, now: Instant, extensionWindow: Span? = nil) -> CustomerStory {
    let extensionWindow = extensionWindow ?? Self.extensionWindow(state)
    var timeline = Timeline.derive(prepared.groundwork, events: prepared.events, renewal: state.subscriber.renewalInfo, now: now)
    // A partial history says where it is partial: from the first purchase to the first period known.
    if prepared.incompleteReason != nil, let original = state.subscriber.latestTransaction?.originalPurchaseDate,
       let first = timeline.periods.first?.start, original < first {
      timeline.periods.insert(Timeline.Period(kind: .unknown, start: original, end: first), at: 0)
    }
    let summary = CustomerSummary.derive(prepared.totals, timeline: timeline, extensionDates: prepared.extensionDates,
                                         extensionWindow: extensionWindow, incompleteReason: prepared.incompleteReason, now: now)
    return CustomerStory(summary: summary, timeline: timeline, events: prepared.events, transactions: StoryTransactions(prepared.folded))
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

  /// The period's transaction (by id) and the notifications dated within it.
  public func details(of period: Timeline.Period, maxEvents: Int) -> (transaction: StoryTransaction?, events: [StoryEvent], moreEvents: Int) {
    let t = period.transactionId.flatMap { id in transactions.last { $0.transactionId == id } }
    let inside = Timeline.eventsBetween(period.start, period.end, events)
    return (t, Array(inside.prefix(maxEvents)), max(0, inside.count - maxEvents))
  }
}

/// Each transaction's last version, by purchase date: read through the folded history, not copied
/// out of it (see `FoldedHistory`).
public struct StoryTransactions: RandomAccessCollection, Equatable, Sendable {
  private let folded: FoldedHistory

  init(_ folded: FoldedHistory) { self.folded = folded }

  public var startIndex: Int { 0 }
  public var endIndex: Int { folded.count }
  public subscript(k: Int) -> StoryTransaction { folded[k] }

  public static func == (a: StoryTransactions, b: StoryTransactions) -> Bool { a.elementsEqual(b) }
}
