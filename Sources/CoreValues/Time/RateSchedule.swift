import FoundationEssentials

/// How one time rate maps subscription periods, grace and billing retry onto wall-clock time.
///
/// The simulator keeps the App Store's own semantics for accelerated time. A transaction
/// bought at wall-clock `t` under "a month every five minutes" expires at `t + 5 min`, so
/// dates stay real instants and only lengths shrink. That is what sandbox and StoreKit Testing
/// write into their transactions.
/// Lengths come from Apple's documented tables, cell by cell, and not from a formula. The
/// tables are not linear: at `monthlyRenewalEveryHour` a week renews in 15 min, not 14, and
/// weekly grace is 12 min 51 s.
public struct RateSchedule: Hashable, Sendable, RenewalTiming {
  /// How renewal periods turn into wall-clock lengths.
  public enum Renewal: Hashable, Sendable {
    /// Real calendar arithmetic: a month is a calendar month (`realTime`).
    case calendar
    /// Every virtual day lasts this long, and a period lasts `roughDays` of them
    /// (the deprecated `oneHourIsOneDay` … `oneSecondIsOneDay`).
    case scaledDay(Span)
    /// Apple's per-period table (`monthlyRenewalEvery…` and the sandbox rates).
    case table(PeriodTable)
    /// Every period, whatever its length, renews after this long (`oneRenewalEvery…`).
    case fixed(Span)
  }

  public let renewal: Renewal
  /// Grace period for periods shorter than a month (the "weekly" column).
  public let graceWeekly: Span
  /// Grace period for monthly and longer periods.
  public let graceOther: Span
  /// How long billing retry lasts before the subscription expires for good.
  public let billingRetry: Span
  /// How many renewals happen before auto-renew turns off: 12 in sandbox, nil (no cap) elsewhere.
  public let renewalCap: Int?

  public init(renewal: Renewal, graceWeekly: Span, graceOther: Span, billingRetry: Span, renewalCap: Int?) {
    self.renewal = renewal
    self.graceWeekly = graceWeekly
    self.graceOther = graceOther
    self.billingRetry = billingRetry
    self.renewalCap = renewalCap
  }

  public var schedule: RateSchedule { self }

  /// A documented table: six renewal lengths, two grace lengths, one retry length.
  static func table(
    _ w: Span, _ m: Span, _ m2: Span, _ m3: Span, _ m6: Span, _ y: Span,
    grace: (weekly: Span, other: Span), retry: Span, cap: Int? = nil
  ) -> RateSchedule {
    RateSchedule(
      renewal: .table(PeriodTable(week: w, month: m, twoMonths: m2, threeMonths: m3, sixMonths: m6, year: y)),
      graceWeekly: grace.weekly, graceOther: grace.other, billingRetry: retry, renewalCap: cap)
  }

  /// `oneRenewalEvery…`: renew every `n`, grace `n`, retry `2n` (Apple's tables for all six).
  static func fixed(_ n: Span) -> RateSchedule {
    RateSchedule(renewal: .fixed(n), graceWeekly: n, graceOther: n, billingRetry: n * 2, renewalCap: nil)
  }

  /// The deprecated day-scaled rates: the real-time grace and retry, shrunk like everything else.
  static func scaledDay(_ perDay: Span) -> RateSchedule {
    RateSchedule(
      renewal: .scaledDay(perDay), graceWeekly: perDay * 6, graceOther: perDay * 16,
      billingRetry: perDay * 60, renewalCap: nil)
  }

  /// StoreKit Testing in real time: calendar periods, grace 6 days weekly / 16 days otherwise,
  /// retry 60 days.
  static let calendar = RateSchedule(
    renewal: .calendar, graceWeekly: .days(6), graceOther: .days(16), billingRetry: .days(60), renewalCap: nil)
}

/// The wall-clock renewal lengths of one scaled rate, one cell per documented period.
public struct PeriodTable: Hashable, Sendable {
  public let week: Span
  public let month: Span
  public let twoMonths: Span
  public let threeMonths: Span
  public let sixMonths: Span
  public let year: Span

  public init(week: Span, month: Span, twoMonths: Span, threeMonths: Span, sixMonths: Span, year: Span) {
    self.week = week
    self.month = month
    self.twoMonths = twoMonths
    self.threeMonths = threeMonths
    self.sixMonths = sixMonths
    self.year = year
  }

  /// The documented cell for P1W, P1M, P2M, P3M, P6M and P1Y. Other periods (P3D trials,
  /// P2W, P1Y2M…) are not in Apple's tables. They are built from the cells as years × year +
  /// months × month + weeks × week + days × week/7. That is an inference, but it agrees with
  /// every documented cell (2, 3, 6 and 12 months are exact multiples of the month in every table).
  public func length(of period: ISOPeriod) -> Span {
    switch period {
    case .oneWeek: return week
    case .oneMonth: return month
    case .twoMonths: return twoMonths
    case .threeMonths: return threeMonths
    case .sixMonths: return sixMonths
    case .oneYear: return year
    default:
      return year * Double(period.years) + month * Double(period.months)
        + week * Double(period.weeks) + week * (Double(period.days) / 7)
    }
  }
}
