extension RateSchedule {
  /// How many times faster than the calendar a month goes by: 1 in real time, 288 when a day
  /// lasts five minutes, 720 when a month renews every hour, 1,296,000 at one renewal every
  /// two seconds. The simulated clock itself runs one-for-one with the wall; the rate shortens
  /// periods, so this is how much subscription time one minute of the clock holds.
  public var speedup: Double {
    let month = 30 * 86_400_000.0
    switch renewal {
    case .calendar: return 1
    case .scaledDay(let day): return 86_400_000 / max(1, day.ms)
    case .table(let t): return month / max(1, t.month.ms)
    case .fixed(let every): return month / max(1, every.ms)
    }
  }

  /// Above 60× a minute of the clock holds more than an hour of subscription time: a clock
  /// shown to the minute hides whole events, so clocks show seconds (`Format.clock`).
  public var clockShowsSeconds: Bool { speedup > 60 }
}

extension Format {
  /// A clock reading: `2026-11-22 03:42 UTC`, or `2026-11-22 03:42:07 UTC` with `seconds`
  /// (a fast simulated rate, `RateSchedule.clockShowsSeconds`); `short` drops the year.
  public static func clock(_ instant: Instant, seconds: Bool, short: Bool = false) -> String {
    if short { return dateShort(instant, seconds: seconds) }
    return seconds ? dateShort(instant, seconds: true, year: true) + " UTC" : date(instant)
  }
}
