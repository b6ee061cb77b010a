@testable import DashModel

/// Test instants written the way people read them: `day(2026, 3, 14, 9, 30)` is 2026-03-14 09:30 UTC.
func day(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> Instant {
  let yy = m <= 2 ? y - 1 : y
  let era = (yy >= 0 ? yy : yy - 399) / 400
  let yoe = yy - era * 400
  let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
  let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
  let days = era * 146_097 + doe - 719_468
  return Instant(ms: Double(days) * 86_400_000 + Double(h) * 3_600_000 + Double(min) * 60_000)
}

let oneDay: Double = 86_400_000
let oneHour: Double = 3_600_000

extension Instant {
  /// Whole milliseconds, as the App Store writes dates in JSON.
  var whole: Int64 { Int64(ms) }
}
