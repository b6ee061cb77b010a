import Foundation

/// How often and how long to retry. 429 waits for Apple's Retry-After; 5xx, Apple's "retryable" 404s
/// and timeouts back off exponentially, capped, for a bounded number of attempts.
public struct RetryPolicy: Sendable {
  public var maxAttempts: Int
  public var baseDelay: TimeInterval
  public var maxDelay: TimeInterval
  /// A Retry-After further away than this is not waited for: the fetch fails with the time to come back.
  public var maxRetryAfter: TimeInterval

  public init(maxAttempts: Int = 4, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8, maxRetryAfter: TimeInterval = 60) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.maxRetryAfter = maxRetryAfter
  }

  /// Delay before attempt `attempt + 1` (attempt counts from 1).
  public func backoff(afterAttempt attempt: Int) -> TimeInterval {
    min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
  }

  /// Apple sends Retry-After as a UNIX time in **milliseconds** (identifying-rate-limits), not RFC 9110
  /// seconds. A small number is read as seconds, so a proxy that speaks RFC 9110 still works.
  public static func retryAfterDelay(_ header: String?, now: Date) -> TimeInterval? {
    guard let header, let value = Double(header.trimmingCharacters(in: .whitespaces)), value >= 0 else { return nil }
    if value > 100_000_000_000 { return max(0, value / 1000 - now.timeIntervalSince1970) }
    return value
  }
}
