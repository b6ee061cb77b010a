import FoundationEssentials

/// A calendar period such as `P1M` or `P1Y2M10D`: the length of a subscription, an offer or a
/// grace period, exactly as App Store payloads and `.storekit` files spell it.
///
/// Components are kept as written (`P1W` and `P7D` are different values that print back
/// differently), because the model echoes them into payloads. Only date components exist:
/// App Store durations never use hours, so `PT…` is rejected when parsing.
/// The value is not `Comparable` (P1W and P7D are as long as each other but not equal).
/// Sort by `roughDays` instead.
public struct ISOPeriod: Hashable, Sendable, CustomStringConvertible {
  public let years: Int
  public let months: Int
  public let weeks: Int
  public let days: Int

  /// Largest value accepted for one component, so arithmetic with it can never overflow.
  public static let componentLimit = 9_999

  public init(years: Int = 0, months: Int = 0, weeks: Int = 0, days: Int = 0) {
    precondition(
      [years, months, weeks, days].allSatisfy { (0...Self.componentLimit).contains($0) },
      "ISOPeriod components must be in 0...\(Self.componentLimit)")
    self.years = years
    self.months = months
    self.weeks = weeks
    self.days = days
  }

  public static let threeDays = ISOPeriod(days: 3)
  public static let oneWeek = ISOPeriod(weeks: 1)
  public static let twoWeeks = ISOPeriod(weeks: 2)
  public static let oneMonth = ISOPeriod(months: 1)
  public static let twoMonths = ISOPeriod(months: 2)
  public static let threeMonths = ISOPeriod(months: 3)
  public static let sixMonths = ISOPeriod(months: 6)
  public static let oneYear = ISOPeriod(years: 1)

  public var isZero: Bool { years == 0 && months == 0 && weeks == 0 && days == 0 }

  /// True for periods with no month or year part (P1W, P2W, P3D). Grace periods and scaled
  /// renewal tables treat these "weekly" lengths separately from monthly and longer ones.
  public var isShorterThanAMonth: Bool { years == 0 && months == 0 }

  /// A rough length in whole days, for ranking and sorting (e.g. win-back offers by duration)
  /// and for scaling time rates: a year counts 365 days, a month 30, a week 7.
  /// The 30-day month is Apple's own reckoning in the StoreKit test tables: the "60 days"
  /// billing retry equals two monthly renewals at every scaled rate.
  /// Use `adding(_:to:)` for real dates.
  public var roughDays: Int { years * 365 + months * 30 + weeks * 7 + days }

  /// Canonical ISO 8601 text: `P1Y2M10D`. The zero period prints `P0D`.
  public var description: String {
    if isZero { return "P0D" }
    var text = "P"
    if years != 0 { text += "\(years)Y" }
    if months != 0 { text += "\(months)M" }
    if weeks != 0 { text += "\(weeks)W" }
    if days != 0 { text += "\(days)D" }
    return text
  }

  /// English name for the UI: `1 month`, `2 weeks`, `1 year, 2 months, 10 days`.
  public var name: String {
    if isZero { return "0 days" }
    let parts: [(Int, String)] = [(years, "year"), (months, "month"), (weeks, "week"), (days, "day")]
    return parts.filter { $0.0 != 0 }
      .map { counted($0.0, $0.1) }
      .joined(separator: ", ")
  }

  /// The instant `n` periods after `start` (before it when `n` is negative), in the UTC Gregorian
  /// calendar.
  ///
  /// Matches `Calendar.date(byAdding:to:)` with components multiplied by `n`: years are added
  /// first, then months, then weeks and days, and each step clamps the day to the end of a
  /// shorter month (Jan 31 + P1M = Feb 28 or 29; Feb 29 + P1Y = Feb 28). `n` periods are added
  /// in one step from the anchor, so Jan 31 + 2×P1M is Mar 31, not Mar 28. Use it that way to
  /// keep a renewal on the anchor's day of the month. The time of day, including any fraction
  /// of a millisecond, is carried over unchanged.
  public func adding(_ n: Int = 1, to start: Instant) -> Instant {
    let (day, timeOfDay) = Civil.split(start.ms)
    var date = Civil.date(fromDays: day)
    if years != 0 {
      date.year += n * years
      date.day = min(date.day, Civil.daysIn(year: date.year, month: date.month))
    }
    if months != 0 {
      let index = date.year * 12 + (date.month - 1) + n * months
      date.year = index >= 0 ? index / 12 : (index - 11) / 12
      date.month = index - date.year * 12 + 1
      date.day = min(date.day, Civil.daysIn(year: date.year, month: date.month))
    }
    let newDay = Civil.days(from: date) + n * (weeks * 7 + days)
    return Instant(ms: Double(newDay) * Civil.msPerDay + timeOfDay)
  }
}
