import DashModel

/// How `subdash deliver` sends: where, on which retry schedule, and the deliberate disorder a
/// backend must survive (Apple: "notifications can arrive out of order", duplicates are possible).
public struct DeliveryOptions: Sendable {
  public var url: String
  public var schedule: RetrySchedule
  /// Chance in [0, 1] that a delivered notification is sent a second time (same bytes, same UUID).
  public var duplicateRate: Double
  /// Each new notification (and each duplicate) waits a random 0…window seconds before its first
  /// attempt, so notifications written close together can arrive in any order.
  public var reorderWindow: Double
  public var seed: UInt64
  /// Seconds an attempt may take before it counts as TIMED_OUT (Apple: "a few seconds at most").
  public var timeout: Double
  /// Sent as `data.appAppleId` (Apple's verifiers require it for Production payloads).
  public var appAppleId: Int64?
  /// Attempts in flight at once. 1 (the default) keeps the written order whenever nothing is
  /// retried or held back by `reorderWindow`, so disorder is only ever the one asked for.
  public var concurrency: Int

  public init(url: String, schedule: RetrySchedule = .production, duplicateRate: Double = 0, reorderWindow: Double = 0,
              seed: UInt64 = 0, timeout: Double = 5, appAppleId: Int64? = nil, concurrency: Int = 1) {
    self.url = url
    self.schedule = schedule
    self.duplicateRate = duplicateRate
    self.reorderWindow = reorderWindow
    self.seed = seed
    self.timeout = timeout
    self.appAppleId = appAppleId
    self.concurrency = concurrency
  }
}

/// Why delivery stopped: the state file could not be read or written (one line, with where).
public struct DeliveryError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
