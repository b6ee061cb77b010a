import DashModel
extension SubscriberSnapshot {
  /// A subscriber whose journal is held in memory (a database row's bytes) rather than in a file:
  /// its history is decoded only when asked for, and `held` searches the bytes, exactly as a
  /// directory store's snapshot reads its journal file only then (`Journal.readAll`, `Journal.held`).
  ///
  /// Why: a caller that only looks at the state (the family-sharing pass reads every subscriber)
  /// should not pay for decoding each one's whole history.
  ///
  /// `journal`: the journal's file name and bytes as held. The state says which journal is its
  /// history (`journal.file`) and how much of it (`journal.committedBytes`), as it does for a file:
  /// bytes past that are not history; fewer bytes, or a journal of another name or none, is an
  /// error like a shortened or missing journal file's, raised when the history is asked for.
  public init(name: String, state: SubscriptionState, journal: (name: String, bytes: [UInt8])?) {
    let committed: Result<(file: String, bytes: ArraySlice<UInt8>), StateFileError>?
    if let named = state.document.journal, named.committedBytes > 0 {
      if let journal, journal.name == named.file {
        do throws(StateFileError) {
          committed = .success((named.file, try Journal.committed(journal.bytes, committedBytes: named.committedBytes, file: named.file)))
        } catch {
          committed = .failure(error)
        }
      } else {
        committed = .failure(StateFileError(file: named.file, message: "cannot read the history journal: it is not stored with this subscriber"))
      }
    } else {
      committed = nil
    }
    self.init(name: name, state: state, history: { () throws(StateFileError) -> [Journal.Entry] in
      guard let committed else { return [] }
      let (file, bytes) = try committed.get()
      return try Journal.decodeAll(bytes, file: file)
    }, held: { (keys) throws(StateFileError) -> HistoryKeys in
      guard let committed, !keys.isEmpty else { return HistoryKeys() }
      let (file, bytes) = try committed.get()
      return try Journal.held(keys, inJournal: bytes, file: file)
    })
  }
}
