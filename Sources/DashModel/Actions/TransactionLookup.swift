/// Finds a transaction of the subscriber's history by id, for actions on a chosen transaction
/// (refunding one from the transactions view). A state loaded for viewing holds only the latest
/// transaction; the history lives in the journal, which the caller knows how to read.
public struct TransactionLookup: Sendable {
  public var find: @Sendable (String) -> TransactionPayload?

  public init(_ find: @escaping @Sendable (String) -> TransactionPayload?) {
    self.find = find
  }

  /// What a state holds by itself: its latest transaction and its inline history.
  public static func inState(_ s: SubscriptionState) -> TransactionLookup {
    TransactionLookup { id in
      if let t = s.subscriber.latestTransaction, t.transactionId == id { return t }
      let inline = s.subscriber.transactions
      for k in inline.entries.indices.reversed() where inline.entries[k]["transactionId"]?.stringValue == id {
        return try? inline.transaction(at: k)
      }
      return nil
    }
  }
}
