import CoreValues
/// The plan changes a menu offers, each with what choosing it would do.
public enum PlanChangeKind: String, CaseIterable, Sendable {
  case upgrade, downgrade, crossgrade
}

/// One product a plan-change menu lists: the action that picks it and its preview, or the reason
/// it is refused right now (an upgrade during billing retry, a downgrade with auto-renew off).
public struct PlanTarget: Equatable, Sendable {
  public var product: SubscriptionProduct
  public var action: PlanAction
  public var preview: Result<ActionPreview, ActionError>
}

extension Actions {
  /// The products of the current group that `kind` can move to, nearest level first (for a
  /// downgrade the level just below, for an upgrade the level just above), then by price, highest
  /// first.
  /// The downgrade list also offers the current product while a downgrade or crossgrade is
  /// pending: choosing it cancels that change. Empty when there is no current plan to change.
  public static func targets(for kind: PlanChangeKind, in state: SubscriptionState, at now: Instant, timing: any RenewalTiming = TimeRate.realTime) -> [PlanTarget] {
    guard let currentId = state.subscriber.latestTransaction?.productId,
          let current = state.catalog.product(currentId), let group = state.catalog.group(of: currentId) else { return [] }
    // Nearest level first, then the group's own tier order (price, highest first).
    let tiers = group.tiers.enumerated().sorted {
      (abs($0.element.level - current.level), $0.offset) < (abs($1.element.level - current.level), $1.offset)
    }.map(\.element)
    var products: [SubscriptionProduct]
    let make: (String) -> PlanAction
    switch kind {
    case .upgrade:
      products = tiers.filter { $0.level < current.level }
      make = PlanAction.upgrade
    case .downgrade:
      products = tiers.filter { $0.level > current.level }
      make = PlanAction.downgrade
      if let pending = state.subscriber.renewalInfo?.autoRenewProductId, pending != currentId { products.insert(current, at: 0) }
    case .crossgrade:
      products = tiers.filter { $0.level == current.level && $0.productID != currentId }
      make = PlanAction.crossgrade
    }
    return products.map { p in
      let action = make(p.productID)
      return PlanTarget(product: p, action: action, preview: preview(action, in: state, at: now, timing: timing))
    }
  }
}
