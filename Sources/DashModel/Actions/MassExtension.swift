import CoreValues
/// Extend Subscription Renewal Dates for All Active Subscribers, over a simulated group of state
/// files (`subdash extend DIR|FILE… --all`). Apple's request covers the active subscribers of a
/// product: each success gets RENEWAL_EXTENDED, each failure RENEWAL_EXTENSION / FAILURE (its
/// `data` names the subscription, to retry with a single extension), and one RENEWAL_EXTENSION /
/// SUMMARY with the counts ends the request (AD: appstoreserverapi/extending-the-renewal-date-
/// for-auto-renewable-subscriptions). Inferred: a subscriber that is not active (expired,
/// revoked, never subscribed) is not part of the request at all, so it is neither counted nor
/// written; an active one refused by Apple's rules (two extensions already, a free trial, a
/// family member's access) is a failure.
public enum MassExtension {
  public enum Outcome: Sendable {
    /// Extended: the change to save (the RENEWAL_EXTENDED notification is in it).
    case extended(Change)
    /// Refused by an eligibility rule: the change to save records RENEWAL_EXTENSION / FAILURE.
    case failed(Change, ActionError)
    /// Not an active subscriber: outside the request; nothing to save.
    case notIncluded(String)
  }

  public static func apply(days: Int, reason: ExtendReasonCode, to state: SubscriptionState, at now: Instant,
                           timing: any RenewalTiming = TimeRate.realTime) -> Outcome {
    let ctx = ActionContext(state: state, now: now, timing: timing)
    if state.subscriber.environment == .production { return .notIncluded(ActionError.productionData("Extending a renewal date").message) }
    // A linked family member is extended with its purchaser (Apple: automatically), not as one of
    // the request's subscribers: neither a success nor a FAILURE of its own.
    if ctx.latest?.isFamilyShared == true, FamilyExtension.purchaser(of: state) != nil {
      return .notIncluded("a family member: it follows its purchaser's extension")
    }
    guard ctx.status == .active || ctx.status == .billingGracePeriod else {
      return .notIncluded("not an active subscriber (\(ctx.status.map { "\($0)" } ?? "never subscribed"))")
    }
    switch Actions.apply(.extendRenewalDate(days: days, reason: reason), to: state, at: now, timing: timing) {
    case .success(let change): return .extended(change)
    case .failure(let error):
      let note = ctx.notification(type: .renewalExtension, subtype: .failure, status: ctx.status, productId: ctx.latest?.productId,
                                  summary: "mass extension failed for this subscription: \(error.message)")
      return .failed(Change(state: state, notifications: [note], message: "Not extended: \(error.message)"), error)
    }
  }

  /// The one RENEWAL_EXTENSION / SUMMARY that ends the request. It carries `summary`, not `data`,
  /// so it belongs to no subscriber's file; `subdash extend --all` prints it.
  public static func summary(succeeded: Int, failed: Int, days: Int, at now: Instant) -> NotificationRecord {
    let uuid = Identifiers.notificationUUID(seed: 0, subscriber: "mass-extension", sequence: succeeded &* 100_003 &+ failed, at: now)
    return NotificationRecord(
      type: .renewalExtension, subtype: .summary, uuid: uuid, signedDate: now, status: nil, productId: nil,
      summary: "mass extension by \(counted(days, "day")): \(succeeded) succeeded, \(failed) failed")
  }
}
