import CoreValues
/// When the App Store tries a notification again after a failed attempt.
///
/// Production: five retries, 1, 12, 24, 48 and 72 hours after the previous attempt (six attempts
/// at most, ≈ 157 hours in all). Apple's sandbox makes one attempt and never retries
/// (docs/appstore-server-api.md §5.3). The hours are subscription time: at an accelerated rate
/// they shrink as the subscription's periods do, so at `monthlyRenewalEveryFiveMinutes` the whole
/// production schedule takes about a minute of wall time.
public enum RetrySchedule: String, Sendable, CaseIterable {
  case production
  case sandbox

  /// Delays after the previous attempt, in subscription time.
  public var delays: [Span] {
    switch self {
    case .production: [1, 12, 24, 48, 72].map { Span.hours($0) }
    case .sandbox: []
    }
  }

  /// The first attempt and every retry.
  public var maxAttempts: Int { delays.count + 1 }

  /// When attempt `attemptsSoFar + 1` is due, after attempt `attemptsSoFar` failed at `last`;
  /// nil once every attempt is spent. `timing` and `period` scale the delay as the subscription's
  /// own periods are scaled.
  public func nextAttempt(afterAttempts attemptsSoFar: Int, lastAt last: Instant,
                          timing: some RenewalTiming, period: ISOPeriod) -> Instant? {
    guard attemptsSoFar >= 1, attemptsSoFar <= delays.count else { return nil }
    return last + timing.wallClock(for: delays[attemptsSoFar - 1], period: period)
  }
}
