import CoreValues
import DashModel
/// The steps a scenario line can start with. A step is one entry in `table` (its first word,
/// lower-cased, and any other spelling) and one function that reads the rest of the line;
/// docs/simulation.md lists them for users.
enum ScenarioVerbs {
  typealias Reader = @Sendable (ScenarioWords) throws(SimTextError) -> [ScenarioStep]

  static let table: [String: Reader] = [
    // Setup and time
    "catalog": catalog, "state": state, "start": start, "set": set, "code": code,
    "advance": advance, "expect": expect,
    // The customer's plan
    "buy": buy, "upgrade": changePlan, "downgrade": changePlan, "crossgrade": changePlan,
    "redeem": redeem, "accept": acceptOffer, "win-back": acceptOffer, "auto-renew": autoRenew,
    "promo": promotionalOffer, "promotional": promotionalOffer, "extend": extend,
    // What the App Store or the developer does
    "fail": failRenewal, "resolve": resolve, "expire": expire, "force": forceRenewal,
    "refund": refund, "revoke": revoke, "purchaser": purchaserRefunded,
    "request": request, "consent": consent, "decline": decline, "approve": approve, "reverse": reverse,
    // Retention Messaging: the developer's setup, the customer's cancel page
    "retention": ScenarioRetention.setupVerb, "cancel-page": ScenarioRetention.cancelVerb,
  ]

  // MARK: Setup and time

  static func catalog(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    try l.need(2, "catalog <file.storekit>")
    return [.setup(.catalog(l.rest(1)))]
  }

  static func state(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    try l.need(2, "state <state.json>")
    return [.setup(.stateFile(l.rest(1)))]
  }

  static func start(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    try l.need(2, "start <date>, e.g. start 2026-01-01T00:00:00Z")
    return [.start(try ScenarioParser.date(l.rest(1)))]
  }

  static func set(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    [.setting(try ScenarioParser.setting(Array(l.words.dropFirst())))]
  }

  /// code SPRING26 "Spring 2026" [limit 100]
  static func code(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let w = l.words
    guard w.count == 3 || (w.count == 5 && l.keys[3] == "limit") else {
      throw SimTextError("expected code <CODE> \"<offer reference name>\" [limit <n>]")
    }
    var limit: Int?
    if w.count == 5 {
      guard let n = Int(w[4]), n > 0 else { throw SimTextError("limit must be a positive number") }
      limit = n
    }
    return [.code(code: w[1], offerReference: w[2], limit: limit)]
  }

  static func advance(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let (w, k) = (l.words, l.keys)
    let usage = "advance <n> <unit> (minutes, hours, days, weeks, months, years), advance 3d, advance to next event, advance <n> events or advance to <date>"
    guard w.count >= 2 else { throw SimTextError("expected \(usage)") }
    if l.is("advance to next event") { return [.advanceEvents(1)] }
    if k[1] == "to" {
      guard w.count >= 3 else { throw SimTextError("expected advance to <date>") }
      return [.advanceTo(try ScenarioParser.date(l.rest(2)))]
    }
    if w.count == 3, let n = Int(w[1]), n >= 0 {
      switch k[2] {
      case "event", "events": return [.advanceEvents(n)]
      case "month", "months": return [.advance(.period(ISOPeriod(months: min(n, ISOPeriod.componentLimit))))]
      case "year", "years": return [.advance(.period(ISOPeriod(years: min(n, ISOPeriod.componentLimit))))]
      case "week", "weeks": return [.advance(.span(.weeks(Double(n))))]
      case "day", "days": return [.advance(.span(.days(Double(n))))]
      case "hour", "hours": return [.advance(.span(.hours(Double(n))))]
      case "minute", "minutes", "min": return [.advance(.span(.minutes(Double(n))))]
      case "second", "seconds", "s": return [.advance(.span(.seconds(Double(n))))]
      case "ms", "millisecond", "milliseconds": return [.advance(.span(.millisecond * Double(n)))]
      default: throw SimTextError("unknown unit \"\(w[2])\"; expected \(usage)")
      }
    }
    let text = l.rest(1)
    if text.hasPrefix("P"), let p = try? ISOPeriod(parsing: text) { return [.advance(.period(p))] }
    do { return [.advance(.span(try Format.parseSpan(text)))] } catch { throw SimTextError("\(error.description); expected \(usage)") }
  }

