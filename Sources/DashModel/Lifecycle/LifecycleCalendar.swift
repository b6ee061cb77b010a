import CoreValues
/// The few calendar facts the lifecycle rules need, in one place so every message and window
/// uses the same reckoning.
enum LifecycleCalendar {
  /// Apple retries a failed renewal for up to 60 days (reference §2.3).
  static let billingRetryLength = Span.days(60)

  /// A month of *paid time* is 30 days. Paid time is a sum of intervals with no anchor date, so
  /// calendar months cannot apply; 30 days is the month `ISOPeriod.roughDays` and Apple's
  /// StoreKit test tables use.
  static let paidMonthLength = Span.days(30)

  /// Month counts come from hand-edited files; anything beyond 10,000 years is clamped so the
  /// calendar arithmetic can never overflow.
  static let monthLimit = 120_000

  /// `2026-11-22 03:42 UTC`.
  static func date(_ instant: Instant) -> String { Format.date(instant) }

  /// `start` plus `n` calendar months in UTC, the day clamped to the end of a shorter month.
  static func adding(months n: Int, to start: Instant) -> Instant {
    ISOPeriod.oneMonth.adding(min(max(n, -monthLimit), monthLimit), to: start)
  }

  /// Rough length of an ISO 8601 period in days (year 365, month 30, week 7), for ranking only.
  static func roughDays(_ period: String) -> Int {
    (try? ISOPeriod(parsing: period))?.roughDays ?? 0
  }
}
