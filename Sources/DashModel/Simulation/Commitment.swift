import CoreValues
/// Monthly subscriptions with a 12-month commitment in the simulator: each monthly payment is a
/// transaction with `billingPlanType` MONTHLY and `commitmentInfo`, and the renewal info says what
/// happens when the 12 months end. Apple's rules, their sources and what is inferred are in
/// docs/simulation.md ("Monthly subscriptions with a 12-month commitment").
struct CommitmentStep: Equatable {
  /// MONTHLY for a payment of a commitment; BILLED_UPFRONT for the renewal into the up-front plan
  /// when a commitment ends.
  var plan: BillingPlanType
  /// 1…`total` for a monthly payment.
  var number: Int
  var total: Int
  /// The whole commitment (milliunits).
  var commitmentPriceMilli: Int64?
}

extension SimContext {
  /// Apple: "If the App Store is unable to recover the payment within 90 days, the commitment
  /// ends" (60 days for other subscriptions).
  static let commitmentRetry = Span.days(90)

  /// The commitment payment `t` is, or nil when it is not billed monthly.
  func commitmentPeriod(_ t: TransactionPayload?) -> TransactionCommitmentInfo? {
    guard let t, t.billingPlanType == .monthly, let c = t.commitmentInfo, c.billingPeriodNumber != nil else { return nil }
    return c
  }

  /// Payment 1 of a new commitment at the plan's monthly price.
  func firstCommitmentPhase(_ plan: MonthlyBillingPlan) -> RenewalPhase {
    RenewalPhase(offer: nil, offerPeriodText: nil, period: .oneMonth, priceMilli: plan.monthlyPriceMilli, remaining: nil,
                 commitment: CommitmentStep(plan: .monthly, number: 1, total: MonthlyBillingPlan.billingPeriods,
                                            commitmentPriceMilli: plan.commitmentPriceMilli))
  }

  /// What follows `current` when it is a commitment payment: before the last payment, the next
  /// monthly payment of the same product and commitment (a downgrade waits for the commitment's
  /// end); after the last, what the renewal commitment info chose: a new commitment of its product,
  /// or that product billed up front. nil when `current` is not a commitment payment.
  func commitmentPhase(after current: TransactionPayload, into productId: String) -> RenewalPhase? {
    if let trial = commitmentTrial(current), let plan = product(current.productId)?.monthlyPlan {
      // The free trial before payment 1 (CommitmentOffers.swift): payment 1 follows at the plan's price.
      var first = firstCommitmentPhase(plan)
      first.commitment?.commitmentPriceMilli = trial.commitmentPrice ?? plan.commitmentPriceMilli
      if let step = first.commitment, let offered = commitmentOfferPayment(after: current, step: step, into: current.productId ?? productId) { return offered }
      return first
    }
    guard let c = commitmentPeriod(current), let n = c.billingPeriodNumber else { return nil }
    let total = c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods
    if n < total {
      let step = CommitmentStep(plan: .monthly, number: n + 1, total: total, commitmentPriceMilli: c.commitmentPrice)
      if let offered = commitmentOfferPayment(after: current, step: step, into: current.productId ?? productId) { return offered }
      // The commitment's price is fixed for its 12 payments (a price increase waits for its end);
      // a payment after a discounted one is back at the plan's price.
      let plan = product(current.productId)?.monthlyPlan?.monthlyPriceMilli
      let price = (current.offerType == nil ? current.price : plan) ?? plan ?? 0
      return RenewalPhase(offer: nil, offerPeriodText: nil, period: .oneMonth, priceMilli: price, remaining: nil, commitment: step)
    }
    let plan = state.subscriber.renewalInfo?.commitmentInfo?.commitmentRenewalBillingPlanType ?? .monthly
    if plan == .monthly, var monthly = product(productId)?.monthlyPlan {
      // Renewing the same product's commitment keeps its price (a raised one included); the
      // catalog's is for a commitment to another product.
      if productId == current.productId, current.offerType == nil, let price = current.price {
        monthly = MonthlyBillingPlan(monthlyPriceMilli: price, commitmentPriceMilli: c.commitmentPrice ?? monthly.commitmentPriceMilli)
      }
      let first = firstCommitmentPhase(monthly)
      if let step = first.commitment, let offered = commitmentOfferPayment(after: current, step: step, into: productId) { return offered }
      return first
    }
    var upfront = regular(productId)
    upfront.commitment = CommitmentStep(plan: .billedUpfront, number: 0, total: 0, commitmentPriceMilli: nil)
    return upfront
  }

