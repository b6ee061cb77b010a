import CoreValues
/// Redeeming an offer code typed by the customer.
///
/// Checks, in order, each refusal naming its reason: empty, unknown code, code expired, custom
/// code's limit reached, one-time code already used, code's product or offer missing from the
/// catalog, offer already redeemed by this subscriber (Apple: one redemption per offer per
/// customer), revoked subscription, code for another group, customer type not eligible (the
/// codeOffer's new / existing / expired list).
///
/// What a valid code does. Since 23 January 2024 (Notifications V2 changelog; appstore-server-api.md
/// §8) Apple sends OFFER_REDEEMED only for an active subscription; a new or lapsed customer's
/// redemption is a purchase, SUBSCRIBED with `offerType` 3 on the transaction:
/// - never subscribed: a subscription starts now with the offer (SUBSCRIBED / INITIAL_BUY);
/// - expired: it resumes now with the offer (SUBSCRIBED / RESUBSCRIBE);
/// - active, grace or retry, code for the current product: the offer applies at the next renewal
///   (no subtype);
/// - code for a higher level, or the same level and duration: immediate switch with the offer
///   (UPGRADE, prorated refund);
/// - code for a lower level, or the same level with another duration: switch with the offer at
///   the next renewal (DOWNGRADE).
/// A new-customer code marked `isStackable` is also redeemable by a new subscriber still in their
/// introductory offer (App Store Connect: new subscribers may redeem it "in addition to an
/// introductory offer"); it applies as for an existing subscriber, after the introductory period.
/// A customer who never subscribed redeeming a stackable code starts with the product's
/// introductory offer and renews into the code's offer (App Store Connect API offerEligibility
/// STACK_WITH_INTRO_OFFERS, as against REPLACE_INTRO_OFFERS): `StackedOnIntroductoryOffer`.
/// Every success records the redemption: subscriber.redeemedOfferCodes, and the batch's
/// redemptionCount (custom) or redeemedCodes (one-time).
enum RedeemCode {
  static func outcome(typed: String, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    let code = OfferCodeBatch.normalize(typed)
    guard !code.isEmpty else { throw .emptyCode }
    let batches = ctx.state.document.offerCodes
    guard let index = batches.firstIndex(where: { $0.matches(code) }) else { throw .unknownCode(code) }
    let batch = batches[index]
    if let end = batch.expiresDate, end <= ctx.now { throw .codeExpired(code, end) }
    if batch.kind == .custom, let limit = batch.redemptionLimit, batch.redemptionCount >= limit {
      throw .codeLimitReached(code, limit: limit)
    }
    if batch.kind == .oneTime, batch.redeemedCodes.contains(where: { OfferCodeBatch.normalize($0) == code }) {
      throw .codeAlreadyUsed(code)
    }
    guard let product = ctx.catalog.product(batch.productId) else { throw .unknownProduct(batch.productId) }
    guard let codeOffer = product.codeOffers.first(where: { $0.referenceName == batch.offerReference }) else {
      throw .codeOfferMissing(code, offerReference: batch.offerReference, productId: product.productID)
    }
    if ctx.subscriber.redeemedOfferCodes.contains(where: {
      $0.offerReference == batch.offerReference && ($0.productId ?? batch.productId) == batch.productId
    }) {
      throw .codeAlreadyRedeemedBySubscriber(code)
    }
    if let current = ctx.latest?.productId, let group = ctx.catalog.group(of: current), group.id != product.groupID {
      throw .codeWrongGroup(code)
    }
    var customer = customerType(ctx)
    // A new subscriber still in their introductory offer may redeem a new-customer code "in
    // addition to an introductory offer" only when the code stacks (`isStackable`); it then takes
    // effect as an existing subscriber's would (same product: from the next renewal).
    let inIntro = customer.kind == .existing && ctx.latest?.offerType == .introductory
    let forNew = codeOffer.eligibility.contains(.new)
    let stacks = inIntro && forNew && codeOffer.isStackable
    if inIntro {
      customer.text += " in an introductory offer"
      if forNew && !codeOffer.isStackable { customer.text += ", which this code does not stack with (isStackable is false)" }
    }
    guard codeOffer.eligibility.contains(customer.kind) || stacks else {
      let allowed = CodeEligibility.allCases.filter(codeOffer.eligibility.contains).map(\.label).joined(separator: " or ")
      throw .codeNotEligible(code, reason: "it is for \(allowed.isEmpty ? "no" : allowed) customers; this one is \(customer.text)")
    }
    let offer = try AppliedOffer.code(codeOffer, in: ctx, productId: product.productID)
    var outcome: Outcome
    if customer.kind == .new, codeOffer.isStackable, let intro = try AppliedOffer.introductory(of: product, in: ctx) {
      outcome = try StackedOnIntroductoryOffer(typed: code, product: product, intro: intro, code: offer).outcome(ctx)
    } else {
      outcome = try apply(offer, product: product, kind: customer.kind, ctx)
    }
    record(code: code, batchIndex: index, at: ctx.now, in: &outcome.change.state)
    return outcome
  }

