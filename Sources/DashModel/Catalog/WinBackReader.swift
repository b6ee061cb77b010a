import CoreValues
/// Reads SubDash's inline win-back offer form. Keys follow App Store Connect's WinBackOffer
/// attributes so an offer can be copied from the App Store Connect API with few edits.
enum WinBackReader {
  static func read(_ o: ObjectReader, productId fallbackProduct: String?) throws(DecodeError) -> WinBackOffer {
    let offerId = try o.requiredString("offerId")
    guard let productId = try o.string("productId") ?? fallbackProduct else {
      throw DecodeError(o.path.appending("productId"), "required string is missing (the subscription this win-back offer is for)")
    }
    let modeText = try o.string("offerMode") ?? "PAY_UP_FRONT"
    let mode: PaymentMode
    switch modeText {
    case "PAY_UP_FRONT": mode = .payUpFront
    case "PAY_AS_YOU_GO": mode = .payAsYouGo
    case "FREE_TRIAL", "FREE": mode = .freeTrial
    default: throw DecodeError(o.path.appending("offerMode"), "unknown offer mode \"\(modeText)\" (expected PAY_UP_FRONT, PAY_AS_YOU_GO or FREE_TRIAL)")
    }
    let durationText = try o.requiredString("duration")
    guard let period = ConnectDuration.isoPeriod(durationText) else {
      throw DecodeError(o.path.appending("duration"), "\"\(durationText)\" is not a duration (ONE_MONTH, SIX_MONTHS … or ISO 8601 like P1M)")
    }
    let price: Int64
    if mode == .freeTrial {
      price = 0
    } else {
      let p = try o.requiredString("displayPrice")
      price = try Money.milliunits(p, at: o.path.appending("displayPrice"))
    }
    let since = try o.object("customerEligibilityTimeSinceLastSubscribedInMonths")
    let priorityText = try o.string("priority") ?? "NORMAL"
    guard let priority = WinBackOffer.Priority(rawValue: priorityText) else {
      throw DecodeError(o.path.appending("priority"), "expected HIGH or NORMAL")
    }
    var offer = WinBackOffer(
      offerId: offerId, referenceName: try o.string("referenceName") ?? offerId, productId: productId,
      paymentMode: mode, period: period, periodCount: max(1, try o.int("periodCount") ?? 1), priceMilli: price,
      paidSubscriptionMonths: try o.int("customerEligibilityPaidSubscriptionDurationInMonths") ?? 0,
      monthsSinceLastSubscribedMin: try since?.int("minimum") ?? 0,
      monthsSinceLastSubscribedMax: try since?.int("maximum"),
      waitBetweenOffersMonths: try o.int("customerEligibilityWaitBetweenOffersInMonths"),
      startDate: try readDay(o, "startDate"), endDate: try readDay(o, "endDate", endOfDay: true), priority: priority)
    offer.billingPlanType = try BillingPlansReader.planType(o)
    return offer
  }

  /// Dates as App Store Connect writes them ("2024-07-01"), or milliseconds. An offer runs
  /// *through* its end day, so a day-form `endDate` becomes the first instant after that day:
  /// win-back windows are `startDate <= now < endDate`.
  static func readDay(_ o: ObjectReader, _ key: String, endOfDay: Bool = false) throws(DecodeError) -> Instant? {
    if let text = try? o.string(key) {
      guard let day = CivilDay(text) else { throw DecodeError(o.path.appending(key), "expected a date like 2024-07-01") }
      return endOfDay ? Instant(ms: day.start.ms + 86_400_000) : day.start
    }
    return try o.instant(key)
  }
}

/// App Store Connect duration names mapped to ISO 8601 periods.
public enum ConnectDuration {
  static let names: [String: String] = [
    "THREE_DAYS": "P3D", "ONE_WEEK": "P1W", "TWO_WEEKS": "P2W", "ONE_MONTH": "P1M", "TWO_MONTHS": "P2M",
    "THREE_MONTHS": "P3M", "SIX_MONTHS": "P6M", "ONE_YEAR": "P1Y",
  ]
  public static func isoPeriod(_ text: String) -> String? {
    if let p = names[text] { return p }
    return PeriodSyntax.isValid(text) ? text : nil
  }
}

/// A calendar day in UTC, parsed from YYYY-MM-DD without Foundation's formatters.
struct CivilDay {
  let year: Int, month: Int, day: Int
  init?(_ text: String) {
    let parts = text.split(separator: "-")
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
          let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
          (1...12).contains(m), (1...31).contains(d) else { return nil }
    year = y; month = m; day = d
  }
  /// Days from 1970-01-01 (Howard Hinnant's days_from_civil).
  var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }
  var start: Instant { Instant(ms: Double(daysSinceEpoch) * 86_400_000) }
}
