import CoreValues
/// Extend a Subscription Renewal Date (App Store Server API, PUT /inApps/v1/subscriptions/extend):
/// the developer gives an active subscriber 1–90 free days, at most twice in 365 days; the
/// current transaction's `expiresDate` and the renewal date move, and RENEWAL_EXTENDED follows.
///
/// Apple's eligibility (AD: appstoreserverapi/extend-a-subscription-renewal-date): active,
/// auto-renewable, at least one paid period; not in a free offer period, not in billing retry,
/// not in grace with a past expiry, not expired, not past the two-in-365-days limit; a family
/// member's access is extended only through the purchaser's. Each refusal is `ExtensionRefusal`,
/// named as Apple's error. Inferred (docs/simulation.md): the 365 days are a rolling window
/// counted back from the request, and at an accelerated time rate both the days granted and
/// that window run at the subscription's rate, like every other subscription-time length.
public enum ExtendRenewal {
  public static let allowedDays = 1...90
  static let maxPerWindow = 2
  static let window = Span.days(365)

  static func outcome(days: Int, reason: ExtendReasonCode, _ ctx: ActionContext) throws(ActionError) -> Outcome {
    guard allowedDays.contains(days) else { throw .extensionRefused(.invalidExtendByDays(days)) }
    if ctx.subscriber.environment == .production { throw .productionData("Extending a renewal date") }
    guard let t = ctx.latest, let expires = t.expiresDate else { throw .noSubscription }
    if t.isFamilyShared { throw .extensionRefused(.familyShared) }
    try requireEligible(t, expires: expires, ctx)

    var settings: SimulationSettings
    do { settings = try SimulationSettings(of: ctx.state) } catch {
      throw .badSetting(path: "\(error.path)", message: error.message)
    }
    let period = (try? ISOPeriod(parsing: ctx.catalog.product(t.productId)?.period ?? "P1M")) ?? .oneMonth
    let window = ctx.timing.wallClock(for: Self.window, period: period)
    let recent = settings.renewalExtensions.filter { $0.date + window > ctx.now }.map(\.date).sorted()
    if recent.count >= maxPerWindow {
      throw .extensionRefused(.maxExtensions(nextAllowed: recent[recent.count - maxPerWindow] + window))
    }
    let effective = expires + ctx.timing.wallClock(for: .days(Double(days)), period: period)
    guard effective.ms <= ActionContext.latestDate else {
      throw .other("Extending by \(counted(days, "day")) would move the expiry past the year 3000.")
    }

    var extended = t
    extended.expiresDate = effective
    extended.signedDate = ctx.now
    var renewal = ctx.renewalInfo
    renewal.renewalDate = effective
    renewal.signedDate = ctx.now
    settings.renewalExtensions.append(RenewalExtensionRecord(
      date: ctx.now, days: days, reason: reason, previousExpiresDate: expires, effectiveDate: effective))
    // Renewals count from the new expiry: the old calendar anchor no longer ends this period.
    settings.periodAnchor = nil
    var state = ctx.state
    state.subscriber.latestTransaction = extended
    state.subscriber.renewalInfo = renewal
    state.setSimulation(settings)

    let name = ctx.catalog.product(t.productId)?.displayName ?? t.productId ?? "the subscription"
    let text = "\(name) extended by \(counted(days, "day")) (\(reason)): expires \(Format.date(effective, now: ctx.now)) instead of \(Format.date(expires, now: ctx.now))"
    let note = ctx.notification(type: .renewalExtended, subtype: nil, status: .active, productId: t.productId, summary: text)
    let change = Change(state: state, transactions: [extended], notifications: [note], message: text.prefix(1).uppercased() + text.dropFirst() + ".")
    let ask = "Extend \(name) by \(counted(days, "day")) (\(reason)): expires \(Format.date(effective, now: ctx.now)) instead of \(Format.date(expires, now: ctx.now))"
    let preview = ActionPreview(summary: "\(ask); RENEWAL_EXTENDED is sent and the extension cannot be undone.", effectiveDate: ctx.now)
    return Outcome(change: change, preview: preview)
  }

  /// Apple's list of ineligible states, checked in the order the page gives them.
  private static func requireEligible(_ t: TransactionPayload, expires: Instant, _ ctx: ActionContext) throws(ActionError) {
    switch ctx.status {
    case .revoked?: throw .extensionRefused(.ineligible("the subscription was refunded or revoked"))
    case .expired?, nil: throw .extensionRefused(.ineligible("the subscription expired on \(Format.date(expires, now: ctx.now)); only active subscriptions can be extended"))
    case .billingRetry?: throw .extensionRefused(.ineligible("the subscription is in billing retry"))
    case .billingGracePeriod? where expires <= ctx.now:
      throw .extensionRefused(.ineligible("the subscription is in the billing grace period and its expiry date \(Format.date(expires, now: ctx.now)) has passed"))
    default: break
    }
    if t.offerDiscountType == .freeTrial {
      throw .extensionRefused(.ineligible("the current period is a free offer period; Apple extends only subscriptions with a paid period"))
    }
  }
}

extension ExtendReasonCode {
  /// A reason code typed by a user or a scenario, refused as Apple refuses it.
  public static func parse(_ code: Int) throws(ActionError) -> ExtendReasonCode {
    guard let r = ExtendReasonCode(rawValue: code) else { throw .extensionRefused(.invalidExtendReasonCode(code)) }
    return r
  }
}
