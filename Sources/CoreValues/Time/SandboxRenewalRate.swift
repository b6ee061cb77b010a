import FoundationEssentials

/// The App Store sandbox "subscription renewal rate", set per Sandbox Apple Account in App
/// Store Connect. It is kept apart from `TimeRate` because it is a different environment: it caps
/// renewals at 12, offers a 3-minute rate StoreKit Testing lacks, and has no fixed or
/// day-scaled rates. (TestFlight's daily renewals are out of scope.)
public enum SandboxRenewalRate: CaseIterable, Hashable, Sendable, CustomStringConvertible, RenewalTiming {
  case everyThreeMinutes
  /// Apple's default: "1 month = 5 minutes".
  case everyFiveMinutes
  case everyFifteenMinutes
  case everyThirtyMinutes
  case everyHour

  public static let `default` = SandboxRenewalRate.everyFiveMinutes

  /// "Subscriptions renew up to 12 times before auto-renewal turns off on the thirteenth
  /// renewal attempt."
  public static let renewalLimit = 12

  /// Reads the CLI spelling: `sandbox-3m`, `sandbox-5m`, `sandbox-15m`, `sandbox-30m`,
  /// `sandbox-1h`, or plain `sandbox` for the default.
  public init(parsing text: String) throws(TimeParseError) {
    if text == "sandbox" {
      self = .default
    } else if let rate = Self.allCases.first(where: { $0.name == text }) {
      self = rate
    } else {
      throw TimeParseError(
        kind: "sandbox renewal rate", input: text,
        reason: "expected " + Self.allCases.map(\.name).joined(separator: ", "))
    }
  }

  /// Canonical CLI spelling, e.g. `sandbox-5m`.
  public var name: String {
    switch self {
    case .everyThreeMinutes: "sandbox-3m"
    case .everyFiveMinutes: "sandbox-5m"
    case .everyFifteenMinutes: "sandbox-15m"
    case .everyThirtyMinutes: "sandbox-30m"
    case .everyHour: "sandbox-1h"
    }
  }

  public var description: String { name }

  /// The sandbox table (App Store Connect Help, "Test in-app purchases"). Verified cells:
  /// 1 week, 1 month and 2 months at every rate, and 3 months at 3 and 5 minutes. The other
  /// cells equal the StoreKit Testing rate with the same monthly length, which Apple says the
  /// sandbox also supports. At 3 minutes, 6 months = 18 min and 1 year = 36 min are inferred
  /// from the linear month column.
  /// Apple says the rate "also determines" grace and retry but publishes no numbers. We take
  /// the matching StoreKit Testing values. For 3 minutes: weekly 2 min 34 s, other 1 min 30 s,
  /// retry 6 min, by the same ratios as the 5-minute rate.
  public var schedule: RateSchedule {
    let s = Span.second, m = Span.minute, h = Span.hour
    let cap = Self.renewalLimit
    switch self {
    case .everyThreeMinutes:
      return .table(
        m * 3, m * 3, m * 6, m * 9, m * 18, m * 36, grace: (m * 2 + s * 34, m + s * 30), retry: m * 6, cap: cap)
    case .everyFiveMinutes:
      return .table(
        m * 3, m * 5, m * 10, m * 15, m * 30, h, grace: (m * 2 + s * 34, m * 2 + s * 30), retry: m * 10, cap: cap)
    case .everyFifteenMinutes:
      return .table(
        m * 5, m * 15, m * 30, m * 45, h + m * 30, h * 3, grace: (m * 4 + s * 17, m * 7 + s * 30), retry: m * 30,
        cap: cap)
    case .everyThirtyMinutes:
      return .table(
        m * 10, m * 30, h, h + m * 30, h * 3, h * 6, grace: (m * 8 + s * 34, m * 15), retry: h, cap: cap)
    case .everyHour:
      return .table(
        m * 15, h, h * 2, h * 3, h * 6, h * 12, grace: (m * 12 + s * 51, m * 30), retry: h * 2, cap: cap)
    }
  }
}
