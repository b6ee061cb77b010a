import CoreValues
/// What every action needs to know about the state at `now`, computed once: the status by Apple's
/// precedence, the current transaction, product and group, and the history counters that number
/// new transactions and notifications deterministically.
struct ActionContext {
  let state: SubscriptionState
  let now: Instant
  let timing: any RenewalTiming
  let status: SubscriptionStatus?
  let history: HistorySummary

  init(state: SubscriptionState, now: Instant, timing: any RenewalTiming) {
    self.state = state
    self.now = now
    self.timing = timing
    status = Lifecycle.status(of: state.subscriber, at: now).status
    history = state.historySummary
  }

  var subscriber: Subscriber { state.subscriber }
  var catalog: Catalog { state.catalog }
  var latest: TransactionPayload? { subscriber.latestTransaction }

  /// The subscription being changed, with its catalog product; refuses what no plan action may touch.
  func requireSubscription() throws(ActionError) -> (transaction: TransactionPayload, product: SubscriptionProduct, group: SubscriptionGroup) {
    guard let t = latest else { throw .noSubscription }
    if status == .revoked { throw .revoked }
    // A family member sees the organizer's subscription but cannot manage it: App Store plan
    // changes, cancellation and codes for existing subscribers belong to the purchaser.
    if t.isFamilyShared { throw .familyShared }
    guard let id = t.productId else { throw .currentProductUnknown("(no productId)") }
    guard let p = catalog.product(id), let g = catalog.group(of: id) else { throw .currentProductUnknown(id) }
    return (t, p, g)
  }

  /// The renewal info to change: the file's, or one derived from the latest transaction when the
  /// file has none (a pasted transaction alone). A derived one has auto-renew unknown (nil = off).
  var renewalInfo: RenewalInfoPayload {
    if let r = subscriber.renewalInfo { return r }
    var r = RenewalInfoPayload()
    r.originalTransactionId = latest?.originalTransactionId
    r.productId = latest?.productId
    r.autoRenewProductId = latest?.productId
    r.renewalDate = latest?.expiresDate
    r.environment = latest?.environment
    r.currency = latest?.currency
    return r
  }

  /// The product that will renew, when it differs from the current one (a pending downgrade or
  /// crossgrade).
  var pendingProductId: String? {
    guard let r = subscriber.renewalInfo, let next = r.autoRenewProductId, next != latest?.productId else { return nil }
    return next
  }

  /// When a change "at the next renewal" takes effect.
  var nextRenewalDate: Instant { subscriber.renewalInfo?.renewalDate ?? latest?.expiresDate ?? now }

  /// The simulation seed that makes notification UUIDs reproducible; 0 when none is set.
  var seed: UInt64 {
    guard case .number(let text)? = state.document.simulation?["seed"] else { return 0 }
    if let v = UInt64(text) { return v }
    if let v = Int64(text) { return UInt64(bitPattern: v) }
    return 0
  }

  /// Notification `index` of this change (0 for the first), numbered after the whole history's.
  func notification(_ index: Int = 0, type: NotificationType, subtype: NotificationSubtype?, status: SubscriptionStatus?, productId: String?, summary: String) -> NotificationRecord {
    PayloadFactory.notification(
      type, subtype, sequence: history.notificationCount + index, seed: seed, subscriber: subscriber,
      at: now, status: status, productId: productId, summary: summary)
  }

  /// When the period `t` pays for began: its purchaseDate, except after a billing recovery in
  /// grace, where the charge came late but the period kept its renewal date, so part of it was
  /// already used when it was paid. The simulator's period anchor says where that period began.
  func paidPeriodStart(of t: TransactionPayload) -> Instant? {
    guard let purchase = t.purchaseDate, let end = t.expiresDate,
          let anchor = (try? SimulationSettings(of: state))?.periodAnchor, anchor.count >= 1,
          let period = try? ISOPeriod(parsing: anchor.period),
          timing.periodEnd(from: anchor.date, period: period, count: anchor.count) == end
    else { return t.purchaseDate }
    return min(purchase, timing.periodEnd(from: anchor.date, period: period, count: anchor.count - 1))
  }

  /// Where the paid part of `t`'s period ends: its expiresDate, or, when renewal-date extensions
  /// were granted within the period, the expiry before the first of them. The days an extension
  /// adds are free, so an upgrade's prorated refund pays back only unused paid time (inferred:
  /// Apple refunds "the unused portion" and charged nothing for the extension).
  func paidPeriodEnd(of t: TransactionPayload) -> Instant? {
    guard let end = t.expiresDate else { return nil }
    let start = paidPeriodStart(of: t) ?? t.purchaseDate ?? end
    let extensions = (try? SimulationSettings(of: state))?.renewalExtensions ?? []
    let inThisPeriod = extensions.filter { $0.previousExpiresDate > start && $0.previousExpiresDate < $0.effectiveDate && $0.effectiveDate <= end }
    return inThisPeriod.map(\.previousExpiresDate).min() ?? end
  }

  /// The sequence number for the transaction at `index` in this change's appended history.
  func transactionSequence(_ index: Int) -> Int { history.transactionCount + index }

  /// Parses a catalog period; the catalog reader checked its syntax, but a component too large to
  /// step (P99999Y) is refused here rather than trapping.
  func period(_ text: String, of what: String) throws(ActionError) -> ISOPeriod {
    do {
      return try ISOPeriod(parsing: text)
    } catch {
      throw .other("\(what) has period \"\(text)\" that SubDash cannot step: \(error.reason)")
    }
  }

  /// The end of `count` periods starting now, at the simulation's time rate. Refused past the
  /// year 3000, the limit the loader accepts, so an action never writes a file SubDash cannot read.
  func end(of period: ISOPeriod, count: Int = 1) throws(ActionError) -> Instant {
    guard count <= AppliedOffer.maxPeriods else { throw .other("An offer of \(counted(count, "period")) is longer than SubDash simulates (\(AppliedOffer.maxPeriods)).") }
    let end = timing.periodEnd(from: now, period: period, count: count)
    guard end.ms <= Self.latestDate else { throw .other("A period of \(period) from \(Format.date(now)) would end after the year 3000.") }
    return end
  }

  /// 3000-01-01T00:00:00Z, the last date a state file may hold.
  static let latestDate = 32_503_680_000_000.0
}

/// What an action computes once: the change to save and the preview to confirm it with.
struct Outcome {
  var change: Change
  var preview: ActionPreview
}
