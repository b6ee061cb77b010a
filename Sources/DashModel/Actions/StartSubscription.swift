import CoreValues
/// A subscription that starts now with an offer: an offer code redeemed by someone who never
/// subscribed (INITIAL_BUY) or whose subscription lapsed (RESUBSCRIBE), or an accepted win-back
/// offer. A resubscription keeps the originalTransactionId: it is the same subscription in the
/// same group, resumed.
struct StartSubscription {
  var product: SubscriptionProduct
  var offer: AppliedOffer
  var notificationType: NotificationType
  var subtype: NotificationSubtype

  func outcome(_ ctx: ActionContext) throws(ActionError) -> Outcome {
    let previous = ctx.latest
    let expires = try ctx.end(of: offer.period, count: offer.firstCount)
    let new = NewTransaction(product: product, expiresDate: expires, priceMilli: offer.priceMilli, offer: offer)
      .build(in: ctx, sequence: ctx.transactionSequence(0), previous: previous)

    var r = ctx.subscriber.renewalInfo ?? RenewalInfoPayload()
    let seriesStart = RecentSubscriptionStart.after(previous, seriesStart: r.recentSubscriptionStartDate, at: ctx.now)
    r.originalTransactionId = new.originalTransactionId
    r.productId = product.productID
    r.autoRenewProductId = product.productID
    r.autoRenewStatus = .on
    r.expirationIntent = nil
    r.gracePeriodExpiresDate = nil
    if r.isInBillingRetryPeriod != nil { r.isInBillingRetryPeriod = false }
    r.priceIncreaseStatus = nil
    r.eligibleWinBackOfferIds = nil
    r.clearQueuedOffer()
    // A resubscription starts afresh: no commitment, billed as just bought (NewTransaction).
    r.commitmentInfo = nil
    r.renewalBillingPlanType = new.billingPlanType
    r.renewalDate = expires
    r.renewalPrice = product.priceMilli
    if offer.remainingAfterFirst > 0 { offer.queue(on: &r) }
    r.currency = new.currency ?? r.currency
    r.environment = new.environment ?? r.environment
    r.recentSubscriptionStartDate = seriesStart
    r.signedDate = ctx.now

    var state = ctx.state
    state.subscriber.latestTransaction = new
    state.subscriber.renewalInfo = r
    state.subscriber.offerPeriodsRemaining = offer.remainingAfterFirst

    let currency = new.currency
    let terms = offer.terms(currency: currency)
    let regular = "then \(ActionText.money(product.priceMilli, currency)) per \(product.periodName)"
    let ends = Format.date(expires, now: ctx.now)
    let verb = previous == nil ? "Subscribed" : "Resubscribed"
    let note = ctx.notification(type: notificationType, subtype: subtype, status: .active, productId: product.productID,
                                summary: "\(verb) to \(product.displayName) with \(offer.label) (\(terms)); period ends \(ends)")
    let change = Change(state: state, transactions: [new], notifications: [note],
                        message: "\(verb) to \(product.displayName) with \(offer.label): \(terms), \(regular); first period ends \(ends).")
    let preview = ActionPreview(summary: "\(previous == nil ? "Subscribe" : "Resubscribe") now to \(product.displayName) with \(offer.label): \(terms), \(regular); first period ends \(ends).",
                                effectiveDate: ctx.now)
    return Outcome(change: change, preview: preview)
  }
}

extension SubscriptionProduct {
  /// "1 month" for P1M; the raw text when it is not a period SubDash can read.
  var periodName: String { (try? ISOPeriod(parsing: period))?.name ?? period }
}
