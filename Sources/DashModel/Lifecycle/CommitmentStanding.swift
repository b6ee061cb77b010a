import CoreValues
/// Where a customer on a monthly subscription with a 12-month commitment stands: which payment
/// they are on, when the commitment ends, and what happens then. Read from the latest
/// transaction's `commitmentInfo` and the renewal info's `commitmentInfo` (Apple's field names).
///
/// Apple's life-cycle page: the renewal info's plain auto-renew status speaks for the next monthly
/// billing period "the same as for standard subscriptions", while the renewal commitment info's
/// auto-renew status says whether the subscription renews when the 12 months end.
public struct CommitmentStanding: Equatable, Sendable {
  public var billingPeriodNumber: Int?
  public var totalBillingPeriods: Int?
  public var commitmentExpiresDate: Instant?
  /// Milliunits, the whole commitment.
  public var commitmentPrice: Int64?
  public var currency: String?
  public var then: Then
  /// Billed MONTHLY in a free trial that comes before payment 1 (SubDash's placement of a monthly
  /// plan's trial, docs/simulation.md): the commitment info has no payment number yet.
  public var inTrialBeforeFirstPayment = false

  /// What happens when the commitment ends.
  public enum Then: Equatable, Sendable {
    case renews(plan: BillingPlanType?, productId: String?, priceMilli: Int64?, date: Instant?)
    case ends
    /// The renewal info says nothing about the commitment's end.
    case unknown
  }

  /// Nil unless the latest transaction is billed monthly or carries a commitment.
  public init?(transaction t: TransactionPayload?, renewal r: RenewalInfoPayload?) {
    guard let t, t.billingPlanType == .monthly || t.commitmentInfo != nil else { return nil }
    let c = t.commitmentInfo
    billingPeriodNumber = c?.billingPeriodNumber
    totalBillingPeriods = c?.totalBillingPeriods
    commitmentExpiresDate = c?.commitmentExpiresDate
    commitmentPrice = c?.commitmentPrice
    currency = t.currency ?? r?.currency
    inTrialBeforeFirstPayment = c != nil && c?.billingPeriodNumber == nil && t.offerDiscountType == .freeTrial
    if let rc = r?.commitmentInfo, let status = rc.commitmentAutoRenewStatus {
      then = status == .on
        ? .renews(plan: rc.commitmentRenewalBillingPlanType ?? r?.renewalBillingPlanType, productId: rc.commitmentAutoRenewProductId,
                  priceMilli: rc.commitmentRenewalPrice, date: rc.commitmentRenewalDate)
        : .ends
    } else {
      then = .unknown
    }
  }

  /// "payment 4 of 12 · commitment ends 2027-03-01 · then renews monthly at 9.99 USD" (UTC day).
  /// `productName` names a product other than `currentProductId` the commitment renews into.
  public func text(currentProductId: String?, productName: (String) -> String) -> String {
    var parts: [String] = []
    if let n = billingPeriodNumber {
      parts.append("payment \(n)" + (totalBillingPeriods.map { " of \($0)" } ?? ""))
    } else if inTrialBeforeFirstPayment {
      parts.append("free trial, then \(totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods) monthly payments")
    }
    // The day only, as a customer reads it: the full instant is in `show --json`, and the line must
    // fit the plan panel at 120 columns. The total price is in the JSON too, for the same reason.
    if let end = commitmentExpiresDate { parts.append("commitment ends \(Format.date(end).prefix(10))") }
    switch then {
    case .renews(let plan, let productId, let price, _):
      var t = "then renews"
      if let productId, productId != currentProductId { t += " into \(productName(productId))" }
      switch plan {
      case .monthly?: t += " monthly"
      case .billedUpfront?: t += " billed up front"
      case let other?: t += " (\(other.description))"
      case nil: break
      }
      if let price { t += " at \(Money.format(price, currency: currency))" }
      parts.append(t)
    case .ends: parts.append("then ends (cancelled; the remaining payments are still due)")
    case .unknown: break
    }
    return parts.isEmpty ? "billed monthly with a commitment" : parts.joined(separator: " · ")
  }

  public var json: JSON {
    var o = JSONObject()
    o["billingPlanType"] = .string(BillingPlanType.monthly.rawValue)
    o["billingPeriodNumber"] = billingPeriodNumber.map { .int($0) } ?? .null
    o["totalBillingPeriods"] = totalBillingPeriods.map { .int($0) } ?? .null
    o["commitmentExpiresDate"] = commitmentExpiresDate.map { .double($0.ms) } ?? .null
    o["commitmentExpiresDateISO"] = commitmentExpiresDate.map { .string($0.description) } ?? .null
    o["commitmentPrice"] = commitmentPrice.map { .int($0) } ?? .null
    o["currency"] = currency.map(JSON.string) ?? .null
    // Only in the trial before payment 1, so every other commitment's JSON stays as it was.
    if inTrialBeforeFirstPayment { o["inTrialBeforeFirstPayment"] = .bool(true) }
    switch then {
    case .renews(let plan, let productId, let price, let date):
      o["then"] = .string("renews")
      o["commitmentRenewalBillingPlanType"] = plan.map { .string($0.rawValue) } ?? .null
      o["commitmentAutoRenewProductId"] = productId.map(JSON.string) ?? .null
      o["commitmentRenewalPrice"] = price.map { .int($0) } ?? .null
      o["commitmentRenewalDate"] = date.map { .double($0.ms) } ?? .null
    case .ends: o["then"] = .string("ends")
    case .unknown: o["then"] = .string("unknown")
    }
    return .object(o)
  }
}
