import CoreValues
/// A clock step that applies many events at once: one `+` (a day) at 86,400× is 2,880 renewals,
/// each with its notification (and, with `subdash deliver` following the file, a POST each).
/// Such a step asks first: the dashboard opens a confirmation, `subdash simulate --until` needs
/// `--max-events`. While it runs the dashboard saves it in parts and shows how far it got.
public enum LongStep {
  /// A step that would apply more events than this asks first (docs/simulation.md, `?`).
  public static let confirmAbove = 500
  /// Events saved per write while a long step runs, so the dashboard can redraw between them
  /// and another writer (a key, `subdash simulate`) gets the lock in between.
  public static let eventsPerSave = 250

  /// How big a step is, counted in memory before anything is written.
  public struct Size: Equatable, Sendable {
    /// Events counted, at most `confirmAbove + 1`.
    public var events: Int
    /// False when counting stopped at the limit: the step applies more.
    public var complete: Bool
    /// The whole step's events, extrapolated from how much time the counted ones covered.
    public var estimate: Int
    public var isLong: Bool { events > LongStep.confirmAbove }
    public init(events: Int, complete: Bool, estimate: Int) {
      self.events = events
      self.complete = complete
      self.estimate = estimate
    }
  }
}

extension Simulator {
  /// How many events advancing the clock by `span` from `now` would apply (as `apply(.advance)`
  /// does it), counted in memory and at most up to `limit + 1` events, so even a day at the
  /// fastest rate costs no more than the limit to count. Nothing is written.
  public static func size(ofAdvancing span: Span, _ state: SubscriptionState, at now: Instant,
                          limit: Int = LongStep.confirmAbove) throws(ActionError) -> LongStep.Size {
    try size(until: try target(ofAdvancing: span, state, at: now), state, opening: now, limit: limit)
  }

  /// The same for every event up to `target` from the file's clock (`simulate --until`, whose
  /// `opening` is the wall clock and does not move its start).
  public static func size(until target: Instant, _ state: SubscriptionState, opening: Instant?,
                          limit: Int = LongStep.confirmAbove) throws(ActionError) -> LongStep.Size {
    var ctx = try SimContext(state, opening: opening)
    try ctx.catchUpOverdue()
    let start = ctx.now
    let counted = ctx.run(until: target, limit: limit + 1)
    let complete = counted <= limit
    var estimate = counted
    if !complete, let reached = ctx.lastEventDate, reached > start {
      let share = (target - start).ms / (reached - start).ms
      estimate = Int(min(Double(Int.max / 2), (Double(counted) * share).rounded()))
    }
    return LongStep.Size(events: counted, complete: complete, estimate: estimate)
  }

  /// The instant `+` (advance by `span`) aims at: the clock (or `now`, when later) plus `span`.
  public static func target(ofAdvancing span: Span, _ state: SubscriptionState, at now: Instant) throws(ActionError) -> Instant {
    max(try clock(state, opening: now), now) + span
  }

  /// One save of a long step: applies at most `limit` events towards `target` (from the first
  /// part on, `target` stays the one the step began with). `reached` is false while events due
  /// before `target` remain. A file without a clock says where it started, as every step does.
  public static func advancePart(_ state: SubscriptionState, to target: Instant, at now: Instant,
                                 limit: Int = LongStep.eventsPerSave) throws(ActionError) -> (change: Change, reached: Bool) {
    let change = startedClock(try advance(state, to: target, opening: now, limit: limit), on: state, opening: now)
    let clock = try Simulator.clock(change.state)
    return (change, clock >= target)
  }
}
