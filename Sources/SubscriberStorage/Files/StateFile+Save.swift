import CoreValues
import DashModel
/// The write path.
extension StateFile {
  /// The result of `update`: what was saved, and the change's message.
  public struct Saved: Sendable {
    public var state: SubscriptionState
    public var change: Change
  }

  /// Locks the file, re-reads it, lets `apply` compute a change from the on-disk state, appends
  /// the change's history to the journal and replaces the document atomically.
  ///
  /// Order matters for crash safety: journal lines are appended and fsynced first, then the
  /// document that vouches for them (`journal.committedBytes`) is renamed into place. A crash in
  /// between leaves unvouched bytes that the next writer truncates.
  @discardableResult
  public static func update(
    path: String,
    unchangedWritesNothing: Bool = false,
    lockWait: FileLock.Wait = .upTo(FileLock.maxWait),
    _ apply: (SubscriptionState) throws(StateFileError) -> Change
  ) throws(StateFileError) -> Saved {
    do throws(UpdateFailure<StateFileError>) {
      return try update(path: path, refusing: StateFileError.self, unchangedWritesNothing: unchangedWritesNothing, lockWait: lockWait, apply)
    } catch {
      switch error {
      case .file(let e), .refused(let e): throw e
      }
    }
  }

  /// Why `update` wrote nothing: the file could not be locked, read or written, or the change
  /// itself refused (a plan action or simulator rule). The two never share a type, so a refusal
  /// is never mistaken for a file error, nor shown with a file name it does not concern.
  public enum UpdateFailure<Refusal: Error>: Error {
    case file(StateFileError)
    case refused(Refusal)
  }

  /// `update` for a change that may refuse with its own typed error.
  ///
  /// `lockWait`: how long to wait for another writer's lock (`FileLock.maxWait` unless the caller
  /// waits elsewhere); past it the failure is a `.busy` `StateFileError` and nothing is written.
  ///
  /// `unchangedWritesNothing`: a change that adds no history and leaves the state as it was is not
  /// written at all (an import or a redelivered notification that holds nothing new), so the file,
  /// its journal and its modification time stay as they were and no reader is woken for nothing.
  @discardableResult
  public static func update<Refusal: Error>(
    path: String,
    refusing _: Refusal.Type,
    unchangedWritesNothing: Bool = false,
    lockWait: FileLock.Wait = .upTo(FileLock.maxWait),
    _ apply: (SubscriptionState) throws(Refusal) -> Change
  ) throws(UpdateFailure<Refusal>) -> Saved {
    // The subscriber store's write path, for callers that name a file rather than a subscriber.
    let (store, name) = DirectorySubscriberStore.holding(path)
    var computed: Change?
    let result = store.update(existing: name, wait: lockWait) { (current) throws(Refusal) -> SubscriberEdit in
      let change = try apply(current)
      computed = change
      return unchangedWritesNothing ? .saveIfChanged(change, from: current) : .save(change)
    }
    switch result {
    case .applied(let c), .created(let c): return Saved(state: c.state, change: c)
    case .unchanged(let state):
      guard let computed else { throw .file(StateFileError(file: name, message: "no such state file; nothing was created")) }
      return Saved(state: state ?? computed.state, change: computed)
    case .refused(let r): throw .refused(r)
    case .busy(let e), .failed(let e): throw .file(e)
    }
  }

