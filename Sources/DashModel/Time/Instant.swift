// Placeholder replaced by the time branch.
public typealias Millis = Double
public struct Instant: Hashable, Comparable, Sendable {
  public var ms: Double
  public init(ms: Double) { self.ms = ms }
  public static func < (a: Instant, b: Instant) -> Bool { a.ms < b.ms }
  public static func + (a: Instant, b: Millis) -> Instant { Instant(ms: a.ms + b) }
  public static func - (a: Instant, b: Millis) -> Instant { Instant(ms: a.ms - b) }
  public static func - (a: Instant, b: Instant) -> Millis { a.ms - b.ms }
}
