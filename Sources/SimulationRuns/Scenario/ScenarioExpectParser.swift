import FoundationEssentials
import CoreValues
import DashModel
import SubscriberStorage

/// Reads the words after `expect`. An expectation is one entry in `table` (its first word,
/// lower-cased) and one function that reads the rest; docs/simulation.md lists them for users.
enum ScenarioExpectParser {
  typealias Reader = @Sendable (ScenarioWords) throws(SimTextError) -> [Expectation]

  static let table: [String: Reader] = [
    "status": { l throws(SimTextError) in [.status(try status(try value(l, 1)))] },
    "notification": { l throws(SimTextError) in [.notification(try label(try value(l, 1)))] },
    "notifications": notifications,
    "last": lastNotification,
    "no": noMoreNotifications,
    "access": { l throws(SimTextError) in [.access(try onOff(try value(l, 1)))] },
    "product": { l throws(SimTextError) in [.product(try value(l, 1))] },
    "renewal": renewal,
    "auto-renew": { l throws(SimTextError) in [.autoRenew(try onOff(try value(l, 1)))] },
    "expires": { l throws(SimTextError) in [.expires(try ScenarioParser.date(try value(l, 1)))] },
    "grace": graceUntil,
    "clock": clock, "now": clock,
    "price": price,
    "expiration": expirationIntent, "intent": expirationIntent,
    "offer": { l throws(SimTextError) in [.offer(try offerType(try value(l, 1)))] },
    "win-back": winBack, "winback": winBack,
    "revocation": revocation,
    "error": { l throws(SimTextError) in [.error(try value(l, 1))] },
    "billing": billingPlan,
    "payment": commitmentPayment,
    "commitment": commitment,
    "retention": ScenarioRetention.expectation,
    "member": ScenarioFamilyMembers.expectation,
  ]

  /// `expect billing plan monthly|upfront|none`.
  static func billingPlan(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    guard l.count == 3, l.keys[1] == "plan" else { throw SimTextError("expected expect billing plan monthly|upfront|none") }
    switch l.keys[2] {
    case "monthly": return [.billingPlan(.monthly)]
    case "upfront", "up-front": return [.billingPlan(.billedUpfront)]
    case "none": return [.billingPlan(nil)]
    default: throw SimTextError("expected monthly, upfront or none after expect billing plan, found \"\(l.words[2])\"")
    }
  }

  /// `expect payment 4 of 12`; `expect payment none` (in the free trial before payment 1).
  static func commitmentPayment(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    if l.count == 2, l.keys[1] == "none" { return [.commitmentBeforeFirstPayment] }
    guard l.count == 4, l.keys[2] == "of", let n = Int(l.keys[1]), let total = Int(l.keys[3]), n >= 1, total >= 1 else {
      throw SimTextError("expected expect payment <n> of <total>, such as expect payment 4 of 12, or expect payment none")
    }
    return [.commitmentPayment(number: n, total: total)]
  }

  /// `expect commitment ends DATE`, `expect commitment auto-renew on|off`, `expect commitment none`.
  static func commitment(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    let usage = "expected expect commitment ends <date>, expect commitment auto-renew on|off or expect commitment none"
    guard l.count >= 2 else { throw SimTextError(usage) }
    switch l.keys[1] {
    case "ends": return [.commitmentEnds(try ScenarioParser.date(try value(l, 2)))]
    case "auto-renew": return [.commitmentAutoRenew(try onOff(try value(l, 2)))]
    case "none" where l.count == 2: return [.noCommitment]
    default: throw SimTextError(usage)
    }
  }

  static func parse(_ w: [String]) throws(SimTextError) -> [Expectation] {
    let line = ScenarioWords(w)
    guard let first = line.keys.first else { throw SimTextError("expected something to expect (status, notification, access …)") }
    guard let read = table[first] else {
      throw SimTextError("unknown expectation \"\(w[0])\" (status, notification, notifications, last notification, no more notifications, access, product, renewal product, auto-renew, expires, grace until, clock, price, renewal price, expiration intent, offer, win-back, price increase status, revocation reason, billing plan, payment, commitment, retention, member, error)")
    }
    return try read(line)
  }

  /// The words from `from` on, which must not be empty.
  static func value(_ l: ScenarioWords, _ from: Int) throws(SimTextError) -> String {
    guard l.count > from else { throw SimTextError("expected a value after expect \(l.keys.prefix(from).joined(separator: " "))") }
    return l.rest(from)
  }

  static func onOff(_ text: String) throws(SimTextError) -> Bool {
    guard let value = ScenarioWords.onOff(text) else { throw SimTextError("expected on/off or yes/no, found \"\(text)\"") }
    return value
  }

  static func notifications(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    var out: [Expectation] = []
    for part in try value(l, 1).split(separator: ",") { out.append(.notification(try label(String(part)))) }
    return out
  }

  static func lastNotification(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    guard l.count > 2, l.keys[1] == "notification" else { throw SimTextError("expected expect last notification <TYPE> [/ SUBTYPE]") }
    return [.lastNotification(try label(try value(l, 2)))]
  }

