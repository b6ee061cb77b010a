import CoreValues
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

  /// The command line's words: "InvalidExtendByDaysError (4000009): 91 days: an extension is 1 to 90 days."
  public var message: String { "\(errorName) (\(errorCode)): \(why)." }

  /// The `errorMessage` of an API answer: Apple's sentence for the code, then why. The body
  /// already carries the code, and every 4000009 reads the same whether the value was of the
  /// wrong type (`extendByDays: true`) or out of range, so a client matching on text sees one form.
  public var apiMessage: String { "\(Self.sentence(forCode: errorCode)) \(why.prefix(1).uppercased() + why.dropFirst())." }

  /// Apple's errorMessage for the extension errors (a request body of the wrong shape uses these too).
  public static func sentence(forCode code: Int) -> String {
    switch code {
    case 4_000_009: return "Invalid extend by days value."
    case 4_000_010: return "Invalid extend reason code."
    case 4_030_004: return "Subscription extension ineligible."
    case 4_030_005: return "Subscription max extension."
    case 4_030_007: return "Family shared subscription extension ineligible."
    default: return "Invalid request."
    }
  }

  var why: String {
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
    return why
  }
}
