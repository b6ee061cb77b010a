extension LifecycleFacts {
  /// The grace deadline and the time left, while in grace.
  var grace: GraceInfo? {
    guard status == .billingGracePeriod, let g = renewal?.gracePeriodExpiresDate else { return nil }
    return GraceInfo(expiresDate: g, remaining: g - now)
  }

  /// The retry window, in grace (which is the start of billing retry) and in billing retry.
  var billingRetry: BillingRetryInfo? {
    guard status == .billingGracePeriod || status == .billingRetry, let since = transaction?.expiresDate else { return nil }
    // At an accelerated time rate the simulator records the scaled retry end; Apple's 60 days
    // apply otherwise.
    let simulatedEnd = state.document.simulation
      .flatMap { try? SimulationSettings(ObjectReader($0, at: JSONPath.root.appending("simulation"))) }?
      .billingIssue.flatMap { $0.since == since ? $0.retryExpiresDate : nil }
    return BillingRetryInfo(
      since: since, retryUntil: simulatedEnd ?? since + LifecycleCalendar.billingRetryLength,
      accessDuringRetry: state.document.policy.billingRetryAccess)
  }

  /// When and why access ended, or, while active with auto-renew off, when it will end.
  var expiry: ExpiryInfo? {
    guard let date = transaction?.expiresDate else { return nil }
    let intent = renewal?.expirationIntent
    switch status {
    case .expired?:
      let reason: String
      if let intent {
        reason = intent.description
      } else if renewal?.autoRenewStatus == .off {
        reason = "auto-renew was off"
      } else {
        reason = "expired without renewal (no expirationIntent)"
      }
      return ExpiryInfo(date: date, intent: intent, reason: reason)
    case .active? where !autoRenewOn:
      return ExpiryInfo(date: date, intent: intent, reason: "auto-renew is off: access ends at expiresDate (not expired yet)")
    default:
      return nil
    }
  }

  /// Refund or Family Sharing revocation, once revoked.
  var revocation: RevocationInfo? {
    guard status == .revoked, let t = transaction, let date = t.revocationDate else { return nil }
    var parts: [String] = []
    if let type = t.revocationType {
      var text = type.description
      if type == .refundProrated, let pct = t.revocationPercentage {
        text += " (\(Self.percent(milliunits: pct)))"
      }
      parts.append(text)
    }
    if let reason = t.revocationReason { parts.append(reason.description) }
    let what = t.revocationType == .familyRevoke ? "Family Sharing access revoked" : "refunded"
    let detail = parts.isEmpty ? "" : ": " + parts.joined(separator: "; ")
    return RevocationInfo(date: date, reason: t.revocationReason, type: t.revocationType, text: "\(what) \(Self.date(date))\(detail)")
  }

  /// revocationPercentage is in milliunits: 50000 is "50%", 37500 is "37.5%".
  static func percent(milliunits: Int) -> String {
    let m = milliunits.magnitude
    var frac = String(m % 1000)
    frac = String(repeating: "0", count: 3 - frac.count) + frac
    while frac.hasSuffix("0") { frac.removeLast() }
    return (milliunits < 0 ? "-" : "") + "\(m / 1000)" + (frac.isEmpty ? "" : "." + frac) + "%"
  }

  /// The offer the current period was bought with.
  var offerInEffect: OfferInfo? {
    guard isServing, let t = transaction, let type = t.offerType else { return nil }
    return Self.offer(type: type, identifier: t.offerIdentifier, discount: t.offerDiscountType, period: t.offerPeriod,
                      remaining: state.subscriber.offerPeriodsRemaining)
  }

  /// The offer the next renewal will use (renewal info's offer fields), if it renews.
  var offerQueued: OfferInfo? {
    guard isServing, autoRenewOn, let r = renewal, let type = r.offerType else { return nil }
    return Self.offer(type: type, identifier: r.offerIdentifier, discount: r.offerDiscountType, period: r.offerPeriod, remaining: nil)
  }

  /// "offer code Spring 2026 (pay as you go, P1M, 2 periods left)".
  static func offer(type: OfferType, identifier: String?, discount: OfferDiscountType?, period: String?, remaining: Int?) -> OfferInfo {
    var details: [String] = []
    if let discount { details.append(discount.description) }
    if let period { details.append(period) }
    if let remaining { details.append(remaining == 1 ? "1 period left" : "\(remaining) periods left") }
    var text = type.description
    if let identifier, !identifier.isEmpty { text += " " + identifier }
    if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
    return OfferInfo(type: type, identifier: identifier, discountType: discount, period: period, periodsRemaining: remaining, text: text)
  }
}
