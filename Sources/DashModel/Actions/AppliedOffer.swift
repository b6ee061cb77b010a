import CoreValues
/// An offer (offer code or win-back) as it lands on transactions and renewal info.
///
/// How the periods map to transactions, following how the App Store bills each mode:
/// - free trial and pay up front: one transaction covers the whole offer (period × count),
///   charged once (0 for a trial);
/// - pay as you go: one transaction per period at the offer price; the rest of the periods follow
///   at renewals, which is what `Subscriber.offerPeriodsRemaining` counts.
struct AppliedOffer {
  var type: OfferType
  /// offerIdentifier: the reference name for codes, the offer ID for win-back offers.
  var identifier: String
  var mode: PaymentMode
  var period: ISOPeriod
  var count: Int
  /// Per period for pay as you go, the total for pay up front, 0 for a free trial.
  var priceMilli: Int64
  var label: String
  /// The billing plan the offer is configured for (nil: up front). Apple: offers "are specific to
  /// each billing plan"; `CommitmentOfferRules` checks it against the customer's plan.
  var billingPlan: BillingPlanType? = nil

  /// More offer periods than any App Store offer has (the longest are 12 monthly periods); the
  /// cap keeps period arithmetic on absurd data from overflowing.
  static let maxPeriods = 1_000

  init(type: OfferType, identifier: String, mode: PaymentMode, period: ISOPeriod, count: Int, priceMilli: Int64, label: String) {
    self.type = type
    self.identifier = identifier
    self.mode = mode
    self.period = period
    self.count = min(max(1, count), Self.maxPeriods + 1)
    self.priceMilli = mode == .freeTrial ? 0 : priceMilli
    self.label = label
  }

  static func code(_ offer: CodeOffer, in ctx: ActionContext, productId: String) throws(ActionError) -> AppliedOffer {
    let t = offer.terms
    let p = try ctx.period(t.period, of: "offer code \(offer.referenceName) of \(productId)")
    var applied = AppliedOffer(type: .offerCode, identifier: offer.referenceName, mode: t.paymentMode, period: p,
                               count: t.numberOfPeriods, priceMilli: t.priceMilli, label: "offer code \(offer.referenceName)")
    applied.billingPlan = t.billingPlanType
    return applied
  }

  static func winBack(_ offer: WinBackOffer, in ctx: ActionContext) throws(ActionError) -> AppliedOffer {
    let p = try ctx.period(offer.period, of: "win-back offer \(offer.offerId)")
    var applied = AppliedOffer(type: .winBack, identifier: offer.offerId, mode: offer.paymentMode, period: p,
                               count: offer.periodCount, priceMilli: offer.priceMilli, label: "win-back offer \(offer.referenceName)")
    applied.billingPlan = offer.billingPlanType
    return applied
  }

  var discountType: OfferDiscountType { mode.discountType }

  /// Periods the first transaction covers.
  var firstCount: Int { mode == .payAsYouGo ? 1 : count }

  /// Offer periods still to run after the first transaction.
  var remainingAfterFirst: Int { mode == .payAsYouGo ? count - 1 : 0 }

  /// The whole offer's duration, which Apple reports as `offerPeriod` (P1Y for twelve monthly
  /// pay-as-you-go periods). Falls back to the single period when the product would overflow.
  var totalPeriodText: String {
    let n = count
    let limit = ISOPeriod.componentLimit
    let fits = [period.years, period.months, period.weeks, period.days].allSatisfy {
      let (product, overflow) = $0.multipliedReportingOverflow(by: n)
      return !overflow && product >= 0 && product <= limit
    }
    guard fits else { return period.description }
    var total = ISOPeriod(years: period.years * n, months: period.months * n, weeks: period.weeks * n, days: period.days * n)
    // Twelve months read as a year, the way App Store Connect names durations.
    if total.years == 0, total.weeks == 0, total.days == 0, total.months > 0, total.months % 12 == 0 {
      total = ISOPeriod(years: total.months / 12)
    }
    return total.description
  }

  /// "free trial, 1 week", "pay as you go, 0.99 USD × 3 × 1 month".
  func terms(currency: String?) -> String {
    switch mode {
    case .freeTrial: return "free trial for \(ISOPeriod.duration(period, times: count))"
    case .payUpFront: return "\(ActionText.money(priceMilli, currency)) up front for \(ISOPeriod.duration(period, times: count))"
    case .payAsYouGo: return "\(ActionText.money(priceMilli, currency)) per \(period.name) for \(counted(count, "period"))"
    }
  }

  /// Writes this offer as the one that applies to the next renewal, which charges its price.
  func queue(on r: inout RenewalInfoPayload) {
    r.offerType = type
    r.offerIdentifier = identifier
    r.offerDiscountType = discountType
    r.offerPeriod = totalPeriodText
    r.renewalPrice = priceMilli
  }
}

extension ISOPeriod {
  /// "1 month" or "3 × 1 month".
  static func duration(_ p: ISOPeriod, times n: Int) -> String { n == 1 ? p.name : "\(n) × \(p.name)" }
}

extension RenewalInfoPayload {
  /// Drops the offer queued for the next renewal (it belonged to the product that was to renew).
  mutating func clearQueuedOffer() {
    offerType = nil
    offerIdentifier = nil
    offerDiscountType = nil
    offerPeriod = nil
  }
}
