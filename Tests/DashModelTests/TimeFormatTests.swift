import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

@Suite("Human formatting and parsing")
struct TimeFormatTests {
  @Test(arguments: [
    (12 * 86_400_000 + 4 * 3_600_000, "12d 04h"), (3 * 86_400_000 + 2 * 3_600_000 + 59 * 60_000, "3d 02h"),
    (4 * 3_600_000 + 5 * 60_000, "4h 05m"), (5 * 60_000 + 3_000, "5m 03s"), (42_000, "42s"),
    (400 * 86_400_000, "400d 00h"),
  ] as [(Double, String)])
  func countdownShowsTheTwoLargestUnits(ms: Double, text: String) {
    #expect(Format.countdown(Span(ms: ms)) == text)
  }

  /// Rounds up to the second, so a live deadline never shows 0s; ±1 ms around every boundary.
  @Test(arguments: [
    (-1, "0s"), (0, "0s"), (1, "1s"),
    (999, "1s"), (1_000, "1s"), (1_001, "2s"),
    (4_999, "5s"), (5_000, "5s"), (5_001, "6s"),
    (59_999, "1m 00s"), (60_000, "1m 00s"), (60_001, "1m 01s"),
    (3_599_999, "1h 00m"), (3_600_000, "1h 00m"), (3_600_001, "1h 00m"),
    (3_659_999, "1h 01m"), (3_660_000, "1h 01m"), (3_660_001, "1h 01m"),
    (86_399_999, "1d 00h"), (86_400_000, "1d 00h"), (86_400_001, "1d 00h"),
    (90_000_000 - 1, "1d 01h"), (90_000_000, "1d 01h"), (90_000_000 + 1, "1d 01h"),
  ] as [(Double, String)])
  func countdownBoundaries(ms: Double, text: String) {
    #expect(Format.countdown(Span(ms: ms)) == text)
  }

  @Test func countdownOfAFractionalMillisecondStillShowsASecond() {
    #expect(Format.countdown(Span(ms: 0.25)) == "1s")
    #expect(Format.countdown(Span(ms: -0.25)) == "0s")
  }

  @Test func datesPrintInUTCToTheMinute() {
    let almostNextMinute = novemberMorning + .seconds(59) + .ms(999)
    #expect(Format.date(novemberMorning) == "2026-11-22 03:42 UTC")
    #expect(Format.date(almostNextMinute) == "2026-11-22 03:42 UTC")
    #expect(Format.dateShort(novemberMorning) == "Nov 22 03:42")
    #expect(Format.dateShort(utc("2027-02-03T00:05:00Z")) == "Feb 03 00:05")
    #expect(Format.date(.epoch) == "1970-01-01 00:00 UTC")
    #expect(Format.date(Instant(ms: -1)) == "1969-12-31 23:59 UTC")
  }

  @Test(arguments: [
    "2026-11-22T03:42:00Z", "2026-11-22T03:42:00.000Z", "2026-11-22T03:42Z", "2026-11-22 03:42",
    "2026-11-22 03:42:00", "2026-11-22 03:42 UTC", "2026-11-22T03:42:00+00:00", "2026-11-22T05:42:00+02:00",
    "2026-11-22T05:42:00+0200", "2026-11-22T05:42+02", "2026-11-21T22:12:00-05:30", "2026-11-22t03:42:00z",
    "1795318920000", "  2026-11-22 03:42  ",
  ])
  func parsesEveryAcceptedDateSpelling(text: String) throws {
    #expect(try Format.parseDate(text) == novemberMorning)
  }

  @Test func parsesDatesFractionsAndMilliseconds() throws {
    #expect(try Format.parseDate("2026-11-22") == utc("2026-11-22T00:00:00Z"))
    #expect(try Format.parseDate("2026-11-22T03:42:00.5Z") == novemberMorning + .ms(500))
    #expect(try Format.parseDate("2026-11-22T03:42:00,25Z") == novemberMorning + .ms(250))
    #expect(try Format.parseDate("1697679936049.7297").ms == 1697679936049.7297)
    #expect(try Format.parseDate("2023-10-19T01:45:36.0497297Z").ms == 1697679936049.7297)
    #expect(try Format.parseDate("0") == .epoch)
    #expect(try Format.parseDate("-1000") == .epoch - .second)
  }

