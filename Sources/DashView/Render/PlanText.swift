import DashModel
import CoreValues

/// Sentences about plans, offers and dates, shared by the panels and the pickers.
enum PlanText {
  /// Full dates normally; `Nov 22 03:42` on narrow screens where the year costs a truncated sentence.
  /// Seconds appear within an hour of `now` (`Format.showsSeconds`).
  static func date(_ instant: Instant, compact: Bool, now: Instant) -> String {
    compact ? Format.dateShort(instant, now: now) : Format.date(instant, now: now)
  }

  /// `P1M` → `1 month`; text that is not a period is shown as it is.
  static func period(_ iso: String) -> String { (try? ISOPeriod(parsing: iso))?.name ?? iso }

  /// "9.99 USD / 1 month"
  static func price(_ milli: Int64, currency: String?, period: String) -> String {
    "\(Money.format(milli, currency: currency)) / \(PlanText.period(period))"
  }

  /// "Win back 3 months — 4.99 USD / 1 month for 3 periods" or "… — free for 1 month".
  /// "Family Free Month — Family: free for 1 month". Accepting an offer subscribes to its product,
  /// which may not be the plan the customer lapsed from, so the product is always named.
  static func winBackTitle(_ o: WinBackOffer, currency: String?, catalog: Catalog) -> String {
    "\(o.referenceName) — \(winBackProduct(o, catalog)): \(winBackTerms(o, currency: currency))"
  }

  static func winBackProduct(_ o: WinBackOffer, _ catalog: Catalog) -> String {
    catalog.product(o.productId)?.displayName ?? o.productId
  }

  static func winBackTerms(_ o: WinBackOffer, currency: String?) -> String {
    let period = PlanText.period(o.period)
    switch o.paymentMode {
    case .freeTrial: return "free for \(o.periodCount == 1 ? period : "\(o.periodCount) × \(period)")"
    case .payUpFront: return "\(Money.format(o.priceMilli, currency: currency)) up front for \(o.periodCount == 1 ? period : "\(o.periodCount) × \(period)")"
    case .payAsYouGo: return "\(Money.format(o.priceMilli, currency: currency)) / \(period) for \(o.periodCount) period\(o.periodCount == 1 ? "" : "s")"
    }
  }

  /// A catalog product's price as the screen states it. A product `subdash import` derived from
  /// transactions may lack a price or a recognisable period: "unknown" says so, where 0.00 or
  /// "1 month" would be read as facts.
  /// "monthly, 12-month commitment: 9.49 GBP / month, 113.88 GBP in total".
  static func monthlyPlan(_ m: MonthlyBillingPlan, currency: String?) -> String {
    "monthly, \(MonthlyBillingPlan.billingPeriods)-month commitment: \(Money.format(m.monthlyPriceMilli, currency: currency)) / month, "
      + "\(Money.format(m.commitmentPriceMilli, currency: currency)) in total"
  }

  static func price(of p: SubscriptionProduct, currency: String?) -> String {
    switch (p.priceKnown, p.periodKnown) {
    case (true, true): return price(p.priceMilli, currency: currency, period: p.period)
    case (true, false): return "\(Money.format(p.priceMilli, currency: currency)) / period unknown"
    case (false, true): return "price unknown / \(period(p.period))"
    case (false, false): return "price and period unknown"
    }
  }

  /// "level 2 of 3": the product's rank among the group's distinct levels (levels may skip numbers).
  /// A catalog derived from transactions has no levels: "level unknown".
  static func level(_ p: SubscriptionProduct, in group: SubscriptionGroup?, derived: Bool = false) -> String {
    if derived { return "level unknown (no catalog)" }
    let levels = Array(Set((group?.subscriptions ?? [p]).map(\.level))).sorted()
    let rank = (levels.firstIndex(of: p.level) ?? 0) + 1
    return "level \(rank) of \(levels.count)"
  }

  /// What choosing `action` would do, from its preview: "upgrade now, refund 3.21 USD",
  /// "downgrade on 2026-04-01 09:30 UTC", "downgrade at recovery" (in billing trouble: when a
  /// retry succeeds, the BILLING_RECOVERY renewal), "crossgrade now", or the model's refusal.
  static func effect(of action: PlanAction, _ result: Result<ActionPreview, ActionError>, now: Instant, currency: String?, compact: Bool = false) -> (text: String, ok: Bool) {
    guard case .success(let p) = result else {
      if case .failure(let e) = result { return (e.message, false) }
      return ("", false)
    }
    let when = p.waitsForBillingRecovery ? "at recovery"
      : p.effectiveDate <= now ? "now" : "on \(PlanText.date(p.effectiveDate, compact: compact, now: now))"
    let verb: String
    switch action {
    case .upgrade: verb = "upgrade"
    case .downgrade: verb = "downgrade"
    case .crossgrade: verb = "crossgrade"
    case .acceptWinBack: verb = "accept"
    case .redeemOfferCode: verb = "redeem"
    case .setAutoRenew(let on): verb = on ? "turn auto-renew on" : "turn auto-renew off"
    case .buy: verb = "buy"
    case .extendRenewalDate: verb = "extend"
    case .applyPromotionalOffer: verb = "apply"
    case .refundTransaction: verb = "refund"
    }
    var text = "\(verb) \(when)"
    if let refund = p.refundMilli, refund > 0 { text += ", refund \(Money.format(refund, currency: currency))" }
    return (text, true)
  }

  /// What a picker item would do. Two items need words of their own while a change is pending:
  /// the current plan (choosing it cancels the change) and the plan already pending (choosing it
  /// again does nothing), which would otherwise read "downgrade now" and a refusal.
  static func pickerEffect(of action: PlanAction, _ vm: ViewModel, currency: String?, compact: Bool) -> (text: String, ok: Bool) {
    let target: String?
    switch action {
    case .upgrade(let id), .downgrade(let id), .crossgrade(let id): target = id
    default: target = nil
    }
    if let change = PendingPlanChange.of(vm), let target {
      if target == vm.report.product?.productID { return ("cancel the pending \(change.kind.rawValue)", true) }
      if target == change.toProductId {
        return ("already pending for \(PlanText.date(change.effectiveDate, compact: true, now: vm.now))", false)
      }
    }
    return effect(of: action, vm.advisor.preview(action), now: vm.now, currency: currency, compact: compact)
  }

  /// The subscriber's currency (catalog prices carry none).
  static func currency(_ vm: ViewModel) -> String? {
    Simulator.currency(vm.state)
  }
}
