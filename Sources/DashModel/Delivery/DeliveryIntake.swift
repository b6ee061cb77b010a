import CoreValues
/// Turns what the journal gained since a follower last looked into notifications to send, each
/// with the transaction it concerns: the newest one written at or before it. Writers append a
/// change's transactions before its notifications, so a DID_RENEW finds its renewal and a
/// DID_CHANGE_RENEWAL_STATUS (no new transaction) the one before.
public struct DeliveryIntake: Sendable {
  /// The newest transaction seen so far (the file's latest when following starts).
  public private(set) var lastTransaction: TransactionPayload?

  public init(lastTransaction: TransactionPayload?) {
    self.lastTransaction = lastTransaction
  }

  /// Notifications without a `notificationUUID` cannot be deduplicated by a receiver and are not
  /// sent (SubDash writes one on every notification; a hand-made history may not).
  /// Versions of earlier transactions written after a later one (an earlier transaction refunded
  /// from the transactions view), by id: the notification that names one (`transactionId`, as its
  /// REFUND does) carries it, and the others keep the latest.
  private var restated: [String: TransactionPayload] = [:]

  public mutating func take(_ entries: [Journal.Entry]) -> [(notification: NotificationRecord, transaction: TransactionPayload?)] {
    var out: [(notification: NotificationRecord, transaction: TransactionPayload?)] = []
    for entry in entries {
      switch entry {
      case .transaction(let t):
        if let id = t.transactionId, let last = lastTransaction, id != last.transactionId,
           let p = t.purchaseDate, let lastPurchase = last.purchaseDate, p < lastPurchase {
          restated[id] = t
        } else {
          lastTransaction = t
        }
      case .notification(let n):
        guard n.notificationUUID != nil else { continue }
        let named = n.source["transactionId"]?.stringValue.flatMap { restated[$0] }
        out.append((n, named ?? lastTransaction))
      }
    }
    return out
  }
}

extension RetrySchedule {
  /// `nextAttempt` for a subscriber's file: the delay is scaled by the file's time rate for its
  /// current product's period (a month when the catalog does not say), as grace periods are.
  public func nextAttempt(afterAttempts attemptsSoFar: Int, lastAt last: Instant, for state: SubscriptionState) -> Instant? {
    let period = state.currentProduct.flatMap { try? ISOPeriod(parsing: $0.period) } ?? .oneMonth
    return nextAttempt(afterAttempts: attemptsSoFar, lastAt: last, timing: Simulator.timing(state), period: period)
  }
}
