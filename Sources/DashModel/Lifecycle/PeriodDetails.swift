import CoreValues
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
        text += " (\(Format.milliPercent(pct)))"
      }
      parts.append(text)
    }
    if let reason = t.revocationReason { parts.append(reason.description) }
    let what = t.revocationType == .familyRevoke ? "Family Sharing access revoked" : "refunded"
    let detail = parts.isEmpty ? "" : ": " + parts.joined(separator: "; ")
    return RevocationInfo(date: date, reason: t.revocationReason, type: t.revocationType, text: "\(what) \(self.date(date))\(detail)")
  }

  /// The offer the current period was bought with.
  var offerInEffect: OfferInfo? {
    guard isServing, let t = transaction, let type = t.offerType else { return nil }
    return offer(type: type, identifier: t.offerIdentifier, discount: t.offerDiscountType, period: t.offerPeriod,
                 productId: t.productId, remaining: state.subscriber.offerPeriodsRemaining)
  }

  /// The offer the next renewal will use (renewal info's offer fields), if it renews.
  var offerQueued: OfferInfo? {
    guard isServing, autoRenewOn, let r = renewal, let type = r.offerType else { return nil }
    return offer(type: type, identifier: r.offerIdentifier, discount: r.offerDiscountType, period: r.offerPeriod,
                 productId: r.autoRenewProductId ?? transaction?.productId, remaining: nil)
  }

  /// "offer code Spring 2026 (pay as you go, 3 × 1 month, 2 periods left)". The text starts with
  /// the offer's own noun, so a caller shows it without an "offer" label of its own.
  ///
  /// The length reads like the rest of SubDash's offer texts ("3 × 1 month"): `offerPeriod` is the
  /// whole offer's duration (P3M), so the catalog's offer gives the period and count when it is
  /// there; otherwise the duration is named ("3 months"). The count of periods left appears only
  /// while some are left: a single-period offer (a free week, a one-period win-back offer, pay up
  /// front) has none to count, and the last period of a longer one says "last period".
  func offer(type: OfferType, identifier: String?, discount: OfferDiscountType?, period: String?, productId: String?, remaining: Int?) -> OfferInfo {
    let shape = catalogShape(type: type, identifier: identifier, discount: discount, productId: productId)
    var details: [String] = []
    if let discount { details.append(discount.description) }
    if let shape {
      details.append(ISOPeriod.duration(shape.period, times: shape.count))
    } else if let period {
      details.append((try? ISOPeriod(parsing: period))?.name ?? period)
    }
    if let remaining {
      if remaining > 0 {
        details.append(remaining == 1 ? "1 period left" : "\(remaining) periods left")
      } else if remaining == 0, let shape, shape.count > 1, discount == .payAsYouGo {
        details.append("last period")
      }
    }
    // An offer type this version does not know still reads as an offer ("next offer of unknown type").
    var text = type.isKnown ? type.description : "offer of unknown type \(type.rawValue)"
    // Names, not ids: the catalog's reference name for a win-back or promotional offer id
    // (`family_winback_free_month` reads "Family Free Month"); the id when the catalog lacks it.
    if let identifier, !identifier.isEmpty { text += " " + (referenceName(type: type, identifier: identifier, productId: productId) ?? identifier) }
    if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
    return OfferInfo(type: type, identifier: identifier, discountType: discount, period: period, periodsRemaining: remaining, text: text)
  }

  /// The catalog's reference name for an offer id (offer codes are already named by theirs).
  private func referenceName(type: OfferType, identifier: String, productId: String?) -> String? {
    switch type {
    case .winBack: return state.allWinBackOffers.first { $0.offerId == identifier }?.referenceName
    case .promotional: return state.catalog.product(productId)?.promotionalOffers.first { $0.id == identifier }?.referenceName
    default: return nil
    }
  }

  /// One offer period and how many there are, from the catalog offer this one names: an offer
  /// code by reference name, a win-back or promotional offer by id, the product's introductory
  /// offer with the same payment mode.
  private func catalogShape(type: OfferType, identifier: String?, discount: OfferDiscountType?, productId: String?) -> (period: ISOPeriod, count: Int)? {
    let product = state.catalog.product(productId)
    func shape(_ period: String, _ count: Int) -> (period: ISOPeriod, count: Int)? {
      guard count >= 1, let p = try? ISOPeriod(parsing: period) else { return nil }
      return (p, count)
    }
    switch type {
    case .offerCode:
      guard let o = product?.codeOffers.first(where: { $0.referenceName == identifier }) else { return nil }
      return shape(o.terms.period, o.terms.numberOfPeriods)
    case .winBack:
      guard let o = state.allWinBackOffers.first(where: { $0.offerId == identifier }) else { return nil }
      return shape(o.period, o.periodCount)
    case .promotional:
      guard let o = product?.promotionalOffers.first(where: { $0.id == identifier }) else { return nil }
      return shape(o.period, o.numberOfPeriods)
    case .introductory:
      guard let o = product?.introductoryOffers.first(where: { $0.paymentMode.discountType == discount }) else { return nil }
      return shape(o.period, o.numberOfPeriods)
    default:
      return nil
    }
  }
}
