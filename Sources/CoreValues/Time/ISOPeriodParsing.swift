import FoundationEssentials

extension ISOPeriod {
  /// Reads an ISO 8601 duration made of date components, in the order Y, M, W, D, each at most
  /// once: `P3D`, `P1W`, `P1M`, `P1Y`, `P1Y2M10D`. Designators must be upper case, as Apple
  /// writes them. `P0D` is accepted. `P`, `PT1H`, `-P1M`, `P1.5M` are rejected with a one-line
  /// reason.
  public init(parsing text: String) throws(TimeParseError) {
    func fail(_ reason: String) -> TimeParseError {
      TimeParseError(kind: "ISO 8601 duration", input: text, reason: reason)
    }
    var cursor = TextCursor(text)
    guard cursor.take(UInt8(ascii: "P")) else { throw fail("must start with P, e.g. P1M") }
    guard !cursor.isAtEnd else { throw fail("no components after P (e.g. P1M)") }
    let order: [UInt8] = Array("YMWD".utf8)
    var values = [0, 0, 0, 0]
    var next = 0  // index in `order` of the earliest designator still allowed
    while !cursor.isAtEnd {
      if cursor.peek == UInt8(ascii: "T") {
        throw fail("time components (T…) are not supported; use Y, M, W or D")
      }
      let number = cursor.digits()
      guard !number.isEmpty else {
        throw fail("expected a number at \"\(TimeParseError.printable(cursor.rest))\"")
      }
      if cursor.peek == UInt8(ascii: ".") || cursor.peek == UInt8(ascii: ",") {
        throw fail("fractional components are not supported")
      }
      guard let designator = cursor.peek else { throw fail("number \(number) has no designator") }
      guard let slot = order.firstIndex(of: designator) else {
        let shown = String(decoding: [designator], as: UTF8.self)
        throw fail("unknown designator \(TimeParseError.printable(shown)) (expected Y, M, W or D)")
      }
      guard slot >= next else { throw fail("components must appear once each, in the order Y, M, W, D") }
      guard let value = Int(number), value <= ISOPeriod.componentLimit else {
        throw fail("\(number) is too large (at most \(ISOPeriod.componentLimit))")
      }
      _ = cursor.take(designator)
      values[slot] = value
      next = slot + 1
    }
    self.init(years: values[0], months: values[1], weeks: values[2], days: values[3])
  }

  /// App Store Connect API duration names (`SubscriptionOfferDuration`, win-back `duration`,
  /// and the `SubscriptionGracePeriodDuration` values) with the periods they mean.
  public static let appStoreConnectNames: [(name: String, period: ISOPeriod)] = [
    ("THREE_DAYS", .threeDays),
    ("ONE_WEEK", .oneWeek),
    ("TWO_WEEKS", .twoWeeks),
    ("ONE_MONTH", .oneMonth),
    ("TWO_MONTHS", .twoMonths),
    ("THREE_MONTHS", .threeMonths),
    ("SIX_MONTHS", .sixMonths),
    ("ONE_YEAR", .oneYear),
    ("SIXTEEN_DAYS", ISOPeriod(days: 16)),
    ("TWENTY_EIGHT_DAYS", ISOPeriod(days: 28)),
  ]

  /// Reads an App Store Connect duration name such as `ONE_MONTH` or `SIX_MONTHS`.
  public init(appStoreConnectName name: String) throws(TimeParseError) {
    guard let match = Self.appStoreConnectNames.first(where: { $0.name == name }) else {
      throw TimeParseError(
        kind: "App Store Connect duration", input: name,
        reason: "expected one of "
          + Self.appStoreConnectNames.map(\.name).joined(separator: ", "))
    }
    self = match.period
  }

  /// The App Store Connect name of this exact period (`P1M` → `ONE_MONTH`), or nil if it has
  /// none. `P7D` has no name even though it is as long as `P1W`.
  public var appStoreConnectName: String? {
    Self.appStoreConnectNames.first(where: { $0.period == self })?.name
  }
}
