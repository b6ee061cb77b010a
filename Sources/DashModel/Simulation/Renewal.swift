import CoreValues
extension SimContext {
  /// The renewal attempt at the end of a period with auto-renew on. Before billing, the App Store
  /// checks consent to a price increase and (in sandbox) the renewal cap; then the scripted or
  /// configured outcome decides between a renewal and a billing failure.
  mutating func attemptRenewal(at date: Instant) {
    guard let current = latest else { return }
    let productId = renewalInfo.autoRenewProductId ?? current.productId ?? ""
    guard product(productId) != nil else {
      // Nothing to charge for: the App Store expires it as not for sale (expirationIntent 4).
      expire(at: date, intent: .productNotAvailable, subtype: .productNotForSale,
             summary: "expired: \(productId) is not for sale (not in the catalog)")
      return
    }
    // Without consent (never answered, or declined and auto-renew turned back on by hand) an
    // increase that needs consent is not applied, and the old price never comes back. Inside a
    // 12-month commitment the increase waits for the commitment's end (CommitmentPriceIncrease).
    if let p = settings.pendingPriceIncrease, p.productId == productId, p.response != .accepted, !paysInsideCommitment(after: current) {
      expire(at: date, intent: .didNotConsentToPriceIncrease, subtype: .priceIncrease,
             summary: "expired: no consent to the price increase to \(money(p.newPriceMilli))")
      return
    }
    let count = current.transactionReason == .purchase ? 0 : settings.renewalCount
    if let cap = rules.renewalCap, count >= cap {
      expire(at: date, intent: .customerCancelled, subtype: .voluntary,
             summary: "sandbox renewal cap reached after \(counted(count, "renewal")): auto-renew turned off")
      return
    }
    let outcome = nextOutcome(at: date)
    if outcome.fails {
      beginBillingIssue(at: date, outcome: outcome)
    } else {
      let t = renew(purchaseDate: date, periodStart: current.expiresDate ?? date, keepAnchor: true)
      settings.renewalCount = count + 1
      notify(.didRenew, at: date, summary: renewalSummary(t))
    }
  }

  /// The outcome of the renewal attempt at `date`: the first scripted one, else every renewal
  /// fails when `failRenewals` is on, else a seeded draw against `failureRate`.
  mutating func nextOutcome(at date: Instant) -> RenewalOutcome {
    if !settings.renewalOutcomes.isEmpty { return settings.renewalOutcomes.removeFirst() }
    if rules.failRenewals { return .fail }
    if let rate = settings.failureRate, rate > 0 {
      let draw = Double(SeededDraw.value(seed: settings.seed, salt: UInt64(truncatingIfNeeded: Int64(date.ms.rounded(.down)))) >> 11) / Double(1 << 53)
      return draw < rate ? .fail : .ok
    }
    return .ok
  }

