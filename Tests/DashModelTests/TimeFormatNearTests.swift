import Testing

@testable import DashModel
@testable import CoreValues

/// At fast simulated rates every date is minutes from now, and a date to the minute hides the
/// seconds that matter. Within an hour of now, dates carry their seconds.
@Suite struct TimeFormatNearTests {
  let now = try! Format.parseDate("2026-05-23T18:30:00Z")
  let date = try! Format.parseDate("2026-05-23T18:34:07.250Z")

  @Test func aDateMinutesFromNowShowsItsSeconds() {
    #expect(Format.date(date, now: now) == "2026-05-23 18:34:07 UTC")
    #expect(Format.dateShort(date, now: now) == "May 23 18:34:07")
  }

  @Test func secondsStopExactlyOneHourAwayOnEitherSide() {
    let hour = Format.secondsWindow
    #expect(Format.showsSeconds(date, now: date - hour + Span(ms: 1)))
    #expect(!Format.showsSeconds(date, now: date - hour))
    #expect(Format.showsSeconds(date, now: date + hour - Span(ms: 1)))
    #expect(!Format.showsSeconds(date, now: date + hour))
    #expect(Format.date(date, now: date + hour) == "2026-05-23 18:34 UTC")
  }

  @Test func countsAgreeWithTheirNouns() {
    #expect(counted(1, "notification") == "1 notification")
    #expect(counted(0, "notification") == "0 notifications")
    #expect(counted(2, "entry", plural: "entries") == "2 entries")
  }

  @Test func aStatusReadsAsASentenceAfterIs() {
    #expect(SubscriptionStatus.billingGracePeriod.afterIs == "in the billing grace period")
    #expect(SubscriptionStatus.billingRetry.afterIs == "in billing retry")
    #expect(SubscriptionStatus.expired.afterIs == "expired")
  }

  /// A short date in another year than now says its year: a renewal a year ahead is not this year's.
  @Test func aShortDateInAnotherYearSaysItsYear() throws {
    let now = try Format.parseDate("2026-12-31T23:59:59.999Z")
    #expect(Format.dateShort(try Format.parseDate("2026-05-14T15:00:00Z"), now: now) == "May 14 15:00")
    #expect(Format.dateShort(try Format.parseDate("2027-01-02T00:00:00Z"), now: now) == "2027-01-02 00:00")
    #expect(Format.dateShort(try Format.parseDate("2025-12-31T23:59:00Z"), now: now + .ms(1)) == "2025-12-31 23:59")
  }
}
