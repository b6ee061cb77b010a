import CoreValues
/// Finish Transaction (App Store Server API 1.20): the developer's server tells the App Store it
/// has delivered a transaction's content. Apple keeps no visible trace of it in any payload; the
/// local App Store records each call in the state file (`finishedTransactions`: transactionId and
/// the date, at the file's clock) so the dashboard and `show` can say the backend finished it.
/// A second call for the same transaction keeps the first date, as finishing is done once.
public enum FinishedTransactions {
  public static let key = "finishedTransactions"

  public struct Entry: Equatable, Sendable {
    public var transactionId: String
    public var finishedDate: Instant
    public init(transactionId: String, finishedDate: Instant) {
      self.transactionId = transactionId
      self.finishedDate = finishedDate
    }
  }

  /// The recorded calls, oldest first; entries that do not read (a hand-edited file) are skipped.
  public static func read(_ document: StateDocument) -> [Entry] {
    (document.source[key]?.arrayValue ?? []).compactMap { item in
      guard let o = item.objectValue, let id = o["transactionId"]?.stringValue, !id.isEmpty,
            case .number(let text)? = o["finishedDate"], let ms = Double(text), ms.isFinite else { return nil }
      return Entry(transactionId: id, finishedDate: Instant(ms: ms))
    }
  }

  public static func isFinished(_ transactionId: String, in document: StateDocument) -> Bool {
    read(document).contains { $0.transactionId == transactionId }
  }

  /// Records `transactionId` as finished at `now` (already finished: unchanged, and the message says when).
  public static func apply(transactionId: String, to state: SubscriptionState, at now: Instant) -> Change {
    let entries = read(state.document)
    if let earlier = entries.first(where: { $0.transactionId == transactionId }) {
      return Change(state: state, message: "Transaction \(transactionId) was already finished at \(earlier.finishedDate) (Finish Transaction)")
    }
    var next = state
    var list = state.document.source[key]?.arrayValue ?? []
    list.append(.object(JSONObject([("transactionId", .string(transactionId)), ("finishedDate", .double(now.ms))])))
    next.document.source[key] = .array(list)
    return Change(state: next, message: "Transaction \(transactionId) finished by the developer's server (Finish Transaction)")
  }
}