  /// Charges the next period and makes it the latest transaction. `periodStart` is where the new
  /// period is counted from (the old expiresDate for a renewal on time or in grace; the payment
  /// date after billing retry). A pending downgrade or crossgrade takes effect here, offers step
  /// forward, and a consented price increase becomes the regular price.
  @discardableResult
  mutating func renew(purchaseDate: Instant, periodStart: Instant, keepAnchor: Bool) -> TransactionPayload {
    let current = latest!
    let productId = renewalInfo.autoRenewProductId ?? current.productId ?? ""
    var phase = renewalPhase(after: current, into: productId)
    var increaseNote: String?
    if let p = settings.pendingPriceIncrease, p.productId == productId, p.response == .accepted, !paysInsideCommitment(after: current) {
      settings.pendingPriceIncrease = nil
      if phase.commitment?.plan == .monthly {
        raiseCommitment(&phase, to: p.newPriceMilli)
        increaseNote = "price increase to \(money(p.newPriceMilli)) a month applied to the new commitment"
      } else {
        settings.setPriceOverride(p.newPriceMilli, for: productId)
        if phase.offer == nil { phase.priceMilli = p.newPriceMilli }
        increaseNote = "price increase to \(money(p.newPriceMilli)) applied"
      }
    }
    let expires = periodEnd(from: periodStart, period: phase.period, keepAnchor: keepAnchor)
    var t = makeTransaction(productId: productId, purchaseDate: purchaseDate, expiresDate: expires, reason: .renewal, phase: phase)
    stampCommitment(&t, phase)
    record(t)
    state.subscriber.offerPeriodsRemaining = phase.offer == nil ? nil : phase.remaining
    var info = renewalInfo
    // An increase waiting for the commitment's end stays announced through its monthly payments.
    if settings.pendingPriceIncrease == nil || !paysInsideCommitment(after: current) { info.priceIncreaseStatus = nil }
    info.expirationIntent = nil
    info.isInBillingRetryPeriod = nil
    info.gracePeriodExpiresDate = nil
    info.eligibleWinBackOfferIds = nil
    renewalInfo = info
    settings.billingIssue = nil
    if let offer = phase.offer, (phase.remaining ?? 0) > 0 {
      setNextRenewalOffer(offer, periodText: phase.offerPeriodText)
    } else {
      setNextRenewalOffer(nil, periodText: nil)
    }
    syncCommitmentRenewal(after: t, purchase: false)
    syncRenewalInfo(at: purchaseDate)
    if let increaseNote { messages.append(increaseNote) }
    return t
  }

  func renewalSummary(_ t: TransactionPayload) -> String {
    var s = "renewed \(name(t.productId)) for \(money(t.price))"
    if let o = t.offerType { s += " (\(o.description))" }
    if let e = t.expiresDate { s += " until \(date(e))" }
    return s + commitmentNote(t)
  }

  /// Ends the subscription at the end of its period: auto-renew is off, so nothing renews.
  mutating func expireAtPeriodEnd(at date: Instant) {
    if let p = settings.pendingPriceIncrease, p.response == .declined {
      expire(at: date, intent: .didNotConsentToPriceIncrease, subtype: .priceIncrease,
             summary: "expired: the price increase to \(money(p.newPriceMilli)) was declined")
    } else if let issue = settings.billingIssue {
      let when = issue.gracePeriodExpiresDate == date ? "at the end of the grace period" : "in billing retry"
      expire(at: date, intent: .customerCancelled, subtype: .voluntary,
             summary: "expired \(when): auto-renew was turned off, so billing retry stopped")
    } else {
      expire(at: date, intent: .customerCancelled, subtype: .voluntary, summary: "expired: auto-renew was off")
    }
  }

  /// Marks the subscription expired for good with `intent` and sends EXPIRED.
  mutating func expire(at date: Instant, intent: ExpirationIntent, subtype: NotificationSubtype, summary: String) {
    var info = renewalInfo
    info.autoRenewStatus = .off
    info.expirationIntent = intent
    info.priceIncreaseStatus = nil
    if info.isInBillingRetryPeriod != nil { info.isInBillingRetryPeriod = false }
    // Expired is out of grace (a cancellation in grace ends at the grace date).
    info.gracePeriodExpiresDate = nil
    // A commitment that expired renews no more (inferred: Apple says only that it ends).
    if var rc = info.commitmentInfo { rc.commitmentAutoRenewStatus = .off; info.commitmentInfo = rc }
    info.signedDate = date
    info.clearQueuedOffer()
    renewalInfo = info
    settings.pendingPriceIncrease = nil
    settings.billingIssue = nil
    notify(.expired, subtype, at: date, summary: summary)
  }
}

/// SplitMix64 of (seed, salt): the simulator's only randomness, reproducible from the seed.
enum SeededDraw {
  static func value(seed: UInt64, salt: UInt64) -> UInt64 {
    var z = seed &+ salt &* 0x9E37_79B9_7F4A_7C15 &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
