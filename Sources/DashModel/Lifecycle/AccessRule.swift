extension LifecycleFacts {
  /// Entitlement by Apple's rule: subscribed and in-grace are entitled; billing retry outside
  /// grace, expired and revoked are not. Billing retry may be `limited` when the team's policy
  /// says so (`policy.billingRetryAccess`), because some apps keep a reduced experience then.
  var access: AccessVerdict {
    let policy = state.document.policy.billingRetryAccess
    var verdict: AccessVerdict
    switch status {
    case nil:
      verdict = AccessVerdict(.no, rule: "never subscribed")
    case .active?:
      verdict = AccessVerdict(.yes, rule: "subscribed")
    case .billingGracePeriod?:
      let until = renewal?.gracePeriodExpiresDate.map { " until \(date($0))" } ?? ""
      verdict = AccessVerdict(.yes, rule: "in billing grace period\(until)")
    case .billingRetry?:
      switch policy {
      case .none:
        verdict = AccessVerdict(.no, rule: "in billing retry, not in grace (policy billingRetryAccess: none)")
      case .limited:
        verdict = AccessVerdict(.limited, rule: "in billing retry, not in grace: limited access (policy billingRetryAccess: limited)")
      }
    case .revoked?:
      let when = transaction?.revocationDate.map { " \(date($0))" } ?? ""
      let what = transaction?.revocationType == .familyRevoke ? "Family Sharing revoked" : "refunded/revoked"
      verdict = AccessVerdict(.no, rule: "\(what)\(when)")
    default:
      // After a billing failure expiresDate is the renewal that was never paid, not the day
      // access ended (grace may have followed): say which it is.
      if renewal?.expirationIntent == .billingError, let due = transaction?.expiresDate {
        verdict = AccessVerdict(.no, rule: "expired: the renewal due \(date(due)) was never paid")
      } else {
        let when = transaction?.expiresDate.map { " \(date($0))" } ?? ""
        verdict = AccessVerdict(.no, rule: "expired\(when)")
      }
    }
    if transaction?.isFamilyShared == true {
      verdict.rule += "; shared through Family Sharing"
    }
    return verdict
  }
}
