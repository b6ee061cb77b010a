/// Turning auto-renew off (cancelling) or back on. Apple reports DID_CHANGE_RENEWAL_STATUS with
/// AUTO_RENEW_DISABLED or AUTO_RENEW_ENABLED. `expirationIntent` is left alone: the App Store sets
/// it only when the subscription actually expires (then to 1, customer cancelled).
enum AutoRenew {
  static func outcome(on: Bool, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    let current = try ctx.requireSubscription()
    try ctx.requireRenewalPending()
    var r = ctx.renewalInfo
    if r.autoRenewOn == on { throw .autoRenewAlready(on) }
    r.autoRenewStatus = on ? .on : .off
    if r.autoRenewProductId == nil { r.autoRenewProductId = current.product.productID }
    r.signedDate = ctx.now
    var state = ctx.state

    let name = current.product.displayName
    let when = Format.date(ctx.nextRenewalDate)
    let renewingId = r.autoRenewProductId ?? current.product.productID
    let renewing = ctx.catalog.product(renewingId)?.displayName ?? name
    let currency = r.currency ?? ctx.defaultCurrency

    // A price increase the customer declined is asked again (docs/simulation.md, "What is
    // inferred"): re-enabling auto-renew is no consent, and the old price must not come back.
    var reasked: PendingPriceIncrease?
    if on, let p = SimulationAutoRenew.reaskDeclinedIncrease(in: &state, renewing: renewingId, at: ctx.now) {
      reasked = p
      r.priceIncreaseStatus = .customerHasNotResponded
      if r.offerType == nil { r.renewalPrice = p.newPriceMilli }
    }
    state.subscriber.renewalInfo = r

    let price = ActionText.money(r.renewalPrice ?? current.product.priceMilli, currency)
    let text: String
    if let p = reasked {
      text = "auto-renew on: \(renewing) renews on \(when) for \(ActionText.money(p.newPriceMilli, currency)) only if the customer consents to the price increase (asked again); without consent it expires then"
    } else {
      text = on
        ? "auto-renew on: \(renewing) renews on \(when) for \(price)"
        : "auto-renew off: \(name) ends on \(when) instead of renewing"
    }
    var notes = [ctx.notification(type: "DID_CHANGE_RENEWAL_STATUS", subtype: on ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED",
                                  status: ctx.status, productId: current.product.productID, summary: "Turned \(text)")]
    if let p = reasked {
      notes.append(ctx.notification(1, type: "PRICE_INCREASE", subtype: "PENDING", status: ctx.status, productId: current.product.productID,
                                    summary: "price of \(renewing) rises to \(ActionText.money(p.newPriceMilli, currency)); consent asked again before the renewal"))
    }
    let change = Change(state: state, notifications: notes, message: "Turned \(text).")
    let preview = ActionPreview(summary: "Turn \(text).", effectiveDate: ctx.now)
    return Outcome(change: change, preview: preview)
  }
}