  static func expect(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    try ScenarioExpectParser.parse(Array(l.words.dropFirst())).map(ScenarioStep.expect)
  }

  // MARK: The customer's plan

  static func buy(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let (w, k) = (l.words, l.keys)
    try l.need(2, "buy <product id> [monthly] [family] [no intro]")
    var request = PurchaseRequest(productId: w[1])
    var i = 2
    while i < k.count {
      if k[i] == "family" { request.familyShared = true; i += 1 }
      else if k[i] == "no", i + 1 < k.count, k[i + 1] == "intro" { request.useIntroductoryOffer = false; i += 2 }
      else if k[i] == "no-intro" { request.useIntroductoryOffer = false; i += 1 }
      // The monthly billing plan with a 12-month commitment (StoreKit's .billingPlanType(.monthly)).
      else if k[i] == "monthly" { request.billingPlan = .monthly; i += 1 }
      else { throw SimTextError("unexpected \"\(w[i])\" after buy (expected monthly, family or no intro)") }
    }
    return [.buy(request)]
  }

  /// upgrade|downgrade|crossgrade [to] <product id>
  static func changePlan(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let w = l.words
    let product: String
    if w.count == 3, l.keys[1] == "to" { product = w[2] }
    else if w.count == 2 { product = w[1] }
    else { throw SimTextError("expected \(l.keys[0]) to <product id>") }
    switch l.keys[0] {
    case "upgrade": return [.plan(.upgrade(toProductId: product))]
    case "downgrade": return [.plan(.downgrade(toProductId: product))]
    default: return [.plan(.crossgrade(toProductId: product))]
    }
  }

  static func redeem(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    try l.need(2, "redeem <code>")
    return [.plan(.redeemOfferCode(l.rest(1)))]
  }

  /// accept win-back <offer id> (or win-back <offer id>); also accept price increase.
  static func acceptOffer(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let k = l.keys
    if l.is("accept price increase") { return [.command(.consentPriceIncrease)] }
    let offset = k[0] == "accept" ? 2 : 1
    guard k[0] == "win-back" || (k.count > 1 && k[1] == "win-back"), l.count == offset + 1 else {
      throw SimTextError("expected accept win-back <offer id>")
    }
    return [.plan(.acceptWinBack(offerId: l.words[offset]))]
  }

  static func autoRenew(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    [.plan(.setAutoRenew(try l.onOff(at: 1, "auto-renew on|off")))]
  }

  /// promo OFFER_ID [for PRODUCT] (also: promotional offer OFFER_ID [for PRODUCT]).
  static func promotionalOffer(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let (w, k) = (l.words, l.keys)
    let usage = SimTextError("expected promo <offer id> [for <product id>]")
    let start = k[0] == "promotional" ? 2 : 1
    guard k[0] == "promo" || (k.count > 1 && k[1] == "offer") else { throw usage }
    guard w.count == start + 1 || (w.count == start + 3 && k[start + 1] == "for") else { throw usage }
    return [.plan(.applyPromotionalOffer(offerId: w[start], productId: w.count == start + 3 ? w[start + 2] : nil))]
  }

  /// extend <days> [reason <0..3>]: Apple's Extend a Subscription Renewal Date. Out-of-range
  /// numbers reach the action, which refuses them with Apple's error name.
  static func extend(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let w = l.words
    let usage = "expected extend <days> [reason <0..3>]"
    guard w.count == 2 || (w.count == 4 && l.keys[2] == "reason"), let days = Int(w[1]) else { throw SimTextError(usage) }
    var reason = ExtendReasonCode.undeclared
    if w.count == 4 {
      guard let code = Int(w[3]) else { throw SimTextError(usage) }
      guard let r = ExtendReasonCode(rawValue: code) else {
        throw SimTextError(ExtensionRefusal.invalidExtendReasonCode(code).message)
      }
      reason = r
    }
    return [.plan(.extendRenewalDate(days: days, reason: reason))]
  }

  // MARK: What the App Store or the developer does

  static func failRenewal(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.is("fail next renewal") else { throw SimTextError("expected fail next renewal") }
    return [.command(.failNextRenewal)]
  }

  static func resolve(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.is("resolve billing issue") || l.is("resolve") else { throw SimTextError("expected resolve billing issue") }
    return [.command(.resolveBillingIssue)]
  }