  /// Writes the phase's billing plan and commitment on a new transaction. The commitment ends where
  /// its last monthly period will end, counted on the same calendar anchor as the monthly periods
  /// (so the last payment's expiresDate is commitmentExpiresDate). A recovery in billing retry
  /// restarts the anchor at the payment, so the date moves with it: Apple, "commitmentExpiresDate
  /// shifts to a new billing date, reflecting the recovery date".
  func stampCommitment(_ t: inout TransactionPayload, _ phase: RenewalPhase) {
    guard let step = phase.commitment else {
      // A product with a monthly plan bought or renewed up front says so (WWDC26 session 210:
      // "for transactions with an .upfront billingPlanType, commitmentInfo is nil"); other
      // products' transactions stay without the field, as Apple's pages show them.
      if product(t.productId)?.monthlyPlan != nil {
        t.billingPlanType = .billedUpfront
        t.commitmentInfo = nil
      }
      return
    }
    t.billingPlanType = step.plan
    guard step.plan == .monthly, let expires = t.expiresDate else { t.commitmentInfo = nil; return }
    let left = max(0, step.total - step.number)
    let rate = rules.rate
    var end = expires
    if left > 0 {
      if let a = settings.periodAnchor, a.period == ISOPeriod.oneMonth.description,
         rate.periodEnd(from: a.date, period: .oneMonth, count: a.count) == expires {
        end = rate.periodEnd(from: a.date, period: .oneMonth, count: a.count + left)
      } else {
        end = rate.periodEnd(from: expires, period: .oneMonth, count: left)
      }
    }
    // Number 0 is the free trial before payment 1: no payment number yet.
    var info = TransactionCommitmentInfo(
      billingPeriodNumber: step.number, totalBillingPeriods: step.total, commitmentExpiresDate: end, commitmentPrice: step.commitmentPriceMilli)
    if step.number < 1 { info.billingPeriodNumber = nil }
    t.commitmentInfo = info
  }

  /// Renewal info after `t`: `renewalBillingPlanType` and, in a commitment, the renewal commitment
  /// info (what happens when the 12 months end: auto-renew status, product, plan, date, price).
  /// The customer's choice for the commitment's end carries from payment to payment and into a
  /// renewed commitment; a purchase starts with "renews as it is". At the last payment the plain
  /// auto-renew status, which Apple says speaks for the next billing period, follows the
  /// commitment's, and a product chosen for the commitment's end becomes the one that renews
  /// (both inferred).
  mutating func syncCommitmentRenewal(after t: TransactionPayload, purchase: Bool) {
    var info = renewalInfo
    guard let c = commitmentPeriod(t), let n = c.billingPeriodNumber else {
      // Leaving a commitment (billed up front now) or starting afresh clears it; otherwise the
      // fields are the file's own and stay as they are.
      if purchase || t.billingPlanType != nil {
        info.commitmentInfo = nil
        info.renewalBillingPlanType = t.billingPlanType
        renewalInfo = info
      }
      return
    }
    let total = c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods
    var rc = (purchase ? nil : info.commitmentInfo) ?? RenewalCommitmentInfo()
    if rc.commitmentAutoRenewStatus == nil { rc.commitmentAutoRenewStatus = .on }
    if rc.commitmentAutoRenewProductId == nil { rc.commitmentAutoRenewProductId = t.productId }
    if rc.commitmentRenewalBillingPlanType == nil { rc.commitmentRenewalBillingPlanType = .monthly }
    rc.commitmentRenewalDate = c.commitmentExpiresDate
    rc.commitmentRenewalPrice = commitmentRenewalPrice(rc, after: t)
    info.commitmentInfo = rc
    if n >= total {
      info.renewalBillingPlanType = rc.commitmentRenewalBillingPlanType
      if rc.commitmentAutoRenewStatus == .off {
        info.autoRenewStatus = .off
      } else if let next = rc.commitmentAutoRenewProductId {
        info.autoRenewProductId = next
      }
    } else {
      info.renewalBillingPlanType = .monthly
      info.autoRenewProductId = t.productId
    }
    renewalInfo = info
  }

  /// What the commitment's renewal charges: a new commitment's total, or the up-front price.
  /// A price increase not declined for that product is the price it renews at.
  func commitmentRenewalPrice(_ rc: RenewalCommitmentInfo, after t: TransactionPayload? = nil) -> Int64? {
    guard let id = rc.commitmentAutoRenewProductId, let p = product(id) else { return nil }
    let increase = settings.pendingPriceIncrease.flatMap { $0.productId == id && $0.response != .declined ? $0.newPriceMilli : nil }
    if rc.commitmentRenewalBillingPlanType == .monthly, let m = p.monthlyPlan {
      if let increase {
        let (total, overflow) = increase.multipliedReportingOverflow(by: Int64(MonthlyBillingPlan.billingPeriods))
        return overflow ? nil : total
      }
      if let t, t.productId == id, let kept = t.commitmentInfo?.commitmentPrice { return kept }
      return m.commitmentPriceMilli
    }
    return increase ?? regularPrice(id)
  }

  /// " (payment 4 of 12, commitment ends DATE)" for messages; empty outside a commitment.
  func commitmentNote(_ t: TransactionPayload) -> String {
    guard let c = commitmentPeriod(t), let n = c.billingPeriodNumber else { return "" }
    var s = " (payment \(n) of \(c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods)"
    if let end = c.commitmentExpiresDate { s += ", commitment ends \(date(end))" }
    return s + ")"
  }

  /// Whether a renewal into `phase` may have a billing grace period: Apple, "Billing Grace Period
  /// doesn't apply to monthly subscriptions with 12-month commitments".
  func commitmentBlocksGrace(_ phase: RenewalPhase) -> Bool { phase.commitment?.plan == .monthly }
}
