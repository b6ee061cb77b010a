import DashModel
import CoreValues

/// Alarms that must not be missed, each with a glyph and a capitalised word as well as a colour:
/// file error, refund/revocation, grace, billing retry, expiry, price consent, Ask to Buy, and the
/// first contradiction found in the file.
enum BannerPanel {
  /// `moreWarnings` says where the warnings after the first are listed: `?` on the dashboard, a
  /// section of its own in `subdash show`.
  static func lines(_ vm: ViewModel, _ ui: UIState, glyphs g: Glyphs, compact: Bool, moreWarnings: String = "? lists them") -> [Line] {
    let r = vm.report
    let now = vm.now
    func fmt(_ i: Instant) -> String { PlanText.date(i, compact: compact, now: now) }
    var out: [Line] = []
    func banner(_ glyph: String, _ label: String, _ text: String, _ role: Role, _ field: FieldID?) {
      var line = Line([Run("\(glyph) \(label)", Style(role, bold: true)), Run("  \(text)", Style(role))])
      if let field, ui.highlights.isHighlighted(field, at: vm.clock.wall) {
        line = line.styled { $0.role = .changed }
      }
      out.append(line)
    }
    if let error = ui.fileError {
      banner(g.error, "FILE ERROR", "\(error) \(g.dash) showing last good state", .danger, nil)
    }
    // A purchase SubDash cannot read as the catalog's subscription: one verdict, said first,
    // and no "EXPIRED" that the plan panel would contradict.
    let foreign = ForeignPurchase.of(vm.state)
    if let foreign { banner(g.warn, foreign.banner.label, foreign.banner.text, .warn, nil) }
    if let rev = r.revocation, r.status == .revoked {
      let label = rev.type == .familyRevoke ? "REVOKED" : "REFUNDED"
      // The text already names the date (`refunded 2026-03-20 10:02 UTC: …`); say it once.
      banner(g.error, label, "\(rev.text); access ended", .danger, .revocation)
    }
    if let grace = r.grace, r.status == .billingGracePeriod {
      let left = Format.countdown(grace.expiresDate - now)
      banner(g.warn, "GRACE PERIOD", "payment failed; access kept for \(left), until \(fmt(grace.expiresDate))", .warn, .grace)
    }
    if let retry = r.billingRetry, r.status == .billingRetry {
      banner(g.error, "BILLING RETRY", "payment failing since \(fmt(retry.since)); retrying until \(fmt(retry.retryUntil)); access: \(retry.accessDuringRetry.rawValue)", .danger, .billingRetry)
    }
    if let expiry = r.expiry, r.status == .expired, foreign == nil {
      banner(g.error, "EXPIRED", expiryText(expiry, vm, fmt), .danger, .expiry)
    }
    if let pi = r.priceIncrease, pi.status == .customerHasNotResponded {
      var text = "awaiting consent"
      if let price = pi.newPriceMilli { text += " to \(Money.format(price, currency: pi.currency ?? PlanText.currency(vm)))" }
      if let date = pi.effectiveDate { text += "; without it the subscription expires on \(fmt(date))" }
      banner(g.warn, "PRICE INCREASE", text, .warn, .priceIncrease)
    }
    if let ask = r.askToBuy, ask.status == .pending {
      let name = vm.state.catalog.product(ask.productId)?.displayName ?? ask.productId
      let left = Format.countdown(ask.lapseDate - r.now)
      banner(g.info, "ASK TO BUY", "\(name) waits for a parent for \(left), until \(fmt(ask.lapseDate)); requested \(fmt(ask.requestedDate))", .accent, .askToBuy)
    }
    if let warning = r.warnings.first {
      let more = r.warnings.count > 1 ? " (+\(r.warnings.count - 1) more: \(moreWarnings))" : ""
      banner(g.warn, "CHECK FILE", warning + more, .warn, nil)
    }
    return out
  }

  /// "ACCESS: YES — subscribed"
  /// Why and when access ended. A billing expiry's `expiresDate` is the renewal that was never
  /// paid, not the day access ended: the customer kept access through any grace period and Apple
  /// retried for weeks after. The notification log says when each happened, so the banner does.
  static func expiryText(_ expiry: ExpiryInfo, _ vm: ViewModel, _ fmt: (Instant) -> String) -> String {
    guard expiry.intent == .billingError else { return "on \(fmt(expiry.date)): \(expiry.reason)" }
    // One sentence that names each of the (up to) three dates, so none reads as "the" expiry.
    var parts = ["the paid period ended \(fmt(expiry.date)) (that renewal was never paid)"]
    let log = vm.notifications.filter { ($0.signedDate ?? .epoch) >= expiry.date }
    if let graceEnd = log.last(where: { $0.notificationType == .gracePeriodExpired })?.signedDate {
      parts.append("access ended \(fmt(graceEnd)) when the grace period ran out")
    }
    if let gaveUp = log.last(where: { $0.notificationType == .expired && $0.subtype == .billingRetry })?.signedDate {
      parts.append("Apple stopped retrying \(fmt(gaveUp))")
    }
    if parts.count > 1 { parts[parts.count - 1] = "and " + parts[parts.count - 1] }
    return "billing error: " + parts.joined(separator: ", ")
  }

  static func access(_ vm: ViewModel, _ ui: UIState, glyphs g: Glyphs) -> Line {
    let a = vm.report.access
    if case .notASubscription(let type, _)? = ForeignPurchase.of(vm.state) {
      return Line([Run("ACCESS: NO SUBSCRIPTION", Style(.warn, bold: true)), Run(" \(g.dash) a \(Sanitizer.clean(type)) purchase grants no subscription access", Style(.warn))])
    }
    let role: Role = a.level == .yes ? .ok : a.level == .limited ? .warn : .danger
    var line = Line([Run("ACCESS: \(a.level.rawValue.uppercased())", Style(role, bold: true)), Run(" \(g.dash) \(a.rule)", Style(role))])
    if ui.highlights.isHighlighted(.access, at: vm.clock.wall) { line = line.styled { $0.role = .changed } }
    return line
  }
}
