import CoreValues
/// What the dashboard's keys do inside a monthly subscription with a 12-month commitment (Apple,
/// "Managing the life cycle of monthly subscriptions with a 12-month commitment" and "Supporting
/// monthly subscriptions with a 12-month commitment"; docs/simulation.md marks what is inferred):
/// - auto-renew off cancels the commitment's renewal, not the remaining payments:
///   `commitmentAutoRenewStatus` 0, `autoRenewStatus` stays 1, DID_CHANGE_RENEWAL_STATUS /
///   AUTO_RENEW_DISABLED; monthly payments go on until the 12th, then EXPIRED;
/// - a downgrade "takes effect at the end of the current 12-month commitment"; a crossgrade waits
///   for it too (inferred: Apple defers to App Store Connect's rules, which were not found);
/// - an upgrade is immediate and "the commitment ends immediately" (`SwitchNow`).
enum CommitmentPlanChanges {
  /// Whether the latest transaction is a payment of a commitment (fields Apple's payloads carry
  /// are otherwise left as they are).
  static func inCommitment(_ ctx: ActionContext) -> Bool {
    ctx.latest?.billingPlanType == .monthly && ctx.latest?.commitmentInfo?.billingPeriodNumber != nil
  }

  /// The commitment payment in force before the last one: (number, total, commitment end).
  static func midCommitment(_ ctx: ActionContext) -> (number: Int, total: Int, ends: Instant?)? {
    guard let t = ctx.latest, t.billingPlanType == .monthly, let c = t.commitmentInfo, let n = c.billingPeriodNumber else { return nil }
    let total = c.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods
    guard n < total, ctx.status == .active else { return nil }
    return (n, total, c.commitmentExpiresDate)
  }

  /// Auto-renew off or on before the last payment; nil where the standard rule applies (the last
  /// payment, or a billing issue, where cancelling stops the retry).
  static func autoRenew(on: Bool, _ ctx: ActionContext) throws(ActionError) -> Outcome? {
    guard let m = midCommitment(ctx) else { return nil }
    let current = try ctx.requireSubscription()
    var r = ctx.renewalInfo
    var rc = r.commitmentInfo ?? RenewalCommitmentInfo()
    if (rc.commitmentAutoRenewStatus != .off) == on { throw .autoRenewAlready(on) }
    rc.commitmentAutoRenewStatus = on ? .on : .off
    if rc.commitmentAutoRenewProductId == nil { rc.commitmentAutoRenewProductId = current.product.productID }
    if rc.commitmentRenewalBillingPlanType == nil { rc.commitmentRenewalBillingPlanType = .monthly }
    if rc.commitmentRenewalDate == nil { rc.commitmentRenewalDate = m.ends }
    r.commitmentInfo = rc
    r.signedDate = ctx.now
    var state = ctx.state
    state.subscriber.renewalInfo = r

    let name = current.product.displayName
    let ends = m.ends.map { Format.date($0, now: ctx.now) } ?? "the end of the commitment"
    let left = m.total - m.number
    let text: String
    if on {
      let renewing = rc.commitmentAutoRenewProductId.flatMap { ctx.catalog.product($0)?.displayName } ?? name
      let price = rc.commitmentRenewalPrice.map { " for \(ActionText.money($0, r.currency ?? ctx.defaultCurrency))" } ?? ""
      text = "auto-renew on: the 12-month commitment renews into \(renewing)\(price) when it ends on \(ends)"
    } else {
      text = "auto-renew off: the 12-month commitment to \(name) ends on \(ends) and does not renew; "
        + "\(counted(left, "remaining monthly payment")) (\(m.number + 1)–\(m.total) of \(m.total)) are still charged and access continues until then"
    }
    let note = ctx.notification(type: .didChangeRenewalStatus, subtype: on ? .autoRenewEnabled : .autoRenewDisabled,
                                status: ctx.status, productId: current.product.productID, summary: "Turned \(text)")
    let change = Change(state: state, notifications: [note], message: "Turned \(text).")
    return Outcome(change: change, preview: ActionPreview(summary: "Turn \(text).", effectiveDate: ctx.now))
  }

