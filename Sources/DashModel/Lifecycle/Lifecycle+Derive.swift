import CoreValues
extension Lifecycle {
  /// Everything the dashboard shows about the subscriber at `now`, derived purely from the state.
  /// Never fails: a contradictory file still gets a report, with its contradictions listed in
  /// `warnings`.
  public static func derive(_ state: SubscriptionState, at now: Instant) -> LifecycleReport {
    let (status, baseRule) = status(of: state.subscriber, at: now)
    let facts = LifecycleFacts(state: state, now: now, status: status)
    var report = LifecycleReport(
      now: now, status: status, statusRule: facts.statusRule(fallback: baseRule),
      access: facts.access, renewal: facts.renewalOutlook,
      winBack: WinBackEligibility.evaluate(state, status: status, at: now))
    report.product = state.currentProduct
    report.group = state.currentGroup
    report.environment = state.subscriber.environment
    report.ownership = facts.transaction?.inAppOwnershipType
    report.grace = facts.grace
    report.billingRetry = facts.billingRetry
    report.expiry = facts.expiry
    report.revocation = facts.revocation
    report.pendingChange = facts.pendingChange
    report.priceIncrease = facts.priceIncrease
    report.offerInEffect = facts.offerInEffect
    report.offerQueued = facts.offerQueued
    report.askToBuy = state.subscriber.askToBuy.flatMap { $0.isPending(at: now) ? $0 : nil }
    report.askToBuyClosed = state.subscriber.askToBuy.flatMap { $0.isPending(at: now) ? nil : $0 }
    report.commitment = CommitmentStanding(transaction: facts.transaction, renewal: facts.renewal)
    report.warnings = LifecycleWarnings.collect(facts, winBack: report.winBack)
    return report
  }
}

/// The inputs every lifecycle rule looks at, gathered once.
struct LifecycleFacts {
  let state: SubscriptionState
  let now: Instant
  let status: SubscriptionStatus?

  var transaction: TransactionPayload? { state.subscriber.latestTransaction }
  var renewal: RenewalInfoPayload? { state.subscriber.renewalInfo }
  /// Active or in grace: the subscription still serves and may still renew.
  var isServing: Bool { status == .active || status == .billingGracePeriod }
  /// A missing or unknown autoRenewStatus counts as off: SubDash never promises a renewal the
  /// file does not state.
  var autoRenewOn: Bool { renewal?.autoRenewOn == true }
  var expiresDate: Instant? { transaction?.expiresDate ?? renewal?.renewalDate }

  /// Seconds shown within an hour of now (`Format.showsSeconds`).
  func date(_ i: Instant) -> String { Format.date(i, now: now) }

  /// Apple's status rule with the dates that decided it.
  func statusRule(fallback: String) -> String {
    let t = transaction, r = renewal
    switch status {
    case .active?:
      if let e = t?.expiresDate { return "expiresDate \(date(e)) is after now" }
    case .billingGracePeriod?:
      if let e = t?.expiresDate, let g = r?.gracePeriodExpiresDate {
        return "expiresDate \(date(e)) passed; gracePeriodExpiresDate \(date(g)) is after now"
      }
    case .billingRetry?:
      if let e = t?.expiresDate { return "expiresDate \(date(e)) passed and isInBillingRetryPeriod is true" }
    case .expired?:
      if let e = t?.expiresDate { return "expiresDate \(date(e)) passed and no renewal is pending" }
    case .revoked?:
      if let d = t?.revocationDate { return "revocationDate \(date(d)): refunded or revoked" }
    default:
      break
    }
    return fallback
  }
}
