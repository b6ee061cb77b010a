import CoreValues
import DashModel
extension StateFile {
  /// A subscriber's whole history in the order it was written: its inline entries (a young
  /// subscriber's whole history, `inlineHistoryLimit`; `Subscriber.inlineEntriesInOrder`), then the
  /// committed part of its journal. For a reader that needs every entry (the local App Store Server
  /// API's history endpoints, checks); one that needs only totals reads `historySummary`.
  public static func historyEntries(_ state: SubscriptionState, statePath: String) throws(StateFileError) -> [Journal.Entry] {
    var entries: [Journal.Entry]
    do { entries = try state.subscriber.inlineEntriesInOrder() } catch {
      throw StateFileError(file: PathName.fileName(of: statePath), path: error.path, message: error.message)
    }
    if let j = state.document.journal {
      entries += try Journal.readAll(path: PathName.directory(of: statePath) + "/" + j.file, committedBytes: j.committedBytes)
    }
    return entries
  }
}
