import CoreValues
/// Refund a chosen transaction (the transactions view's `F` and `%`), as Xcode's transaction
/// manager refunds the transaction selected in it: previewed, then applied by the simulator's
/// refund rules through the normal write path. The latest transaction is the current period's:
/// its refund ends access, as `F` on the dashboard does. An earlier one is revoked alone
/// (`SimContext.refund(transaction:)`). Refused on Production data, like every simulator step.
enum RefundTransaction {
  static func outcome(transactionId id: String, prorated: Bool, _ s: SubscriptionState, at now: Instant,
                      history: TransactionLookup) throws(ActionError) -> Outcome {
    guard let t = history.find(id) else {
      throw .other("Transaction \(id) is not in this subscriber's history.")
    }
    let change = try Simulator.refund(transaction: t, prorated: prorated, state: s, at: now).get()
    let isLatest = id == s.subscriber.latestTransaction?.transactionId
    let name = s.catalog.product(t.productId)?.displayName ?? t.productId ?? "the subscription"
    let refunded = change.transactions.last { $0.transactionId == id }
    let amount = refunded.flatMap { r in
      prorated ? SimContext.refundedAmount(of: r, share: r.revocationPercentage ?? 0) : r.price
    }
    let money = amount.map { Money.format($0, currency: t.currency) } ?? "an unknown amount"
    let share = refunded?.revocationPercentage.map { Format.milliPercent($0) } ?? "100%"
    let period = [t.purchaseDate, t.expiresDate].compactMap { $0 }.map { Format.date($0, now: now) }.joined(separator: " – ")
    var summary = "Refund transaction \(id) (\(name)\(period.isEmpty ? "" : ", \(period)")): "
    summary += prorated ? "prorated, \(money) (\(share) of the price, the unused time)" : "in full, \(money)"
    summary += isLatest
      ? ". It is the current period's: access ends now; REFUND is sent."
      : ". Only this transaction is revoked (revocationDate, revocationReason 0, revocationPercentage \(refunded?.revocationPercentage ?? 100_000)); the subscription goes on; REFUND is sent with it."
    return Outcome(change: change, preview: ActionPreview(summary: summary, effectiveDate: now, refundMilli: amount))
  }
}

extension PlanAction {
  /// A refund of a chosen transaction (its dialog belongs to the transactions view).
  public var isRefund: Bool {
    if case .refundTransaction = self { return true }
    return false
  }
}
