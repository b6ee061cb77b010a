import CoreValues
/// A decoded JWSTransactionDecodedPayload, field names and encodings exactly as the App Store
/// Server API sends them, so a payload pastes into a state file unchanged. Fields this type does
/// not model (advancedCommerceInfo, deviceVerification …) stay in `source` and are
/// written back untouched.
public struct TransactionPayload: Equatable, Sendable {
  public var source: JSONObject
  public var originalTransactionId: String?
  public var transactionId: String?
  public var webOrderLineItemId: String?
  public var bundleId: String?
  public var productId: String?
  public var subscriptionGroupIdentifier: String?
  public var purchaseDate: Instant?
  public var originalPurchaseDate: Instant?
  public var expiresDate: Instant?
  public var quantity: Int?
  public var type: String?
  public var appAccountToken: String?
  public var inAppOwnershipType: OwnershipType?
  public var signedDate: Instant?
  public var revocationReason: RevocationReason?
  public var revocationDate: Instant?
  public var revocationType: RevocationType?
  public var revocationPercentage: Int?
  public var isUpgraded: Bool?
  public var offerType: OfferType?
  public var offerIdentifier: String?
  public var offerDiscountType: OfferDiscountType?
  public var offerPeriod: String?
  public var environment: AppStoreEnvironment?
  public var storefront: String?
  public var storefrontId: String?
  public var transactionReason: TransactionReason?
  /// Milliunits: 9990 is 9.99 in `currency`.
  public var price: Int64?
  public var currency: String?
  /// MONTHLY for a monthly subscription with a 12-month commitment; absent on older payloads.
  public var billingPlanType: BillingPlanType?
  public var commitmentInfo: TransactionCommitmentInfo?

  public init() { source = JSONObject() }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    originalTransactionId = try r.string("originalTransactionId")
    transactionId = try r.string("transactionId")
    webOrderLineItemId = try r.string("webOrderLineItemId")
    bundleId = try r.string("bundleId")
    productId = try r.string("productId")
    subscriptionGroupIdentifier = try r.string("subscriptionGroupIdentifier")
    purchaseDate = try r.instant("purchaseDate")
    originalPurchaseDate = try r.instant("originalPurchaseDate")
    expiresDate = try r.instant("expiresDate")
    quantity = try r.int("quantity")
    type = try r.string("type")
    appAccountToken = try r.string("appAccountToken")
    inAppOwnershipType = try r.stringEnum("inAppOwnershipType")
    signedDate = try r.instant("signedDate")
    revocationReason = try r.intEnum("revocationReason")
    revocationDate = try r.instant("revocationDate")
    revocationType = try r.stringEnum("revocationType")
    revocationPercentage = try r.int("revocationPercentage")
    isUpgraded = try r.bool("isUpgraded")
    offerType = try r.intEnum("offerType")
    offerIdentifier = try r.string("offerIdentifier")
    offerDiscountType = try r.stringEnum("offerDiscountType")
    offerPeriod = try r.string("offerPeriod")
    environment = try r.stringEnum("environment")
    storefront = try r.string("storefront")
    storefrontId = try r.string("storefrontId")
    transactionReason = try r.stringEnum("transactionReason")
    price = try r.int64("price")
    currency = try r.string("currency")
    billingPlanType = try r.stringEnum("billingPlanType")
    commitmentInfo = try r.object("commitmentInfo").map { (o) throws(DecodeError) in try TransactionCommitmentInfo(o) }
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("originalTransactionId", originalTransactionId)
    w.set("transactionId", transactionId)
    w.set("webOrderLineItemId", webOrderLineItemId)
    w.set("bundleId", bundleId)
    w.set("productId", productId)
    w.set("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
    w.set("purchaseDate", purchaseDate)
    w.set("originalPurchaseDate", originalPurchaseDate)
    w.set("expiresDate", expiresDate)
    w.set("quantity", quantity)
    w.set("type", type)
    w.set("appAccountToken", appAccountToken)
    w.set("inAppOwnershipType", inAppOwnershipType)
    w.set("signedDate", signedDate)
    w.set("revocationReason", revocationReason)
    w.set("revocationDate", revocationDate)
    w.set("revocationType", revocationType)
    w.set("revocationPercentage", revocationPercentage)
    w.set("isUpgraded", isUpgraded)
    w.set("offerType", offerType)
    w.set("offerIdentifier", offerIdentifier)
    w.set("offerDiscountType", offerDiscountType)
    w.set("offerPeriod", offerPeriod)
    w.set("environment", environment)
    w.set("storefront", storefront)
    w.set("storefrontId", storefrontId)
    w.set("transactionReason", transactionReason)
    w.set("price", price)
    w.set("currency", currency)
    w.set("billingPlanType", billingPlanType)
    w.set("commitmentInfo", json: commitmentInfo?.json)
    return w.json
  }

  public var isFamilyShared: Bool { inAppOwnershipType == .familyShared }
}
