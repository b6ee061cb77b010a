import CoreValues
/// Contradictions in a state file, one line each. A contradictory file still loads and still gets
/// a status (by Apple's precedence); these lines tell support staff which fields to distrust.
enum LifecycleWarnings {
  static func collect(_ f: LifecycleFacts, winBack: WinBackReport) -> [String] {
    var out: [String] = []
    formatVersion(f, &out)
    transactionFields(f, &out)
    renewalFields(f, &out)
    catalogReferences(f, &out)
    renewalState(f, &out)
    winBackIds(f, winBack: winBack, &out)
    unknownEnums(f, &out)
    secondsForMilliseconds(f, &out)
    return out
  }

  static func date(_ i: Instant) -> String { LifecycleCalendar.date(i) }

  /// A file written by a newer SubDash may mean things this one does not know; it still loads
  /// (unknown fields are kept), but the reader should know.
  static func formatVersion(_ f: LifecycleFacts, _ out: inout [String]) {
    guard let format = f.state.document.format, format != DashModelInfo.stateFormat else { return }
    out.append("format \"\(format)\" is not \(DashModelInfo.stateFormat), the one this SubDash reads: fields it does not know are kept but not shown")
  }

  static func transactionFields(_ f: LifecycleFacts, _ out: inout [String]) {
    guard let t = f.transaction else { return }
    if let p = t.purchaseDate, let e = t.expiresDate, e < p {
      out.append("expiresDate \(date(e)) is before purchaseDate \(date(p))")
    }
    if t.expiresDate == nil { out.append("latestTransaction has no expiresDate") }
    if let p = t.purchaseDate, let r = t.revocationDate, r < p {
      out.append("revocationDate \(date(r)) is before purchaseDate \(date(p))")
    }
    if let r = t.revocationDate, r > f.now {
      out.append("revocationDate \(date(r)) is in the future (not counted as revoked yet)")
    }
    if t.isUpgraded == true {
      out.append("latestTransaction.isUpgraded is true: the customer upgraded away from it, so the newer transaction is missing")
    }
    if f.renewal == nil { out.append("renewalInfo is missing: auto-renew is treated as off") }
  }

  static func renewalFields(_ f: LifecycleFacts, _ out: inout [String]) {
    guard let t = f.transaction, let r = f.renewal else { return }
    if let a = r.productId, let b = t.productId, a != b {
      out.append("renewalInfo.productId \"\(a)\" differs from latestTransaction.productId \"\(b)\"")
    }
    if let a = r.originalTransactionId, let b = t.originalTransactionId, a != b {
      out.append("renewalInfo.originalTransactionId \"\(a)\" differs from latestTransaction.originalTransactionId \"\(b)\"")
    }
    if let a = t.environment, let b = r.environment, a != b {
      out.append("environment differs: latestTransaction says \(a.rawValue), renewalInfo says \(b.rawValue)")
    }
  }

  static func catalogReferences(_ f: LifecycleFacts, _ out: inout [String]) {
    let catalog = f.state.catalog
    let current = f.transaction?.productId
    if let p = current, catalog.product(p) == nil {
      out.append("productId \"\(p)\" is not in the catalog")
    }
    if let t = f.transaction, let p = current, let g = catalog.group(of: p), let sg = t.subscriptionGroupIdentifier, sg != g.id {
      out.append("subscriptionGroupIdentifier \"\(sg)\" differs from the catalog's group \"\(g.id)\" for \"\(p)\"")
    }
    guard let target = f.renewal?.autoRenewProductId else { return }
    guard let to = catalog.product(target) else {
      out.append("autoRenewProductId \"\(target)\" is not in the catalog")
      return
    }
    guard let p = current, p != target, let from = catalog.product(p) else { return }
    if from.groupID != to.groupID {
      out.append("autoRenewProductId \"\(target)\" is in group \(to.groupID), not in \(from.groupID) with \"\(p)\"")
    } else if to.level < from.level, f.autoRenewOn {
      out.append("autoRenewProductId \"\(target)\" is a higher level than \"\(p)\": an upgrade takes effect at once, not at renewal")
    }
  }

