extension Subscriber {
  /// The inline history as one list in the order it happened, as a journal would hold it.
  ///
  /// Why: inline, transactions and notifications are two lists, and a reader that pairs each
  /// notification with the transaction as it was then (the App Store Server API's notification
  /// history, "at original send time") needs them interleaved. SubDash writes a young
  /// subscriber's history inline (`StateFile.inlineHistoryLimit`), a transaction and the
  /// notification announcing it with the same moment, and a refund's new version of a
  /// transaction with the moment of the refund.
  ///
  /// The two lists are merged, each in its own order: a transaction's moment is its `signedDate`
  /// (the version's), else its `purchaseDate`; a notification's is its `signedDate`; a transaction
  /// goes before a notification of the same moment (the notification announces it) and an
  /// undated entry goes where its list has it.
  public func inlineEntriesInOrder() throws(DecodeError) -> [Journal.Entry] {
    let ts = try transactions.typed()
    var out: [Journal.Entry] = []
    out.reserveCapacity(ts.count + notifications.count)
    var i = 0, j = 0
    while i < ts.count || j < notifications.count {
      guard j < notifications.count else { out.append(.transaction(ts[i])); i += 1; continue }
      guard i < ts.count else { out.append(.notification(notifications[j])); j += 1; continue }
      let tMoment = ts[i].signedDate ?? ts[i].purchaseDate
      if let t = tMoment, let n = notifications[j].signedDate, n < t {
        out.append(.notification(notifications[j]))
        j += 1
      } else {
        out.append(.transaction(ts[i]))
        i += 1
      }
    }
    return out
  }
}
