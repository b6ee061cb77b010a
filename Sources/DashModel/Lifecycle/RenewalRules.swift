extension LifecycleFacts {
  /// What happens at the end of the current period. Only a serving subscription (active or in
  /// grace) has an outlook; a consent-blocked price increase outranks a pending switch because it
  /// decides whether anything renews at all.
  var renewalOutlook: RenewalOutlook {
    guard isServing, let date = expiresDate else { return .none }
    // Cancelled during grace: access ends with the grace period, not at the unpaid expiresDate.
    guard autoRenewOn else { return .expiresAutoRenewOff(date: grace?.expiresDate ?? date) }
    if renewal?.priceIncreaseStatus == .customerHasNotResponded {
      return .awaitsPriceConsent(date: date, newPriceMilli: renewal?.renewalPrice)
    }
    if let change = pendingChange { return .switches(date: change.effectiveDate, toProductId: change.toProductId) }
    let productId = renewal?.autoRenewProductId ?? transaction?.productId ?? ""
    let price = renewal?.renewalPrice ?? state.catalog.product(productId)?.priceMilli
    return .renews(date: date, productId: productId, priceMilli: price, currency: renewal?.currency ?? transaction?.currency)
  }

  /// A downgrade or crossgrade waiting for the renewal date: `autoRenewProductId` differs from
  /// the current product while auto-renew is on. Levels come from the catalog (1 = highest); a
  /// target SubDash cannot place is called a downgrade, Apple's own name for any pending change
  /// (DID_CHANGE_RENEWAL_PREF / DOWNGRADE).
  var pendingChange: PendingChange? {
    guard isServing, autoRenewOn, let target = renewal?.autoRenewProductId, let current = transaction?.productId,
          target != current, let date = expiresDate else { return nil }
    let kind: PendingChange.Kind
    if let from = state.catalog.product(current)?.level, let to = state.catalog.product(target)?.level {
      kind = to > from ? .downgrade : to == from ? .crossgrade : .upgrade
    } else {
      kind = .downgrade
    }
    return PendingChange(kind: kind, toProductId: target, effectiveDate: date)
  }

  /// A price increase the renewal info announces, pending consent (0) or accepted (1).
  var priceIncrease: PriceIncreaseInfo? {
    guard isServing, let s = renewal?.priceIncreaseStatus else { return nil }
    return PriceIncreaseInfo(
      status: s, newPriceMilli: renewal?.renewalPrice, currency: renewal?.currency ?? transaction?.currency,
      effectiveDate: expiresDate)
  }
}
