import DashModel

/// `subdash show`: the dashboard's information as plain lines, no terminal control, for a support
/// ticket or a script. Every string from the file is sanitized.
public enum PlainReport {
  public static func lines(
    state: SubscriptionState, report r: LifecycleReport, events: [NotificationRecord],
    fileName: String, simulated: Bool, wallNow: Instant?
  ) -> [String] {
    var rows: [(String, String)] = []
    let t = state.subscriber.latestTransaction
    var who = t?.originalTransactionId ?? state.subscriber.originalTransactionId ?? "(none)"
    if let token = t?.appAccountToken { who += "  appAccountToken \(token)" }
    rows.append(("Subscriber", who))
    rows.append(("File", fileName))
    rows.append(("Environment", r.environment?.rawValue ?? "unknown"))
    var clock = Format.date(r.now) + (simulated ? " (simulated)" : "")
    if simulated, let wallNow { clock += "; wall \(Format.date(wallNow))" }
    rows.append(("Clock", clock))
    rows.append(("Status", "\(Phrases.status(r)) — \(r.statusRule)"))
    rows.append(("Access", Phrases.access(r)))
    rows.append(("Plan", Phrases.plan(r)))
    if let o = r.offerInEffect { rows.append(("Offer", o.text)) }
    if let o = r.offerQueued { rows.append(("Next offer", o.text)) }
    rows.append(("Renewal", Phrases.renewal(r, catalog: state.catalog)))
    if let g = r.grace { rows.append(("Grace", Phrases.grace(g))) }
    if let b = r.billingRetry { rows.append(("Retry", Phrases.billingRetry(b))) }
    if let e = r.expiry { rows.append(("Expiry", Phrases.expiry(e))) }
    if let v = r.revocation { rows.append(("Revoked", Phrases.revocation(v))) }
    if let c = r.pendingChange { rows.append(("Pending", Phrases.pendingChange(c, catalog: state.catalog))) }
    if let p = r.priceIncrease { rows.append(("Price", Phrases.priceIncrease(p))) }
    if let a = r.askToBuy { rows.append(("Ask to Buy", Phrases.askToBuy(a, catalog: state.catalog))) }
    rows.append(("Win-back", Phrases.winBack(r.winBack)))
    var out = rows.map { Sanitizer.clean($0.0.padding(12) + " " + $0.1) }
    for w in r.warnings { out.append(Sanitizer.clean("Warning      " + w)) }
    out.append("")
    out.append("Recent events (newest first)")
    if events.isEmpty { out.append("  (none)") }
    for e in events { out.append("  " + Sanitizer.clean(Phrases.event(e))) }
    return out
  }
}

extension String {
  func padding(_ width: Int) -> String {
    let w = DisplayWidth.of(self)
    return w >= width ? self : self + String(repeating: " ", count: width - w)
  }
}
