/// Why the App Store would refuse to extend a renewal date, one case per error Apple's Extend a
/// Subscription Renewal Date endpoint returns (AD: appstoreserverapi/extend-a-subscription-renewal-date
/// and the error pages it links). `errorName` and `errorCode` are Apple's, so support staff can
/// match what SubDash says with what the API would answer.
public enum ExtensionRefusal: Equatable, Sendable {
  /// 4000009: extendByDays outside 1…90.
  case invalidExtendByDays(Int)
  /// 4000010: extendReasonCode outside 0…3.
  case invalidExtendReasonCode(Int)
  /// 4030004, with what made the subscription ineligible (Apple's eligibility list).
  case ineligible(String)
  /// 4030005: two extensions within 365 days already; the next one is possible from `nextAllowed`.
  case maxExtensions(nextAllowed: Instant)
  /// 4030007: a family member's access; extend the purchaser's subscription instead.
  case familyShared

  public var errorName: String {
    switch self {
    case .invalidExtendByDays: return "InvalidExtendByDaysError"
    case .invalidExtendReasonCode: return "InvalidExtendReasonCodeError"
    case .ineligible: return "SubscriptionExtensionIneligibleError"
    case .maxExtensions: return "SubscriptionMaxExtensionError"
    case .familyShared: return "FamilySharedSubscriptionExtensionIneligibleError"
    }
  }

  public var errorCode: Int {
    switch self {
    case .invalidExtendByDays: return 4000009
    case .invalidExtendReasonCode: return 4000010
    case .ineligible: return 4030004
    case .maxExtensions: return 4030005
    case .familyShared: return 4030007
    }
  }

  public var message: String {
    let why: String
    switch self {
    case .invalidExtendByDays(let n): why = "\(n) days: an extension is 1 to 90 days"
    case .invalidExtendReasonCode(let n):
      why = "reason \(n): expected 0 (undeclared), 1 (customer satisfaction), 2 (other) or 3 (service issue or outage)"
    case .ineligible(let reason): why = reason
    case .maxExtensions(let next):
      why = "already extended twice within 365 days; the next extension is possible from \(Format.date(next))"
    case .familyShared: why = "this is Family Sharing access; extend the purchaser's subscription (family members follow)"
    }
    return "\(errorName) (\(errorCode)): \(why)."
  }
}
