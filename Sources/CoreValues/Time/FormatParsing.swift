import FoundationEssentials

extension Format {
  /// Reads a date from the CLI or a hand-edited state file. All of these mean an instant:
  /// - ISO 8601: `2026-11-22T03:42:00Z`, `2026-11-22T03:42:00.5Z`,
  ///   `2023-10-19T01:45:36.0497297Z`, `2026-11-22T05:42:00+02:00` (also `+0200`, `+02`)
  /// - `2026-11-22` (midnight UTC), `2026-11-22 03:42`, `2026-11-22 03:42:10`,
  ///   `2026-11-22 03:42 UTC` (what `Format.date` prints)
  /// - milliseconds since 1970: `1795318920000`, `1697679936049.7297`
  ///
  /// A time with no zone is UTC. Fractional seconds are read digit by digit, with no binary
  /// rounding on the way. `Instant.description` therefore reads back to the same `ms`, and so
  /// does a JSON payload's fractional millisecond value.
  public static func parseDate(_ text: String) throws(TimeParseError) -> Instant {
    func fail(_ reason: String) -> TimeParseError {
      TimeParseError(kind: "date", input: text, reason: reason)
    }
    let expected = "expected 2026-11-22, 2026-11-22 03:42, 2026-11-22T03:42:00Z or milliseconds since 1970"
    let trimmed = text.trimmedSpaces
    guard !trimmed.isEmpty else { throw fail("empty; " + expected) }

    if isDecimalNumber(trimmed) {
      // The dates a state file holds: beyond them calendar arithmetic on the instant would trap.
      guard let ms = Double(trimmed), ms.isFinite, Instant.fileRange.contains(Instant(ms: ms)) else {
        throw fail("\(trimmed) ms is outside years 1900–3000")
      }
      return Instant(ms: ms)
    }

    var c = TextCursor(trimmed)
    guard let year = c.fixedDigits(4), c.take(UInt8(ascii: "-")),
      let month = c.fixedDigits(2), c.take(UInt8(ascii: "-")),
      let day = c.fixedDigits(2)
    else { throw fail(expected) }
    guard (1...12).contains(month) else { throw fail("month \(month) does not exist") }
    let monthLength = Civil.daysIn(year: year, month: month)
    guard (1...monthLength).contains(day) else {
      throw fail("\(Civil.monthAbbreviations[month - 1]) \(year) has \(monthLength) days")
    }

    var hour = 0, minute = 0, second = 0, fraction = "", offsetMinutes = 0
    if !c.isAtEnd {
      guard c.take(UInt8(ascii: "T")) || c.take(UInt8(ascii: "t")) || c.take(UInt8(ascii: " ")),
        let h = c.fixedDigits(2), c.take(UInt8(ascii: ":")), let m = c.fixedDigits(2)
      else { throw fail(expected) }
      hour = h
      minute = m
      if c.take(UInt8(ascii: ":")) {
        guard let s = c.fixedDigits(2) else { throw fail("seconds need two digits") }
        second = s
        if c.take(UInt8(ascii: ".")) || c.take(UInt8(ascii: ",")) {
          fraction = c.digits()
          guard !fraction.isEmpty else { throw fail("no digits after the decimal point") }
        }
      }
      guard hour <= 23, minute <= 59, second <= 59 else {
        throw fail("time \(Civil.pad(hour, 2)):\(Civil.pad(minute, 2)):\(Civil.pad(second, 2)) is out of range")
      }
      offsetMinutes = try parseZone(&c, fail)
      guard c.isAtEnd else { throw fail("unexpected \"\(TimeParseError.printable(c.rest))\" after the time") }
    }

    let millisDigits = String((fraction + "000").prefix(3))
    let subMillis = String(fraction.dropFirst(3))
    let wholeMs =
      Int64(Civil.days(from: .init(year: year, month: month, day: day))) * 86_400_000
      + Int64(hour * 3_600_000 + minute * 60_000 + second * 1_000 - offsetMinutes * 60_000)
      + Int64(millisDigits)!
    guard !subMillis.isEmpty else { return Instant(ms: Double(wholeMs)) }
    if wholeMs >= 0 {
      // One correctly rounded decimal-to-binary conversion, like a JSON parser's.
      return Instant(ms: Double("\(wholeMs).\(subMillis)")!)
    }
    return Instant(ms: Double(wholeMs) + Double("0.\(subMillis)")!)
  }