  /// Writes a change computed from the latest on-disk state. Callers must hold the lock.
  /// `entries`: the history to append in its order (a new subscriber's copied journal); by
  /// default the change's transactions, then its notifications.
  ///
  /// A young subscriber's history goes inline (`keepsHistoryInline`), later history to the journal.
  static func commit(_ change: inout Change, entries ordered: [Journal.Entry]? = nil, at path: String, swappingSpares held: FileLock? = nil) throws(StateFileError) {
    var doc = change.state.document
    let entries = ordered ?? (change.transactions.map(Journal.Entry.transaction) + change.notifications.map(Journal.Entry.notification))
    if Self.keepsHistoryInline(doc, adding: entries.count) {
      for e in entries {
        switch e {
        case .transaction(let t): doc.subscriber.transactions.append(t)
        case .notification(var n):
          // Where it sits among the transactions, which two lists cannot say otherwise
          // (`Subscriber.inlineEntriesInOrder`).
          n.source[Subscriber.transactionsBeforeKey] = .int(doc.subscriber.transactions.count)
          doc.subscriber.notifications.append(n)
        }
      }
    } else if !entries.isEmpty {
      var journal = doc.journal ?? JournalInfo(file: Journal.defaultName(for: PathName.fileName(of: path)))
      let journalPath = PathName.directory(of: path) + "/" + journal.file
      journal.committedBytes = try Journal.append(Journal.encode(entries), to: journalPath, committedBytes: journal.committedBytes, stateFile: path,
                                                  isNew: doc.journal == nil)
      for t in change.transactions { journal.summary.add(t) }
      journal.summary.notificationCount += change.notifications.count
      doc.journal = journal
    }
    if doc.format == nil {
      doc.format = DashModelInfo.stateFormat
      doc.source["format"] = .string(DashModelInfo.stateFormat)
    }
    try AtomicWriter.write(JSONWriter.write(doc.json), to: path, sweep: .callerHoldsTheLock, swappingSpares: held)
    change.state.document = doc
  }

  /// How many history entries (transactions and notifications) a subscriber without a journal
  /// keeps inline in its document; the first save past it starts the journal.
  ///
  /// Why inline at all: a journal is a second file. A new subscriber with one was three new files
  /// (document, journal, and the spare its second save kept then), and on ext4 without a journal each
  /// new file is found by scanning past every inode freed in the last minutes: right after a
  /// removal of thousands of files, `listen`'s first thousand new subscribers spent half its CPU in
  /// that scan (docs/benchmarks.md, `listen`). Inline, a new subscriber is one new file and a save
  /// one fsync instead of two. Why 32: the document is rewritten whole at every save, and 32
  /// entries (~16 renewals with their notifications, over a year of a monthly plan) are ~20 KiB,
  /// a few pages; past that a journal append (constant cost) is the cheaper save. Entries once
  /// inline stay there: inline entries come first, then the journal, as every reader reads them.
  public static let inlineHistoryLimit = 32

  /// True when this save's `adding` entries go inline: no journal yet, no notification delivery
  /// (a deliverer finds new notifications by journal offset, `DeliveryBook.journalOffset`), the
  /// inline entries loaded (not a copy kept for viewing) and the total within the limit.
  static func keepsHistoryInline(_ doc: StateDocument, adding: Int) -> Bool {
    guard doc.journal == nil, doc.deliveries == nil, doc.subscriber.transactions.viewed == nil else { return false }
    let held = doc.subscriber.transactions.count + doc.subscriber.notifications.count
    return adding <= inlineHistoryLimit - min(held, inlineHistoryLimit)
  }

  /// The newest `limit` notifications, newest first: inline log plus the journal's tail.
  public static func recentNotifications(_ state: SubscriptionState, statePath: String, limit: Int) throws(StateFileError) -> [NotificationRecord] {
    guard limit > 0 else { return [] }
    var out: [NotificationRecord] = []
    if let j = state.document.journal {
      let entries = try Journal.tail(path: PathName.directory(of: statePath) + "/" + j.file, committedBytes: j.committedBytes, limit: min(limit, Int.max / 2) * 2)
      for e in entries.reversed() { if case .notification(let n) = e { out.append(n) } }
    }
    // Only the newest of the inline log: copying all of a 100,000-entry log on every dashboard
    // reload would make the reload cost grow with the history. The newest are the last ones when
    // the log is in date order, as SubDash writes it; a hand-made log out of order is sorted
    // (stably, undated entries first) so "recent" never skips a newer event.
    if out.count < limit {
      out += state.document.subscriber.notifications.inDateOrder().suffix(limit - out.count).reversed()
    }
    return Array(out.prefix(limit))
  }
}
