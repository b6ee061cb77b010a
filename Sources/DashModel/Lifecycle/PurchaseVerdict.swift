import CoreValues
/// What the latest transaction is, when it is not the catalog's auto-renewable subscription: a
/// consumable (or another in-app purchase type), or a subscription whose product the catalog
/// lacks. One verdict for the dashboard (`ForeignPurchase`) and `show --json` (`purchase`).
public enum PurchaseVerdict: Equatable, Sendable {
  /// `type` is Apple's `type` ("Consumable", "Non-Consumable", "Non-Renewing Subscription").
  case notASubscription(type: String, productId: String)
  /// An auto-renewable subscription's product that is not in the catalog the file was read with.
  case unknownProduct(String)

  public static let autoRenewable = "Auto-Renewable Subscription"

  public static func of(_ state: SubscriptionState) -> PurchaseVerdict? {
    guard let t = state.subscriber.latestTransaction else { return nil }
    let id = t.productId ?? "(no productId)"
    if let type = t.type, type != autoRenewable { return .notASubscription(type: type, productId: id) }
    // A transaction without a `type` (older or partial data) whose product the catalog lists as a
    // consumable, non-consumable or non-renewing subscription is that.
    if let other = state.catalog.otherProduct(t.productId) { return .notASubscription(type: other.kind.transactionType, productId: id) }
    // A catalog derived from the transactions holds every product they name; a .storekit file
    // given with --catalog may not.
    if let pid = t.productId, state.catalog.product(pid) == nil { return .unknownProduct(pid) }
    return nil
  }

  /// `show --json`'s `purchase`: the latest transaction's product and type, and two flags a
  /// script can test (`autoRenewableSubscription`, `inCatalog`), with the catalog's `displayName`
  /// and `catalogType` for a product it lists outside its subscription groups; nil without a
  /// transaction.
  public static func json(_ state: SubscriptionState) -> JSON? {
    guard let t = state.subscriber.latestTransaction else { return nil }
    let verdict = of(state)
    var w = ObjectWriter()
    w.set("productId", t.productId)
    w.set("type", t.type)
    if case .notASubscription? = verdict { w.set("autoRenewableSubscription", false) } else { w.set("autoRenewableSubscription", true) }
    let other = state.catalog.otherProduct(t.productId)
    w.set("inCatalog", t.productId.map { state.catalog.product($0) != nil || other != nil } ?? false)
    // What the catalog calls it, when it lists it as a consumable, non-consumable or
    // non-renewing subscription.
    if let other {
      w.set("displayName", other.displayName)
      w.set("catalogType", other.kind.transactionType)
    }
    switch verdict {
    case .notASubscription?: w.set("verdict", "notASubscription")
    case .unknownProduct?: w.set("verdict", "unknownProduct")
    case nil: w.set("verdict", "subscription")
    }
    return w.json
  }
}
