import CoreValues
extension Subscriber {
  /// An inline notification's count of the inline transactions written before it: SubDash writes it
  /// on each notification it keeps inline, so the two lists read back in the order they were
  /// written, whatever their dates.
  public static let transactionsBeforeKey = "transactionsBefore"

  /// The inline history as one list in the order it happened, as a journal would hold it.
  ///
  /// Why: inline, transactions and notifications are two lists, and a reader that pairs each
  /// notification with the transaction as it was then (the App Store Server API's notification
  /// history, "at original send time") needs them interleaved. A renewal, its DID_RENEW, the
  /// renewal's refunded version and the REFUND can all carry the same moment, so dates alone cannot
  /// order them: SubDash's own inline notifications say where they go (`transactionsBefore`).
  ///
  /// A notification without that (a file written by hand or by another tool) goes by date: after
  /// each transaction whose moment (its version's `signedDate`, else its `purchaseDate`) is not
  /// later than the notification's `signedDate`. Each list keeps its own order; a count that is
  /// not a whole number within the list is not used.
  public func inlineEntriesInOrder() throws(DecodeError) -> [Journal.Entry] {
    let ts = try transactions.typed()
    var out: [Journal.Entry] = []
    out.reserveCapacity(ts.count + notifications.count)
    var i = 0
    for n in notifications {
      if let before = Self.transactionsBefore(n, count: ts.count) {
        while i < before { out.append(.transaction(ts[i])); i += 1 }
      } else if let signed = n.signedDate {
        while i < ts.count, let moment = ts[i].signedDate ?? ts[i].purchaseDate, moment <= signed {
          out.append(.transaction(ts[i]))
          i += 1
        }
      }
      out.append(.notification(n))
    }
    while i < ts.count { out.append(.transaction(ts[i])); i += 1 }
    return out
  }

  private static func transactionsBefore(_ n: NotificationRecord, count: Int) -> Int? {
    guard case .number(let text)? = n.source[transactionsBeforeKey], let k = Int(text), k >= 0, k <= count else { return nil }
    return k
  }
}
