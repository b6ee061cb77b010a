import FoundationEssentials

/// A script line that could not be read: `refund.scenario:7: unknown step "refnd"`.
public struct ScenarioSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public var fileName: String
  public var line: Int
  public var message: String
  public var description: String { "\(fileName):\(line): \(message)" }
}

/// Reads the scenario text format. One step per line; `#` starts a comment; keywords are case
/// insensitive, product ids, codes and offer ids are taken as written; `"quotes"` group words.
public enum ScenarioParser {
  public static func parse(_ text: String, fileName: String) throws(ScenarioSyntaxError) -> Scenario {
    var lines: [ScenarioLine] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = index + 1
      let lineText = raw.trimmedSpaces
      do throws(SimTextError) {
        let words = try tokenize(lineText)
        if words.isEmpty { continue }
        for step in try steps(words) {
          lines.append(ScenarioLine(number: number, text: lineText, step: step))
        }
      } catch {
        throw ScenarioSyntaxError(fileName: fileName, line: number, message: error.message)
      }
    }
    return Scenario(fileName: fileName, lines: lines)
  }

  /// Splits on blanks, keeps `"quoted words"` together and drops a `#` comment.
  static func tokenize(_ line: String) throws(SimTextError) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var hasWord = false
    for c in line {
      if quoted {
        if c == "\"" { quoted = false } else { current.append(c) }
        continue
      }
      if c == "#" { break }
      if c == "\"" { quoted = true; hasWord = true; continue }
      if c == " " || c == "\t" {
        if hasWord { words.append(current); current = ""; hasWord = false }
        continue
      }
      if c.isASCII, let v = c.asciiValue, v < 0x20 { throw SimTextError("control character in the line") }
      current.append(c)
      hasWord = true
    }
    if quoted { throw SimTextError("unterminated \"quote\"") }
    if hasWord { words.append(current) }
    return words
  }

  static func steps(_ w: [String]) throws(SimTextError) -> [ScenarioStep] {
    let k = w.map { $0.lowercased() }
    func rest(_ from: Int) -> String { w.dropFirst(from).joined(separator: " ") }
    func need(_ n: Int, _ usage: String) throws(SimTextError) {
      if w.count < n { throw SimTextError("expected \(usage)") }
    }
    func onOff(_ i: Int, _ usage: String) throws(SimTextError) -> Bool {
      guard i < k.count, i == k.count - 1 else { throw SimTextError("expected \(usage)") }
      switch k[i] {
      case "on", "yes", "true": return true
      case "off", "no", "false": return false
      default: throw SimTextError("expected on or off, found \"\(w[i])\"")
      }
    }
    func exactly(_ words: String) -> Bool { k.joined(separator: " ") == words }

    switch k[0] {
    case "catalog":
      try need(2, "catalog <file.storekit>")
      return [.setup(.catalog(rest(1)))]
    case "state":
      try need(2, "state <state.json>")
      return [.setup(.stateFile(rest(1)))]
    case "start":
      try need(2, "start <date>, e.g. start 2026-01-01T00:00:00Z")
      return [.start(try date(rest(1)))]
    case "set":
      return [.setting(try setting(Array(w.dropFirst())))]
    case "code":
      return [try code(w)]
    case "buy":
      try need(2, "buy <product id> [family] [no intro]")
      var request = PurchaseRequest(productId: w[1])
      var i = 2
      while i < k.count {
        if k[i] == "family" { request.familyShared = true; i += 1 }
        else if k[i] == "no", i + 1 < k.count, k[i + 1] == "intro" { request.useIntroductoryOffer = false; i += 2 }
        else if k[i] == "no-intro" { request.useIntroductoryOffer = false; i += 1 }
        else { throw SimTextError("unexpected \"\(w[i])\" after buy (expected family or no intro)") }
      }
      return [.buy(request)]
    case "upgrade", "downgrade", "crossgrade":
      let product = try target(w)
      switch k[0] {
      case "upgrade": return [.plan(.upgrade(toProductId: product))]
      case "downgrade": return [.plan(.downgrade(toProductId: product))]
      default: return [.plan(.crossgrade(toProductId: product))]
      }
    case "redeem":
      try need(2, "redeem <code>")
      return [.plan(.redeemOfferCode(rest(1)))]
    case "accept", "win-back":
      if exactly("accept price increase") { return [.command(.consentPriceIncrease)] }
      let offset = k[0] == "accept" ? 2 : 1
      guard k[0] == "win-back" || (k.count > 1 && k[1] == "win-back"), w.count == offset + 1 else {
        throw SimTextError("expected accept win-back <offer id>")
      }
      return [.plan(.acceptWinBack(offerId: w[offset]))]
    case "auto-renew":
      return [.plan(.setAutoRenew(try onOff(1, "auto-renew on|off")))]
    case "promo", "promotional":
      // promo OFFER_ID [for PRODUCT] (also: promotional offer OFFER_ID [for PRODUCT]).
      let start = k[0] == "promotional" ? 2 : 1
      guard k[0] == "promo" || (k.count > 1 && k[1] == "offer") else { throw SimTextError("expected promo <offer id> [for <product id>]") }
      guard w.count == start + 1 || (w.count == start + 3 && k[start + 1] == "for") else {
        throw SimTextError("expected promo <offer id> [for <product id>]")
      }
      return [.plan(.applyPromotionalOffer(offerId: w[start], productId: w.count == start + 3 ? w[start + 2] : nil))]
    case "extend":
      // extend <days> [reason <0..3>]: Apple's Extend a Subscription Renewal Date. Out-of-range
      // numbers reach the action, which refuses them with Apple's error name.
      let usage = "expected extend <days> [reason <0..3>]"
      guard w.count == 2 || (w.count == 4 && k[2] == "reason"), let days = Int(w[1]) else { throw SimTextError(usage) }
      var reason = ExtendReasonCode.undeclared
      if w.count == 4 {
        guard let code = Int(w[3]) else { throw SimTextError(usage) }
        guard let r = ExtendReasonCode(rawValue: code) else {
          throw SimTextError(ExtensionRefusal.invalidExtendReasonCode(code).message)
        }
        reason = r
      }
      return [.plan(.extendRenewalDate(days: days, reason: reason))]
    case "fail":
      guard exactly("fail next renewal") else { throw SimTextError("expected fail next renewal") }
      return [.command(.failNextRenewal)]
    case "resolve":
      guard exactly("resolve billing issue") || exactly("resolve") else { throw SimTextError("expected resolve billing issue") }
      return [.command(.resolveBillingIssue)]
    case "expire":
      guard exactly("expire now") else { throw SimTextError("expected expire now") }
      return [.command(.expireNow)]
    case "refund":
      guard w.count <= 2 else { throw SimTextError("expected refund [issue|other|prorated]") }
      if w.count == 2, k[1] == "prorated" { return [.command(.refundProrated)] }
      if w.count == 1 || k[1] == "other" { return [.refund(.other)] }
      guard k[1] == "issue" else { throw SimTextError("expected refund [issue|other], found \"\(w[1])\"") }
      return [.refund(.issueInApp)]
    case "revoke":
      guard exactly("revoke") || exactly("revoke family sharing") else { throw SimTextError("expected revoke family sharing") }
      return [.revokeFamilySharing(purchaserRefund: nil)]
    case "purchaser":
      // purchaser refunded [issue|other]: the family purchaser's refund revokes this member.
      guard k.count >= 2, k[1] == "refunded", k.count <= 3 else { throw SimTextError("expected purchaser refunded [issue|other]") }
      if k.count == 2 || k[2] == "other" { return [.revokeFamilySharing(purchaserRefund: .other)] }
      guard k[2] == "issue" else { throw SimTextError("expected purchaser refunded [issue|other], found \"\(w[2])\"") }
      return [.revokeFamilySharing(purchaserRefund: .issueInApp)]
    case "force":
      guard exactly("force renewal") else { throw SimTextError("expected force renewal") }
      return [.forceRenewal]
    case "request":
      if k.count >= 2, k[1] == "refund" {
        // request refund [unintended|fulfillment|unsatisfied|legal|other]: CONSUMPTION_REQUEST.
        guard k.count <= 3 else { throw SimTextError("expected request refund [unintended|fulfillment|unsatisfied|legal|other]") }
        let reasons: [String: ConsumptionRequestReason] = [
          "unintended": .unintendedPurchase, "fulfillment": .fulfillmentIssue, "unsatisfied": .unsatisfiedWithPurchase,
          "legal": .legal, "other": .other,
        ]
        let word = k.count == 3 ? k[2] : "unsatisfied"
        guard let reason = reasons[word] ?? reasons.values.first(where: { $0.rawValue.lowercased() == word }) else {
          throw SimTextError("unknown refund reason \"\(w[2])\" (expected unintended, fulfillment, unsatisfied, legal or other)")
        }
        return [.command(.requestRefund(reason))]
      }
      guard k.count >= 3, k[1] == "price", k[2] == "increase" else {
        throw SimTextError("expected request price increase [<new price>] [without consent] or request refund [reason]")
      }
      var price: Int64?
      var consent = true
      var i = 3
      if i < k.count, let p = Money.parse(w[i]) { price = p; i += 1 }
      if i < k.count {
        guard k[i...].joined(separator: " ") == "without consent" else {
          throw SimTextError("unexpected \"\(rest(i))\" (expected a price such as 12.99, then optionally without consent)")
        }
        consent = false
      }
      return [.requestPriceIncrease(newPriceMilli: price, consentRequired: consent)]
    case "consent":
      guard exactly("consent price increase") || exactly("consent to price increase") else { throw SimTextError("expected consent price increase") }
      return [.command(.consentPriceIncrease)]
    case "decline":
      if exactly("decline price increase") { return [.command(.declinePriceIncrease)] }
      if exactly("decline ask to buy") { return [.command(.declineAskToBuy)] }
      if exactly("decline refund") { return [.command(.declineRefund)] }
      throw SimTextError("expected decline price increase, decline ask to buy or decline refund")
    case "approve":
      if exactly("approve refund") { return [.command(.refund)] }
      guard exactly("approve ask to buy") else { throw SimTextError("expected approve ask to buy or approve refund") }
      return [.command(.approveAskToBuy)]
    case "reverse":
      guard exactly("reverse refund") else { throw SimTextError("expected reverse refund") }
      return [.command(.reverseRefund)]
    case "advance":
      return [try advance(w)]
    case "expect":
      return try ScenarioExpectParser.parse(Array(w.dropFirst())).map(ScenarioStep.expect)
    default:
      throw SimTextError("unknown step \"\(w[0])\" (see docs/simulation.md for the steps)")
    }
  }

  static func target(_ w: [String]) throws(SimTextError) -> String {
    if w.count == 3, w[1].lowercased() == "to" { return w[2] }
    if w.count == 2 { return w[1] }
    throw SimTextError("expected \(w[0].lowercased()) to <product id>")
  }

  static func code(_ w: [String]) throws(SimTextError) -> ScenarioStep {
    // code SPRING26 "Spring 2026" [limit 100]
    guard w.count == 3 || (w.count == 5 && w[3].lowercased() == "limit") else {
      throw SimTextError("expected code <CODE> \"<offer reference name>\" [limit <n>]")
    }
    var limit: Int?
    if w.count == 5 {
      guard let n = Int(w[4]), n > 0 else { throw SimTextError("limit must be a positive number") }
      limit = n
    }
    return .code(code: w[1], offerReference: w[2], limit: limit)
  }

  static func advance(_ w: [String]) throws(SimTextError) -> ScenarioStep {
    let k = w.map { $0.lowercased() }
    let usage = "advance <n> <unit> (minutes, hours, days, weeks, months, years), advance 3d, advance to next event, advance <n> events or advance to <date>"
    guard w.count >= 2 else { throw SimTextError("expected \(usage)") }
    if k.dropFirst().joined(separator: " ") == "to next event" { return .advanceEvents(1) }
    if k[1] == "to" {
      guard w.count >= 3 else { throw SimTextError("expected advance to <date>") }
      return .advanceTo(try date(w.dropFirst(2).joined(separator: " ")))
    }
    if w.count == 3, let n = Int(w[1]), n >= 0 {
      switch k[2] {
      case "event", "events": return .advanceEvents(n)
      case "month", "months": return .advance(.period(ISOPeriod(months: min(n, ISOPeriod.componentLimit))))
      case "year", "years": return .advance(.period(ISOPeriod(years: min(n, ISOPeriod.componentLimit))))
      case "week", "weeks": return .advance(.span(.weeks(Double(n))))
      case "day", "days": return .advance(.span(.days(Double(n))))
      case "hour", "hours": return .advance(.span(.hours(Double(n))))
      case "minute", "minutes", "min": return .advance(.span(.minutes(Double(n))))
      case "second", "seconds", "s": return .advance(.span(.seconds(Double(n))))
      case "ms", "millisecond", "milliseconds": return .advance(.span(.millisecond * Double(n)))
      default: throw SimTextError("unknown unit \"\(w[2])\"; expected \(usage)")
      }
    }
    let text = w.dropFirst().joined(separator: " ")
    if text.hasPrefix("P"), let p = try? ISOPeriod(parsing: text) { return .advance(.period(p)) }
    do { return .advance(.span(try Format.parseSpan(text))) } catch { throw SimTextError("\(error.description); expected \(usage)") }
  }

  static func setting(_ w: [String]) throws(SimTextError) -> SettingChange {
    let k = w.map { $0.lowercased() }
    let usage = "set rate|grace|seed|outcomes|fail renewals|failure rate|ask to buy|renewal cap|environment …"
    guard !w.isEmpty else { throw SimTextError("expected \(usage)") }
    func value(_ from: Int) throws(SimTextError) -> String {
      guard w.count > from else { throw SimTextError("expected a value after set \(k[..<from].joined(separator: " "))") }
      return w[from...].joined(separator: " ")
    }
    func onOff(_ text: String) throws(SimTextError) -> Bool {
      switch text.lowercased() {
      case "on", "yes", "true": return true
      case "off", "no", "false": return false
      default: throw SimTextError("expected on or off, found \"\(text)\"")
      }
    }
    switch k[0] {
    case "rate", "timerate":
      let name = try value(1)
      do { _ = try SimulationRate(parsing: name) } catch { throw SimTextError(error.description) }
      return .rate(name)
    case "grace":
      if k.count >= 2, k[1] == "renewals" {
        switch try value(2).lowercased() {
        case "all", "all_renewals": return .graceRenewalType(.allRenewals)
        case "paid-to-paid", "paid to paid", "paid_to_paid_only", "paid-to-paid only": return .graceRenewalType(.paidToPaidOnly)
        default: throw SimTextError("expected set grace renewals all|paid-to-paid")
        }
      }
      return .grace(try GraceSetting(parsing: try value(1)))
    case "seed":
      guard w.count == 2, let n = UInt64(w[1]) else { throw SimTextError("expected set seed <non-negative integer>") }
      return .seed(n)
    case "outcomes":
      let list = try value(1).split(separator: ",").map { String($0) }
      var out: [RenewalOutcome] = []
      for item in list { out.append(try RenewalOutcome(parsing: item)) }
      return .outcomes(out)
    case "fail":
      guard k.count >= 2, k[1] == "renewals" else { throw SimTextError("expected set fail renewals on|off") }
      return .failRenewals(try onOff(try value(2)))
    case "failure":
      guard k.count == 3, k[1] == "rate", let f = Double(w[2]), (0...1).contains(f) else {
        throw SimTextError("expected set failure rate <0…1>")
      }
      return .failureRate(f)
    case "ask":
      guard k.count >= 3, k[1] == "to", k[2] == "buy" else { throw SimTextError("expected set ask to buy on|off") }
      return .askToBuy(try onOff(try value(3)))
    case "renewal":
      guard k.count == 3, k[1] == "cap" else { throw SimTextError("expected set renewal cap on|off|<n>") }
      if let n = Int(w[2]), n >= 0 { return .renewalCap(.count(n)) }
      return .renewalCap(try onOff(w[2]) ? .on : .off)
    case "environment":
      let e = AppStoreEnvironment(rawValue: try value(1))
      guard e.isKnown else { throw SimTextError("expected Sandbox, Xcode or LocalTesting") }
      guard e != .production else { throw SimTextError("simulation never writes Production data") }
      return .environment(e)
    default:
      throw SimTextError("unknown setting \"\(w[0])\"; expected \(usage)")
    }
  }

  static func date(_ text: String) throws(SimTextError) -> Instant {
    do { return try Format.parseDate(text) } catch { throw SimTextError(error.description) }
  }
}
