/// Proleptic Gregorian calendar arithmetic in UTC on plain integers.
///
/// Written out (Howard Hinnant's `days_from_civil` / `civil_from_days`) instead of going through
/// `Calendar` and `Date` because those carry time in *seconds*: a round trip through them can
/// perturb fractional milliseconds such as Xcode's `1697679936049.7297`. Here the time of day is
/// split off once and added back unchanged, so sub-millisecond digits survive.
enum Civil {
  static let msPerDay = 86_400_000.0

  struct YMD: Equatable {
    var year: Int
    var month: Int  // 1...12
    var day: Int  // 1...31
  }

  /// Days since 1970-01-01 for a civil date.
  static func days(from date: YMD) -> Int {
    let y = date.month <= 2 ? date.year - 1 : date.year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (date.month + 9) % 12
    let doy = (153 * mp + 2) / 5 + date.day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The civil date of a day number (days since 1970-01-01).
  static func date(fromDays z0: Int) -> YMD {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return YMD(year: yoe + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
  }

  static func isLeap(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  static func daysIn(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Splits milliseconds since 1970 into a day number and the time of day in ms (`0..<msPerDay`).
  /// The time of day is an exact subtraction, so any fraction of a millisecond is kept.
  static func split(_ ms: Double) -> (day: Int, timeOfDay: Double) {
    var day = (ms / msPerDay).rounded(.down)
    var tod = ms - day * msPerDay
    if tod < 0 {
      day -= 1
      tod += msPerDay
    } else if tod >= msPerDay {
      day += 1
      tod -= msPerDay
    }
    return (Int(day), tod)
  }

  /// Broken-down UTC fields of an instant, with the sub-millisecond remainder kept apart.
  struct Fields {
    var date: YMD
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int
    /// `0 ..< 1` ms left over below whole milliseconds.
    var fraction: Double
  }

  static func fields(_ ms: Double) -> Fields {
    let (day, tod) = split(ms)
    let whole = tod.rounded(.down)
    let t = Int(whole)
    return Fields(
      date: date(fromDays: day), hour: t / 3_600_000, minute: t / 60_000 % 60,
      second: t / 1000 % 60, millisecond: t % 1000, fraction: tod - whole)
  }

  static let monthAbbreviations = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// Zero-padded decimal, e.g. `pad(7, 2) == "07"`. Negative numbers keep their sign in front.
  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
    return value < 0 ? "-" + padded : padded
  }
}

extension Instant {
  /// The calendar year of this instant in UTC.
  public var utcYear: Int { Civil.fields(ms).date.year }
}
