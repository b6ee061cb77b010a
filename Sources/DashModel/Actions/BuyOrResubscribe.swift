import CoreValues
/// The customer buys a plan in the group: SUBSCRIBED / INITIAL_BUY for someone who never
/// subscribed, SUBSCRIBED / RESUBSCRIBE after a lapse (Apple's two purchase notifications). The
/// simulator makes the purchase (`Simulator.buy`: intro offer when eligible, Ask to Buy when on),
/// so the preview and the write are the same step; refused while the subscription is active or
/// in grace (change plans instead), in billing retry, and on Production data.
enum BuyOrResubscribe {
  static func outcome(productId: String, billingPlan: BillingPlanType? = nil, _ s: SubscriptionState, at now: Instant) throws(ActionError) -> Outcome {
    try outcome(PurchaseRequest(productId: productId, billingPlan: billingPlan), s, at: now)
  }

  static func outcome(_ request: PurchaseRequest, _ s: SubscriptionState, at now: Instant) throws(ActionError) -> Outcome {
    let productId = request.productId
    let change = try Simulator.buy(request, state: s, at: now).get()
    let bought = change.state.subscriber.latestTransaction
    let isNew = bought.map { $0 != s.subscriber.latestTransaction } ?? false
    var summary = change.message
    if isNew, let t = bought, let name = s.catalog.product(productId)?.displayName {
      let verb = s.subscriber.latestTransaction == nil ? "Subscribe to" : "Resubscribe to"
      summary = "\(verb) \(name) now: \(Money.format(t.price ?? 0, currency: t.currency))"
      // What the customer commits to, as Apple's disclosure sheet says it: the number of
      // payments and the total (WWDC26 session 210).
      if t.billingPlanType == .monthly, let o = t.offerType, let d = t.offerDiscountType {
        summary += " with the \(o.description) (\(d.description))"
      }
      if let c = t.commitmentInfo, t.billingPlanType == .monthly {
        let total = c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods
        summary += c.billingPeriodNumber.map { " (payment \($0) of \(total)" } ?? " (then \(total) monthly payments from the trial's end"
        if let total = c.commitmentPrice { summary += ", \(Money.format(total, currency: t.currency)) in total" }
        if let end = c.commitmentExpiresDate { summary += ", commitment ends \(Format.date(end, now: now))" }
        summary += ")"
      }
      if let e = t.expiresDate { summary += ", first period ends \(Format.date(e, now: now))" }
      summary += "."
    }
    return Outcome(change: change, preview: ActionPreview(summary: summary, effectiveDate: now))
  }
}
