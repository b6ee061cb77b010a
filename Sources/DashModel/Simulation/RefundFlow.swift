import CoreValues
/// The refund workflow as the App Store runs it (appstore-server-api.md §3.10 and the notification
/// types table): the customer asks (CONSUMPTION_REQUEST with its reason; the developer has 12
/// hours to send consumption information), Apple decides (REFUND or REFUND_DECLINED), and may
/// later reverse a granted refund after a dispute (REFUND_REVERSED: "reinstate content; the
/// subscription renewal date is unchanged").
extension SimContext {
  /// The transaction a refund would revoke, or why none can be refunded.
  func refundableTransaction() throws(ActionError) -> TransactionPayload {
    guard let t = latest else { throw ActionError.noSubscription }
    guard t.revocationDate == nil else { throw ActionError.revoked }
    guard !t.isFamilyShared else { throw ActionError.simulator(.refundOfFamilyAccess) }
    // Apple refunds charges; a free trial charged nothing, so there is no refund to approve.
    guard (t.price ?? 0) > 0 || t.offerDiscountType != .freeTrial else {
      throw ActionError.simulator(.nothingCharged(product: name(t.productId)))
    }
    return t
  }

  /// The customer requests a refund (reportaproblem.apple.com): auto-renew goes off ("after the
  /// user requested a refund") and CONSUMPTION_REQUEST asks the developer for consumption data.
  mutating func requestRefund(at date: Instant, reason: ConsumptionRequestReason) throws(ActionError) {
    let t = try refundableTransaction()
    if let pending = settings.refundRequest {
      throw ActionError.simulator(.refundAlreadyRequested(on: self.date(pending.requestedDate)))
    }
    turnAutoRenewOffForRevocation(at: date, why: "after a refund request")
    let request = RefundRequest(requestedDate: date, reason: reason, transactionId: t.transactionId)
    settings.refundRequest = request
    notify(.consumptionRequest, at: date,
           summary: "refund requested for \(name(t.productId)) (\(reason)); consumption information due by \(self.date(request.consumptionDeadline))",
           extra: [("consumptionRequestReason", .string(reason.rawValue))])
    headline = "Refund requested (\(reason)): send consumption information by \(self.date(request.consumptionDeadline)); then approve (F) or decline (D)"
  }

  /// The developer's server sent consumption information for the pending request (Send
  /// Consumption Information). Apple sends no notification for it; the request keeps it, late or
  /// not, so the dashboard can say which (Apple ignores what comes after the 12 hours).
  mutating func recordConsumption(_ info: ConsumptionInformation, transactionId: String) throws(ActionError) {
    guard var request = settings.refundRequest else { throw ActionError.simulator(.noRefundRequested) }
    if let asked = request.transactionId, asked != transactionId {
      throw ActionError.other("the pending refund request is for transaction \(asked), not \(transactionId)")
    }
    request.consumption = info
    settings.refundRequest = request
    let when = request.isInTime(info.receivedDate)
      ? "within the 12 hours"
      : "after the 12 hours ended \(self.date(request.consumptionDeadline)); Apple decides without it"
    headline = "Consumption information received \(when): \(info.summary)"
  }

  /// Apple declines the request: access and the (cancelled) subscription go on as they were.
  mutating func declineRefund(at date: Instant) throws(ActionError) {
    guard let request = settings.refundRequest else { throw ActionError.simulator(.noRefundRequested) }
    settings.refundRequest = nil
    notify(.refundDeclined, at: date,
           summary: "refund request of \(self.date(request.requestedDate)) declined for \(name(latest?.productId)); access continues")
  }

  /// A granted refund is reversed: the revocation fields go, access returns until the same
  /// expiresDate (the renewal date is unchanged). Auto-renew stays as the refund left it.
  mutating func reverseRefund(at date: Instant) throws(ActionError) {
    guard var t = latest, t.revocationDate != nil,
          t.revocationType == .refundFull || t.revocationType == .refundProrated else {
      throw ActionError.simulator(.noRefundToReverse)
    }
    t.revocationDate = nil
    t.revocationReason = nil
    t.revocationType = nil
    t.revocationPercentage = nil
    t.signedDate = date
    record(t)
    let until = t.expiresDate.map { $0 > date ? "access restored until \(self.date($0))" : "its period ended on \(self.date($0)), so it stays expired" } ?? "access restored"
    notify(.refundReversed, at: date, summary: "refund reversed for \(name(t.productId)); \(until)")
  }

  /// The unused share of the refunded period at `date`, in Apple's milliunits (50000 = 50%):
  /// remaining time ÷ period length, rounded down to a whole milliunit. Inferred from Apple's
  /// "percentage, in milliunits, of the transaction that the App Store has refunded" and the
  /// prorating rule of upgrades (refund of the unused portion).
  static func proratedPercentage(of t: TransactionPayload, at date: Instant) -> Int {
    guard let start = t.purchaseDate, let end = t.expiresDate, end > start else { return 100_000 }
    let left = max(0, min((end - date).ms, (end - start).ms))
    return Int((left * 100_000 / (end - start).ms).rounded(.down))
  }
}