  static func expire(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.is("expire now") else { throw SimTextError("expected expire now") }
    return [.command(.expireNow)]
  }

  static func forceRenewal(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.is("force renewal") else { throw SimTextError("expected force renewal") }
    return [.forceRenewal]
  }

  static func refund(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let (w, k) = (l.words, l.keys)
    guard w.count <= 2 else { throw SimTextError("expected refund [issue|other|prorated]") }
    if w.count == 2, k[1] == "prorated" { return [.command(.refundProrated)] }
    if w.count == 1 || k[1] == "other" { return [.refund(.other)] }
    guard k[1] == "issue" else { throw SimTextError("expected refund [issue|other], found \"\(w[1])\"") }
    return [.refund(.issueInApp)]
  }

  static func revoke(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.is("revoke") || l.is("revoke family sharing") else { throw SimTextError("expected revoke family sharing") }
    return [.revokeFamilySharing(purchaserRefund: nil)]
  }

  /// purchaser refunded [issue|other]: the family purchaser's refund revokes this member.
  static func purchaserRefunded(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let k = l.keys
    guard k.count >= 2, k[1] == "refunded", k.count <= 3 else { throw SimTextError("expected purchaser refunded [issue|other]") }
    if k.count == 2 || k[2] == "other" { return [.revokeFamilySharing(purchaserRefund: .other)] }
    guard k[2] == "issue" else { throw SimTextError("expected purchaser refunded [issue|other], found \"\(l.words[2])\"") }
    return [.revokeFamilySharing(purchaserRefund: .issueInApp)]
  }

  /// request refund [reason] (CONSUMPTION_REQUEST) or request price increase [<price>] [without consent].
  static func request(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let (w, k) = (l.words, l.keys)
    if k.count >= 2, k[1] == "refund" { return [.command(.requestRefund(try refundReason(l)))] }
    guard k.count >= 3, k[1] == "price", k[2] == "increase" else {
      throw SimTextError("expected request price increase [<new price>] [without consent] or request refund [reason]")
    }
    var price: Int64?
    var consent = true
    var i = 3
    if i < k.count, let p = Money.parse(w[i]) { price = p; i += 1 }
    if i < k.count {
      guard k[i...].joined(separator: " ") == "without consent" else {
        throw SimTextError("unexpected \"\(l.rest(i))\" (expected a price such as 12.99, then optionally without consent)")
      }
      consent = false
    }
    return [.requestPriceIncrease(newPriceMilli: price, consentRequired: consent)]
  }

  /// The reason after `request refund`: unintended|fulfillment|unsatisfied|legal|other or Apple's name.
  static func refundReason(_ l: ScenarioWords) throws(SimTextError) -> ConsumptionRequestReason {
    let k = l.keys
    guard k.count <= 3 else { throw SimTextError("expected request refund [unintended|fulfillment|unsatisfied|legal|other]") }
    let reasons: [String: ConsumptionRequestReason] = [
      "unintended": .unintendedPurchase, "fulfillment": .fulfillmentIssue, "unsatisfied": .unsatisfiedWithPurchase,
      "legal": .legal, "other": .other,
    ]
    let word = k.count == 3 ? k[2] : "unsatisfied"
    guard let reason = reasons[word] ?? reasons.values.first(where: { $0.rawValue.lowercased() == word }) else {
      throw SimTextError("unknown refund reason \"\(l.words[2])\" (expected unintended, fulfillment, unsatisfied, legal or other)")
    }
    return reason
  }

  static func consent(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.is("consent price increase") || l.is("consent to price increase") else { throw SimTextError("expected consent price increase") }
    return [.command(.consentPriceIncrease)]
  }

  static func decline(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    if l.is("decline price increase") { return [.command(.declinePriceIncrease)] }
    if l.is("decline ask to buy") { return [.command(.declineAskToBuy)] }
    if l.is("decline refund") { return [.command(.declineRefund)] }
    throw SimTextError("expected decline price increase, decline ask to buy or decline refund")
  }

  static func approve(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    if l.is("approve refund") { return [.command(.refund)] }
    guard l.is("approve ask to buy") else { throw SimTextError("expected approve ask to buy or approve refund") }
    return [.command(.approveAskToBuy)]
  }

  static func reverse(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.is("reverse refund") else { throw SimTextError("expected reverse refund") }
    return [.command(.reverseRefund)]
  }
}
