/// Applying a promotional offer (`adHocOffers` in the .storekit catalog; App Store Connect's
/// promotional offers), as the developer's app offers it and the customer accepts.
///
/// Apple's eligibility (AD: storekit/implementing-promotional-offers-in-your-app; App Store
/// Connect "Set up promotional offers"): for customers who have subscribed before, i.e. existing
/// or lapsed subscribers of the group, never new customers (they get introductory offers).
/// Whom to offer it to beyond that is the developer's choice, so SubDash enforces no limit.
/// What it does is what a redeemed offer does (`RedeemCode.apply`) with `offerType` 2:
/// - active (or grace, retry), same product: the offer applies at the next renewal (OFFER_REDEEMED);
/// - active, another product of the group: upgrade now or switch at renewal with the offer
///   (OFFER_REDEEMED / UPGRADE or DOWNGRADE);
/// - lapsed: it resumes now with the offer (SUBSCRIBED / RESUBSCRIBE, as every lapsed customer's
///   purchase since January 2024).
public enum PromotionalOffer {
  static func outcome(offerId: String, productId: String?, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    let (product, terms) = try find(offerId: offerId, productId: productId, ctx)
    if ctx.status == .revoked { throw .revoked }
    if let current = ctx.latest?.productId, let group = ctx.catalog.group(of: current), group.id != product.groupID {
      throw .promotionalOfferNotEligible(offerId, reason: "it is for \(product.displayName), in another subscription group")
    }
    let customer = RedeemCode.customerType(ctx)
    guard customer.kind != .new else {
      throw .promotionalOfferNotEligible(offerId, reason: "promotional offers are for existing or lapsed subscribers; this customer never subscribed (introductory offers are for new customers)")
    }
    let period = try ctx.period(terms.period, of: "promotional offer \(terms.id) of \(product.productID)")
    var offer = AppliedOffer(type: .promotional, identifier: terms.id, mode: terms.paymentMode, period: period,
                             count: terms.numberOfPeriods, priceMilli: terms.priceMilli, label: "promotional offer \(terms.referenceName)")
    offer.billingPlan = terms.billingPlanType
    return try RedeemCode.apply(offer, product: product, kind: customer.kind, ctx)
  }

  /// The offer by id (or reference name): on `productId`, else on the current product, else on
  /// any product of the catalog.
  static func find(offerId: String, productId: String?, _ ctx: ActionContext) throws(ActionError) -> (SubscriptionProduct, SubscriptionOffer) {
    func match(_ p: SubscriptionProduct) -> SubscriptionOffer? {
      p.promotionalOffers.first { $0.id == offerId || $0.referenceName == offerId }
    }
    if let productId {
      guard let p = ctx.catalog.product(productId) else { throw .unknownProduct(productId) }
      guard let o = match(p) else { throw .unknownPromotionalOffer(offerId) }
      return (p, o)
    }
    if let current = ctx.catalog.product(ctx.latest?.productId), let o = match(current) { return (current, o) }
    for p in ctx.catalog.allSubscriptions { if let o = match(p) { return (p, o) } }
    throw .unknownPromotionalOffer(offerId)
  }

  /// Every promotional offer a picker can list for this subscriber: the group's products, or
  /// every product when the subscriber has none yet.
  public static func targets(in state: SubscriptionState) -> [(product: SubscriptionProduct, offer: SubscriptionOffer)] {
    let group = state.subscriber.latestTransaction?.productId.flatMap { state.catalog.group(of: $0)?.id }
    return state.catalog.allSubscriptions.filter { group == nil || $0.groupID == group }
      .flatMap { p in p.promotionalOffers.map { (p, $0) } }
  }
}
