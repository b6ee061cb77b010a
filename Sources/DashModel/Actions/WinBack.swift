/// Accepting a win-back offer: only a churned customer may, and only for an offer that
/// `Lifecycle.derive` lists as eligible (`WinBackEligibility.evaluate`: expired, the most
/// recent subscription's product, the offer's dates, months since lapse, paid time, wait between
/// redemptions of the same offer; Apple's list when the history is incomplete). It resumes the
/// subscription now with the offer (offerType 4, offerIdentifier = the offer ID): SUBSCRIBED / RESUBSCRIBE.
enum WinBack {
  static func outcome(offerId: String, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    guard ctx.latest != nil else { throw .noSubscription }
    if ctx.status == .revoked { throw .revoked }
    guard let offer = ctx.state.allWinBackOffers.first(where: { $0.offerId == offerId }) else { throw .unknownWinBack(offerId) }
    let report = WinBackEligibility.evaluate(ctx.state, status: ctx.status, at: ctx.now)
    guard report.eligible.contains(where: { $0.offerId == offerId }) else {
      throw .winBackNotEligible(offerId, reason: reason(offer, report, ctx))
    }
    guard let product = ctx.catalog.product(offer.productId) else { throw .unknownProduct(offer.productId) }
    let applied = try AppliedOffer.winBack(offer, in: ctx)
    if applied.billingPlan == .monthly { return try CommitmentOfferRules.startCommitment(product: product, offer: applied, ctx) }
    return try StartSubscription(product: product, offer: applied, notificationType: .subscribed, subtype: .resubscribe).outcome(ctx)
  }

  /// The reason this offer is closed: its own blocking rule when the customer is lapsed (another
  /// offer may be open), else why no offer is (active, grace, retry).
  private static func reason(_ offer: WinBackOffer, _ report: WinBackReport, _ ctx: ActionContext) -> String {
    guard ctx.status == .expired, let t = ctx.latest else { return report.whyNone ?? "not eligible" }
    if report.source == .apple { return "Apple's eligibleWinBackOfferIds does not list it (SubDash lacks the history to decide)" }
    guard offer.productId == t.productId else {
      return "it is for \(offer.productId), not the subscriber's most recent subscription \(t.productId ?? "?")"
    }
    if let lapse = t.expiresDate,
       let block = WinBackEligibility.check(offer, lapse: lapse, past: WinBackEligibility.Past(ctx.state), at: ctx.now) {
      return block.description
    }
    return report.whyNone ?? "not eligible"
  }
}
