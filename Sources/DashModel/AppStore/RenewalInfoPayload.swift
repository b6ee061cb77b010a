import CoreValues
/// A decoded JWSRenewalInfoDecodedPayload: what happens at the next renewal. A pending downgrade
/// or crossgrade shows as `autoRenewProductId` differing from `productId`.
public struct RenewalInfoPayload: Equatable, Sendable {
  public var source: JSONObject
  public var originalTransactionId: String?
  public var productId: String?
  public var autoRenewProductId: String?
  public var autoRenewStatus: AutoRenewStatus?
  public var expirationIntent: ExpirationIntent?
  public var isInBillingRetryPeriod: Bool?
  public var gracePeriodExpiresDate: Instant?
  public var priceIncreaseStatus: PriceIncreaseStatus?
  public var offerType: OfferType?
  public var offerIdentifier: String?
  public var offerDiscountType: OfferDiscountType?
  public var offerPeriod: String?
  public var signedDate: Instant?
  public var environment: AppStoreEnvironment?
  public var recentSubscriptionStartDate: Instant?
  public var renewalDate: Instant?
  /// Milliunits, like transaction prices.
  public var renewalPrice: Int64?
  public var currency: String?
  /// Best first, as the App Store sorts them.
  public var eligibleWinBackOfferIds: [String]?
  public var appAccountToken: String?
  /// The billing plan of the next renewal (MONTHLY: another month of a 12-month commitment).
  public var renewalBillingPlanType: BillingPlanType?
  /// What happens when the current 12-month commitment ends.
  public var commitmentInfo: RenewalCommitmentInfo?

  public init() { source = JSONObject() }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    originalTransactionId = try r.string("originalTransactionId")
    productId = try r.string("productId")
    autoRenewProductId = try r.string("autoRenewProductId")
    autoRenewStatus = try r.intEnum("autoRenewStatus")
    expirationIntent = try r.intEnum("expirationIntent")
    isInBillingRetryPeriod = try r.bool("isInBillingRetryPeriod")
    gracePeriodExpiresDate = try r.instant("gracePeriodExpiresDate")
    priceIncreaseStatus = try r.intEnum("priceIncreaseStatus")
    offerType = try r.intEnum("offerType")
    offerIdentifier = try r.string("offerIdentifier")
    offerDiscountType = try r.stringEnum("offerDiscountType")
    offerPeriod = try r.string("offerPeriod")
    signedDate = try r.instant("signedDate")
    environment = try r.stringEnum("environment")
    recentSubscriptionStartDate = try r.instant("recentSubscriptionStartDate")
    renewalDate = try r.instant("renewalDate")
    renewalPrice = try r.int64("renewalPrice")
    currency = try r.string("currency")
    eligibleWinBackOfferIds = try r.strings("eligibleWinBackOfferIds")
    appAccountToken = try r.string("appAccountToken")
    renewalBillingPlanType = try r.stringEnum("renewalBillingPlanType")
    commitmentInfo = try r.object("commitmentInfo").map { (o) throws(DecodeError) in try RenewalCommitmentInfo(o) }
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("originalTransactionId", originalTransactionId)
    w.set("productId", productId)
    w.set("autoRenewProductId", autoRenewProductId)
    w.set("autoRenewStatus", autoRenewStatus)
    w.set("expirationIntent", expirationIntent)
    w.set("isInBillingRetryPeriod", isInBillingRetryPeriod)
    w.set("gracePeriodExpiresDate", gracePeriodExpiresDate)
    w.set("priceIncreaseStatus", priceIncreaseStatus)
    w.set("offerType", offerType)
    w.set("offerIdentifier", offerIdentifier)
    w.set("offerDiscountType", offerDiscountType)
    w.set("offerPeriod", offerPeriod)
    w.set("signedDate", signedDate)
    w.set("environment", environment)
    w.set("recentSubscriptionStartDate", recentSubscriptionStartDate)
    w.set("renewalDate", renewalDate)
    w.set("renewalPrice", renewalPrice)
    w.set("currency", currency)
    w.set("eligibleWinBackOfferIds", eligibleWinBackOfferIds)
    w.set("appAccountToken", appAccountToken)
    w.set("renewalBillingPlanType", renewalBillingPlanType)
    w.set("commitmentInfo", json: commitmentInfo?.json)
    return w.json
  }

  public var autoRenewOn: Bool { autoRenewStatus == .on }
}
