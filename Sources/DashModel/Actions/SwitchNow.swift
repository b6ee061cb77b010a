import CoreValues
/// An immediate plan change: an upgrade, a same-duration crossgrade, or an offer code for a higher
/// level. Apple: "The upgrade goes into effect immediately, starting a new billing period, and the
/// user receives a prorated refund for the unused portion of the previous period."
///
/// History choice: the change appends TWO transactions to the journal, in this order:
/// 1. the previous transaction again, now with `isUpgraded: true` and SubDash's extra field
///    `proratedRefundMilli` (the refund in milliunits, rounded to the currency's minor unit: see
///    `Proration`; not an App Store field), so the journal
///    shows what the App Store now reports for it;
/// 2. the new PURCHASE transaction (same originalTransactionId), which becomes latestTransaction.
/// The notification carries the same `proratedRefundMilli` field, and its summary states it.
struct SwitchNow {
  var target: SubscriptionProduct
  var offer: AppliedOffer?
  /// DID_CHANGE_RENEWAL_PREF for a plan change, OFFER_REDEEMED for an offer code.
  var notificationType: NotificationType
  /// "Upgrade" or "Crossgrade", for messages.
  var verb: String

  static let refundField = "proratedRefundMilli"

  func outcome(_ ctx: ActionContext) throws(ActionError) -> Outcome {
    let current = try ctx.requireSubscription()
    try ctx.requireEntitled(toChange: verb.lowercased())
    let old = current.transaction
    let expires: Instant
    let price: Int64
    if let o = offer {
      expires = try ctx.end(of: o.period, count: o.firstCount)
      price = o.priceMilli
    } else {
      expires = try ctx.end(of: try ctx.period(target.period, of: target.productID))
      price = target.priceMilli
    }
    var refund: Int64 = 0
    if let start = ctx.paidPeriodStart(of: old), let end = ctx.paidPeriodEnd(of: old) {
      refund = Proration.refundMilli(priceMilli: old.price ?? 0, purchaseDate: start, expiresDate: end, at: ctx.now,
                                     currency: old.currency ?? ctx.defaultCurrency)
    }
    var upgraded = old
    upgraded.isUpgraded = true
    upgraded.source[Self.refundField] = .int(refund)
    let new = NewTransaction(product: target, expiresDate: expires, priceMilli: price, offer: offer)
      .build(in: ctx, sequence: ctx.transactionSequence(1), previous: old)

    var subscriber = ctx.subscriber
    subscriber.latestTransaction = new
    subscriber.renewalInfo = renewalInfo(ctx, new: new)
    subscriber.offerPeriodsRemaining = offer?.remainingAfterFirst
    var state = ctx.state
    state.subscriber = subscriber

    let currency = new.currency
    var refundText = Self.refundText(refund, old: old, product: current.product, at: ctx.now, currency: old.currency ?? currency)
    // Apple: upgrading from a commitment plan, "the commitment ends immediately".
    if let ending = CommitmentPlanChanges.upgradeNote(ctx) { refundText += "; " + ending }
    let charge = offer.map { "\(ActionText.money(price, currency)) (\($0.label): \($0.terms(currency: currency)))" }
      ?? ActionText.money(price, currency)
    let ends = Format.date(expires, now: ctx.now)
    var note = ctx.notification(type: notificationType, subtype: .upgrade, status: .active, productId: target.productID,
                                summary: "\(verb)d from \(current.product.displayName) to \(target.displayName) for \(charge); \(refundText); period ends \(ends)")
    note.source[Self.refundField] = .int(refund)
    let change = Change(state: state, transactions: [upgraded, new], notifications: [note],
                        message: "\(verb)d to \(target.displayName) now; \(refundText); new period ends \(ends).")
    let preview = ActionPreview(summary: "\(verb) now to \(target.displayName) for \(charge): \(refundText); new period ends \(ends).",
                                effectiveDate: ctx.now, refundMilli: refund)
    return Outcome(change: change, preview: preview)
  }

  /// "refund 4.12 USD for the unused time of Family Pass", or why there is none: never "refund
  /// 0.00 USD", which reads like a refund that failed.
  static func refundText(_ refund: Int64, old: TransactionPayload, product: SubscriptionProduct, at now: Instant, currency: String?) -> String {
    let name = product.displayName
    guard refund == 0 else { return "refund \(ActionText.money(refund, currency)) for the unused time of \(name)" }
    if (old.price ?? 0) == 0 { return "no refund (the current period of \(name) was free)" }
    if let end = old.expiresDate, end <= now {
      // A billing grace period: the paid period is over, so no time of it is unused.
      return "no refund (the paid period of \(name) ended \(Format.date(end, now: now)))"
    }
    return "no refund (the unused time of \(name) is worth less than \(ActionText.money(Int64(Proration.minorUnitMilli(currency)), currency)))"
  }

  /// A new paid period clears everything about the old one's renewal: billing problems, a pending
  /// change or price increase, a queued offer. Auto-renew is on: the customer just bought.
  private func renewalInfo(_ ctx: ActionContext, new: TransactionPayload) -> RenewalInfoPayload {
    var r = ctx.renewalInfo
    r.originalTransactionId = new.originalTransactionId
    r.productId = target.productID
    r.autoRenewProductId = target.productID
    r.autoRenewStatus = .on
    r.expirationIntent = nil
    r.gracePeriodExpiresDate = nil
    if CommitmentPlanChanges.inCommitment(ctx) { r.commitmentInfo = nil }
    // What renews is what was just bought: up front (BILLED_UPFRONT) for a product with a
    // monthly plan, no plan at all for others (NewTransaction).
    r.renewalBillingPlanType = new.billingPlanType
    if r.isInBillingRetryPeriod != nil { r.isInBillingRetryPeriod = false }
    r.priceIncreaseStatus = nil
    r.clearQueuedOffer()
    r.renewalDate = new.expiresDate
    r.renewalPrice = target.priceMilli
    if let o = offer, o.remainingAfterFirst > 0 { o.queue(on: &r) }
    r.currency = new.currency ?? r.currency
    r.signedDate = ctx.now
    return r
  }
}

extension ActionContext {
  /// Immediate changes need a subscription that is still entitled (active or in grace); a lapsed
  /// one (billing retry outside grace, expired) is resubscribed instead.
  func requireEntitled(toChange what: String) throws(ActionError) {
    switch status {
    case .active?, .billingGracePeriod?: return
    case .billingRetry?:
      throw .notActive("in billing retry since \(latestEnd); a \(what) needs an active subscription or one in grace; resubscribe instead")
    default:
      throw .notActive("expired on \(latestEnd); resubscribe instead (offer code or win-back offer)")
    }
  }

  var latestEnd: String { latest?.expiresDate.map(Format.date) ?? "an unknown date" }
}
