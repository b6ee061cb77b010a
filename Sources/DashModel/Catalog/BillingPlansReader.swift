import CoreValues
/// Reads the billing plans of a subscription in `.storekit` format 5 (Xcode 26.5), the same keys in
/// an inline catalog: `billingPlans: [{billingPlanType: BILLED_UPFRONT|MONTHLY, displayPrice,
/// commitmentDisplayPrice, internalID, isEnabled}]`, and `billingPlanType` on an offer
/// (storekit-reference.md §3; files written by Xcode 26.5 seen in public repositories).
///
/// The BILLED_UPFRONT entry repeats the product's own price, so only an enabled MONTHLY entry is
/// kept. Apple allows the monthly plan only on a yearly product ("you configure it directly on an
/// existing yearly auto-renewable subscription"), so a MONTHLY plan on another period is refused.
enum BillingPlansReader {
  static func monthlyPlan(_ s: ObjectReader, period: String) throws(DecodeError) -> MonthlyBillingPlan? {
    var found: MonthlyBillingPlan?
    for plan in try s.objects("billingPlans", { (p) throws(DecodeError) in p }) ?? [] {
      let type = try plan.requiredString("billingPlanType")
      switch type {
      case BillingPlanType.billedUpfront.rawValue: continue
      case BillingPlanType.monthly.rawValue: break
      default:
        throw DecodeError(plan.path.appending("billingPlanType"), "unknown billing plan \"\(type)\" (expected BILLED_UPFRONT or MONTHLY)")
      }
      guard try plan.bool("isEnabled") ?? true else { continue }
      guard found == nil else { throw DecodeError(plan.path, "a second MONTHLY billing plan (a product has at most one)") }
      guard period == "P1Y" || period == "P12M" else {
        throw DecodeError(plan.path, "a MONTHLY billing plan needs a one-year product (recurringSubscriptionPeriod P1Y), not \(period)")
      }
      let monthly = try Money.milliunits(try plan.requiredString("displayPrice"), at: plan.path.appending("displayPrice"))
      let total: Int64
      if let text = try plan.string("commitmentDisplayPrice") {
        total = try Money.milliunits(text, at: plan.path.appending("commitmentDisplayPrice"))
      } else {
        let (product, overflow) = monthly.multipliedReportingOverflow(by: Int64(MonthlyBillingPlan.billingPeriods))
        guard !overflow else { throw DecodeError(plan.path.appending("displayPrice"), "price too large") }
        total = product
      }
      guard monthly > 0, total > 0 else { throw DecodeError(plan.path.appending("displayPrice"), "a monthly plan's prices must be above zero") }
      found = MonthlyBillingPlan(monthlyPriceMilli: monthly, commitmentPriceMilli: total)
    }
    return found
  }

  /// An offer's `billingPlanType`: nil (up front) when absent.
  static func planType(_ o: ObjectReader) throws(DecodeError) -> BillingPlanType? {
    guard let text = try o.string("billingPlanType") else { return nil }
    guard text == BillingPlanType.monthly.rawValue || text == BillingPlanType.billedUpfront.rawValue else {
      throw DecodeError(o.path.appending("billingPlanType"), "unknown billing plan \"\(text)\" (expected BILLED_UPFRONT or MONTHLY)")
    }
    return BillingPlanType(rawValue: text)
  }
}