  static func renewalState(_ f: LifecycleFacts, _ out: inout [String]) {
    guard let r = f.renewal else { return }
    if f.status == .billingGracePeriod, r.isInBillingRetryPeriod != true, let g = r.gracePeriodExpiresDate {
      out.append("gracePeriodExpiresDate \(date(g)) is set but isInBillingRetryPeriod is not true (treated as billing grace period)")
    }
    if f.status == .billingRetry, let retry = f.billingRetry, f.now >= retry.retryUntil {
      out.append("isInBillingRetryPeriod is true but Apple's 60-day billing retry ended \(date(retry.retryUntil))")
    }
  }

  static func winBackIds(_ f: LifecycleFacts, winBack: WinBackReport, _ out: inout [String]) {
    guard let ids = f.renewal?.eligibleWinBackOfferIds else { return }
    if f.status == .active || f.status == .billingGracePeriod || f.status == .billingRetry {
      if !ids.isEmpty {
        out.append("eligibleWinBackOfferIds lists \(ids.joined(separator: ", ")) while the subscription is \(f.status!.afterIs) (win-back is only for expired subscriptions)")
      }
      return
    }
    // With incomplete history SubDash shows Apple's list itself: there is nothing to compare.
    guard winBack.source == .rules else { return }
    let ours = winBack.eligible.map(\.offerId)
    if Set(ids) != Set(ours) {
      let shown = ours.isEmpty ? "none" : ours.joined(separator: ", ")
      out.append("eligibleWinBackOfferIds [\(ids.joined(separator: ", "))] differs from SubDash's rules [\(shown)]; SubDash shows its own")
    }
  }

  /// The App Store opened on 2008-07-10; an earlier date is almost always seconds written where
  /// milliseconds belong (1779561134 is 1970-01-21, not 2026).
  static let appStoreOpened = Instant(ms: 1_215_648_000_000)

  static func secondsForMilliseconds(_ f: LifecycleFacts, _ out: inout [String]) {
    let dates: [(String, Instant?)] = [
      ("latestTransaction.purchaseDate", f.transaction?.purchaseDate), ("latestTransaction.expiresDate", f.transaction?.expiresDate),
      ("latestTransaction.revocationDate", f.transaction?.revocationDate),
      ("renewalInfo.gracePeriodExpiresDate", f.renewal?.gracePeriodExpiresDate), ("renewalInfo.renewalDate", f.renewal?.renewalDate),
    ]
    for case let (name, date?) in dates where date < appStoreOpened {
      out.append("\(name) \(Self.date(date)) is before the App Store opened: seconds instead of milliseconds?")
    }
  }

  /// Values a newer App Store may send; they load and round-trip, and are named here.
  static func unknownEnums(_ f: LifecycleFacts, _ out: inout [String]) {
    func check<E: AppStoreEnum>(_ owner: String, _ field: String, _ v: E?) {
      guard let v, !v.isKnown else { return }
      let raw = v.rawValue is String ? "\"\(v.rawValue)\"" : "\(v.rawValue)"
      out.append("\(owner).\(field) \(raw) is unknown")
    }
    if let t = f.transaction {
      let o = "latestTransaction"
      check(o, "inAppOwnershipType", t.inAppOwnershipType)
      check(o, "offerType", t.offerType)
      check(o, "offerDiscountType", t.offerDiscountType)
      check(o, "revocationReason", t.revocationReason)
      check(o, "revocationType", t.revocationType)
      check(o, "environment", t.environment)
      check(o, "transactionReason", t.transactionReason)
    }
    if let r = f.renewal {
      let o = "renewalInfo"
      check(o, "autoRenewStatus", r.autoRenewStatus)
      check(o, "expirationIntent", r.expirationIntent)
      check(o, "priceIncreaseStatus", r.priceIncreaseStatus)
      check(o, "offerType", r.offerType)
      check(o, "offerDiscountType", r.offerDiscountType)
      check(o, "environment", r.environment)
    }
  }
}
