import FoundationEssentials

/// Anything that fixes how fast subscription time runs: a `TimeRate`, a `SandboxRenewalRate`,
/// the `SimulationRate` that wraps either, or a bare `RateSchedule`.
///
/// Every conformer answers the same questions through its `schedule`, so the engine can take
/// `some RenewalTiming` without caring where the rate came from.
public protocol RenewalTiming: Sendable {
  var schedule: RateSchedule { get }
}

extension RenewalTiming {
  /// How many renewals happen before auto-renew turns off: 12 in sandbox, nil (no cap) otherwise.
  public var renewalCap: Int? { schedule.renewalCap }

  /// Wall-clock length of billing retry.
  public var billingRetry: Span { schedule.billingRetry }

  /// True when periods follow the real calendar (`realTime`).
  public var isRealTime: Bool { schedule.renewal == .calendar }

  /// Wall-clock length of the billing grace period for a subscription of `period`: the
  /// documented "weekly" value for periods shorter than a month, the "other" value otherwise.
  /// This is the StoreKit test value. Production grace (3, 16 or 28 days, chosen in App Store
  /// Connect) is a separate setting. Convert it with `wallClock(for:period:)`.
  public func gracePeriod(for period: ISOPeriod) -> Span {
    period.isShorterThanAMonth ? schedule.graceWeekly : schedule.graceOther
  }

  /// Wall-clock length of one renewal period, or nil for `realTime`, where the length depends
  /// on the calendar (use `periodEnd(from:period:count:)`, which handles both).
  public func renewalLength(of period: ISOPeriod) -> Span? {
    switch schedule.renewal {
    case .calendar: return nil
    case .scaledDay(let perDay): return perDay * Double(period.roughDays)
    case .table(let table): return table.length(of: period)
    case .fixed(let every): return period.isZero ? .zero : every
    }
  }

  /// When `count` renewal periods starting at `start` end. That is the `expiresDate` the App
  /// Store would write. Real time uses calendar arithmetic from the anchor
  /// (`period.adding(count, to: start)`). Accelerated rates add `count` wall-clock renewal
  /// lengths.
  public func periodEnd(from start: Instant, period: ISOPeriod, count: Int = 1) -> Instant {
    guard let length = renewalLength(of: period) else { return period.adding(count, to: start) }
    return start + length * Double(count)
  }

  /// How long `virtual` (a span of subscription time, e.g. a 28-day production grace period)
  /// lasts on the wall clock for a subscription of `period` at this rate.
  ///
  /// The scale is the one the period renews at: renewal length ÷ `period.roughDays` days. So
  /// at `monthlyRenewalEveryFiveMinutes`, 30 days of a monthly subscription take 5 minutes, and
  /// 7 days of a weekly one take 3 minutes. Real time returns `virtual` unchanged. A zero period
  /// falls back to the monthly scale. The documented grace and retry values are not recomputed
  /// this way, because Apple rounds them differently (use `gracePeriod(for:)` and `billingRetry`).
  public func wallClock(for virtual: Span, period: ISOPeriod) -> Span {
    let r = ratio(for: period)
    return Span(ms: virtual.ms * r.wall / r.virtual)
  }

  /// The inverse of `wallClock(for:period:)`: how much subscription time passes during `wall`.
  public func virtualTime(forWallClock wall: Span, period: ISOPeriod) -> Span {
    let r = ratio(for: period)
    return Span(ms: wall.ms * r.virtual / r.wall)
  }

  /// Wall-clock ms that correspond to virtual ms for `period`, kept as a pair so that callers
  /// multiply before dividing and whole-millisecond inputs give whole-millisecond answers.
  private func ratio(for period: ISOPeriod) -> (wall: Double, virtual: Double) {
    if case .calendar = schedule.renewal { return (1, 1) }
    let basis = period.isZero ? .oneMonth : period
    guard let wall = renewalLength(of: basis), wall.ms > 0 else { return (1, 1) }
    return (wall.ms, Span.days(Double(basis.roughDays)).ms)
  }
}
