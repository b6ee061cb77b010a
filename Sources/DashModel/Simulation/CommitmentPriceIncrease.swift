/// A price increase for a customer inside a 12-month commitment. Apple: price changes of a
/// monthly subscription with a 12-month commitment "follow the rules of standard annual
/// subscriptions" ("Managing the life cycle of monthly subscriptions with a 12-month
/// commitment"): an annual subscriber pays the new price from the next annual renewal, so the
/// commitment's monthly payments keep their price and the increase (its consent, its new price)
/// applies where the commitment renews, at `commitmentRenewalDate`. How the new price reads on a
/// monthly plan (the new monthly price; the new commitment's total 12 × it) is SubDash's
/// inference, as docs/simulation.md says.
extension SimContext {
  /// Whether the renewal after `current` is a later payment of its commitment (2…12): its price is
  /// the commitment's, and a price increase waits for the commitment's end.
  func paysInsideCommitment(after current: TransactionPayload) -> Bool {
    guard let c = commitmentPeriod(current), let n = c.billingPeriodNumber else { return false }
    return n < (c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods)
  }

  /// What a price increase requested at `date` raises when `t` is a commitment payment: the
  /// product that renews at the commitment's end, its current price (monthly when the commitment
  /// renews monthly) and when the new price starts. nil outside a commitment. Refused, with the
  /// reason, when the commitment ends without renewing.
  func commitmentIncreaseTarget(_ t: TransactionPayload) throws(ActionError) -> CommitmentIncreaseTarget? {
    guard let c = commitmentPeriod(t), let n = c.billingPeriodNumber else { return nil }
    let total = c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods
    guard n < total else { return nil }  // the next renewal is the commitment's: the ordinary rules
    let rc = renewalInfo.commitmentInfo
    let end = c.commitmentExpiresDate.map(date) ?? "its end"
    guard rc?.commitmentAutoRenewStatus != .off else {
      throw ActionError.other(
        "The 12-month commitment ends on \(end) without renewing, so there is no renewal to raise the price of; "
          + "its remaining monthly payments (\(n + 1)–\(total) of \(total)) keep the commitment's price.")
    }
    let productId = rc?.commitmentAutoRenewProductId ?? t.productId ?? ""
    if rc?.commitmentRenewalBillingPlanType != .billedUpfront, let plan = product(productId)?.monthlyPlan {
      let monthly = productId == t.productId ? (t.price ?? plan.monthlyPriceMilli) : plan.monthlyPriceMilli
      return CommitmentIncreaseTarget(productId: productId, oldPriceMilli: monthly, monthly: true, startsText: end,
                                      untouched: "payments \(n + 1)–\(total) of \(total) stay at \(money(t.price))")
    }
    return CommitmentIncreaseTarget(productId: productId, oldPriceMilli: regularPrice(productId) ?? 0, monthly: false, startsText: end,
                                    untouched: "payments \(n + 1)–\(total) of \(total) stay at \(money(t.price))")
  }

  /// The renewal commitment info's price after an increase was asked, answered or declined.
  mutating func refreshCommitmentRenewalPrice() {
    guard var rc = renewalInfo.commitmentInfo else { return }
    rc.commitmentRenewalPrice = commitmentRenewalPrice(rc, after: latest)
    renewalInfo.commitmentInfo = rc
  }

  /// Applies an accepted increase to the first payment of a new commitment: the new monthly price
  /// and 12 times it as the commitment's total (inferred).
  func raiseCommitment(_ phase: inout RenewalPhase, to monthly: Int64) {
    phase.priceMilli = monthly
    let (total, overflow) = monthly.multipliedReportingOverflow(by: Int64(MonthlyBillingPlan.billingPeriods))
    phase.commitment?.commitmentPriceMilli = overflow ? nil : total
  }
}

struct CommitmentIncreaseTarget {
  var productId: String
  var oldPriceMilli: Int64
  /// The price raised is the monthly price of the next commitment, not an up-front price.
  var monthly: Bool
  /// The commitment's end, as a date for messages.
  var startsText: String
  /// "payments 5–12 of 12 stay at 9.49 GBP".
  var untouched: String
}
