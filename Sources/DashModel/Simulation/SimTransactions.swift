import CoreValues
extension SimContext {
  /// A subscription transaction in the App Store's shape. Identity fields (original id and
  /// purchase date, bundle, storefront, environment) carry over from the previous transaction, as
  /// they do across renewals, upgrades and resubscriptions within one group.
  func makeTransaction(
    productId: String, purchaseDate: Instant, expiresDate: Instant, reason: TransactionReason,
    phase: RenewalPhase, ownership: OwnershipType? = nil
  ) -> TransactionPayload {
    let stamp = phase.offer.map {
      PayloadFactory.OfferStamp(type: $0.type, identifier: $0.identifier, discountType: $0.mode.discountType, period: phase.offerPeriodText)
    }
    let spec = PayloadFactory.TransactionSpec(
      sequence: nextTransactionSequence, productId: productId, groupId: state.catalog.group(of: productId)?.id,
      purchaseDate: purchaseDate, expiresDate: expiresDate, reason: reason, priceMilli: phase.priceMilli, offer: stamp,
      ownership: ownership, history: summary)
    return PayloadFactory.transaction(spec, previous: latest, account: account)
  }

  /// The account new transactions belong to when no earlier one says (see `AccountDefaults`).
  var account: AccountDefaults {
    var sandbox = false
    if case .sandbox = rules.rate { sandbox = true }
    return AccountDefaults(state: state, settings: settings, sandboxRate: sandbox)
  }


  /// The end of a period starting at `start`. Calendar periods count from an anchor, so a
  /// subscription bought on Jan 31 renews Feb 28, Mar 31, Apr 30: each end is the anchor plus n
  /// periods, never the previous end plus one (which would drift to the 28th for good).
  mutating func periodEnd(from start: Instant, period: ISOPeriod, keepAnchor: Bool) -> Instant {
    let rate = rules.rate
    if keepAnchor, let a = settings.periodAnchor, a.period == period.description,
       rate.periodEnd(from: a.date, period: period, count: a.count) == start {
      settings.periodAnchor?.count = a.count + 1
      return rate.periodEnd(from: a.date, period: period, count: a.count + 1)
    }
    settings.periodAnchor = PeriodAnchor(date: start, period: period.description, count: 1)
    return rate.periodEnd(from: start, period: period, count: 1)
  }

  /// Brings renewal info in line with the latest transaction, as the App Store re-signs it after
  /// every change: the product, the renewal date and price, and the offer queued for the next
  /// renewal when a running offer has periods left.
  mutating func syncRenewalInfo(at date: Instant) {
    guard let t = latest else { return }
    var info = renewalInfo
    info.originalTransactionId = t.originalTransactionId
    info.productId = t.productId
    if info.autoRenewProductId == nil { info.autoRenewProductId = t.productId }
    info.renewalDate = t.expiresDate
    info.signedDate = date
    info.environment = t.environment
    info.currency = currency
    renewalInfo = info
    renewalInfo.renewalPrice = nextRenewalPrice()
  }

  /// Sets or clears the offer renewal info announces for the next renewal.
  mutating func setNextRenewalOffer(_ terms: OfferTerms?, periodText: String?) {
    var info = renewalInfo
    info.offerType = terms?.type
    info.offerIdentifier = terms?.identifier
    info.offerDiscountType = terms?.mode.discountType
    info.offerPeriod = terms == nil ? nil : periodText
    renewalInfo = info
  }

  /// What the next renewal will charge: the next offer step, else the regular price with any
  /// announced (not declined) increase.
  func nextRenewalPrice() -> Int64? {
    guard let t = latest, let productId = state.subscriber.renewalInfo?.autoRenewProductId ?? t.productId else { return nil }
    let phase = renewalPhase(after: t, into: productId)
    if phase.offer == nil, !paysInsideCommitment(after: t), let p = settings.pendingPriceIncrease, p.productId == productId, p.response != .declined {
      return p.newPriceMilli
    }
    return phase.priceMilli
  }

  /// "Premium Monthly" for messages, falling back to the product id.
  func name(_ productId: String?) -> String {
    guard let id = productId else { return "the subscription" }
    return product(id)?.displayName ?? id
  }

  func money(_ milli: Int64?) -> String {
    guard let milli else { return "an unknown price" }
    return Format.money(milliunits: milli, currency: currency)
  }

  /// Seconds shown within an hour of where the step has got to (`Format.showsSeconds`).
  func date(_ i: Instant) -> String { Format.date(i, now: reached) }
}
