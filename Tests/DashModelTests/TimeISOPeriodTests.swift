import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

/// A readable test instant: `utc("2026-01-31T10:00:00Z")`.
func utc(_ text: String) -> Instant {
  do { return try Format.parseDate(text) } catch { fatalError("bad test date \(text): \(error)") }
}

@Suite("ISO 8601 periods")
struct TimeISOPeriodTests {
  @Test(arguments: [
    ("P3D", ISOPeriod.threeDays), ("P1W", .oneWeek), ("P2W", .twoWeeks), ("P1M", .oneMonth),
    ("P2M", .twoMonths), ("P3M", .threeMonths), ("P6M", .sixMonths), ("P1Y", .oneYear),
    ("P1Y2M10D", ISOPeriod(years: 1, months: 2, days: 10)), ("P0D", ISOPeriod()),
    ("P1W2D", ISOPeriod(weeks: 1, days: 2)), ("P7D", ISOPeriod(days: 7)),
  ])
  func parsesAndPrintsBack(text: String, period: ISOPeriod) throws {
    #expect(try ISOPeriod(parsing: text) == period)
    #expect(period.description == text)
  }

  @Test(arguments: [
    ("", "must start with P"), ("P", "no components"), ("1M", "must start with P"),
    ("P1X", "unknown designator X"), ("PT1H", "time components"), ("P1M1Y", "in the order Y, M, W, D"),
    ("P1M1M", "in the order"), ("P1.5M", "fractional"), ("p1m", "must start with P"),
    ("P-1M", "expected a number"), ("P1", "has no designator"), ("P99999D", "too large"),
    ("P1M ", "expected a number"),
  ])
  func rejectsWithAOneLineReason(text: String, reason: String) {
    #expect {
      try ISOPeriod(parsing: text)
    } throws: { error in
      let message = String(describing: error)
      return message.contains(reason) && !message.contains("\n") && message.hasPrefix("invalid ISO 8601 duration")
    }
  }

  @Test func keepsWeeksAndDaysApart() throws {
    let week = try ISOPeriod(parsing: "P1W")
    let sevenDays = try ISOPeriod(parsing: "P7D")
    #expect(week != sevenDays)
    #expect(week.roughDays == sevenDays.roughDays)
  }

  @Test(arguments: [
    (ISOPeriod.oneMonth, "1 month"), (.oneWeek, "1 week"), (.threeDays, "3 days"), (.oneYear, "1 year"),
    (.twoMonths, "2 months"), (.twoWeeks, "2 weeks"), (ISOPeriod(years: 1, months: 2, days: 10), "1 year, 2 months, 10 days"),
    (ISOPeriod(), "0 days"),
  ])
  func humanNames(period: ISOPeriod, name: String) {
    #expect(period.name == name)
  }

  @Test func roughLengthRanksWinBackDurations() throws {
    let offered = try ["ONE_YEAR", "THREE_DAYS", "SIX_MONTHS", "ONE_WEEK", "TWO_MONTHS", "ONE_MONTH", "TWO_WEEKS",
      "THREE_MONTHS"].map { name throws(TimeParseError) in try ISOPeriod(appStoreConnectName: name) }
    let ranked = offered.sorted { $0.roughDays < $1.roughDays }.map(\.description)
    #expect(ranked == ["P3D", "P1W", "P2W", "P1M", "P2M", "P3M", "P6M", "P1Y"])
    #expect(ISOPeriod.oneYear.roughDays == 365)
    #expect(ISOPeriod.oneMonth.roughDays == 30)
  }

  @Test(arguments: [
    ("THREE_DAYS", "P3D"), ("ONE_WEEK", "P1W"), ("TWO_WEEKS", "P2W"), ("ONE_MONTH", "P1M"),
    ("TWO_MONTHS", "P2M"), ("THREE_MONTHS", "P3M"), ("SIX_MONTHS", "P6M"), ("ONE_YEAR", "P1Y"),
    ("SIXTEEN_DAYS", "P16D"), ("TWENTY_EIGHT_DAYS", "P28D"),
  ])
  func readsAppStoreConnectDurationNames(name: String, iso: String) throws {
    let period = try ISOPeriod(appStoreConnectName: name)
    #expect(period.description == iso)
    #expect(period.appStoreConnectName == name)
  }

  @Test func unknownAppStoreConnectNameIsAnError() {
    #expect(throws: TimeParseError.self) { try ISOPeriod(appStoreConnectName: "one_month") }
    #expect(ISOPeriod(days: 7).appStoreConnectName == nil)
  }

  @Test func monthEndsClampLikeCalendar() {
    #expect(ISOPeriod.oneMonth.adding(to: utc("2026-01-31T10:00:00Z")) == utc("2026-02-28T10:00:00Z"))
    #expect(ISOPeriod.oneMonth.adding(to: utc("2024-01-31T10:00:00Z")) == utc("2024-02-29T10:00:00Z"))
    #expect(ISOPeriod.oneMonth.adding(to: utc("2026-03-31T10:00:00Z")) == utc("2026-04-30T10:00:00Z"))
    #expect(ISOPeriod.oneYear.adding(to: utc("2024-02-29T08:00:00Z")) == utc("2025-02-28T08:00:00Z"))
    #expect(ISOPeriod.oneMonth.adding(to: utc("2026-12-15T00:00:00Z")) == utc("2027-01-15T00:00:00Z"))
  }

  @Test func renewingFromTheAnchorKeepsTheDayOfMonth() {
    let anchor = utc("2026-01-31T10:00:00Z")
    #expect(ISOPeriod.oneMonth.adding(2, to: anchor) == utc("2026-03-31T10:00:00Z"))
    #expect(ISOPeriod.oneMonth.adding(-1, to: anchor) == utc("2025-12-31T10:00:00Z"))
    #expect(ISOPeriod.oneMonth.adding(0, to: anchor) == anchor)
    #expect(ISOPeriod.oneWeek.adding(3, to: anchor) == utc("2026-02-21T10:00:00Z"))
  }

  @Test func combinedPeriodsAddYearsThenMonthsThenDays() {
    let p = ISOPeriod(years: 1, months: 2, days: 10)
    #expect(p.adding(to: utc("2023-12-31T10:00:00Z")) == utc("2025-03-10T10:00:00Z"))
    #expect(ISOPeriod(years: 1, months: 1).adding(to: utc("2024-02-29T10:00:00Z")) == utc("2025-03-28T10:00:00Z"))
    #expect(ISOPeriod(months: 1, days: 1).adding(to: utc("2024-01-31T10:00:00Z")) == utc("2024-03-01T10:00:00Z"))
  }

  @Test func addingKeepsTheSubMillisecondFraction() {
    let xcodePurchase = Instant(ms: 1697679936049.7297)  // 2023-10-19T01:45:36.0497297Z
    let renewal = ISOPeriod.oneMonth.adding(to: xcodePurchase)
    #expect(renewal.ms == 1697679936049.7297 + 31 * 86_400_000)
    #expect(renewal.description == "2023-11-19T01:45:36.0497297Z")
  }

  /// Sweeps three years of start days against Foundation's own calendar arithmetic.
  @Test(arguments: [
    ISOPeriod.oneMonth, .twoMonths, .oneYear, .oneWeek, .threeDays,
    ISOPeriod(years: 1, months: 1), ISOPeriod(years: 1, months: 2, days: 10),
  ])
  func agreesWithFoundationCalendar(period: ISOPeriod) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let start = utc("2023-01-01T13:37:42.123Z")
    for dayOffset in 0..<(3 * 366) {
      let instant = start + .days(Double(dayOffset))
      for n in [1, 2, -1] {
        let components = DateComponents(
          year: n * period.years, month: n * period.months, day: n * (period.weeks * 7 + period.days))
        let date = calendar.date(byAdding: components, to: Date(timeIntervalSince1970: instant.ms / 1000))!
        let expected = (date.timeIntervalSince1970 * 1000).rounded()
        #expect(period.adding(n, to: instant).ms == expected, "\(period) × \(n) from \(instant)")
      }
    }
  }

  /// An offer's `numberOfPeriods` is any positive integer in a file; the whole offer's length
  /// is capped at the component limit instead of trapping on overflow.
  @Test func aHugePeriodCountCapsInsteadOfOverflowing() {
    #expect(ISOPeriod(months: 1).times(Int.max) == ISOPeriod(months: ISOPeriod.componentLimit))
    #expect(ISOPeriod(weeks: 2).times(3) == ISOPeriod(weeks: 6))
    #expect(ISOPeriod(months: 1).times(0) == ISOPeriod(months: 1))
  }
}