  /// Also how a promotional offer applies (`PromotionalOffer`): the same cases, offerType 2.
  static func apply(_ offer: AppliedOffer, product: SubscriptionProduct, kind: CodeEligibility, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    let type = NotificationType.offerRedeemed
    // Offers belong to one billing plan: the monthly plan's start or discount a commitment.
    if let commitment = try CommitmentOfferRules.apply(offer, product: product, kind: kind, ctx) { return commitment }
    switch kind {
    case .new:
      return try StartSubscription(product: product, offer: offer, notificationType: .subscribed, subtype: .initialBuy).outcome(ctx)
    case .expired:
      return try StartSubscription(product: product, offer: offer, notificationType: .subscribed, subtype: .resubscribe).outcome(ctx)
    case .existing:
      let current = try ctx.requireSubscription()
      if product.productID == current.product.productID { return try forNextRenewal(offer, current.product, ctx) }
      var immediate = product.level < current.product.level
      if product.level == current.product.level { immediate = try Crossgrade.sameDuration(current.product, product, ctx) }
      if immediate {
        return try SwitchNow(target: product, offer: offer, notificationType: type, verb: "Upgrade").outcome(ctx)
      }
      return try SwitchAtRenewal(target: product, offer: offer, notificationType: type, verb: "Switch").outcome(ctx)
    }
  }

  /// A code for the product the customer already has: the offer waits for the next renewal.
  static func forNextRenewal(_ offer: AppliedOffer, _ product: SubscriptionProduct, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    var r = ctx.renewalInfo
    if let queued = r.offerIdentifier ?? r.offerType.map({ "\($0)" }) { throw .offerAlreadyQueued(queued) }
    let turnedOn = !r.autoRenewOn
    r.autoRenewProductId = product.productID
    r.autoRenewStatus = .on
    offer.queue(on: &r)
    r.signedDate = ctx.now
    var state = ctx.state
    state.subscriber.renewalInfo = r
    let when = Format.date(ctx.nextRenewalDate, now: ctx.now)
    var terms = offer.terms(currency: r.currency ?? ctx.defaultCurrency)
    if let payments = CommitmentOfferRules.paymentsNote(offer, ctx) { terms += " " + payments }
    let on = turnedOn ? "; auto-renew turned back on" : ""
    let note = ctx.notification(type: .offerRedeemed, subtype: nil, status: ctx.status, productId: product.productID,
                                summary: "Redeemed \(offer.label) for \(product.displayName): \(terms) from the renewal on \(when)\(on)")
    let change = Change(state: state, notifications: [note],
                        message: "Redeemed \(offer.label): \(terms) from the renewal on \(when)\(on).")
    let preview = ActionPreview(summary: "Redeem \(offer.label) for \(product.displayName): \(terms) from the next renewal on \(when)\(on).",
                                effectiveDate: ctx.nextRenewalDate)
    return Outcome(change: change, preview: preview)
  }

  /// Never subscribed = new; active, grace or billing retry = existing; expired = expired, and so
  /// is a refunded (revoked) one: without access, a lapsed customer who may resubscribe, as `b`
  /// lets them buy again.
  static func customerType(_ ctx: ActionContext) -> (kind: CodeEligibility, text: String) {
    switch ctx.status {
    case nil: return (.new, "new (never subscribed)")
    case .expired?: return (.expired, "expired (lapsed)")
    case .revoked?: return (.expired, "lapsed (refunded or revoked)")
    case let s?: return (.existing, "an existing subscriber (\(s))")
    }
  }

  private static func record(code: String, batchIndex: Int, at now: Instant, in state: inout SubscriptionState) {
    var batch = state.document.offerCodes[batchIndex]
    let written: String
    switch batch.kind {
    case .custom:
      batch.redemptionCount += 1
      written = batch.code ?? code
    case .oneTime:
      written = batch.codes.first { OfferCodeBatch.normalize($0) == code } ?? code
      batch.redeemedCodes.append(written)
    }
    state.document.offerCodes[batchIndex] = batch
    state.document.subscriber.redeemedOfferCodes.append(
      RedeemedCode(code: written, offerReference: batch.offerReference, productId: batch.productId, redeemedDate: now))
  }
}

extension CodeEligibility {
  var label: String {
    switch self {
    case .new: return "new"
    case .existing: return "existing (active)"
    case .expired: return "expired"
    }
  }
}
