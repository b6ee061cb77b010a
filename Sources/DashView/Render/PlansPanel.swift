import DashModel

/// The group's tiers by level, the current one marked ●, a pending one ◆, and for each what
/// choosing it would do now (from the model's preview); under them the catalog's products that
/// are not plans (consumables, non-consumables, non-renewing subscriptions).
enum PlansPanel {
  static func title(_ vm: ViewModel) -> String {
    vm.report.group.map { "Plans in \($0.name)" } ?? "Plans"
  }

  static func lines(_ vm: ViewModel, _ ui: UIState, width: Int, glyphs g: Glyphs) -> [Line] {
    let r = vm.report
    let others = OtherProductsText.lines(vm.state.catalog, currency: PlanText.currency(vm), glyphs: g)
    guard let group = r.group ?? vm.state.currentGroup else { return [Line("no subscription group in the catalog", Style(.dim))] + others }
    let tiers = group.tiers
    let current = r.product
    let pending = PendingPlanChange.of(vm)
    let pendingId = pending?.toProductId ?? {
      if case .switches(_, let to) = r.renewal { return to } else { return nil }
    }()
    let currency = PlanText.currency(vm)
    let nameCap = width >= PlainReport.unlimitedWidth ? Int.max : 24
    let nameWidth = min(nameCap, tiers.map { DisplayWidth.of(Sanitizer.clean($0.displayName)) }.max() ?? 0)
    let prices = tiers.map { PlanText.price(of: $0, currency: currency) }
    let priceWidth = prices.map { DisplayWidth.of($0) }.max() ?? 0
    let showPrice = width >= 60
    let pendingChanged = ui.highlights.isHighlighted(.pendingChange, at: vm.clock.wall)
    let effects = tiers.map {
      effect($0, current: current, pending: $0.productID == pendingId && $0.productID != current?.productID ? pending : nil, vm: vm)
    }
    // When every other tier is refused because of the subscription itself (expired, revoked,
    // shared) or for the same words, say it once below. Upgrade and downgrade word an expired
    // subscription differently, so matching text alone repeated it on every row.
    let otherIndices = tiers.indices.filter { tiers[$0].productID != current?.productID }
    let refused = otherIndices.filter { !effects[$0].ok }
    let sameText = Set(refused.map { effects[$0].text }).count == 1
    let wholeSubscription = refused.allSatisfy { effects[$0].subscriptionWide }
    let sharedRefusal = otherIndices.count > 1 && refused.count == otherIndices.count && (sameText || wholeSubscription)
      ? refused.first.map { effects[$0].text } : nil

    var lines: [Line] = tiers.enumerated().map { i, p in
      let isCurrent = p.productID == current?.productID
      let isPending = p.productID == pendingId && !isCurrent
      let marker = isCurrent ? g.current : isPending ? g.pending : " "
      var spans = [
        Run(marker + " ", Style(isCurrent ? .ok : .accent, bold: true)),
        Run(pad(Sanitizer.truncate(p.displayName, to: nameWidth, ellipsis: g.ellipsis), nameWidth), Style(.value, bold: isCurrent)),
        Run(vm.state.catalog.derivedFromTransactions ? "  level ?" : "  level \(p.level)", Style(.label)),
      ]
      if showPrice { spans.append(Run("  " + pad(prices[i], priceWidth), Style(.value))) }
      let (effect, ok) = sharedRefusal == nil || isCurrent ? (effects[i].text, effects[i].ok) : ("", effects[i].ok)
      var effectStyle = Style(isCurrent ? .ok : ok ? .plain : .dim)
      if isPending && pendingChanged { effectStyle.role = .changed }
      if !effect.isEmpty { spans.append(Run("  " + effect, effectStyle)) }
      return Line(spans)
    }
    if let sharedRefusal { lines.append(Line("no plan change: " + sharedRefusal, Style(.dim))) }
    return lines + others
  }

  /// What choosing `p` would do; `subscriptionWide` when the refusal is about the subscription
  /// (not active, revoked, family shared), the same for every tier.
  private static func effect(_ p: SubscriptionProduct, current: SubscriptionProduct?, pending: PendingPlanChange?, vm: ViewModel)
    -> (text: String, ok: Bool, subscriptionWide: Bool)
  {
    guard let current else { return ("", true, false) }
    if p.productID == current.productID { return ("current plan", true, false) }
    let action: PlanAction = p.level < current.level ? .upgrade(toProductId: p.productID)
      : p.level > current.level ? .downgrade(toProductId: p.productID) : .crossgrade(toProductId: p.productID)
    if let pending { return (pending.text(now: vm.now), true, false) }
    let result = vm.advisor.preview(action)
    let (text, ok) = PlanText.effect(of: action, result, now: vm.now, currency: PlanText.currency(vm), compact: true)
    switch result {
    case .failure(.notActive), .failure(.revoked), .failure(.familyShared), .failure(.noSubscription): return (text, ok, true)
    default: return (text, ok, false)
    }
  }

  static func pad(_ s: String, _ width: Int) -> String {
    let w = DisplayWidth.of(s)
    return w >= width ? s : s + String(repeating: " ", count: width - w)
  }
}
