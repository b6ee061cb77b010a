import FoundationEssentials

/// `SKTestSession.TimeRate` from StoreKitTest, with Apple's raw values, which are also what a
/// `.storekit` file stores in `settings._timeRate`.
///
/// Raw values come from `SKTestSession.h`. Note the gaps: 7–9 and 14 are unused.
/// The wall-clock lengths behind each case are in `schedule`, copied from Apple's per-case
/// documentation tables (reference §5).
public enum TimeRate: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible, RenewalTiming {
  /// Subscriptions renew on the real calendar. This is Apple's default.
  case realTime = 0

  // Deprecated day-scaled rates: one virtual day lasts the named wall-clock time.
  case oneHourIsOneDay = 1
  case thirtyMinutesIsOneDay = 2
  case fiveMinutesIsOneDay = 3
  case oneMinuteIsOneDay = 4
  case thirtySecondsIsOneDay = 5
  case oneSecondIsOneDay = 6

  // Scaled rates (iOS 15.2+): a monthly period lasts the named time, other periods follow
  // Apple's table.
  case monthlyRenewalEveryHour = 10
  case monthlyRenewalEveryThirtyMinutes = 11
  case monthlyRenewalEveryFifteenMinutes = 12
  case monthlyRenewalEveryFiveMinutes = 13
  case monthlyRenewalEveryThirtySeconds = 15

  // Fixed rates (iOS 16.4+): every period of any length renews after the named time.
  case oneRenewalEveryFifteenMinutes = 1000
  case oneRenewalEveryFiveMinutes = 1001
  case oneRenewalEveryMinute = 1002
  case oneRenewalEveryThirtySeconds = 1003
  case oneRenewalEveryTenSeconds = 1004
  case oneRenewalEveryTwoSeconds = 1005

  /// Reads the `.storekit` `settings._timeRate` integer (observed values: 0, 1, 6).
  public init(storeKitValue: Int) throws(TimeParseError) {
    guard let rate = TimeRate(rawValue: storeKitValue) else {
      throw TimeParseError(
        kind: "_timeRate", input: String(storeKitValue),
        reason: "not an SKTestSession.TimeRate raw value (0–6, 10–13, 15, 1000–1005)")
    }
    self = rate
  }

  /// Reads a CLI spelling: Apple's Swift case name (`monthlyRenewalEveryFiveMinutes`, the
  /// canonical form; case is ignored) or the raw value (`13`).
  public init(parsing text: String) throws(TimeParseError) {
    let lowered = text.lowercased()
    if let rate = Self.allCases.first(where: { $0.name.lowercased() == lowered }) {
      self = rate
    } else if let raw = Int(text), let rate = TimeRate(rawValue: raw) {
      self = rate
    } else {
      throw TimeParseError(
        kind: "time rate", input: text,
        reason: "expected an SKTestSession.TimeRate name such as monthlyRenewalEveryFiveMinutes, or its raw value")
    }
  }

  /// Apple's Swift case name, which is also the canonical CLI spelling.
  public var name: String {
    switch self {
    case .realTime: "realTime"
    case .oneHourIsOneDay: "oneHourIsOneDay"
    case .thirtyMinutesIsOneDay: "thirtyMinutesIsOneDay"
    case .fiveMinutesIsOneDay: "fiveMinutesIsOneDay"
    case .oneMinuteIsOneDay: "oneMinuteIsOneDay"
    case .thirtySecondsIsOneDay: "thirtySecondsIsOneDay"
    case .oneSecondIsOneDay: "oneSecondIsOneDay"
    case .monthlyRenewalEveryHour: "monthlyRenewalEveryHour"
    case .monthlyRenewalEveryThirtyMinutes: "monthlyRenewalEveryThirtyMinutes"
    case .monthlyRenewalEveryFifteenMinutes: "monthlyRenewalEveryFifteenMinutes"
    case .monthlyRenewalEveryFiveMinutes: "monthlyRenewalEveryFiveMinutes"
    case .monthlyRenewalEveryThirtySeconds: "monthlyRenewalEveryThirtySeconds"
    case .oneRenewalEveryFifteenMinutes: "oneRenewalEveryFifteenMinutes"
    case .oneRenewalEveryFiveMinutes: "oneRenewalEveryFiveMinutes"
    case .oneRenewalEveryMinute: "oneRenewalEveryMinute"
    case .oneRenewalEveryThirtySeconds: "oneRenewalEveryThirtySeconds"
    case .oneRenewalEveryTenSeconds: "oneRenewalEveryTenSeconds"
    case .oneRenewalEveryTwoSeconds: "oneRenewalEveryTwoSeconds"
    }
  }

