import CoreValues
/// The terms of one offer as the renewal engine needs them, whatever kind of offer it is.
struct OfferTerms: Equatable {
  var type: OfferType
  /// nil for introductory offers (Apple sends no offerIdentifier for them).
  var identifier: String?
  var mode: PaymentMode
  /// One offer period.
  var period: ISOPeriod
  var count: Int
  /// Per period for pay-as-you-go, the total for pay-up-front, 0 for free trials.
  var priceMilli: Int64

  /// Looks up the offer a transaction or renewal info names, for `productId`.
  /// `plan`: the billing plan being bought or renewed (nil: up front). Apple: offers "are
  /// specific to each billing plan", so an offer configured for the monthly plan with a
  /// 12-month commitment is never given to an up-front purchase, nor the reverse.
  static func find(type: OfferType, identifier: String?, productId: String, in state: SubscriptionState,
                   plan: BillingPlanType? = nil) -> OfferTerms? {
    guard let p = state.catalog.product(productId) else { return nil }
    func from(_ o: SubscriptionOffer, id: String?) -> OfferTerms? {
      guard (o.billingPlanType ?? .billedUpfront) == (plan ?? .billedUpfront) else { return nil }
      guard let period = try? ISOPeriod(parsing: o.period) else { return nil }
      return OfferTerms(type: type, identifier: id, mode: o.paymentMode, period: period, count: o.numberOfPeriods, priceMilli: o.priceMilli)
    }
    switch type {
    case .introductory:
      return p.introductoryOffers.lazy.compactMap { from($0, id: nil) }.first
    case .promotional:
      return p.promotionalOffers.lazy.filter { $0.id == identifier || $0.referenceName == identifier }.compactMap { from($0, id: $0.id) }.first
    case .offerCode:
      return p.codeOffers.lazy.filter { $0.referenceName == identifier }.compactMap { from($0.terms, id: $0.referenceName) }.first
    case .winBack:
      guard let w = state.allWinBackOffers.first(where: { $0.offerId == identifier && $0.productId == productId }),
            (w.billingPlanType ?? .billedUpfront) == (plan ?? .billedUpfront),
            let period = try? ISOPeriod(parsing: w.period) else { return nil }
      return OfferTerms(type: type, identifier: w.offerId, mode: w.paymentMode, period: period, count: w.periodCount, priceMilli: w.priceMilli)
    default:
      return nil
    }
  }

  /// Pay-as-you-go bills each period; free trials and pay-up-front cover all periods at once.
  var billsPerPeriod: Bool { mode == .payAsYouGo }

  /// Length of the first transaction under this offer.
  var firstTransactionPeriod: ISOPeriod { billsPerPeriod ? period : period.times(count) }

  /// Transactions still to come under this offer after its first one.
  var periodsAfterFirst: Int { billsPerPeriod ? max(0, count - 1) : 0 }

  /// `offerPeriod` as Apple writes it: the whole duration of the offer, twelve months read as a
  /// year (the same text the Actions write for offers they start).
  var totalDuration: String {
    let total = period.times(count)
    if total.years == 0, total.weeks == 0, total.days == 0, total.months > 0, total.months % 12 == 0 {
      return ISOPeriod(years: total.months / 12).description
    }
    return total.description
  }
}

/// What the next period of a subscription is: a step of an offer, or the regular price.
struct RenewalPhase: Equatable {
  var offer: OfferTerms?
  /// The transaction's `offerPeriod` text.
  var offerPeriodText: String?
  var period: ISOPeriod
  var priceMilli: Int64
  /// Offer transactions left after this one (`offerPeriodsRemaining`).
  var remaining: Int?
  /// The billing period of a 12-month commitment this phase is, or the up-front plan a
  /// commitment renews into (`Commitment.swift`); nil for a subscription never in one.
  var commitment: CommitmentStep? = nil
}

extension SimContext {
  /// The phase of the renewal that follows `current` into `productId`. In order: the offer renewal
  /// info queues for the next renewal (a redeemed code, or the next step of a running offer), a
  /// running offer with periods left, then the regular price.
  func renewalPhase(after current: TransactionPayload, into productId: String) -> RenewalPhase {
    if let c = commitmentPhase(after: current, into: productId) { return c }
    let info = state.subscriber.renewalInfo
    let remaining = state.subscriber.offerPeriodsRemaining ?? 0
    let sameProduct = productId == current.productId
    let continuing = sameProduct && remaining > 0 && current.offerType != nil
    if let type = info?.offerType {
      let isRunning = continuing && type == current.offerType && info?.offerIdentifier == current.offerIdentifier
      if !isRunning, let terms = OfferTerms.find(type: type, identifier: info?.offerIdentifier, productId: productId, in: state) {
        return start(terms)
      }
    }
    if continuing, let type = current.offerType {
      let terms = OfferTerms.find(type: type, identifier: current.offerIdentifier, productId: productId, in: state)
      let period = terms?.period ?? current.offerPeriod.flatMap { try? ISOPeriod(parsing: $0) } ?? self.period(of: productId)
      return RenewalPhase(
        offer: terms ?? OfferTerms(type: type, identifier: current.offerIdentifier, mode: .payAsYouGo, period: period, count: min(remaining, AppliedOffer.maxPeriods) + 1, priceMilli: current.price ?? 0),
        offerPeriodText: current.offerPeriod, period: period,
        priceMilli: terms?.priceMilli ?? current.price ?? 0, remaining: remaining - 1)
    }
    return regular(productId)
  }

  /// The first period under a newly applied offer.
  func start(_ terms: OfferTerms) -> RenewalPhase {
    RenewalPhase(offer: terms, offerPeriodText: terms.totalDuration, period: terms.firstTransactionPeriod,
                 priceMilli: terms.priceMilli, remaining: terms.periodsAfterFirst)
  }

  func regular(_ productId: String) -> RenewalPhase {
    RenewalPhase(offer: nil, offerPeriodText: nil, period: period(of: productId), priceMilli: regularPrice(productId) ?? 0, remaining: nil)
  }
}

extension ISOPeriod {
  /// `n` of this period as one period (P1M × 3 = P3M), components capped at the model's limit.
  func times(_ n: Int) -> ISOPeriod {
    let k = max(1, n)
    // A period count comes from the file and may be huge: multiply without trapping.
    func capped(_ a: Int) -> Int {
      let (product, overflow) = a.multipliedReportingOverflow(by: k)
      return overflow ? ISOPeriod.componentLimit : min(ISOPeriod.componentLimit, product)
    }
    return ISOPeriod(years: capped(years), months: capped(months), weeks: capped(weeks), days: capped(days))
  }
}
