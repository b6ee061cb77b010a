import CoreValues
/// Failed renewals: grace, billing retry, recovery and the final expiry, in the order Apple
/// describes (WWDC22 "What's new with in-app purchase"; reference §1.5 and §2.3):
/// DID_FAIL_TO_RENEW (/ GRACE_PERIOD), GRACE_PERIOD_EXPIRED, then DID_RENEW / BILLING_RECOVERY
/// or EXPIRED / BILLING_RETRY.
extension SimContext {
  /// The renewal at `date` could not be charged. With grace the customer keeps access until the
  /// grace date; either way the App Store retries for the rate's retry length (60 days real time).
  mutating func beginBillingIssue(at date: Instant, outcome: RenewalOutcome) {
    let current = latest!
    let productId = renewalInfo.autoRenewProductId ?? current.productId
    let period = self.period(of: productId)
    let endingFree = current.offerDiscountType == .freeTrial
    // A commitment's monthly payment has no grace and 90 days of retry (Apple's life-cycle page).
    let commitment = commitmentBlocksGrace(renewalPhase(after: current, into: productId ?? ""))
    let grace = commitment ? nil : rules.graceLength(for: period, endingFreeOffer: endingFree).map { date + $0 }
    let retryEnd = date + (commitment ? rules.scaled(Self.commitmentRetry, period: .oneMonth) : rules.retryLength)
    var issue = BillingIssue(since: date, gracePeriodExpiresDate: grace, retryExpiresDate: retryEnd, recoverAt: nil)
    issue.recoverAt = scheduledRecovery(outcome, issue: issue, period: period)
    settings.billingIssue = issue
    var info = renewalInfo
    info.isInBillingRetryPeriod = true
    // Apple's expirationIntent page: 2 (billing error) while the App Store retries billing, not
    // only once retry gives up. A recovery clears it (the renewal writes no intent).
    info.expirationIntent = .billingError
    info.gracePeriodExpiresDate = grace
    info.signedDate = date
    renewalInfo = info
    if let grace {
      notify(.didFailToRenew, .gracePeriod, at: date, summary: "billing failed for \(name(productId)); grace period until \(self.date(grace))")
    } else {
      notify(.didFailToRenew, at: date, summary: "billing failed for \(name(productId)); billing retry until \(self.date(retryEnd)), no access")
    }
  }

  /// When a scripted outcome recovers on its own. Halfway points are whole milliseconds.
  func scheduledRecovery(_ outcome: RenewalOutcome, issue: BillingIssue, period: ISOPeriod) -> Instant? {
    func half(_ from: Instant, _ to: Instant) -> Instant { from + Span(ms: ((to - from).ms / 2).rounded(.down)) }
    switch outcome {
    case .ok, .fail: return nil
    case .recoverInGrace:
      return half(issue.since, issue.gracePeriodExpiresDate ?? issue.retryExpiresDate)
    case .recoverInRetry:
      return half(issue.gracePeriodExpiresDate ?? issue.since, issue.retryExpiresDate)
    case .recoverAfter(let span):
      return issue.since + rules.scaled(span, period: period)
    }
  }

  /// Grace ended without a successful charge: access ends, retry goes on.
  mutating func endGrace(at date: Instant) {
    guard var issue = settings.billingIssue else { return }
    issue.graceExpired = true
    settings.billingIssue = issue
    // StoreKit's gracePeriodExpirationDate "is nil if the subscription is not in a billing grace
    // period", and the app reads the same signed renewal info: the date goes when grace does. The
    // simulation keeps it in `billingIssue` to know grace is over.
    renewalInfo.gracePeriodExpiresDate = nil
    renewalInfo.signedDate = date
    notify(.gracePeriodExpired, at: date, summary: "grace period ended; billing retry continues until \(self.date(issue.retryExpiresDate))")
  }

  /// Billing retry ran out: the subscription expires with expirationIntent 2.
  mutating func endBillingRetry(at date: Instant) {
    expire(at: date, intent: .billingError, subtype: .billingRetry, summary: "expired: billing retry ended without a successful charge")
  }

  /// The billing issue is resolved at `date` and the App Store charges the customer.
  ///
  /// The new period's dates depend on where recovery happens (Apple, "Testing failing
  /// subscription renewals"; reference §2.3, peer research S6):
  /// - in grace, service never stopped, so the billing anchor is kept: the new period starts at
  ///   the old expiresDate and ends one period after it, and only purchaseDate is the payment time;
  /// - in billing retry, service stopped, so a new period starts at the recovery time (the
  ///   renewal date moves to the recovery date).
  mutating func recover(at date: Instant) throws(ActionError) {
    guard let issue = settings.billingIssue else {
      throw ActionError.simulator(.noBillingIssue)
    }
    guard date < issue.retryExpiresDate, let current = latest else {
      throw ActionError.simulator(.billingRetryEnded)
    }
    // A cancelled subscription is not retried, so there is nothing to charge.
    guard renewalInfo.autoRenewOn else {
      throw ActionError.simulator(.recoverWithAutoRenewOff)
    }
    let inGrace = issue.inGrace(at: date)
    let start = inGrace ? (current.expiresDate ?? issue.since) : date
    let t = renew(purchaseDate: date, periodStart: start, keepAnchor: inGrace)
    settings.renewalCount = (current.transactionReason == .purchase ? 0 : settings.renewalCount) + 1
    let when = inGrace ? "in grace, renewal date kept" : "in billing retry, new period from today"
    notify(.didRenew, .billingRecovery, at: date, summary: "billing recovered (\(when)): " + renewalSummary(t))
  }
}
