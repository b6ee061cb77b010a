/// Why the simulator refused a step, one case per rule, so callers (the dashboard, `simulate`,
/// scenario checks) can tell them apart without reading messages. Nothing was written.
public enum SimRefusal: Equatable, Sendable {
  case refundOfFamilyAccess
  case revokeOfPurchase
  case forceRenewDuringBillingIssue
  case notAnIncrease(new: String, old: String)
  case noPriceIncreasePending
  case priceIncreaseAlreadyPending(new: String)
  case priceIncreaseAlreadyAccepted(new: String)
  case noAskToBuyPending
  case askToBuyLapsed(product: String, lapsedOn: String)
  case alreadySubscribed(product: String)
  case nothingCharged(product: String)
  case buyDuringBillingRetry
  case notFamilyShareable(product: String)
  case noBillingIssue
  case billingRetryEnded
  case recoverWithAutoRenewOff
  case pastLastFileDate(String)
  case nothingScheduled
  case tooManyOverdue(clock: String, firstDue: String)
  case noRenewalScheduled
  case nothingArmed
  case expireInGrace(graceEnds: String?)
  case refundAlreadyRequested(on: String)
  case noRefundRequested
  case noRefundToReverse

  public var message: String {
    switch self {
    case .refundOfFamilyAccess: return "This is Family Sharing access; only the purchaser can be refunded (use revoke)."
    case .revokeOfPurchase: return "This subscription was purchased, not shared through Family Sharing; use refund."
    case .forceRenewDuringBillingIssue:
      return "The subscription is in grace or billing retry; force renewal does not change that state (resolve the billing issue)."
    case .notAnIncrease(let new, let old): return "\(new) is not an increase over \(old)."
    case .noPriceIncreasePending: return "No price increase is waiting for consent."
    case .priceIncreaseAlreadyPending(let new):
      return "A price increase to \(new) is already waiting for the customer's consent (P consents, N declines)."
    case .priceIncreaseAlreadyAccepted(let new):
      return "The customer already consented to \(new); it applies at the next renewal, so there is no increase to ask for now."
    case .noAskToBuyPending: return "No Ask to Buy request is waiting."
    case .askToBuyLapsed(let product, let lapsedOn):
      return "The Ask to Buy request for \(product) lapsed on \(lapsedOn) (requests wait 24 hours); buy again to send a new one."
    case .alreadySubscribed(let product):
      return "Already subscribed to \(product); change plans with upgrade, downgrade or crossgrade."
    case .nothingCharged(let product):
      return "The current period of \(product) is a free trial: nothing was charged, so there is nothing to refund (expire it instead)."
    case .buyDuringBillingRetry: return "The subscription is in billing retry; resolve the billing issue instead of buying again."
    case .notFamilyShareable(let product): return "\(product) is not family shareable."
    case .noBillingIssue: return "There is no billing issue to resolve (the subscription is not in grace or billing retry)."
    case .billingRetryEnded: return "Billing retry already ended; the subscription expired."
    case .recoverWithAutoRenewOff:
      return "auto-renew is off: the customer cancelled, so the App Store no longer retries billing (turn auto-renew on first)."
    case .pastLastFileDate(let date): return "\(date) is past 3000-01-01 00:00 UTC, the last date a state file can hold"
    case .nothingScheduled: return "Nothing is scheduled: the subscription will not renew, expire or change on its own."
    case .noRenewalScheduled:
      return "No renewal is scheduled (auto-renew is off, the subscription has lapsed, or a billing issue is open), so there is no renewal to fail."
    case .nothingArmed: return "No failure is armed: coming renewals already succeed (f makes the next one fail)."
    case .expireInGrace(let ends):
      return "The subscription is in the billing grace period: the customer keeps access\(ends.map { " until \($0)" } ?? ""); expire now applies to an active subscription (> ends the grace period, or resolve the billing issue)."
    case .refundAlreadyRequested(let on): return "A refund was already requested on \(on); approve (F) or decline (D) it first."
    case .noRefundRequested: return "No refund request is waiting for the App Store's decision."
    case .noRefundToReverse: return "The latest transaction was not refunded, so there is no refund to reverse."
    case .tooManyOverdue(let clock, let first):
      return "More than 1,000 events are overdue: simulation.now (\(clock)) is far past the period that ended \(first); set simulation.now back near \(first) (or remove it) and advance from there, or step through them one event at a time (the > key, simulate --steps)"
    }
  }
}
