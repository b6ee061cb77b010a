/// Accepting a win-back offer: only a churned customer (expired, auto-renew off, not refunded) may,
/// and only for an offer the App Store would offer them. It resumes the subscription now with the
/// offer (offerType 4, offerIdentifier = the offer ID): SUBSCRIBED / RESUBSCRIBE.
enum WinBack {
  static func outcome(offerId: String, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    guard ctx.latest != nil else { throw .noSubscription }
    if ctx.status == .revoked { throw .revoked }
    guard let offer = ctx.state.allWinBackOffers.first(where: { $0.offerId == offerId }) else { throw .unknownWinBack(offerId) }
    try WinBackAcceptance.check(offer, ctx)
    guard let product = ctx.catalog.product(offer.productId) else { throw .unknownProduct(offer.productId) }
    let applied = try AppliedOffer.winBack(offer, in: ctx)
    return try StartSubscription(product: product, offer: applied, notificationType: "SUBSCRIBED", subtype: "RESUBSCRIBE").outcome(ctx)
  }
}

/// Whether one win-back offer is open to the subscriber now. Apple decides eligibility on its
/// servers and reports it as `renewalInfo.eligibleWinBackOfferIds`; when the file has that list it
/// is the authority. Without it SubDash checks what it can see: expired (not in grace or retry,
/// which Apple excludes), the offer's product in the subscriber's group, and the offer's dates.
enum WinBackAcceptance {
  static func check(_ offer: WinBackOffer, _ ctx: ActionContext) throws(ActionError) {
    let id = offer.offerId
    switch ctx.status {
    case .expired?: break
    case .billingGracePeriod?: throw .winBackNotEligible(id, reason: "the subscription is in its billing grace period")
    case .billingRetry?: throw .winBackNotEligible(id, reason: "the subscription is in billing retry")
    default: throw .winBackNotEligible(id, reason: "the subscription is active")
    }
    if let listed = ctx.subscriber.renewalInfo?.eligibleWinBackOfferIds {
      guard listed.contains(id) else {
        let shown = listed.isEmpty ? "it is empty" : "it lists \(listed.joined(separator: ", "))"
        throw .winBackNotEligible(id, reason: "not in renewalInfo.eligibleWinBackOfferIds (\(shown))")
      }
      return
    }
    if let current = ctx.latest?.productId, let group = ctx.catalog.group(of: current),
       !group.subscriptions.contains(where: { $0.productID == offer.productId }) {
      throw .winBackNotEligible(id, reason: "it is for \(offer.productId), outside the subscriber's group \(group.name)")
    }
    if let start = offer.startDate, ctx.now < start {
      throw .winBackNotEligible(id, reason: "the offer starts on \(Format.date(start))")
    }
    if let end = offer.endDate, end <= ctx.now {
      throw .winBackNotEligible(id, reason: "the offer ended on \(Format.date(end))")
    }
  }
}
