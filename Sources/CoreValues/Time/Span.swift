import FoundationEssentials

/// A length of time in milliseconds: a virtual-time duration, or a wall-clock one when a
/// `TimeRate` converts it.
///
/// Durations get their own type, not a bare `Double`, so that an `Instant` and a length can
/// never be mixed up. The payload stays a `Double` so it matches `Instant` and keeps
/// fractional milliseconds exact. Lengths of calendar periods (months, years) are *not*
/// spans, because their length depends on where they start. Those are `ISOPeriod`s.
public struct Span: Hashable, Comparable, Sendable, AdditiveArithmetic, CustomStringConvertible {
  /// Milliseconds. May be negative or fractional. Never NaN or infinite.
  public let ms: Double

  public init(ms: Double) {
    precondition(ms.isFinite, "Span needs a finite number of milliseconds")
    self.ms = ms
  }

  public static let zero = Span(ms: 0)
  public static let millisecond = Span(ms: 1)
  public static let second = Span(ms: 1_000)
  public static let minute = Span(ms: 60_000)
  public static let hour = Span(ms: 3_600_000)
  /// 24 hours. UTC has no daylight-saving days, so this is exact for our clock.
  public static let day = Span(ms: 86_400_000)
  public static let week = Span(ms: 604_800_000)

  public static func seconds(_ n: Double) -> Span { second * n }
  public static func minutes(_ n: Double) -> Span { minute * n }
  public static func hours(_ n: Double) -> Span { hour * n }
  public static func days(_ n: Double) -> Span { day * n }
  public static func weeks(_ n: Double) -> Span { week * n }

  /// The length in seconds, for display and for sleeping APIs that take seconds.
  public var seconds: Double { ms / 1_000 }

  /// Exact compact spelling that `Format.parseSpan` reads back, e.g. `1h30m` or `2m34s`.
  public var description: String { Format.span(self) }

  public static func < (a: Span, b: Span) -> Bool { a.ms < b.ms }
  public static func + (a: Span, b: Span) -> Span { Span(ms: a.ms + b.ms) }
  public static func - (a: Span, b: Span) -> Span { Span(ms: a.ms - b.ms) }
  public static prefix func - (a: Span) -> Span { Span(ms: -a.ms) }
  public static func * (a: Span, k: Double) -> Span { Span(ms: a.ms * k) }
  public static func * (k: Double, a: Span) -> Span { Span(ms: a.ms * k) }
  public static func / (a: Span, k: Double) -> Span { Span(ms: a.ms / k) }
  /// How many times `b` fits into `a`, e.g. `Span.hour / Span.minute == 60`.
  public static func / (a: Span, b: Span) -> Double { a.ms / b.ms }
}
