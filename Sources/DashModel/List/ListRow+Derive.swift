import CoreValues
extension ListRow {
  /// The row for `state` at `now`, read from the same `LifecycleReport` the dashboard renders,
  /// so the list and the dashboard can never disagree about a subscriber.
  public static func derive(file: String, state: SubscriptionState, at now: Instant) -> ListRow {
    let report = Lifecycle.derive(state, at: now)
    let sub = state.subscriber
    var row = ListRow(file: file, status: ListStatus(report))
    row.originalTransactionId = sub.originalTransactionId
    row.appAccountToken = sub.latestTransaction?.appAccountToken ?? sub.renewalInfo?.appAccountToken
    row.productId = report.product?.productID ?? sub.latestTransaction?.productId
    row.productName = report.product?.displayName
    row.due = due(report)
    row.changesAt = [row.due?.date, report.billingRetry?.retryUntil, report.askToBuy?.lapseDate, sub.latestTransaction?.expiresDate]
      .compactMap { $0 }.filter { $0 > now }.min()
    row.flags = flags(report, autoRenewOn: sub.renewalInfo?.autoRenewStatus == .on)
    if let provenance = state.importProvenance {
      switch provenance.signature {
      case .appleSigned: row.flags.append(.appleSigned)
      case .trustedRoot: row.flags.append(.locallySigned)
      case .unverified, .unsigned, .revenueCat: row.flags.append(.notAppleSigned)
      }
    }
    if let last = sub.notifications.last { row.setLastEvent(last) }
    let t = sub.latestTransaction
    row.otherIds = [t?.transactionId, t?.webOrderLineItemId].compactMap { $0 }
    return row
  }

  /// The newest notification's type/subtype and date.
  package mutating func setLastEvent(_ n: NotificationRecord) {
    lastEvent = n.notificationType.rawValue + (n.subtype.map { "/" + $0.rawValue } ?? "")
    lastEventDate = n.signedDate
  }

  private static func due(_ r: LifecycleReport) -> Due? {
    switch r.status {
    // In grace the renewal date has passed; what is due is the end of grace.
    case .billingGracePeriod?: return r.grace.map { Due(.ends, $0.expiresDate) }
    // In billing retry what is due is Apple's last attempt: after it the subscription expires.
    case .billingRetry?: return r.billingRetry.map { Due(.retryEnds, $0.retryUntil) }
    case .active?: break
    default: return nil  // expired, revoked, never subscribed: nothing will happen by itself
    }
    switch r.renewal {
    case .renews(let date, _, _, _): return Due(.renews, date)
    case .expiresAutoRenewOff(let date): return Due(.expires, date)
    case .switches(let date, _): return Due(.switches, date)
    case .awaitsPriceConsent(let date, _): return Due(.expires, date)
    case .none: return nil
    }
  }

  private static func flags(_ r: LifecycleReport, autoRenewOn: Bool) -> [ListFlag] {
    var out: [ListFlag] = []
    if r.status == .billingGracePeriod { out.append(.grace) }
    if r.billingRetry != nil, r.status == .billingRetry || r.status == .billingGracePeriod { out.append(.retry) }
    if r.revocation != nil { out.append(.refunded) }
    if let pi = r.priceIncrease, pi.status == .customerHasNotResponded { out.append(.priceIncrease) }
    if r.pendingChange != nil { out.append(.pendingChange) }
    if !autoRenewOn, r.status == .active { out.append(.autoRenewOff) }
    if !r.warnings.isEmpty { out.append(.checkFile) }
    return out
  }
}

extension ListStatus {
  init(_ r: LifecycleReport) {
    switch r.status {
    case .active?: self = .active
    case .billingGracePeriod?: self = .grace
    case .billingRetry?: self = .retry
    case .expired?: self = .expired
    case .revoked?: self = .revoked
    default: self = .none
    }
  }
}
