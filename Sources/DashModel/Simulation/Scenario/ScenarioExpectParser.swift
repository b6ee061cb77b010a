import FoundationEssentials

/// Reads the words after `expect`.
enum ScenarioExpectParser {
  static func parse(_ w: [String]) throws(SimTextError) -> [Expectation] {
    let k = w.map { $0.lowercased() }
    let joined = k.joined(separator: " ")
    func rest(_ from: Int) throws(SimTextError) -> String {
      guard w.count > from else { throw SimTextError("expected a value after expect \(k.prefix(from).joined(separator: " "))") }
      return w[from...].joined(separator: " ")
    }
    func onOff(_ text: String) throws(SimTextError) -> Bool {
      switch text.lowercased() {
      case "on", "yes", "true": return true
      case "off", "no", "false": return false
      default: throw SimTextError("expected on/off or yes/no, found \"\(text)\"")
      }
    }
    guard let first = k.first else { throw SimTextError("expected something to expect (status, notification, access …)") }
    switch first {
    case "status":
      return [.status(try status(try rest(1)))]
    case "notification":
      return [.notification(try label(try rest(1)))]
    case "notifications":
      var out: [Expectation] = []
      for part in try rest(1).split(separator: ",") { out.append(.notification(try label(String(part)))) }
      return out
    case "last":
      guard k.count > 2, k[1] == "notification" else { throw SimTextError("expected expect last notification <TYPE> [/ SUBTYPE]") }
      return [.lastNotification(try label(try rest(2)))]
    case "no":
      guard joined == "no more notifications" || joined == "no notification" || joined == "no notifications" else {
        throw SimTextError("expected expect no more notifications")
      }
      return [.noMoreNotifications]
    case "access":
      return [.access(try onOff(try rest(1)))]
    case "product":
      return [.product(try rest(1))]
    case "renewal":
      guard k.count > 2 else { throw SimTextError("expected expect renewal product <id> or expect renewal price <amount>") }
      if k[1] == "product" { return [.renewalProduct(try rest(2))] }
      if k[1] == "price" { return [.renewalPrice(try price(try rest(2)))] }
      throw SimTextError("expected expect renewal product <id> or expect renewal price <amount>")
    case "auto-renew":
      return [.autoRenew(try onOff(try rest(1)))]
    case "expires":
      return [.expires(try ScenarioParser.date(try rest(1)))]
    case "grace":
      let text = try rest(k.count > 1 && k[1] == "until" ? 2 : 1)
      return [.gracePeriodExpires(text.lowercased() == "none" ? nil : try ScenarioParser.date(text))]
    case "clock", "now":
      return [.clock(try ScenarioParser.date(try rest(1)))]
    case "price":
      if k.count > 2, k[1] == "increase", k[2] == "status" {
        let v = try rest(3).lowercased()
        if v == "none" { return [.priceIncreaseStatus(nil)] }
        guard let n = Int(v) else { throw SimTextError("expected 0, 1 or none") }
        return [.priceIncreaseStatus(PriceIncreaseStatus(rawValue: n))]
      }
      return [.price(try price(try rest(1)))]
    case "expiration", "intent":
      let v = try rest(first == "expiration" ? (k.count > 1 && k[1] == "intent" ? 2 : 1) : 1).lowercased()
      if v == "none" { return [.expirationIntent(nil)] }
      guard let n = Int(v) else { throw SimTextError("expected an expirationIntent number (1–5) or none") }
      return [.expirationIntent(ExpirationIntent(rawValue: n))]
    case "offer":
      return [.offer(try offerType(try rest(1)))]
    case "win-back", "winback":
      let v = try rest(1)
      if v.lowercased() == "none" { return [.winBack([])] }
      return [.winBack(v.split(separator: ",").map { $0.trimmedSpaces })]
    case "revocation" where k.count > 1 && k[1] == "type":
      // expect revocation type REFUND_PRORATED [50000]: the type, then revocationPercentage.
      guard w.count == 3 || w.count == 4 else { throw SimTextError("expected revocation type REFUND_FULL|REFUND_PRORATED|FAMILY_REVOKE|none [percentage in milliunits]") }
      let type = k[2] == "none" ? nil : RevocationType(rawValue: w[2].uppercased())
      var percentage: Int?
      if w.count == 4 {
        guard let p = Int(w[3]) else { throw SimTextError("expected a revocationPercentage in milliunits (50000 = 50%)") }
        percentage = p
      }
      return [.revocationType(type, percentage: percentage)]
    case "revocation":
      let v = try rest(k.count > 1 && k[1] == "reason" ? 2 : 1).lowercased()
      if v == "none" { return [.revocationReason(nil)] }
      guard let n = Int(v) else { throw SimTextError("expected 0, 1 or none") }
      return [.revocationReason(RevocationReason(rawValue: n))]
    case "error":
      return [.error(try rest(1))]
    default:
      throw SimTextError("unknown expectation \"\(w[0])\" (status, notification, notifications, last notification, no more notifications, access, product, renewal product, auto-renew, expires, grace until, clock, price, renewal price, expiration intent, offer, win-back, price increase status, revocation reason, error)")
    }
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
