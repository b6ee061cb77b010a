import FoundationEssentials

/// Human-readable text for times, lengths and prices. Pure functions, UTC only.
///
/// The dashboard shows UTC everywhere because App Store payloads, server logs and the state
/// file all do, so a date on screen can be compared with a payload by eye.
public enum Format {
  /// Apple's milliunit percentages (revocationPercentage, consumptionPercentage): 50000 is "50%",
  /// 37500 is "37.5%".
  public static func milliPercent(_ milliunits: Int) -> String {
    let m = milliunits.magnitude
    var frac = String(m % 1000)
    frac = String(repeating: "0", count: 3 - frac.count) + frac
    while frac.hasSuffix("0") { frac.removeLast() }
    return (milliunits < 0 ? "-" : "") + "\(m / 1000)" + (frac.isEmpty ? "" : "." + frac) + "%"
  }

  /// Time left until a deadline, in the two largest units with the second one zero-padded:
  /// `12d 04h`, `3d 02h`, `4h 05m`, `5m 03s`, `42s`.
  ///
  /// Rounds *up* to whole seconds, then truncates below the second unit shown. Rounding up
  /// means a deadline that has not passed never reads `0s`: 1 ms left shows `1s`, and the text
  /// turns to `0s` exactly at the deadline. Zero and negative spans read `0s`. Fixed-width
  /// fields keep table columns from jittering as the clock ticks.
  public static func countdown(_ span: Span) -> String {
    guard span.ms > 0 else { return "0s" }
    // Clamp absurd lengths (thousands of years) so the integer conversion cannot trap.
    let total = Int(min((span.ms / 1_000).rounded(.up), 1e15))
    let days = total / 86_400, hours = total / 3_600 % 24
    let minutes = total / 60 % 60, seconds = total % 60
    if days > 0 { return "\(days)d \(Civil.pad(hours, 2))h" }
    if hours > 0 { return "\(hours)h \(Civil.pad(minutes, 2))m" }
    if minutes > 0 { return "\(minutes)m \(Civil.pad(seconds, 2))s" }
    return "\(seconds)s"
  }

  /// A wait that may be under a second (delivery retries at fast rates): `0.4s`, `9.5s`, then as
  /// `countdown`.
  public static func wait(_ span: Span) -> String {
    guard span.ms < 10_000 else { return countdown(span) }
    let tenths = Int((max(0, span.ms) / 100).rounded(.up))
    return "\(tenths / 10).\(tenths % 10)s"
  }

  /// `2026-11-22 03:42 UTC`. Seconds are truncated, not rounded, so the minute shown has
  /// already begun.
  public static func date(_ instant: Instant) -> String {
    let f = Civil.fields(instant.ms)
    return "\(Civil.pad(f.date.year, 4))-\(Civil.pad(f.date.month, 2))-\(Civil.pad(f.date.day, 2)) "
      + "\(Civil.pad(f.hour, 2)):\(Civil.pad(f.minute, 2)) UTC"
  }

  /// `Nov 22 03:42` (UTC, no year; the day is zero-padded, `Nov 02`, so columns line up),
  /// `Nov 22 03:42:07` with `seconds` (truncated, like the minute), or `2026-11-22 03:42` with
  /// `year`, for lists that span more than one year.
  public static func dateShort(_ instant: Instant, seconds: Bool = false, year: Bool = false) -> String {
    let f = Civil.fields(instant.ms)
    let day = year
      ? "\(Civil.pad(f.date.year, 4))-\(Civil.pad(f.date.month, 2))-\(Civil.pad(f.date.day, 2)) "
      : "\(Civil.monthAbbreviations[f.date.month - 1]) \(Civil.pad(f.date.day, 2)) "
    return day + "\(Civil.pad(f.hour, 2)):\(Civil.pad(f.minute, 2))" + (seconds ? ":\(Civil.pad(f.second, 2))" : "")
  }

  /// Exact compact length in the syntax `parseSpan` reads: `16d`, `1h30m`, `2m34s`,
  /// `1s500ms`, `-5m`. Zero is `0s`. Weeks are shown as days. A fraction of a millisecond
  /// stays in the `ms` part (`0.7297ms`).
  public static func span(_ span: Span) -> String {
    guard span.ms != 0 else { return "0s" }
    let sign = span.ms < 0 ? "-" : ""
    let magnitude = abs(span.ms)
    guard magnitude < 1e15 else { return "\(sign)\(magnitude)ms" }
    let wholeMs = Int(magnitude.rounded(.down))
    var parts: [String] = []
    let units: [(Int, String)] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1_000, "s")]
    var rest = wholeMs
    for (size, unit) in units where rest >= size {
      parts.append("\(rest / size)\(unit)")
      rest %= size
    }
    let msPart = magnitude - Double(wholeMs - rest)  // exact: the remaining ms with any fraction
    if msPart != 0 {
      parts.append(msPart == msPart.rounded(.down) ? "\(Int(msPart))ms" : "\(msPart)ms")
    }
    return sign + parts.joined()
  }
}
