import FoundationEssentials

/// A point in time: milliseconds since 1970-01-01T00:00:00Z, as App Store payloads carry it.
///
/// The model never reads the wall clock, so an `Instant` only ever comes from data (a payload,
/// the state file, a CLI flag) or from arithmetic on another `Instant`. The value is a `Double`
/// because Xcode-signed transactions carry fractional milliseconds (`1697679936049.7297`). Those
/// must survive a load/save round trip unchanged, and `Double` holds them exactly as JSON gave
/// them. Server payloads carry whole milliseconds, which a `Double` holds exactly as well.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since 1970, possibly fractional. Never NaN or infinite.
  public let ms: Double

  public init(ms: Double) {
    precondition(ms.isFinite, "Instant needs a finite number of milliseconds")
    self.ms = ms
  }

  /// 1970-01-01T00:00:00Z.
  public static let epoch = Instant(ms: 0)

  /// The dates a state file may hold: 1900-01-01 to 3000-01-01 (UTC). Outside it a number is
  /// almost always a seconds-for-milliseconds mistake, and calendar arithmetic would overflow; the
  /// loader refuses such dates, so nothing may write one either.
  public static let fileRange = Instant(ms: -2_208_988_800_000)...Instant(ms: 32_503_680_000_000)

  public static func < (a: Instant, b: Instant) -> Bool { a.ms < b.ms }
  public static func + (a: Instant, b: Span) -> Instant { Instant(ms: a.ms + b.ms) }
  public static func - (a: Instant, b: Span) -> Instant { Instant(ms: a.ms - b.ms) }
  /// How long after `b` the instant `a` is (negative when `a` is earlier).
  public static func - (a: Instant, b: Instant) -> Span { Span(ms: a.ms - b.ms) }
  public static func += (a: inout Instant, b: Span) { a = a + b }
  public static func -= (a: inout Instant, b: Span) { a = a - b }

  /// ISO 8601 in UTC: `2026-11-22T03:42:00Z`. Milliseconds appear only when non-zero
  /// (`2026-11-22T03:42:00.500Z`). Sub-millisecond digits follow them
  /// (`2023-10-19T01:45:36.0497297Z`), so `Format.parseDate(description)` gives back the same `ms`.
  public var description: String {
    let f = Civil.fields(ms)
    var text = "\(Civil.pad(f.date.year, 4))-\(Civil.pad(f.date.month, 2))-\(Civil.pad(f.date.day, 2))"
      + "T\(Civil.pad(f.hour, 2)):\(Civil.pad(f.minute, 2)):\(Civil.pad(f.second, 2))"
    let sub = subMillisecondDigits(f.fraction)
    if f.millisecond != 0 || !sub.isEmpty {
      text += "." + Civil.pad(f.millisecond, 3) + sub
    }
    return text + "Z"
  }

  /// The decimal digits below one millisecond, shortest form that reads back to the same value.
  /// For ordinary positive instants these are the digits after the point in Swift's own
  /// round-trip rendering of `ms`, so nothing is invented or lost.
  private func subMillisecondDigits(_ fraction: Double) -> String {
    guard fraction != 0 else { return "" }
    let rendered = String(ms)
    if ms > 0, !rendered.contains("e"), let dot = rendered.firstIndex(of: ".") {
      return String(rendered[rendered.index(after: dot)...])
    }
    // Pre-1970 or exotic magnitudes: six digits are plenty for display.
    let micro = min(999_999, Int((fraction * 1_000_000).rounded()))
    var digits = Civil.pad(micro, 6)
    while digits.hasSuffix("0") { digits.removeLast() }
    return digits
  }
}