  /// `Z`, `±HH:MM`, `±HHMM`, `±HH`, ` UTC`/` GMT`, or nothing (UTC). Returns minutes east of UTC.
  private static func parseZone(
    _ c: inout TextCursor, _ fail: (String) -> TimeParseError
  ) throws(TimeParseError) -> Int {
    if c.take(UInt8(ascii: "Z")) || c.take(UInt8(ascii: "z")) { return 0 }
    let sign: Int? = c.take(UInt8(ascii: "+")) ? 1 : c.take(UInt8(ascii: "-")) ? -1 : nil
    if let sign {
      guard let hh = c.fixedDigits(2), hh <= 23 else { throw fail("offset needs hours as ±HH, ±HH:MM or ±HHMM") }
      var mm = 0
      let colon = c.take(UInt8(ascii: ":"))
      if colon || c.peek != nil {
        guard let m = c.fixedDigits(2), m <= 59 else { throw fail("offset minutes need two digits") }
        mm = m
      }
      return sign * (hh * 60 + mm)
    }
    c.skipSpaces()
    if c.take("UTC") || c.take("GMT") { return 0 }
    return 0
  }

  /// True for `123`, `-123`, `123.45`: a bare millisecond count.
  private static func isDecimalNumber(_ text: String) -> Bool {
    var c = TextCursor(text)
    _ = c.take(UInt8(ascii: "-"))
    guard !c.digits().isEmpty else { return false }
    if c.take(UInt8(ascii: ".")), c.digits().isEmpty { return false }
    return c.isAtEnd
  }

  /// Reads a length for CLI flags such as `--grace 16d`: number-unit pairs from largest to
  /// smallest unit, each unit at most once. Units: `w`, `d`, `h`, `m`, `s`, `ms`. Examples:
  /// `16d`, `90m`, `1h30m`, `1h 30m`, `2w`, `1.5h`, `250ms`. A bare `0` is zero. Negative
  /// lengths are rejected: every flag that takes one means "how long".
  public static func parseSpan(_ text: String) throws(TimeParseError) -> Span {
    func fail(_ reason: String) -> TimeParseError {
      TimeParseError(kind: "duration", input: text, reason: reason)
    }
    let expected = "expected number-unit pairs like 16d, 90m, 1h30m or 2w (units w d h m s ms)"
    let trimmed = text.trimmedSpaces
    if trimmed == "0" { return .zero }
    let units: [(String, Span)] = [
      ("w", .week), ("d", .day), ("h", .hour), ("ms", .millisecond), ("m", .minute), ("s", .second),
    ]
    // Position in the largest-to-smallest order, for the ordering rule.
    let rank = ["w": 0, "d": 1, "h": 2, "m": 3, "s": 4, "ms": 5]
    var c = TextCursor(trimmed)
    var total = Span.zero
    var lastRank = -1
    guard !c.isAtEnd else { throw fail("empty; " + expected) }
    while !c.isAtEnd {
      var number = c.digits()
      guard !number.isEmpty else {
        if c.peek == UInt8(ascii: "-") { throw fail("lengths cannot be negative") }
        throw fail(expected)
      }
      if c.take(UInt8(ascii: ".")) {
        let decimals = c.digits()
        guard !decimals.isEmpty else { throw fail("no digits after the decimal point") }
        number += "." + decimals
      }
      guard let (unit, size) = units.first(where: { c.take($0.0) }) else {
        throw fail("\(number) has no unit; " + expected)
      }
      let r = rank[unit]!
      guard r > lastRank else { throw fail("units must go from largest to smallest, each once (e.g. 1h30m)") }
      lastRank = r
      // Digits only, so always a number, but 400 of them make it infinite (and a Span traps on that):
      // no length is longer than the dates a state file holds.
      let ms = total.ms + size.ms * (Double(number) ?? .infinity)
      guard ms <= (Instant.fileRange.upperBound - Instant.fileRange.lowerBound).ms else {
        throw fail("longer than the years 1900–3000 a state file's dates span")
      }
      total = Span(ms: ms)
      c.skipSpaces()
    }
    return total
  }
}
