import CoreValues
/// A customer who never subscribed redeems an offer code that stacks with introductory offers:
/// the subscription starts now with the product's introductory offer (SUBSCRIBED / INITIAL_BUY,
/// offerType 1), and the code's offer is queued for the renewal that ends it. App Store Connect's
/// offer codes either stack with introductory offers or replace them (the App Store Connect API's
/// `offerEligibility`: STACK_WITH_INTRO_OFFERS or REPLACE_INTRO_OFFERS; `.storekit` calls it
/// `isStackable`); a code that replaces them starts with the code's offer at once.
///
/// The renewal info holds one queued offer, so an introductory offer that itself runs over
/// several renewals (pay as you go, more than one period) cannot have the code queued behind it
/// yet: refused with that reason rather than dropping either offer.
struct StackedOnIntroductoryOffer {
  /// The code as typed (normalized), for a refusal.
  var typed: String
  var product: SubscriptionProduct
  var intro: AppliedOffer
  var code: AppliedOffer

  func outcome(_ ctx: ActionContext) throws(ActionError) -> Outcome {
    guard intro.remainingAfterFirst == 0 else {
      throw .codeNotEligible(typed, reason: "it stacks after the introductory offer, whose \(intro.count) pay-as-you-go periods SubDash cannot yet queue an offer behind (one queued offer at a time)")
    }
    var outcome = try StartSubscription(product: product, offer: intro, notificationType: .subscribed, subtype: .initialBuy).outcome(ctx)
    var state = outcome.change.state
    guard var r = state.subscriber.renewalInfo, let latest = state.subscriber.latestTransaction else { return outcome }
    code.queue(on: &r)
    state.subscriber.renewalInfo = r
    outcome.change.state = state
    let currency = latest.currency ?? ctx.defaultCurrency
    let then = "then \(code.label) (\(code.terms(currency: currency))) from the renewal on \(Format.date(r.renewalDate ?? ctx.now, now: ctx.now))"
    outcome.change.message = outcome.change.message.dropLast() + "; " + then + "."
    outcome.preview.summary = outcome.preview.summary.dropLast() + "; " + then + "."
    return outcome
  }
}

extension AppliedOffer {
  /// The product's introductory offer as it lands on the first transaction, or nil without one.
  static func introductory(of product: SubscriptionProduct, in ctx: ActionContext) throws(ActionError) -> AppliedOffer? {
    // Only an up-front offer: an offer of the monthly plan is for commitment purchases (Apple: offers are per billing plan).
    guard let o = product.introductoryOffers.first(where: { ($0.billingPlanType ?? .billedUpfront) == .billedUpfront }) else { return nil }
    let p = try ctx.period(o.period, of: "introductory offer of \(product.productID)")
    return AppliedOffer(type: .introductory, identifier: o.id, mode: o.paymentMode, period: p, count: o.numberOfPeriods,
                        priceMilli: o.priceMilli, label: "the introductory offer")
  }
}
