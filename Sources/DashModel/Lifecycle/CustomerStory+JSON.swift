import CoreValues
/// `summary` and `timeline` for `subdash show --json`. Dates as the rest of the report writes them:
/// App Store milliseconds plus an ISO 8601 twin (`start` and `startISO`). Amounts are decimal
/// numbers in the currency (23.97), converted from milliunits exactly (integer arithmetic, then
/// the decimal text), so a script never sees 23.969999.
extension CustomerStory {
  public var summaryJSON: JSON {
    let s = summary
    var o = JSONObject()
    o["complete"] = .bool(s.complete)
    o["incompleteReason"] = s.incompleteReason.map(JSON.string) ?? .null
    Self.setDate(&o, "customerSince", s.customerSince)
    o["paidPeriods"] = .int(s.paidPeriods)
    o["spent"] = Self.amounts(s.spent)
    o["refunded"] = Self.amounts(s.refunded)
    o["net"] = Self.amounts(s.net)
    if !s.unsummable.isEmpty { o["unsummableCurrencies"] = .array(s.unsummable.map(JSON.string)) }
    o["offersUsed"] = .object(JSONObject([
      ("introductory", .int(s.offers.introductory)), ("offerCode", .int(s.offers.offerCode)),
      ("promotional", .int(s.offers.promotional)), ("winBack", .int(s.offers.winBack)),
    ]))
    o["renewalExtensions"] = .object(JSONObject([
      ("last365Days", .int(s.extensionsInWindow)), ("allowed", .int(CustomerSummary.extensionsAllowed)),
    ]))
    o["refundRequests"] = .object(JSONObject([
      ("requested", .int(s.refunds.requested)), ("granted", .int(s.refunds.granted)), ("declined", .int(s.refunds.declined)),
      ("reversed", .int(s.refunds.reversed)), ("pending", .int(s.refunds.pending)),
    ]))
    if let streak = s.streak {
      var st = JSONObject()
      st["paidPeriods"] = .int(streak.paidPeriods)
      Self.setDate(&st, "since", streak.since)
      o["streak"] = .object(st)
    } else {
      o["streak"] = .null
    }
    return .object(o)
  }

  /// The timeline as a value: what `show --json`'s bytes (`writeTimelineJSON`, written without
  /// building this) must equal, as CustomerStoryJSONBytesTests checks.
  public var timelineJSON: JSON {
    .array(timeline.periods.map { p in
      var o = JSONObject()
      o["kind"] = .string(p.kind.rawValue)
      Self.setDate(&o, "start", p.start)
      Self.setDate(&o, "end", p.end)
      o["productId"] = p.productId.map(JSON.string) ?? .null
      o["transactionId"] = p.transactionId.map(JSON.string) ?? .null
      return .object(o)
    })
  }

  /// The moments on the lane (price and plan changes, refund requests and answers, extensions).
  public var timelineMarksJSON: JSON {
    .array(timeline.marks.map { m in
      var o = JSONObject()
      o["kind"] = .string(m.kind.rawValue)
      Self.setDate(&o, "at", m.at)
      o["productId"] = m.productId.map(JSON.string) ?? .null
      o["text"] = .string(m.text)
      return .object(o)
    })
  }

  private static func setDate(_ o: inout JSONObject, _ key: String, _ d: Instant?) {
    o[key] = d.map { .double($0.ms) } ?? .null
    o[key + "ISO"] = d.map { .string($0.description) } ?? .null
  }

  private static func amounts(_ list: [CustomerSummary.Amount]) -> JSON {
    .array(list.map { .object(JSONObject([("currency", .string($0.currency)), ("amount", decimal(milliunits: $0.milliunits))])) })
  }

  /// 23970 → 23.97, -500 → -0.5, 1000 → 1: exact decimal text from integer milliunits.
  static func decimal(milliunits m: Int64) -> JSON {
    let sign = m < 0 ? "-" : ""
    let mag = m.magnitude
    var frac = String(mag % 1000)
    while frac.count < 3 { frac = "0" + frac }
    while frac.hasSuffix("0") { frac.removeLast() }
    return .number(sign + String(mag / 1000) + (frac.isEmpty ? "" : "." + frac))
  }
}
