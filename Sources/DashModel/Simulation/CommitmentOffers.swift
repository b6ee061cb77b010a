/// Offers on the monthly plan with a 12-month commitment. Apple says only that offers "are
/// specific to each billing plan" and shows a free trial "only for the customers who subscribe to
/// a 12-month commitment" (WWDC26 session 210); where a trial or a discount sits among the 12
/// numbered payments is on no page found, so the placement here is SubDash's inference, with its
/// reasoning in docs/simulation.md ("Offers on the monthly plan"):
/// - a free trial comes before payment 1: a transaction of its own (price 0, FREE_TRIAL), billed
///   MONTHLY, whose `commitmentInfo` has no `billingPeriodNumber` yet and counts the 12 payments
///   from the trial's end; cancelling during the trial means payment 1 is never charged, as for
///   any trial;
/// - pay as you go discounts whole monthly payments (payments 1…N at purchase; the next N for an
///   offer redeemed during the commitment), each still numbered, so the commitment's end and
///   `commitmentPrice` (the plan's total) do not move;
/// - pay up front is the up-front plan's mode: no monthly payment can carry it.
extension OfferTerms {
  /// How many monthly payments of a commitment this offer discounts, or nil when it does not fit
  /// monthly billing (pay up front, or a duration that is not whole months).
  var monthlyPayments: Int? {
    switch mode {
    case .payUpFront:
      return nil
    case .payAsYouGo:
      return period == .oneMonth ? count : nil
    case .freeTrial:
      let total = period.times(count)
      guard total.weeks == 0, total.days == 0 else { return nil }
      let months = total.years * 12 + total.months
      return months > 0 ? months : nil
    }
  }

  /// The price of each payment the offer covers.
  var monthlyPaymentPrice: Int64 { mode == .freeTrial ? 0 : priceMilli }
}

extension SimContext {
  /// A transaction billed MONTHLY whose `commitmentInfo` has no payment number: the free trial
  /// before payment 1 (see above).
  func commitmentTrial(_ t: TransactionPayload?) -> TransactionCommitmentInfo? {
    guard let t, t.billingPlanType == .monthly, let c = t.commitmentInfo, c.billingPeriodNumber == nil else { return nil }
    return c
  }

  /// The first phase of a purchase of the monthly plan, with the offer the customer takes (an
  /// introductory offer of the monthly plan, or a code, promotional or win-back offer of it).
  func commitmentStart(_ plan: MonthlyBillingPlan, offer: OfferTerms?) -> RenewalPhase {
    var phase = firstCommitmentPhase(plan)
    guard let offer else { return phase }
    switch offer.mode {
    case .freeTrial:
      return RenewalPhase(
        offer: offer, offerPeriodText: offer.totalDuration, period: offer.firstTransactionPeriod, priceMilli: 0, remaining: 0,
        commitment: CommitmentStep(plan: .monthly, number: 0, total: MonthlyBillingPlan.billingPeriods, commitmentPriceMilli: plan.commitmentPriceMilli))
    case .payAsYouGo:
      guard let n = offer.monthlyPayments else { return phase }
      phase.offer = offer
      phase.offerPeriodText = offer.totalDuration
      phase.priceMilli = offer.monthlyPaymentPrice
      phase.remaining = n - 1
      return phase
    case .payUpFront:
      return phase
    }
  }

  /// The commitment payment `step` with an offer, or nil when none applies: the offer already
  /// running on `current` while it has payments left, else an offer the renewal info queues for
  /// the next renewal (a redeemed code or promotional offer), when it is the monthly plan's and
  /// fits monthly payments. The payment keeps its number: an offer redeemed during a commitment
  /// discounts the payments that were due, it does not restart the commitment.
  func commitmentOfferPayment(after current: TransactionPayload, step: CommitmentStep, into productId: String) -> RenewalPhase? {
    let info = state.subscriber.renewalInfo
    // The file's count, so bounded before any arithmetic.
    let remaining = state.subscriber.offerPeriodsRemaining ?? 0
    if let type = current.offerType, remaining > 0, productId == current.productId, commitmentPeriod(current) != nil,
       info?.offerType == type, info?.offerIdentifier == current.offerIdentifier {
      let terms = OfferTerms.find(type: type, identifier: current.offerIdentifier, productId: productId, in: state, plan: .monthly)
        ?? OfferTerms(type: type, identifier: current.offerIdentifier, mode: .payAsYouGo, period: .oneMonth, count: min(remaining, AppliedOffer.maxPeriods) + 1, priceMilli: current.price ?? 0)
      return RenewalPhase(offer: terms, offerPeriodText: current.offerPeriod, period: .oneMonth, priceMilli: current.price ?? 0,
                          remaining: remaining - 1, commitment: step)
    }
    guard let type = info?.offerType,
          let terms = OfferTerms.find(type: type, identifier: info?.offerIdentifier, productId: productId, in: state, plan: .monthly),
          let n = terms.monthlyPayments else { return nil }
    return RenewalPhase(offer: terms, offerPeriodText: terms.totalDuration, period: .oneMonth, priceMilli: terms.monthlyPaymentPrice,
                        remaining: n - 1, commitment: step)
  }
}
