import CoreValues
/// Apple's status precedence, as one pure function: revoked, active, grace, billing retry, expired.
public enum Lifecycle {
  /// The App Store status of `subscriber` at `now`, with the rule that decided it.
  /// Boundaries: a subscription is active while `now < expiresDate` (at expiresDate it renews or
  /// lapses), and in grace while `now < gracePeriodExpiresDate`.
  public static func status(of subscriber: Subscriber, at now: Instant) -> (status: SubscriptionStatus?, rule: String) {
    guard let t = subscriber.latestTransaction else { return (nil, "no transaction: never subscribed") }
    if let revoked = t.revocationDate, revoked <= now {
      return (.revoked, "revocationDate is set: refunded or revoked")
    }
    if let expires = t.expiresDate, now < expires {
      return (.active, "now is before expiresDate")
    }
    let info = subscriber.renewalInfo
    // A future grace date wins even when isInBillingRetryPeriod is false (seen in the wild after
    // trials, forums thread 749813); the report flags the contradiction as a warning.
    if let grace = info?.gracePeriodExpiresDate, now < grace {
      return (.billingGracePeriod, "expiresDate passed; now is before gracePeriodExpiresDate")
    }
    if info?.isInBillingRetryPeriod == true {
      return (.billingRetry, "expiresDate passed and isInBillingRetryPeriod is true")
    }
    if t.expiresDate == nil { return (.expired, "no expiresDate") }
    return (.expired, "expiresDate passed and no renewal is pending")
  }
}

extension SubscriptionStatus {
  /// The status after "the subscription is": "active", "in the billing grace period",
  /// "in billing retry", "expired", "revoked". `description` is a label ("billing grace period")
  /// that does not read as a sentence after "is".
  public var afterIs: String {
    switch self {
    case .billingGracePeriod: "in the billing grace period"
    case .billingRetry: "in billing retry"
    default: description
    }
  }
}
