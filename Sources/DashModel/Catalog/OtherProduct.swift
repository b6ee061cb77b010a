import CoreValues
/// A product of a `.storekit` file that is not an auto-renewable subscription: a consumable or
/// non-consumable (`products`) or a non-renewing subscription (`nonRenewingSubscriptions`).
/// SubDash simulates none of them; it reads them so support sees that they exist and what they
/// are, and so a transaction for one is named with its catalog's display name and kind instead
/// of as a product the catalog lacks.
public struct OtherProduct: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case consumable, nonConsumable, nonRenewingSubscription
    /// A `type` this reader does not know, kept as written (a newer Xcode may add one).
    case other(String)

    /// From the `.storekit` file's `type` ("Consumable", "NonConsumable", "NonRenewingSubscription").
    init(storeKitType: String) {
      switch storeKitType {
      case "Consumable": self = .consumable
      case "NonConsumable": self = .nonConsumable
      case "NonRenewingSubscription": self = .nonRenewingSubscription
      default: self = .other(storeKitType)
      }
    }

    /// Apple's transaction `type` for this kind (App Store Server API `type`).
    public var transactionType: String {
      switch self {
      case .consumable: return "Consumable"
      case .nonConsumable: return "Non-Consumable"
      case .nonRenewingSubscription: return "Non-Renewing Subscription"
      case .other(let t): return t
      }
    }

    /// How the screen names it, lower case: "consumable", "non-renewing subscription".
    public var label: String {
      switch self {
      case .consumable: return "consumable"
      case .nonConsumable: return "non-consumable"
      case .nonRenewingSubscription: return "non-renewing subscription"
      case .other(let t): return t
      }
    }
  }

  public var productID: String
  public var referenceName: String
  public var displayName: String
  public var kind: Kind
  public var displayPrice: String?
  /// nil when the file gives no price.
  public var priceMilli: Int64?
  public var familyShareable: Bool

  public init(productID: String, referenceName: String, displayName: String, kind: Kind,
              displayPrice: String? = nil, priceMilli: Int64? = nil, familyShareable: Bool = false) {
    self.productID = productID
    self.referenceName = referenceName
    self.displayName = displayName
    self.kind = kind
    self.displayPrice = displayPrice
    self.priceMilli = priceMilli
    self.familyShareable = familyShareable
  }
}

extension StoreKitReader {
  /// One entry of `products` or `nonRenewingSubscriptions`. Keys SubDash does not use are left
  /// alone (the state file keeps the catalog's JSON as it was).
  static func readOtherProduct(_ p: ObjectReader, defaultType: String?) throws(DecodeError) -> OtherProduct {
    let productID = try p.requiredString("productID")
    let reference = try p.string("referenceName") ?? productID
    let localizations = try p.objects("localizations") { (l) throws(DecodeError) in try l.string("displayName") } ?? []
    let displayName = localizations.compactMap { $0 }.first(where: { !$0.isEmpty }) ?? reference
    guard let type = try p.string("type") ?? defaultType else {
      throw DecodeError(p.path.appending("type"), "required string is missing (Consumable or NonConsumable)")
    }
    let displayPrice = try p.string("displayPrice")
    var price: Int64?
    if let displayPrice { price = try Money.milliunits(displayPrice, at: p.path.appending("displayPrice")) }
    return OtherProduct(productID: productID, referenceName: reference, displayName: displayName,
                        kind: OtherProduct.Kind(storeKitType: type), displayPrice: displayPrice, priceMilli: price,
                        familyShareable: try p.bool("familyShareable") ?? false)
  }
}
