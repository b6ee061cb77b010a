import FoundationEssentials

extension Format {
  /// How close to now a date must be before its seconds are shown: one hour.
  ///
  /// To the minute, `18:34 UTC` hides up to 59 s. That is noise for a renewal days away, but at
  /// fast simulated rates (a month every 5 minutes, a 5-second grace period) every date on
  /// screen is minutes from now and the hidden seconds are the whole story. A fast rate puts
  /// the dates near now, so distance to now is the one test for both cases.
  public static let secondsWindow = Span(ms: 3_600_000)

  /// True when `instant` is less than `secondsWindow` from `now` (either side).
  public static func showsSeconds(_ instant: Instant, now: Instant) -> Bool {
    abs(instant.ms - now.ms) < secondsWindow.ms
  }

  /// `2026-11-22 03:42 UTC`, or `2026-11-22 03:42:07 UTC` when it is within an hour of `now`.
  public static func date(_ instant: Instant, now: Instant) -> String {
    let minute = date(instant)
    guard showsSeconds(instant, now: now) else { return minute }
    return String(minute.dropLast(4)) + ":" + Civil.pad(Civil.fields(instant.ms).second, 2) + " UTC"
  }

  /// `Nov 22 03:42`, with `:07` when it is within an hour of `now`; `2027-05-14 15:00` when it is
  /// in another year than `now` (an annual plan's renewal would otherwise read as this year's).
  public static func dateShort(_ instant: Instant, now: Instant) -> String {
    let otherYear = Civil.fields(instant.ms).date.year != Civil.fields(now.ms).date.year
    return dateShort(instant, seconds: showsSeconds(instant, now: now), year: otherYear)
  }
}
