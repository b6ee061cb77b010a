import CoreValues
import DashModel
extension StateFile {
  /// The newest version of transaction `id` the file at `statePath` holds: its latest
  /// transaction, else the last one with that id in its journal or inline history; nil when none
  /// has it. Journal lines are matched on their bytes first, so only candidates are decoded (a
  /// 100,000-entry journal is read, not typed).
  public static func findTransaction(_ id: String, statePath: String) throws(StateFileError) -> TransactionPayload? {
    let state = try load(path: statePath)
    if let latest = state.subscriber.latestTransaction, latest.transactionId == id { return latest }
    if let journal = state.document.journal, journal.committedBytes > 0 {
      let path = PathName.directory(of: statePath) + "/" + journal.file
      let name = PathName.fileName(of: path)
      switch Posix.readAll(path: path, limit: Int.max, followSymlinks: false, owner: .oursWhereOthersWrite) {
      case .failure(let why): throw StateFileError(file: name, message: "cannot read the history journal: \(why)")
      case .success(let bytes):
        guard Int64(bytes.count) >= journal.committedBytes else {
          throw StateFileError(file: name, message: "the history journal is shorter than the state file says")
        }
        let needle = Array(#""transactionid":"\#(id.lowercased())""#.utf8)
        for line in bytes[0..<Int(journal.committedBytes)].split(separator: 0x0A).reversed() {
          let candidate = Array(line)
          guard JournalIndex.containsFolded(candidate, needle) else { continue }
          if case .transaction(let t) = try Journal.decode(candidate, file: name), t.transactionId == id { return t }
        }
      }
    }
    let inline = state.subscriber.transactions
    for k in inline.entries.indices.reversed() {
      guard inline.entries[k]["transactionId"]?.stringValue == id else { continue }
      do { return try inline.transaction(at: k) } catch {
        throw StateFileError(file: PathName.fileName(of: statePath), path: error.path, message: error.message)
      }
    }
    return nil
  }
}
