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
    state.subscriber.renewalInfo = r

    let name = current.product.displayName
    let when = Format.date(ctx.nextRenewalDate)
    let renewing = ctx.catalog.product(r.autoRenewProductId)?.displayName ?? name
    let price = ActionText.money(r.renewalPrice ?? current.product.priceMilli, r.currency ?? ctx.defaultCurrency)
    let text = on
      ? "auto-renew on: \(renewing) renews on \(when) for \(price)"
      : "auto-renew off: \(name) ends on \(when) instead of renewing"
    let note = ctx.notification(type: "DID_CHANGE_RENEWAL_STATUS", subtype: on ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED",
                                status: ctx.status, productId: current.product.productID, summary: "Turned \(text)")
    let change = Change(state: state, notifications: [note], message: "Turned \(text).")
    let preview = ActionPreview(summary: "Turn \(text).", effectiveDate: ctx.now)
    return Outcome(change: change, preview: preview)
  }
}
