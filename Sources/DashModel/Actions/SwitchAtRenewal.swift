import CoreValues
/// A plan change that waits for the next renewal: a downgrade, a crossgrade to another duration,
/// or an offer code for a lower level. Apple: "Downgrades take effect at the next renewal. The
/// currently active plan isn't affected." Only `renewalInfo.autoRenewProductId` (and the renewal
/// price, and the offer that will apply) change now; the renewal itself creates the RENEWAL
/// transaction for the new product.
///
/// After cancelling (auto-renew off, still active or in grace/retry), choosing another plan of the
/// group in the App Store's subscription page resubscribes to it: auto-renew turns back on with
/// the new autoRenewProductId. Two renewal-info fields change, so two notifications are sent, at
/// the same instant, in this order:
/// 1. DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_ENABLED: Apple sends it "each time the
///    subscription's auto-renew status changes" (Testing disabling auto-renew, "Test reenabling
///    the subscription renewal"); a server that tracks auto-renew only from this type would
///    otherwise keep the subscriber as cancelled;
/// 2. DID_CHANGE_RENEWAL_PREF / DOWNGRADE: the plan that renews changed ("downgraded or
///    cross-graded").
/// Apple documents no combined form; this pair is SubDash's reading (docs/simulation.md, What is
/// inferred). An expired or revoked subscription has no renewal to change: resubscribing then is
/// a new purchase, refused here as before.
struct SwitchAtRenewal {
  var target: SubscriptionProduct
  var offer: AppliedOffer?
  var notificationType: NotificationType
  var verb: String

  func outcome(_ ctx: ActionContext) throws(ActionError) -> Outcome {
    if offer == nil, let c = try CommitmentPlanChanges.deferred(to: target, verb: verb, type: notificationType, ctx) { return c }
    let current = try ctx.requireSubscription()
    try ctx.requireRenewalPending()
    var r = ctx.renewalInfo
    // With auto-renew off nothing is pending, whatever autoRenewProductId says: choosing that
    // product resubscribes to it.
    if offer == nil, r.autoRenewOn, ctx.pendingProductId == target.productID { throw .changeAlreadyPending(target.productID) }
    r.autoRenewProductId = target.productID
    r.clearQueuedOffer()
    r.renewalPrice = target.priceMilli
    if let o = offer { o.queue(on: &r) }
    // Choosing a plan (or redeeming a code) is a request to renew with it, so a cancelled
    // subscription renews again.
    let turnedOn = !r.autoRenewOn
    r.autoRenewStatus = .on
    r.signedDate = ctx.now
    var state = ctx.state
    state.subscriber.renewalInfo = r

    let when = ctx.nextRenewalDate
    let currency = r.currency ?? ctx.defaultCurrency
    let price = ActionText.money(r.renewalPrice ?? target.priceMilli, currency)
    let withOffer = offer.map { " with \($0.label) (\($0.terms(currency: currency)))" } ?? ""
    let on = turnedOn ? "; auto-renew turned back on" : ""
    // In a billing grace period or retry the renewal is overdue: the change waits for a retry
    // that succeeds, whenever that is.
    let overdue = when <= ctx.now
    let whenText = overdue ? "the overdue renewal (due \(Format.date(when, now: ctx.now))) succeeds" : "the renewal on \(Format.date(when, now: ctx.now))"
    var notes: [NotificationRecord] = []
    // An offer code's OFFER_REDEEMED already says the customer asked to renew with it; a plan
    // choice after cancelling also changes the auto-renew status, which has its own notification.
    if turnedOn && offer == nil {
      notes.append(ctx.notification(
        notes.count, type: .didChangeRenewalStatus, subtype: .autoRenewEnabled, status: ctx.status, productId: current.product.productID,
        summary: "Auto-renew turned back on by choosing \(target.displayName) for \(whenText)"))
    }
    notes.append(ctx.notification(
      notes.count, type: notificationType, subtype: .downgrade, status: ctx.status, productId: target.productID,
      summary: "\(verb) to \(target.displayName) scheduled for \(overdue ? "when " : "")\(whenText)\(withOffer)\(on)"))
    let at = overdue ? "when \(whenText)" : "at the next renewal on \(Format.date(when, now: ctx.now))"
    let change = Change(state: state, notifications: notes,
                        message: "\(target.displayName) starts \(at) for \(price)\(withOffer); \(current.product.displayName) stays until then\(on).")
    let turnsOn = turnedOn ? "; auto-renew turns back on" : ""
    let preview = ActionPreview(summary: "\(verb) to \(target.displayName) \(at) for \(price)\(withOffer); \(current.product.displayName) stays until then\(turnsOn).",
                                effectiveDate: when, waitsForBillingRecovery: overdue)
    return Outcome(change: change, preview: preview)
  }
}

/// Choosing the current product again while a downgrade or crossgrade is pending: Apple reports
/// DID_CHANGE_RENEWAL_PREF with no subtype, and the subscription renews as it is.
enum CancelPendingChange {
  static func outcome(_ ctx: ActionContext, pending: String) throws(ActionError) -> Outcome {
    let current = try ctx.requireSubscription()
    try ctx.requireRenewalPending()
    let name = ctx.catalog.product(pending)?.displayName ?? pending
    var r = ctx.renewalInfo
    r.autoRenewProductId = current.product.productID
    r.renewalPrice = current.product.priceMilli
    // A queued offer belonged to the product that was going to renew.
    r.clearQueuedOffer()
    r.signedDate = ctx.now
    var state = ctx.state
    state.subscriber.renewalInfo = r
    let whenText = Format.date(ctx.nextRenewalDate, now: ctx.now)
    let note = ctx.notification(type: .didChangeRenewalPref, subtype: nil, status: ctx.status, productId: current.product.productID,
                                summary: "Kept \(current.product.displayName): cancelled the switch to \(name) at \(whenText)")
    let change = Change(state: state, notifications: [note],
                        message: "Kept \(current.product.displayName); the switch to \(name) is cancelled.")
    let preview = ActionPreview(summary: "Keep \(current.product.displayName): cancel the pending switch to \(name) at the renewal on \(whenText).",
                                effectiveDate: ctx.now)
    return Outcome(change: change, preview: preview)
  }

  /// Choosing the product the subscriber already has: cancels a pending change, or is refused.
  static func ifCurrent(_ id: String, _ ctx: ActionContext) throws(ActionError) -> Outcome? {
    let current = try ctx.requireSubscription()
    guard id == current.product.productID else { return nil }
    if let kept = try CommitmentPlanChanges.keep(ctx) { return kept }
    guard let pending = ctx.pendingProductId else { throw .alreadyOnProduct(id) }
    return try outcome(ctx, pending: pending)
  }
}

extension ActionContext {
  /// Renewal-time changes need a renewal to come: active, in grace, or in billing retry (a
  /// recovered renewal uses the new product). Expired subscriptions have none.
  func requireRenewalPending() throws(ActionError) {
    switch status {
    case .active?, .billingGracePeriod?, .billingRetry?: return
    default: throw .notActive("expired on \(latestEnd); nothing renews, so resubscribe instead")
    }
  }

  /// A product the current subscription may change to: in the catalog and in the same group.
  func target(_ id: String, in group: SubscriptionGroup) throws(ActionError) -> SubscriptionProduct {
    guard let p = catalog.product(id) else { throw .unknownProduct(id) }
    guard group.subscriptions.contains(where: { $0.productID == id }) else { throw .differentGroup(productId: id) }
    return p
  }
}
