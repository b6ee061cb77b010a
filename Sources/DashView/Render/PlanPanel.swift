import DashModel
import CoreValues

/// The current plan: name and level, renewal outlook, price and ownership, offers, status rule.
/// Lines are in priority order, so a short screen keeps the first ones.
enum PlanPanel {
  static func lines(_ vm: ViewModel, _ ui: UIState, glyphs g: Glyphs, compact: Bool) -> [Line] {
    let r = vm.report
    let wall = vm.clock.wall
    func mark(_ line: Line, _ field: FieldID) -> Line {
      ui.highlights.isHighlighted(field, at: wall) ? line.styled { $0.role = .changed } : line
    }
    if let foreign = ForeignPurchase.of(vm.state) { return foreignLines(foreign, vm, glyphs: g) }
    guard let product = r.product else {
      return [
        Line("No subscription: this customer never subscribed", Style(.value, bold: true)),
        Line("offer codes for new customers can be redeemed (r)", Style(.dim)),
      ] + askToBuyTrace(vm)
    }
    let dot = " \(g.dot) "
    var out: [Line] = []
    let groupName = r.group.map { " in \($0.name)" } ?? ""
    out.append(mark(Line([
      Run(product.displayName, Style(.value, bold: true)),
      Run("  \(PlanText.level(product, in: r.group, derived: vm.state.catalog.derivedFromTransactions))\(groupName)", Style(.label)),
    ]), .product))
    out.append(renewal(vm, ui, compact: compact))
    let ownership = r.ownership == .familyShared ? "family shared" : "purchased"
    out.append(mark(Line([
      Run(paidPrice(vm, product), Style(.value)),
      Run(dot, Style(.dim)), Run(ownership, Style(r.ownership == .familyShared ? .accent : .value)),
      Run(dot + product.productID, Style(.dim)),
    ]), .ownership))
    if r.offerInEffect != nil || r.offerQueued != nil {
      var spans: [Run] = []
      if let now = r.offerInEffect { spans += [Run(now.text, Style(.value))] }
      if let next = r.offerQueued {
        if !spans.isEmpty { spans.append(Run(dot, Style(.dim))) }
        spans += [Run("next ", Style(.label)), Run(next.text, Style(.value))]
      }
      out.append(mark(Line(spans), .offer))
    }
    if let request = RefundRequestText.line(vm.state, now: vm.now, compact: compact) {
      out.append(mark(Line(request, Style(.warn)), .revocation))
    }
    if let ext = ExtensionText.line(vm.state, now: vm.now, compact: compact) {
      out.append(mark(Line(ext, Style(.accent)), .renewal))
    }
    // Monthly billing with a 12-month commitment, read-only (what the fields mean).
    if let c = r.commitment {
      // Product ids and currencies come from the file: cleaned like every other line.
      let text = c.text(currentProductId: product.productID) { vm.state.catalog.product($0)?.displayName ?? $0 }
      out.append(mark(Line(Sanitizer.clean(text), Style(.accent)), .renewal))
    } else if let plan = BillingPlan.text(vm.state.subscriber.latestTransaction, renewal: vm.state.subscriber.renewalInfo) {
      out.append(Line(plan, Style(.dim)))
    }
    let status = r.status.map { "\($0.description) (\($0.rawValue))" } ?? "none"
    out.append(mark(Line([Run("status ", Style(.label)), Run(status, Style(.value)), Run(dot + r.statusRule, Style(.dim))]), .status))
    return out + askToBuyTrace(vm)
  }

  /// A declined or lapsed Ask to Buy request: the App Store sends no notification for either,
  /// so without this line the request would vanish with its banner and leave no trace.
  static func askToBuyTrace(_ vm: ViewModel) -> [Line] {
    guard let ask = vm.report.askToBuyClosed else { return [] }
    let name = vm.state.catalog.product(ask.productId)?.displayName ?? ask.productId
    let asked = Format.date(ask.requestedDate, now: vm.now)
    let what = ask.status == .declined
      ? "Ask to Buy for \(name) (asked \(asked)) was declined"
      : "Ask to Buy for \(name) (asked \(asked)) lapsed unanswered at \(Format.date(ask.lapseDate, now: vm.now))"
    return [Line(Sanitizer.clean(what) + "; nothing was charged (no App Store notification)", Style(.dim))]
  }

