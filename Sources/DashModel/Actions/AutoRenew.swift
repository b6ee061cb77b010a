import CoreValues
/// Turning auto-renew off (cancelling) or back on. Apple reports DID_CHANGE_RENEWAL_STATUS with
/// AUTO_RENEW_DISABLED or AUTO_RENEW_ENABLED. `expirationIntent` is left alone while the period
/// runs: the App Store sets it only when the subscription actually expires (then to 1, customer
/// cancelled).
///
/// During a billing issue the paid period has already ended, so cancelling stops the retry
/// (Apple: retry runs "until the user resolves their billing issue or cancels their
/// subscription"). In grace the customer keeps access until the grace date, where the simulator
/// expires it (EXPIRED / VOLUNTARY); in billing retry nothing is paid for, so it expires at once,
/// in this same change. Turning auto-renew back on in grace resumes the retry.
enum AutoRenew {
  static func outcome(on: Bool, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    if let commitment = try CommitmentPlanChanges.autoRenew(on: on, ctx) { return commitment }
    let current = try ctx.requireSubscription()
    try ctx.requireRenewalPending()
    var r = ctx.renewalInfo
    if r.autoRenewOn == on { throw .autoRenewAlready(on) }
    r.autoRenewStatus = on ? .on : .off
    // On a commitment's last payment the next billing period is the commitment's renewal.
    if CommitmentPlanChanges.inCommitment(ctx), var rc = r.commitmentInfo {
      rc.commitmentAutoRenewStatus = r.autoRenewStatus
      r.commitmentInfo = rc
    }
    if r.autoRenewProductId == nil { r.autoRenewProductId = current.product.productID }
    r.signedDate = ctx.now
    var state = ctx.state

    let name = current.product.displayName
    let when = Format.date(ctx.nextRenewalDate, now: ctx.now)
    let renewingId = r.autoRenewProductId ?? current.product.productID
    let renewing = ctx.catalog.product(renewingId)?.displayName ?? name
    let currency = r.currency ?? ctx.defaultCurrency
    let grace = ctx.status == .billingGracePeriod ? r.gracePeriodExpiresDate : nil
    let inRetry = ctx.status == .billingRetry

    // A price increase the customer declined is asked again (docs/simulation.md, "What is
    // inferred"): re-enabling auto-renew is no consent, and the old price must not come back.
    var reasked: PendingPriceIncrease?
    if on, let p = SimulationAutoRenew.reaskDeclinedIncrease(in: &state, renewing: renewingId, at: ctx.now) {
      reasked = p
      r.priceIncreaseStatus = .customerHasNotResponded
      if r.offerType == nil { r.renewalPrice = p.newPriceMilli }
    }
    if !on && inRetry { expireCancelledRetry(&r, &state) }
    state.subscriber.renewalInfo = r

    let price = ActionText.money(r.renewalPrice ?? current.product.priceMilli, currency)
    let text: String
    if let p = reasked {
      text = "auto-renew on: \(renewing) renews on \(when) for \(ActionText.money(p.newPriceMilli, currency)) only if the customer consents to the price increase (asked again); without consent it expires then"
    } else if on, let grace {
      text = "auto-renew on: the App Store retries billing for \(renewing) again; access continues in the grace period until \(Format.date(grace, now: ctx.now))"
    } else if on, inRetry {
      text = "auto-renew on: the App Store retries billing for \(renewing) again"
    } else if on {
      text = "auto-renew on: \(renewing) renews on \(when) for \(price)"
    } else if let grace {
      text = "auto-renew off: billing retry for \(name) stops; access ends when the grace period ends on \(Format.date(grace, now: ctx.now))"
    } else if inRetry {
      text = "auto-renew off: \(name) expired now, billing retry stopped"
    } else {
      text = "auto-renew off: \(name) ends on \(when) instead of renewing"
    }
    var notes = [ctx.notification(type: .didChangeRenewalStatus, subtype: on ? NotificationSubtype.autoRenewEnabled : .autoRenewDisabled,
                                  status: ctx.status, productId: current.product.productID, summary: "Turned \(text)")]
    if let p = reasked {
      notes.append(ctx.notification(1, type: .priceIncrease, subtype: .pending, status: ctx.status, productId: current.product.productID,
                                    summary: "price of \(renewing) rises to \(ActionText.money(p.newPriceMilli, currency)); consent asked again before the renewal"))
    }
    if !on && inRetry {
      notes.append(ctx.notification(1, type: .expired, subtype: .voluntary, status: .expired, productId: current.product.productID,
                                    summary: "expired in billing retry: auto-renew was turned off, so billing retry stopped"))
    }
    let change = Change(state: state, notifications: notes, message: "Turned \(text).")
    let preview = ActionPreview(summary: "Turn \(text).", effectiveDate: ctx.now)
    return Outcome(change: change, preview: preview)
  }

  /// Cancelled in billing retry: the subscription expires now, as the simulator's own expiry
  /// writes it (expirationIntent 1, not in retry, no offer or increase for a renewal that will
  /// not happen), and the simulation forgets the billing issue.
  private static func expireCancelledRetry(_ r: inout RenewalInfoPayload, _ state: inout SubscriptionState) {
    r.expirationIntent = .customerCancelled
    r.isInBillingRetryPeriod = false
    r.priceIncreaseStatus = nil
    r.clearQueuedOffer()
    SimulationAutoRenew.endBillingIssue(in: &state)
  }
}
