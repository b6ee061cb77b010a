import DashModel
/// The customer's answer to a retention message, as the App Store's cancel page offers it: keep
/// the subscription, take what the message offers, or cancel anyway.
public enum RetentionChoice: String, Equatable, Sendable, CaseIterable {
  case keep, accept, cancel

  /// The plan action each choice applies through the ordinary actions (so Apple's rules and
  /// notifications are the same as from any other key); nil for keep, which changes nothing, and
  /// for accept on a message that offers nothing to take.
  public func action(for offer: RetentionOffer?, in state: SubscriptionState) -> PlanAction? {
    switch self {
    case .keep: return nil
    case .cancel: return .setAutoRenew(false)
    case .accept:
      switch offer?.kind {
      case .alternateProduct(let product)?: return Self.switchAction(to: product, in: state)
      case .promotionalOffer(let product, let offer)?: return .applyPromotionalOffer(offerId: offer, productId: product)
      case .message?, nil: return nil
      }
    }
  }

  /// A switch-plan choice is an upgrade, downgrade or crossgrade by the group's levels (1 is the
  /// highest), each with Apple's timing: an upgrade now, a downgrade at the next renewal, a
  /// crossgrade by its duration.
  static func switchAction(to product: String, in state: SubscriptionState) -> PlanAction {
    guard let current = state.catalog.product(state.subscriber.latestTransaction?.productId), let target = state.catalog.product(product) else {
      return .crossgrade(toProductId: product)
    }
    if target.level < current.level { return .upgrade(toProductId: product) }
    if target.level > current.level { return .downgrade(toProductId: product) }
    return .crossgrade(toProductId: product)
  }
}
