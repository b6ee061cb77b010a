import CoreValues
/// Monthly subscriptions with a 12-month commitment (App Store Server API 1.21): a one-year product
/// billed in monthly periods. Field names and values follow Apple's app-store-server-library 3.1.2
/// (`BillingPlanType`, `TransactionCommitmentInfo`, `RenewalCommitmentInfo`).

/// `billingPlanType` (transaction) and `renewalBillingPlanType` (renewal info): how the product is paid.
public struct BillingPlanType: AppStoreEnum {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let billedUpfront = Self(rawValue: "BILLED_UPFRONT")
  public static let monthly = Self(rawValue: "MONTHLY")
  public static let knownNames: [String: String] = [
    "BILLED_UPFRONT": "billed up front", "MONTHLY": "monthly with a 12-month commitment",
  ]
}

/// A transaction's `commitmentInfo`: which monthly payment this transaction is, of how many, and
/// when the commitment it belongs to ends.
public struct TransactionCommitmentInfo: Equatable, Sendable {
  public var source: JSONObject
  /// 1-based; Apple's library refuses values outside 1…12.
  public var billingPeriodNumber: Int?
  public var totalBillingPeriods: Int?
  public var commitmentExpiresDate: Instant?
  /// Milliunits: the total the customer agreed to pay across the commitment.
  public var commitmentPrice: Int64?

  public static let periodRange = 1...12

  public init() { source = JSONObject() }

  public init(billingPeriodNumber: Int, totalBillingPeriods: Int, commitmentExpiresDate: Instant, commitmentPrice: Int64?) {
    source = JSONObject()
    self.billingPeriodNumber = billingPeriodNumber
    self.totalBillingPeriods = totalBillingPeriods
    self.commitmentExpiresDate = commitmentExpiresDate
    self.commitmentPrice = commitmentPrice
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    billingPeriodNumber = try r.int("billingPeriodNumber")
    totalBillingPeriods = try r.int("totalBillingPeriods")
    commitmentExpiresDate = try r.instant("commitmentExpiresDate")
    commitmentPrice = try r.int64("commitmentPrice")
    // Apple's own decoder rejects these, so a payload carrying one cannot have come from Apple.
    if let n = billingPeriodNumber, !Self.periodRange.contains(n) {
      throw DecodeError(r.path.appending("billingPeriodNumber"), "billing period \(n) is outside 1…12")
    }
    if let t = totalBillingPeriods, t < 1 {
      throw DecodeError(r.path.appending("totalBillingPeriods"), "total billing periods \(t) is not positive")
    }
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("billingPeriodNumber", billingPeriodNumber)
    w.set("totalBillingPeriods", totalBillingPeriods)
    w.set("commitmentExpiresDate", commitmentExpiresDate)
    w.set("commitmentPrice", commitmentPrice)
    return w.json
  }
}

/// Renewal info's `commitmentInfo`: what happens when the current commitment ends (the plain
/// `autoRenewStatus` only speaks for the next monthly billing period, as Apple's life-cycle page says).
public struct RenewalCommitmentInfo: Equatable, Sendable {
  public var source: JSONObject
  public var commitmentAutoRenewProductId: String?
  /// Whether the subscription renews when the 12-month commitment ends.
  public var commitmentAutoRenewStatus: AutoRenewStatus?
  public var commitmentRenewalBillingPlanType: BillingPlanType?
  public var commitmentRenewalDate: Instant?
  /// Milliunits.
  public var commitmentRenewalPrice: Int64?

  public init() { source = JSONObject() }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    commitmentAutoRenewProductId = try r.string("commitmentAutoRenewProductId")
    commitmentAutoRenewStatus = try r.intEnum("commitmentAutoRenewStatus")
    commitmentRenewalBillingPlanType = try r.stringEnum("commitmentRenewalBillingPlanType")
    commitmentRenewalDate = try r.instant("commitmentRenewalDate")
    commitmentRenewalPrice = try r.int64("commitmentRenewalPrice")
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("commitmentAutoRenewProductId", commitmentAutoRenewProductId)
    w.set("commitmentAutoRenewStatus", commitmentAutoRenewStatus)
    w.set("commitmentRenewalBillingPlanType", commitmentRenewalBillingPlanType)
    w.set("commitmentRenewalDate", commitmentRenewalDate)
    w.set("commitmentRenewalPrice", commitmentRenewalPrice)
    return w.json
  }
}
