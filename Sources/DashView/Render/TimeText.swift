import DashModel

/// Date, countdown, period and money text for the dashboard.
///
/// NB: temporary. It mirrors the `time` branch's `Format.date/dateShort/countdown`, `ISOPeriod.name`
/// and `Format.money` output exactly, so when that branch is merged these bodies become one-line
/// calls and no snapshot changes. Only `.ms` arithmetic is used, because `Instant - Instant`
/// changes type (Millis → Span) in that branch.
enum TimeText {
  /// `2026-11-22 03:42 UTC`
  static func date(_ instant: Instant) -> String {
    let f = fields(instant.ms)
    return "\(pad(f.year, 4))-\(pad(f.month, 2))-\(pad(f.day, 2)) \(pad(f.hour, 2)):\(pad(f.minute, 2)) UTC"
  }

  /// `Nov 22 03:42` (UTC, no year)
  static func dateShort(_ instant: Instant) -> String {
    let f = fields(instant.ms)
    return "\(monthNames[f.month - 1]) \(pad(f.day, 2)) \(pad(f.hour, 2)):\(pad(f.minute, 2))"
  }

  /// Full dates normally; `Nov 22 03:42` on narrow screens where the year costs a truncated sentence.
  static func date(_ instant: Instant, compact: Bool) -> String { compact ? dateShort(instant) : date(instant) }

  /// Time left from `now` until `deadline`: `12d 04h`, `4h 05m`, `5m 03s`, `42s`; `0s` once passed.
  static func countdown(from now: Instant, to deadline: Instant) -> String {
    let ms = deadline.ms - now.ms
    guard ms > 0 else { return "0s" }
    let total = Int(min((ms / 1_000).rounded(.up), 1e15))
    let days = total / 86_400, hours = total / 3_600 % 24, minutes = total / 60 % 60, seconds = total % 60
    if days > 0 { return "\(days)d \(pad(hours, 2))h" }
    if hours > 0 { return "\(hours)h \(pad(minutes, 2))m" }
    if minutes > 0 { return "\(minutes)m \(pad(seconds, 2))s" }
    return "\(seconds)s"
  }

  /// `P1M` → `1 month`, `P2W` → `2 weeks`; text that is not a period is shown as it is.
  static func period(_ iso: String) -> String {
    guard iso.first == "P" else { return iso }
    var parts: [String] = []
    var digits = ""
    let names: [Character: String] = ["Y": "year", "M": "month", "W": "week", "D": "day"]
    for c in iso.dropFirst() {
      if c.isASCII, c.isNumber { digits.append(c); continue }
      guard let name = names[c], let n = Int(digits) else { return iso }
      if n != 0 { parts.append("\(n) \(name)\(n == 1 ? "" : "s")") }
      digits = ""
    }
    return parts.isEmpty ? "0 days" : parts.joined(separator: ", ")
  }

  /// `9.99 USD`, `120 JPY`; two minor digits unless the milliunits carry a third.
  static func money(_ milli: Int64, currency: String?) -> String {
    let minor = ["JPY", "KRW", "CLP", "ISK", "VND"].contains(currency?.uppercased() ?? "") ? 0 : 2
    var decimals = pad(Int(milli.magnitude % 1_000), 3)
    while decimals.count > minor, decimals.hasSuffix("0") { decimals.removeLast() }
    let amount = "\(milli < 0 ? "-" : "")\(milli.magnitude / 1_000)" + (decimals.isEmpty ? "" : "." + decimals)
    guard let currency, !currency.isEmpty else { return amount }
    return "\(amount) \(currency)"
  }

  private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

  private static func pad(_ n: Int, _ width: Int) -> String {
    let s = String(n)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }

  /// Civil fields in UTC (Howard Hinnant's civil_from_days), floor-rounded to the minute.
  private static func fields(_ ms: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int) {
    let clamped = max(-1e15, min(1e15, ms))
    let totalMinutes = Int((clamped / 60_000).rounded(.down))
    var days = totalMinutes / 1_440
    var minuteOfDay = totalMinutes % 1_440
    if minuteOfDay < 0 { minuteOfDay += 1_440; days -= 1 }
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day, minuteOfDay / 60, minuteOfDay % 60)
  }
}
