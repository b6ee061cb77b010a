import CoreValues
/// Refunding one chosen transaction, as Xcode's transaction manager does ("Refund Purchases" on a
/// selected transaction). The latest transaction is the current period's: refunding it is the `F`
/// refund (access ends, auto-renew goes off). An earlier transaction is revoked alone: Apple
/// revokes "the transaction" a refund is for (revocationDate, revocationReason,
/// revocationPercentage on that JWSTransaction, REFUND carrying it), and nothing else changes:
/// the subscription goes on from the latest transaction. Leaving auto-renew and access as they
/// are for an earlier period's refund is SubDash's reading (docs/simulation.md).
extension SimContext {
  mutating func refund(transaction chosen: TransactionPayload, prorated: Bool, at date: Instant) throws(ActionError) {
    guard let id = chosen.transactionId else { throw ActionError.other("the chosen transaction has no transactionId") }
    if id == latest?.transactionId {
      try refund(at: date, prorated: prorated)
      return
    }
    try refundEarlier(chosen, id: id, prorated: prorated, at: date)
  }

  private mutating func refundEarlier(_ t: TransactionPayload, id: String, prorated: Bool, at date: Instant) throws(ActionError) {
    if let revoked = t.revocationDate {
      throw ActionError.other("Transaction \(id) was already \(t.revocationType == .familyRevoke ? "revoked" : "refunded") on \(self.date(revoked)).")
    }
    guard !t.isFamilyShared else { throw ActionError.simulator(.refundOfFamilyAccess) }
    guard (t.price ?? 0) > 0 || t.offerDiscountType != .freeTrial else {
      throw ActionError.simulator(.nothingCharged(product: name(t.productId)))
    }
    let share = prorated ? Self.proratedPercentage(of: t, at: date) : 100_000
    if prorated && share == 0 {
      let ended = t.expiresDate.map { " ended on \(self.date($0))" } ?? " has ended"
      throw ActionError.other("A prorated refund returns the unused time, and transaction \(id)'s period\(ended): refund it in full instead.")
    }
    var r = t
    r.revocationDate = date
    // Apple's revocationReason 0, "refunded for another reason": support's refund names no app issue.
    r.revocationReason = .other
    r.revocationType = prorated ? .refundProrated : .refundFull
    r.revocationPercentage = share
    r.signedDate = date
    restate(r)
    // A refund request pending for this transaction is answered by this refund.
    if settings.refundRequest?.transactionId == id { settings.refundRequest = nil }
    let amount = prorated ? Self.refundedAmount(of: t, share: share) : t.price
    let how = prorated ? "prorated refund of \(money(amount)) (\(Format.milliPercent(share)) of \(money(t.price)))" : "refunded \(money(t.price))"
    let period = [t.purchaseDate, t.expiresDate].compactMap { $0 }.map { self.date($0) }.joined(separator: " – ")
    let summary = "\(how) for \(name(t.productId)), transaction \(id)\(period.isEmpty ? "" : " (\(period))"); only that transaction is revoked, the subscription goes on"
    notify(.refund, at: date, summary: summary, extra: [("transactionId", .string(id))], productId: t.productId)
    headline = summary
  }

  /// What the customer gets back for `share` (milliunits of a percent) of `t`'s price, in the
  /// currency's minor units (2.436 USD is refunded as 2.44).
  static func refundedAmount(of t: TransactionPayload, share: Int) -> Int64? {
    let unit = Int64(Proration.minorUnitMilli(t.currency))
    return t.price.map { (price: Int64) -> Int64 in
      // Full width: a price read from a file may be near Int64.max (share ≤ 100,000 keeps the
      // quotient within the price), and rounding up past Int64.max keeps the price.
      let exact: Int64 = Int64(100_000).dividingFullWidth(price.multipliedFullWidth(by: Int64(share))).quotient
      let (half, overflow) = exact.addingReportingOverflow(unit / 2)
      return overflow ? price : min(price, half / unit * unit)
    }
  }
}