  static func noMoreNotifications(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    guard l.is("no more notifications") || l.is("no notification") || l.is("no notifications") else {
      throw SimTextError("expected expect no more notifications")
    }
    return [.noMoreNotifications]
  }

  static func renewal(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    let usage = SimTextError("expected expect renewal product <id> or expect renewal price <amount>")
    guard l.count > 2 else { throw usage }
    if l.keys[1] == "product" { return [.renewalProduct(try value(l, 2))] }
    if l.keys[1] == "price" { return [.renewalPrice(try price(try value(l, 2)))] }
    throw usage
  }

  /// grace [until] <date>|none
  static func graceUntil(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    let text = try value(l, l.count > 1 && l.keys[1] == "until" ? 2 : 1)
    return [.gracePeriodExpires(text.lowercased() == "none" ? nil : try ScenarioParser.date(text))]
  }

  static func clock(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    [.clock(try ScenarioParser.date(try value(l, 1)))]
  }

  /// price <amount>, or price increase status 0|1|none
  static func price(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    let k = l.keys
    guard k.count > 2, k[1] == "increase", k[2] == "status" else { return [.price(try price(try value(l, 1)))] }
    let v = try value(l, 3).lowercased()
    if v == "none" { return [.priceIncreaseStatus(nil)] }
    guard let n = Int(v) else { throw SimTextError("expected 0, 1 or none") }
    return [.priceIncreaseStatus(PriceIncreaseStatus(rawValue: n))]
  }

  /// expiration [intent] <1–5>|none, or intent <1–5>|none
  static func expirationIntent(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    let k = l.keys
    let v = try value(l, k[0] == "expiration" && k.count > 1 && k[1] == "intent" ? 2 : 1).lowercased()
    if v == "none" { return [.expirationIntent(nil)] }
    guard let n = Int(v) else { throw SimTextError("expected an expirationIntent number (1–5) or none") }
    return [.expirationIntent(ExpirationIntent(rawValue: n))]
  }

  static func winBack(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    let v = try value(l, 1)
    if v.lowercased() == "none" { return [.winBack([])] }
    return [.winBack(v.split(separator: ",").map { $0.trimmedSpaces })]
  }

  /// revocation type REFUND_PRORATED [50000] (the type, then revocationPercentage), or
  /// revocation [reason] 0|1|none.
  static func revocation(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    let (w, k) = (l.words, l.keys)
    if k.count > 1, k[1] == "type" {
      guard w.count == 3 || w.count == 4 else { throw SimTextError("expected revocation type REFUND_FULL|REFUND_PRORATED|FAMILY_REVOKE|none [percentage in milliunits]") }
      let type = k[2] == "none" ? nil : RevocationType(rawValue: w[2].uppercased())
      var percentage: Int?
      if w.count == 4 {
        guard let p = Int(w[3]) else { throw SimTextError("expected a revocationPercentage in milliunits (50000 = 50%)") }
        percentage = p
      }
      return [.revocationType(type, percentage: percentage)]
    }
    let v = try value(l, k.count > 1 && k[1] == "reason" ? 2 : 1).lowercased()
    if v == "none" { return [.revocationReason(nil)] }
    guard let n = Int(v) else { throw SimTextError("expected 0, 1 or none") }
    return [.revocationReason(RevocationReason(rawValue: n))]
  }

  static func status(_ text: String) throws(SimTextError) -> SubscriptionStatus? {
    switch text.lowercased() {
    case "none", "never subscribed": return nil
    case "active", "1": return .active
    case "expired", "2": return .expired
    case "billing retry", "retry", "3": return .billingRetry
    case "grace", "billing grace period", "grace period", "4": return .billingGracePeriod
    case "revoked", "5": return .revoked
    default: throw SimTextError("expected a status 1–5 (active, expired, billing retry, grace, revoked) or none")
    }
  }

  static func label(_ text: String) throws(SimTextError) -> NotificationLabel {
    let parts = text.split(separator: "/").map { $0.trimmedSpaces }
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else {
      throw SimTextError("expected a notification such as DID_RENEW or DID_FAIL_TO_RENEW / GRACE_PERIOD, found \"\(text)\"")
    }
    return NotificationLabel(
      type: NotificationType(rawValue: parts[0].uppercased()),
      subtype: parts.count == 2 ? NotificationSubtype(rawValue: parts[1].uppercased()) : nil)
  }

  static func price(_ text: String) throws(SimTextError) -> Int64 {
    guard let p = Money.parse(text) else { throw SimTextError("\"\(text)\" is not a price such as 9.99") }
    return p
  }

  static func offerType(_ text: String) throws(SimTextError) -> OfferType? {
    switch text.lowercased() {
    case "none": return nil
    case "intro", "introductory", "introductory offer", "1": return .introductory
    case "promotional", "promo", "promotional offer", "2": return .promotional
    case "code", "offer code", "3": return .offerCode
    case "win-back", "winback", "win-back offer", "4": return .winBack
    default: throw SimTextError("expected intro, promotional, code, win-back or none")
    }
  }
}