  /// What the customer pays for this plan: the latest transaction's price when it is for this
  /// product (after an accepted price increase, an offer), else the catalog's; "catalog …" follows
  /// when the two differ, so neither is mistaken for the other.
  static func paidPrice(_ vm: ViewModel, _ product: SubscriptionProduct) -> String {
    let currency = PlanText.currency(vm)
    guard let t = vm.state.subscriber.latestTransaction, t.productId == product.productID, let paid = t.price,
          paid != product.priceMilli || !product.priceKnown else {
      return PlanText.price(of: product, currency: currency)
    }
    if !product.priceKnown { return PlanText.price(paid, currency: t.currency ?? currency, period: product.period) }
    let catalog = Money.format(product.priceMilli, currency: t.currency ?? currency)
    if paid == 0 { return "free period (catalog \(PlanText.price(product.priceMilli, currency: t.currency ?? currency, period: product.period)))" }
    // A pay-up-front offer's price covers the whole offer period (3 months for one charge), not
    // one renewal period.
    // A commitment's monthly payment covers one month of the one-year product.
    let covers = t.offerDiscountType == .payUpFront ? (t.offerPeriod ?? product.period)
      : t.billingPlanType == .monthly ? "P1M" : product.period
    let catalogText = covers == product.period ? catalog : "\(catalog) / \(PlanText.period(product.period))"
    return "\(PlanText.price(paid, currency: t.currency ?? currency, period: covers)) paid (catalog \(catalogText))"
  }

  /// "renews on DATE (in 12d 04h)", "expires on DATE (in …), auto-renew off", "switches to X on DATE",
  /// "price increase pending consent", or what ended it.
  static func renewal(_ vm: ViewModel, _ ui: UIState, compact: Bool) -> Line {
    let r = vm.report
    let now = vm.now
    func fmt(_ i: Instant) -> String { PlanText.date(i, compact: compact, now: now) }
    func inTime(_ d: Instant) -> String { d > now ? " (in \(Format.countdown(d - now)))" : "" }
    func name(_ id: String) -> String { vm.state.catalog.product(id)?.displayName ?? id }
    let text: String
    let role: Role
    switch r.renewal {
    case .renews(let date, let productId, let price, let currency):
      // In grace the renewal date has passed: Apple is still trying to charge it.
      var t = date > now ? "renews on \(fmt(date))\(inTime(date))" : "renewal due \(fmt(date)) not paid yet; Apple is retrying"
      if productId != r.product?.productID { t += " into \(name(productId))" }
      if let price { t += " at \(Money.format(price, currency: currency ?? PlanText.currency(vm)))" }
      text = t
      role = date > now ? .ok : .warn
    case .expiresAutoRenewOff(let date):
      text = "expires on \(fmt(date))\(inTime(date)), auto-renew off"
      role = .warn
    case .switches(let date, let to):
      text = "switches to \(name(to)) on \(fmt(date))" + (date > now ? inTime(date) : " (overdue)")
      role = .accent
    case .awaitsPriceConsent(let date, let price):
      let at = price.map { " at \(Money.format($0, currency: PlanText.currency(vm)))" } ?? ""
      text = "price increase pending consent: renews on \(fmt(date))\(at) only if accepted"
      role = .warn
    case .none:
      role = .danger
      switch r.status {
      case .revoked?: text = "not renewing: refunded or revoked" + (r.revocation.map { " on \(fmt($0.date))" } ?? "")
      case .expired?:
        // A billing expiry's date is the end of the paid period, not the end of access (grace, retry).
        text = r.expiry.map { $0.intent == .billingError ? "not renewing: paid period ended \(fmt($0.date))" : "not renewing: expired on \(fmt($0.date))" }
          ?? "not renewing: expired"
      case .billingRetry?, .billingGracePeriod?: text = "not renewing until the payment succeeds"
      default: text = "not renewing"
      }
    }
    let line = Line(text, Style(role))
    return ui.highlights.isHighlighted(.renewal, at: vm.clock.wall) ? line.styled { $0.role = .changed } : line
  }
}

extension PlanPanel {
  /// The latest transaction as it is, when the catalog cannot read it as a subscription plan.
  static func foreignLines(_ foreign: ForeignPurchase, _ vm: ViewModel, glyphs g: Glyphs) -> [Line] {
    let t = vm.state.subscriber.latestTransaction
    var facts: [String] = []
    if let d = t?.purchaseDate { facts.append("purchased \(Format.date(d, now: vm.now))") }
    if let price = t?.price { facts.append(Money.format(price, currency: t?.currency ?? PlanText.currency(vm))) }
    if let id = t?.transactionId { facts.append("transaction \(Sanitizer.clean(id))") }
    let title: String
    switch foreign {
    case .notASubscription(let type, let id):
      title = "Not an auto-renewable subscription: \(Sanitizer.clean(type)) \(Sanitizer.clean(id))"
      if case .number(let q)? = t?.source["quantity"], q != "1" { facts.append("quantity \(Sanitizer.clean(q))") }
    case .unknownProduct(let id):
      title = "Unknown product \(Sanitizer.clean(id)): not in the catalog"
      if let e = t?.expiresDate { facts.append("expiresDate \(Format.date(e, now: vm.now))") }
    }
    return [Line(title, Style(.value, bold: true)), Line(facts.joined(separator: " \(g.dot) "), Style(.dim))]
  }
}
