import CoreValues
/// Promotional offers, offer codes and win-back offers against the billing plans of a product with
/// a monthly plan with a 12-month commitment. Apple: offers "are specific to each billing plan"
/// ("Supporting monthly subscriptions with a 12-month commitment"); the rest is SubDash's
/// inference, reasoned in docs/simulation.md ("Offers on the monthly plan"):
/// - a customer paying monthly in a commitment (or in its free trial) takes only the monthly
///   plan's offers, and one paying up front only the up-front plan's (checked where the catalog
///   gives the product a monthly plan, so that it knows the offers' plans);
/// - for the product the customer already has, a monthly-plan offer discounts the next payments
///   of the commitment, from the next one (the payment keeps its number, the commitment its end;
///   `SimContext.commitmentOfferPayment`); pay up front, or a length that is not whole months,
///   does not fit monthly payments and is refused;
/// - with no subscription (new or lapsed), a monthly-plan offer buys the monthly plan with it,
///   as the introductory offer does (`SimContext.commitmentStart`);
/// - a change of product with an offer: an upgrade ends the commitment and bills up front, so it
///   takes only an up-front offer; a downgrade or crossgrade inside a commitment waits for the
///   commitment's end, and an offer with it is refused (redeem it once the new plan runs).
enum CommitmentOfferRules {
  /// The outcome when the commitment rules decide, nil when the usual rules apply unchanged.
  static func apply(_ offer: AppliedOffer, product: SubscriptionProduct, kind: CodeEligibility, _ ctx: ActionContext) throws(ActionError) -> Outcome? {
    let offerPlan = offer.billingPlan ?? .billedUpfront
    switch kind {
    case .new, .expired:
      guard offerPlan == .monthly else { return nil }
      return try startCommitment(product: product, offer: offer, ctx)
    case .existing:
      let current = try ctx.requireSubscription()
      let customerPlan: BillingPlanType = ctx.latest?.billingPlanType == .monthly ? .monthly : .billedUpfront
      if product.productID == current.product.productID {
        // A catalog that knows no monthly plan for the product (one derived from imported
        // transactions, say) knows no offer's plan either: the usual rules apply.
        guard product.monthlyPlan != nil else { return nil }
        guard offerPlan == customerPlan else { throw .other(mismatch(offer, product: product, offerPlan: offerPlan, customerPlan: customerPlan)) }
        guard customerPlan == .monthly else { return nil }
        guard offer.offerTerms.monthlyPayments != nil else { throw .other(doesNotFit(offer)) }
        return nil
      }
      guard offerPlan == .billedUpfront else {
        throw .other("\(offer.label.capitalizedFirst) is for \(product.displayName)'s monthly plan with a 12-month commitment; a change of plan is billed up front (an upgrade ends the commitment), so it takes only an offer of the up-front plan.")
      }
      if let m = CommitmentPlanChanges.midCommitment(ctx), product.level >= current.product.level {
        let ends = m.ends.map { Format.date($0, now: ctx.now) } ?? "the commitment's end"
        throw .other("Inside the 12-month commitment a downgrade or crossgrade waits for the commitment to end on \(ends); \(offer.label) is not applied with it (redeem it once the new plan runs).")
      }
      return nil
    }
  }

  /// A monthly-plan offer taken by someone without a subscription: the monthly plan is bought
  /// with it (SUBSCRIBED / INITIAL_BUY or RESUBSCRIBE, as any purchase).
  static func startCommitment(product: SubscriptionProduct, offer: AppliedOffer, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    guard product.monthlyPlan != nil else {
      throw .other("\(offer.label.capitalizedFirst) is for the monthly plan with a 12-month commitment, which \(product.displayName) does not have in the catalog (billingPlans, MONTHLY).")
    }
    if offer.mode == .payUpFront || (offer.mode == .payAsYouGo && offer.offerTerms.monthlyPayments == nil) { throw .other(doesNotFit(offer)) }
    var request = PurchaseRequest(productId: product.productID, useIntroductoryOffer: false, billingPlan: .monthly)
    request.offer = offer.offerTerms
    return try BuyOrResubscribe.outcome(request, ctx.state, at: ctx.now)
  }

  /// What the offer does to the payments of the commitment, for the redeem preview: "for payments
  /// 5–6 of 12 (the commitment still ends on DATE)". nil outside a commitment.
  static func paymentsNote(_ offer: AppliedOffer, _ ctx: ActionContext) -> String? {
    guard let t = ctx.latest, t.billingPlanType == .monthly, let c = t.commitmentInfo, let n = offer.offerTerms.monthlyPayments else { return nil }
    let total = c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods
    let first = (c.billingPeriodNumber ?? 0) + 1
    let last = min(total, first + n - 1)
    var s = first == last ? "for payment \(first) of \(total)" : "for payments \(first)–\(last) of \(total)"
    if let end = c.commitmentExpiresDate { s += " (the commitment still ends on \(Format.date(end, now: ctx.now)))" }
    return s
  }

  private static func mismatch(_ offer: AppliedOffer, product: SubscriptionProduct, offerPlan: BillingPlanType, customerPlan: BillingPlanType) -> String {
    let plan = offerPlan == .monthly ? "monthly plan with a 12-month commitment" : "up-front plan"
    let pays = customerPlan == .monthly ? "pays monthly with a 12-month commitment" : "pays up front"
    return "\(offer.label.capitalizedFirst) is for \(product.displayName)'s \(plan); this customer \(pays) (offers are specific to each billing plan)."
  }

  private static func doesNotFit(_ offer: AppliedOffer) -> String {
    "\(offer.label.capitalizedFirst) (\(offer.mode.label), \(ISOPeriod.duration(offer.period, times: offer.count))) does not fit the monthly plan with a 12-month commitment, which is billed one month at a time: it takes a free trial or whole months pay as you go (pay up front is the up-front plan's)."
  }
}

extension AppliedOffer {
  /// The same offer in the renewal engine's terms.
  var offerTerms: OfferTerms {
    OfferTerms(type: type, identifier: identifier, mode: mode, period: period, count: count, priceMilli: priceMilli)
  }
}

extension String {
  /// "Offer code X" from "offer code X".
  var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
