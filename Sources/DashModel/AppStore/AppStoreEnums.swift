import CoreValues
/// App Store enums keep their raw wire value so an unknown value (a field Apple adds next year)
/// still loads, round-trips and is shown as "unknown (7)" instead of being rejected.
public protocol AppStoreEnum: RawRepresentable, Hashable, Sendable, CustomStringConvertible where RawValue: Hashable & Sendable {
  /// Names of the values this version knows, in Apple's words.
  static var knownNames: [RawValue: String] { get }
}

extension AppStoreEnum {
  public var isKnown: Bool { Self.knownNames[rawValue] != nil }
  public var description: String { Self.knownNames[rawValue] ?? "unknown (\(rawValue))" }
}

/// Status from "Get All Subscription Statuses" (1…5) and Notifications V2 `data.status`.
public struct SubscriptionStatus: AppStoreEnum {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let active = Self(rawValue: 1)
  public static let expired = Self(rawValue: 2)
  public static let billingRetry = Self(rawValue: 3)
  public static let billingGracePeriod = Self(rawValue: 4)
  public static let revoked = Self(rawValue: 5)
  public static let knownNames: [Int: String] = [
    1: "active", 2: "expired", 3: "billing retry", 4: "billing grace period", 5: "revoked",
  ]
}

public struct OfferType: AppStoreEnum {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let introductory = Self(rawValue: 1)
  public static let promotional = Self(rawValue: 2)
  public static let offerCode = Self(rawValue: 3)
  public static let winBack = Self(rawValue: 4)
  public static let knownNames: [Int: String] = [
    1: "introductory offer", 2: "promotional offer", 3: "offer code", 4: "win-back offer",
  ]
}

public struct ExpirationIntent: AppStoreEnum {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let customerCancelled = Self(rawValue: 1)
  public static let billingError = Self(rawValue: 2)
  public static let didNotConsentToPriceIncrease = Self(rawValue: 3)
  public static let productNotAvailable = Self(rawValue: 4)
  public static let other = Self(rawValue: 5)
  public static let knownNames: [Int: String] = [
    1: "customer cancelled (auto-renew turned off)", 2: "billing error",
    3: "did not consent to a price increase", 4: "product not available at renewal", 5: "other reason",
  ]
}

public struct AutoRenewStatus: AppStoreEnum {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let off = Self(rawValue: 0)
  public static let on = Self(rawValue: 1)
  public static let knownNames: [Int: String] = [0: "off", 1: "on"]
}

public struct PriceIncreaseStatus: AppStoreEnum {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let customerHasNotResponded = Self(rawValue: 0)
  public static let customerConsented = Self(rawValue: 1)
  public static let knownNames: [Int: String] = [
    0: "awaiting customer consent", 1: "consented (or no consent needed)",
  ]
}

public struct RevocationReason: AppStoreEnum {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let other = Self(rawValue: 0)
  public static let issueInApp = Self(rawValue: 1)
  public static let knownNames: [Int: String] = [
    0: "refunded for another reason", 1: "refunded due to an issue in the app",
  ]
}

public struct AppStoreEnvironment: AppStoreEnum {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let production = Self(rawValue: "Production")
  public static let sandbox = Self(rawValue: "Sandbox")
  public static let xcode = Self(rawValue: "Xcode")
  public static let localTesting = Self(rawValue: "LocalTesting")
  public static let knownNames: [String: String] = [
    "Production": "Production", "Sandbox": "Sandbox", "Xcode": "Xcode", "LocalTesting": "LocalTesting",
  ]
}

public struct OwnershipType: AppStoreEnum {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let purchased = Self(rawValue: "PURCHASED")
  public static let familyShared = Self(rawValue: "FAMILY_SHARED")
  public static let knownNames: [String: String] = ["PURCHASED": "purchased", "FAMILY_SHARED": "family shared"]
}

public struct TransactionReason: AppStoreEnum {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let purchase = Self(rawValue: "PURCHASE")
  public static let renewal = Self(rawValue: "RENEWAL")
  public static let knownNames: [String: String] = ["PURCHASE": "purchase", "RENEWAL": "renewal"]
}

public struct OfferDiscountType: AppStoreEnum {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let freeTrial = Self(rawValue: "FREE_TRIAL")
  public static let payAsYouGo = Self(rawValue: "PAY_AS_YOU_GO")
  public static let payUpFront = Self(rawValue: "PAY_UP_FRONT")
  public static let oneTime = Self(rawValue: "ONE_TIME")
  public static let knownNames: [String: String] = [
    "FREE_TRIAL": "free trial", "PAY_AS_YOU_GO": "pay as you go", "PAY_UP_FRONT": "pay up front", "ONE_TIME": "one time",
  ]
}

public struct RevocationType: AppStoreEnum {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let refundFull = Self(rawValue: "REFUND_FULL")
  public static let refundProrated = Self(rawValue: "REFUND_PRORATED")
  public static let familyRevoke = Self(rawValue: "FAMILY_REVOKE")
  public static let knownNames: [String: String] = [
    "REFUND_FULL": "full refund", "REFUND_PRORATED": "prorated refund", "FAMILY_REVOKE": "Family Sharing revoked",
  ]
}

extension ObjectReader {
  func intEnum<E: AppStoreEnum>(_ key: String, _: E.Type = E.self) throws(DecodeError) -> E? where E.RawValue == Int {
    try int(key).map { E(rawValue: $0)! }
  }
  func stringEnum<E: AppStoreEnum>(_ key: String, _: E.Type = E.self) throws(DecodeError) -> E? where E.RawValue == String {
    try string(key).map { E(rawValue: $0)! }
  }
}

extension ObjectWriter {
  mutating func set<E: AppStoreEnum>(_ key: String, _ v: E?) where E.RawValue == Int { set(key, v?.rawValue) }
  mutating func set<E: AppStoreEnum>(_ key: String, _ v: E?) where E.RawValue == String { set(key, v?.rawValue) }
}

/// `consumptionRequestReason` of a CONSUMPTION_REQUEST notification (Apple's
/// appstoreservernotifications/consumptionrequestreason): why the customer asked for a refund.
public struct ConsumptionRequestReason: AppStoreEnum {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let unintendedPurchase = Self(rawValue: "UNINTENDED_PURCHASE")
  public static let fulfillmentIssue = Self(rawValue: "FULFILLMENT_ISSUE")
  public static let unsatisfiedWithPurchase = Self(rawValue: "UNSATISFIED_WITH_PURCHASE")
  public static let legal = Self(rawValue: "LEGAL")
  public static let other = Self(rawValue: "OTHER")
  public static let knownNames: [String: String] = [
    "UNINTENDED_PURCHASE": "unintended purchase", "FULFILLMENT_ISSUE": "fulfillment issue",
    "UNSATISFIED_WITH_PURCHASE": "unsatisfied with purchase", "LEGAL": "legal", "OTHER": "other",
  ]
}