  @Test func whatFormatPrintsReadsBack() throws {
    for instant in [novemberMorning, novemberMorning + .ms(1), Instant(ms: 1697679936049.7297), .epoch] {
      #expect(try Format.parseDate(instant.description) == instant)
    }
    #expect(try Format.parseDate(Format.date(novemberMorning)) == novemberMorning)
  }

  @Test(arguments: [
    ("2026-02-29", "Feb 2026 has 28 days"), ("2026-13-01", "month 13"), ("2026-11-22T24:00", "out of range"),
    ("2026-11-22T03:60", "out of range"), ("yesterday", "expected 2026-11-22"), ("", "empty"),
    ("2026-11-22T03:42:00Zjunk", "unexpected"), ("2026-11-22T03:42:00+2", "offset"), ("26-11-22", "expected"),
    ("2026-11-22T03", "expected"), ("2026-11-22T03:42:00.", "no digits"), ("2026-11-22\n03:42", "expected"),
    ("20261-11-22", "expected"), ("2026-11-223", "expected"), ("2026-11-22T03:42:00+02000", "unexpected"),
    ("2026-11-22Z", "expected"),
  ])
  func rejectsBadDatesWithAOneLineReason(text: String, reason: String) {
    #expect {
      try Format.parseDate(text)
    } throws: { error in
      let message = String(describing: error)
      return message.hasPrefix("invalid date") && message.contains(reason) && !message.contains("\n")
    }
  }

  @Test(arguments: [
    ("16d", Span.days(16)), ("90m", .minutes(90)), ("1h30m", .minutes(90)), ("1h 30m", .minutes(90)),
    ("2w", .weeks(2)), ("1.5h", .minutes(90)), ("250ms", Span(ms: 250)), ("30s", .seconds(30)),
    ("1d12h", .hours(36)), ("2m34s", .seconds(154)), ("0", .zero), ("1w2d3h4m5s6ms", Span(ms: 788_645_006)),
  ])
  func parsesLengthsForFlags(text: String, span: Span) throws {
    #expect(try Format.parseSpan(text) == span)
  }

  @Test(arguments: [
    ("16", "no unit"), ("1m1h", "largest to smallest"), ("1h1h", "largest to smallest"), ("-5m", "negative"),
    ("", "empty"), ("5x", "no unit"), ("1.h", "no digits"), ("h", "expected number-unit pairs"),
  ])
  func rejectsBadLengths(text: String, reason: String) {
    #expect {
      try Format.parseSpan(text)
    } throws: { error in
      let message = String(describing: error)
      return message.hasPrefix("invalid duration") && message.contains(reason)
    }
  }

  @Test(arguments: [
    (9_990, "USD", "9.99 USD"), (10_990, "USD", "10.99 USD"), (0, "USD", "0.00 USD"), (9_000, "EUR", "9.00 EUR"),
    (9_995, "USD", "9.995 USD"), (5, "USD", "0.005 USD"), (-9_990, "USD", "-9.99 USD"),
    (120_000, "JPY", "120 JPY"), (120_500, "JPY", "120.5 JPY"), (1_234, "KWD", "1.234 KWD"), (1_000, "KWD", "1.000 KWD"),
    (Int64.max, "USD", "9223372036854775.807 USD"), (Int64.min, "USD", "-9223372036854775.808 USD"),
  ] as [(Int64, String, String)])
  func moneyFromMilliunitsIsExact(milliunits: Int64, currency: String, text: String) {
    #expect(Format.money(milliunits: milliunits, currency: currency) == text)
  }

  @Test func errorMessagesEscapeControlCharacters() {
    let error = TimeParseError(kind: "date", input: "a\u{1B}[2Jb\n", reason: "nope")
    #expect(error.description == #"invalid date "a\u{1B}[2Jb\n": nope"#)
    #expect(error.localizedDescription == error.description)
  }
}