  /// A downgrade or crossgrade before the last payment: chosen now (DID_CHANGE_RENEWAL_PREF /
  /// DOWNGRADE), in force when the commitment ends. The renewal commitment info carries it; the
  /// monthly payments stay on the current product. The target keeps monthly billing when it has
  /// a monthly plan, else it is billed up front (inferred).
  static func deferred(to target: SubscriptionProduct, verb: String, type: NotificationType, _ ctx: ActionContext) throws(ActionError) -> Outcome? {
    guard let m = midCommitment(ctx) else { return nil }
    let current = try ctx.requireSubscription()
    var r = ctx.renewalInfo
    var rc = r.commitmentInfo ?? RenewalCommitmentInfo()
    if rc.commitmentAutoRenewProductId == target.productID, rc.commitmentAutoRenewStatus != .off {
      // Not `.changeAlreadyPending`, whose words are "at the next renewal": this change waits for
      // the commitment's end, months of payments later. Named as the rest of the screen names it.
      let ends = m.ends.map { Format.date($0, now: ctx.now) } ?? "the end of the commitment"
      throw .other("\(target.displayName) is already chosen for when the 12-month commitment ends on \(ends).")
    }
    let monthly = target.monthlyPlan
    rc.commitmentAutoRenewProductId = target.productID
    rc.commitmentRenewalBillingPlanType = monthly == nil ? .billedUpfront : .monthly
    rc.commitmentRenewalPrice = monthly?.commitmentPriceMilli ?? target.priceMilli
    rc.commitmentRenewalDate = m.ends
    let turnedOn = rc.commitmentAutoRenewStatus == .off
    rc.commitmentAutoRenewStatus = .on
    r.commitmentInfo = rc
    r.signedDate = ctx.now
    var state = ctx.state
    state.subscriber.renewalInfo = r

    let currency = r.currency ?? ctx.defaultCurrency
    let ends = m.ends.map { Format.date($0, now: ctx.now) } ?? "the end of the commitment"
    let billed = monthly.map { "monthly with a new 12-month commitment (\(ActionText.money($0.monthlyPriceMilli, currency)) a month)" }
      ?? "billed up front at \(ActionText.money(target.priceMilli, currency))"
    let stays = "payments \(m.number + 1)–\(m.total) of the commitment stay on \(current.product.displayName)"
    let on = turnedOn ? "; the commitment's auto-renew turns back on" : ""
    var notes: [NotificationRecord] = []
    if turnedOn {
      notes.append(ctx.notification(type: .didChangeRenewalStatus, subtype: .autoRenewEnabled, status: ctx.status, productId: current.product.productID,
                                    summary: "Auto-renew of the commitment turned back on by choosing \(target.displayName)"))
    }
    notes.append(ctx.notification(notes.count, type: type, subtype: .downgrade, status: ctx.status, productId: target.productID,
                                  summary: "\(verb) to \(target.displayName) scheduled for when the 12-month commitment ends on \(ends), \(billed); \(stays)\(on)"))
    let change = Change(state: state, notifications: notes,
                        message: "\(target.displayName) starts when the commitment ends on \(ends), \(billed); \(stays)\(on).")
    let preview = ActionPreview(summary: "\(verb) to \(target.displayName) when the 12-month commitment ends on \(ends), \(billed); \(stays)\(on).",
                                effectiveDate: m.ends ?? ctx.now)
    return Outcome(change: change, preview: preview)
  }

  /// Choosing the current product again while a change waits for the commitment's end: the
  /// commitment renews as it is (DID_CHANGE_RENEWAL_PREF without subtype, as for a pending
  /// downgrade of any subscription). nil when nothing waits.
  static func keep(_ ctx: ActionContext) throws(ActionError) -> Outcome? {
    guard let m = midCommitment(ctx), var rc = ctx.renewalInfo.commitmentInfo,
          let pending = rc.commitmentAutoRenewProductId, let current = ctx.latest?.productId, pending != current,
          // Only a plan of this group the customer chose; a product the catalog lacks is no choice to undo.
          ctx.catalog.group(of: pending)?.id == ctx.catalog.group(of: current)?.id, ctx.catalog.product(pending) != nil else { return nil }
    let product = try ctx.requireSubscription().product
    rc.commitmentAutoRenewProductId = current
    rc.commitmentRenewalBillingPlanType = .monthly
    rc.commitmentRenewalPrice = product.monthlyPlan?.commitmentPriceMilli ?? ctx.latest?.commitmentInfo?.commitmentPrice
    var r = ctx.renewalInfo
    r.commitmentInfo = rc
    r.signedDate = ctx.now
    var state = ctx.state
    state.subscriber.renewalInfo = r
    let name = ctx.catalog.product(pending)?.displayName ?? pending
    let ends = m.ends.map { Format.date($0, now: ctx.now) } ?? "the end of the commitment"
    let note = ctx.notification(type: .didChangeRenewalPref, subtype: nil, status: ctx.status, productId: current,
                                summary: "Kept \(product.displayName): cancelled the switch to \(name) when the commitment ends on \(ends)")
    let change = Change(state: state, notifications: [note],
                        message: "Kept \(product.displayName); the switch to \(name) at the commitment's end is cancelled.")
    let preview = ActionPreview(summary: "Keep \(product.displayName): cancel the switch to \(name) when the 12-month commitment ends on \(ends); it renews as a new commitment.",
                                effectiveDate: ctx.now)
    return Outcome(change: change, preview: preview)
  }

  /// What an upgrade does to the commitment, for its texts: "the 12-month commitment ends now
  /// (payments 5–12 are not charged)", or nil outside a commitment.
  static func upgradeNote(_ ctx: ActionContext) -> String? {
    guard let t = ctx.latest, t.billingPlanType == .monthly, let n = t.commitmentInfo?.billingPeriodNumber else { return nil }
    let total = t.commitmentInfo?.totalBillingPeriods ?? MonthlyBillingPlan.billingPeriods
    guard n < total else { return "the 12-month commitment ends now (it was on its last payment)" }
    return "the 12-month commitment ends now (payments \(n + 1)–\(total) are not charged)"
  }
}