  public var description: String { name }

  /// The day-scaled rates Apple deprecated in favour of the monthly and fixed ones.
  public var isDeprecated: Bool { (1...6).contains(rawValue) }

  /// The sandbox setting with the same table, for rates Apple says the sandbox also supports.
  public var sandboxEquivalent: SandboxRenewalRate? {
    switch self {
    case .monthlyRenewalEveryHour: .everyHour
    case .monthlyRenewalEveryThirtyMinutes: .everyThirtyMinutes
    case .monthlyRenewalEveryFifteenMinutes: .everyFifteenMinutes
    case .monthlyRenewalEveryFiveMinutes: .everyFiveMinutes
    default: nil
    }
  }

  /// Apple's documented lengths for this rate (SKTestSession.TimeRate case pages). Columns:
  /// renewal for P1W, P1M, P2M, P3M, P6M, P1Y, then grace (weekly, other) and retry.
  public var schedule: RateSchedule {
    let s = Span.second, m = Span.minute, h = Span.hour
    switch self {
    case .realTime: return .calendar
    case .oneHourIsOneDay: return .scaledDay(h)
    case .thirtyMinutesIsOneDay: return .scaledDay(m * 30)
    case .fiveMinutesIsOneDay: return .scaledDay(m * 5)
    case .oneMinuteIsOneDay: return .scaledDay(m)
    case .thirtySecondsIsOneDay: return .scaledDay(s * 30)
    case .oneSecondIsOneDay: return .scaledDay(s)
    case .monthlyRenewalEveryHour:
      return .table(m * 15, h, h * 2, h * 3, h * 6, h * 12, grace: (m * 12 + s * 51, m * 30), retry: h * 2)
    case .monthlyRenewalEveryThirtyMinutes:
      return .table(m * 10, m * 30, h, h + m * 30, h * 3, h * 6, grace: (m * 8 + s * 34, m * 15), retry: h)
    case .monthlyRenewalEveryFifteenMinutes:
      return .table(
        m * 5, m * 15, m * 30, m * 45, h + m * 30, h * 3, grace: (m * 4 + s * 17, m * 7 + s * 30), retry: m * 30)
    case .monthlyRenewalEveryFiveMinutes:
      // Weekly grace is documented as 2 min 34 s (6/7 of the 3-minute week); kept as documented.
      return .table(
        m * 3, m * 5, m * 10, m * 15, m * 30, h, grace: (m * 2 + s * 34, m * 2 + s * 30), retry: m * 10)
    case .monthlyRenewalEveryThirtySeconds:
      return .table(s * 10, s * 30, m, m + s * 30, m * 3, m * 6, grace: (s * 9, s * 15), retry: m)
    case .oneRenewalEveryFifteenMinutes: return .fixed(m * 15)
    case .oneRenewalEveryFiveMinutes: return .fixed(m * 5)
    case .oneRenewalEveryMinute: return .fixed(m)
    case .oneRenewalEveryThirtySeconds: return .fixed(s * 30)
    case .oneRenewalEveryTenSeconds: return .fixed(s * 10)
    case .oneRenewalEveryTwoSeconds: return .fixed(s * 2)
    }
  }
}
