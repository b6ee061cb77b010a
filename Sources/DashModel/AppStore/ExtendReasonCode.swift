/// Why a developer extended a renewal date: `extendReasonCode` of Apple's ExtendRenewalDateRequest
/// (AD: appstoreserverapi/extendreasoncode). Only 0…3 exist; the API refuses others with
/// InvalidExtendReasonCodeError (4000010), so this is a closed enum, unlike the payload enums.
public enum ExtendReasonCode: Int, Equatable, Sendable, CaseIterable, CustomStringConvertible {
  case undeclared = 0
  case customerSatisfaction = 1
  case other = 2
  case serviceIssueOrOutage = 3

  public var description: String {
    switch self {
    case .undeclared: return "undeclared"
    case .customerSatisfaction: return "customer satisfaction"
    case .other: return "other"
    case .serviceIssueOrOutage: return "service issue or outage"
    }
  }
}
