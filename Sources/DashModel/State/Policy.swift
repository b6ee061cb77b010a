import CoreValues
/// Choices a team makes about access that Apple leaves to the app.
public struct AccessPolicy: Equatable, Sendable {
  public enum RetryAccess: String, Sendable, CaseIterable {
    /// Apple's default reading: billing retry outside grace is not entitled.
    case none
    /// Some apps keep a reduced experience during retry to win the customer back.
    case limited
  }
  public var billingRetryAccess: RetryAccess = .none
  public init(billingRetryAccess: RetryAccess = .none) { self.billingRetryAccess = billingRetryAccess }

  init(_ r: ObjectReader) throws(DecodeError) {
    if let s = try r.string("billingRetryAccess") {
      guard let v = RetryAccess(rawValue: s) else { throw DecodeError(r.path.appending("billingRetryAccess"), "expected \"none\" or \"limited\"") }
      billingRetryAccess = v
    }
  }
}
