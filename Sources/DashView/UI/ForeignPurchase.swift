import DashModel

/// A latest transaction SubDash cannot read as the catalog's auto-renewable subscription: a
/// consumable (or other in-app purchase type), or a subscription whose product the catalog lacks.
/// One verdict for the whole screen: the banner, the plan panel and the keys all say the same
/// thing, instead of "EXPIRED" above "never subscribed" and a refund key for a stranger's product.
enum ForeignPurchase: Equatable {
  /// `type` is Apple's `type` ("Consumable", "Non-Consumable", "Non-Renewing Subscription");
  /// `product` names it: the catalog's display name and the id ("500 coins (com.example.coins)")
  /// when the catalog lists it, else the id.
  case notASubscription(type: String, product: String)
  /// An auto-renewable subscription's product that is not in the catalog the file was read with.
  case unknownProduct(String)

  static let autoRenewable = PurchaseVerdict.autoRenewable

  /// The model's verdict (`PurchaseVerdict`, which `show --json` reports too).
  static func of(_ state: SubscriptionState) -> ForeignPurchase? {
    switch PurchaseVerdict.of(state) {
    case .notASubscription(let type, let id)?:
      guard let other = state.catalog.otherProduct(id), other.displayName != id else { return .notASubscription(type: type, product: id) }
      return .notASubscription(type: type, product: "\(other.displayName) (\(id))")
    case .unknownProduct(let id)?: return .unknownProduct(id)
    case nil: return nil
    }
  }

  /// The banner's word and sentence.
  var banner: (label: String, text: String) {
    switch self {
    case .notASubscription(let type, let id):
      return ("NOT A SUBSCRIPTION", "\(Sanitizer.clean(id)) is a \(Sanitizer.clean(type)) purchase, not an auto-renewable subscription: no renewal, expiry or subscription access applies")
    case .unknownProduct(let id):
      return ("UNKNOWN PRODUCT", "\(Sanitizer.clean(id)) is not in the catalog: its plan, level and renewals cannot be read (import again with the app's .storekit file: --catalog)")
    }
  }

  /// Why a key that changes the subscription is refused.
  var refusal: String {
    switch self {
    case .notASubscription(let type, _): return "the latest transaction is a \(Sanitizer.clean(type)) purchase, not an auto-renewable subscription"
    case .unknownProduct(let id): return "\(Sanitizer.clean(id)) is not in the catalog, so SubDash cannot act on it"
    }
  }
}
