import DashModel

/// The sentences SubDash uses for each part of a lifecycle report. The dashboard and
/// `subdash show` both use these, so support staff see the same words in a ticket as on screen.
public enum Phrases {
  public static func status(_ r: LifecycleReport) -> String {
    guard let s = r.status else { return "never subscribed" }
    return "\(s.rawValue) \(s.description)"
  }

  public static func access(_ r: LifecycleReport) -> String {
    "\(r.access.level.rawValue.uppercased()) — \(r.access.rule)"
  }

  public static func productName(_ id: String?, in catalog: Catalog) -> String {
    guard let id else { return "none" }
    return catalog.product(id)?.displayName ?? id
  }

  public static func plan(_ r: LifecycleReport) -> String {
    guard let p = r.product else { return "no plan" }
    var s = "\(p.displayName) (\(p.productID))"
    if let g = r.group {
      let levels = Set(g.subscriptions.map(\.level)).count
      s += ", level \(p.level) of \(levels) in \(g.name)"
    }
    s += ", \(Format.money(milliunits: p.priceMilli, currency: "")) / \(periodName(p.period))"
    s += r.ownership == .familyShared ? ", family shared" : ", purchased"
    return s
  }

  public static func periodName(_ iso: String) -> String {
    (try? ISOPeriod(parsing: iso).name) ?? iso
  }

  /// "renews on … (in 12d 04h) as Premium Monthly at 11.99 USD", "expires on …, auto-renew off", …
  public static func renewal(_ r: LifecycleReport, catalog: Catalog) -> String {
    switch r.renewal {
    case .renews(let date, let product, let price, let currency):
      // In grace or billing retry the renewal date has passed: "in 0s" would read as "now".
      var s = date > r.now
        ? "renews on \(Format.date(date)) (in \(Format.countdown(date - r.now)))"
        : "renewal due \(Format.date(date)) not paid yet; Apple is retrying"
      s += " as \(productName(product, in: catalog))"
      if let price { s += " at \(Format.money(milliunits: price, currency: currency ?? ""))" }
      return s
    case .expiresAutoRenewOff(let date):
      return "expires on \(Format.date(date)) (in \(Format.countdown(date - r.now))), auto-renew off"
    case .switches(let date, let product):
      let when = date > r.now ? "(in \(Format.countdown(date - r.now)))" : "(overdue)"
      return "switches to \(productName(product, in: catalog)) on \(Format.date(date)) \(when)"
    case .awaitsPriceConsent(let date, let price):
      var s = "price increase pending consent"
      if let price { s += ": \(Format.money(milliunits: price, currency: ""))" }
      return s + "; renews on \(Format.date(date)) only if the customer consents"
    case .none:
      return "nothing will renew"
    }
  }

  public static func grace(_ g: GraceInfo) -> String {
    "payment failed; access kept for \(Format.countdown(g.remaining)), until \(Format.date(g.expiresDate))"
  }

  public static func billingRetry(_ b: BillingRetryInfo) -> String {
    "payment failing since \(Format.date(b.since)); retrying until \(Format.date(b.retryUntil)); access: \(b.accessDuringRetry.rawValue)"
  }

  public static func expiry(_ e: ExpiryInfo) -> String {
    var s = "expired on \(Format.date(e.date)): \(e.reason)"
    if let i = e.intent { s += " (expirationIntent \(i.rawValue))" }
    return s
  }

  public static func revocation(_ v: RevocationInfo) -> String {
    "refunded/revoked on \(Format.date(v.date)): \(v.text)"
  }

  public static func pendingChange(_ c: PendingChange, catalog: Catalog) -> String {
    "\(c.kind.rawValue) to \(productName(c.toProductId, in: catalog)) on \(Format.date(c.effectiveDate))"
  }

  public static func priceIncrease(_ p: PriceIncreaseInfo) -> String {
    var s = p.status == .customerHasNotResponded ? "increase pending consent" : "increase accepted"
    if let price = p.newPriceMilli { s += ": new price \(Format.money(milliunits: price, currency: p.currency ?? ""))" }
    if let d = p.effectiveDate { s += " from \(Format.date(d))" }
    return s
  }

  public static func winBack(_ w: WinBackReport) -> String {
    if w.eligible.isEmpty { return "none eligible: \(w.whyNone ?? "no offers")" }
    return w.eligible.map(winBackOffer).joined(separator: "; ")
  }

  public static func winBackOffer(_ o: WinBackOffer) -> String {
    let price = o.paymentMode == .freeTrial ? "free" : Format.money(milliunits: o.priceMilli, currency: "")
    return "\(o.referenceName) [\(o.offerId)]: \(price), \(o.paymentMode.label), \(o.periodCount) × \(periodName(o.period))"
  }

  public static func askToBuy(_ a: AskToBuyRequest, catalog: Catalog) -> String {
    "\(a.status.rawValue) for \(productName(a.productId, in: catalog)) since \(Format.date(a.requestedDate))"
  }

  /// "2026-11-20 03:42 UTC  DID_FAIL_TO_RENEW / GRACE_PERIOD  status 4  summary"
  public static func event(_ n: NotificationRecord) -> String {
    var s = n.signedDate.map(Format.date) ?? "(no date)"
    s += "  \(n.label)"
    if let st = n.status { s += "  status \(st.rawValue)" }
    if let sum = n.summary { s += "  \(sum)" }
    return s
  }
}
