/// What else an action changes, read off the difference between the renewal info before and
/// after it (never written per action), so a preview cannot forget a side effect: redeeming a
/// code that cancels a pending downgrade says so. Facts the preview's own sentence already
/// names are left out, so the main effect is not said twice.
enum PreviewAlso {
  static func changes(from before: SubscriptionState, to after: SubscriptionState, summary: String) -> [String] {
    let catalog = after.catalog
    func name(_ id: String?) -> String { catalog.product(id)?.displayName ?? id ?? "another plan" }
    let old = before.subscriber.renewalInfo, new = after.subscriber.renewalInfo
    let oldCurrent = before.subscriber.latestTransaction?.productId, newCurrent = after.subscriber.latestTransaction?.productId
    func pending(_ r: RenewalInfoPayload?, current: String?) -> String? {
      guard let next = r?.autoRenewProductId, next != current else { return nil }
      return next
    }
    let lower = summary.lowercased()
    var out: [(text: String, topic: [String])] = []

    let wasPending = pending(old, current: oldCurrent), isPending = pending(new, current: newCurrent)
    if let was = wasPending, was != isPending {
      let kind = switchKind(from: oldCurrent, to: was, catalog: catalog)
      if let now = isPending {
        out.append(("replaces the pending \(kind) to \(name(was)) with a switch to \(name(now))", ["pending", "keep "]))
      } else if newCurrent != was {
        out.append(("cancels the pending \(kind) to \(name(was))", ["pending", "keep "]))
      }
    }
    if let o = old?.autoRenewStatus, let n = new?.autoRenewStatus, o != n {
      out.append((n == .on ? "turns auto-renew back on" : "turns auto-renew off", ["auto-renew"]))
    }
    if let id = old?.offerIdentifier ?? old?.offerType.map(\.description), new?.offerIdentifier == nil, new?.offerType == nil {
      out.append(("drops the offer set for the next renewal (\(id))", ["offer", "code", "win-back"]))
    }
    if let p = old?.priceIncreaseStatus, new?.priceIncreaseStatus == nil {
      out.append(("ends the price increase (\(p.rawValue == 1 ? "consented" : "awaiting consent"))", ["price"]))
    }
    return out.filter { item in !item.topic.contains { lower.contains($0) } }.map(\.text)
  }

  private static func switchKind(from current: String?, to next: String, catalog: Catalog) -> String {
    guard let a = catalog.product(current), let b = catalog.product(next) else { return "switch" }
    if b.level > a.level { return "downgrade" }
    if b.level < a.level { return "upgrade" }
    return "crossgrade"
  }
}
