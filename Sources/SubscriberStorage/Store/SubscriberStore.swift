import CoreValues
import DashModel
/// The one way to read, follow and change subscribers, wherever they live: a directory of state
/// files (`DirectorySubscriberStore`) or a team database. Every writer (dashboard keys, the
/// simulator and scenarios, population runs, `extend`, `import`, `listen`, `fetch`, `serve`, the
/// deliverer's record) goes through `update`, so the rules a write must keep are kept in one place
/// per store instead of once per command.
///
/// A subscriber is known by its `name` in the store: the state file's name
/// (`<originalTransactionId>.json` in a directory SubDash fills). Names never contain `/` and are
/// not `.` or `..`; `list` leaves out hidden names (SubDash's own files: temporary files).
///
/// ## What every implementation promises
/// - `update` hands its change the LATEST stored subscriber, read while the subscriber is held
///   exclusively (a directory: the name's byte of `.subdash.lock`, `FileLock`; PostgreSQL: the row lock, `SELECT … FOR UPDATE`), and
///   stores what the change returns before letting go: two writers never lose each other's change,
///   and a new subscriber is created under the same hold, so of two writers creating the same name
///   one creates and the other sees what the first made.
/// - A write is whole or absent: a reader (or a crash) sees the old subscriber or the new one
///   (directory: history appended and fsynced first, then the document renamed into place).
/// - The wait for another writer is bounded (`FileLock.maxWait`; PostgreSQL: `lock_timeout`); past
///   it the result is `.busy` and nothing was written. An async caller never blocks a cooperative
///   thread for the wait.
/// - What a store creates is private to its owner (files 0600, directories 0700) and never written
///   through a symbolic link.
/// - Results are typed (`UpdateResult`): callers branch on the case, never on message text.
///
/// ## Adopting it (another store)
/// Implement the four requirements; run `change` exactly once per successful hold, with the
/// subscriber as stored (nil when the store has no such name), and map the outcome:
/// `.save` → `.applied` (or `.unchanged` when it adds no history and leaves the state equal),
/// `.create` on nil → `.created`, `.create` on an existing subscriber → `.failed`, `.leave` →
/// `.unchanged`, a thrown refusal → `.refused` (nothing written), lock timeout → `.busy`, anything
/// else → `.failed` with a one-line `StateFileError` naming the subscriber.
public protocol SubscriberStore: Sendable {
  /// Every subscriber's name, sorted.
  func list() async throws(StateFileError) -> [String]

  /// One subscriber as stored now, or nil when the store has no such name. Reading never writes.
  func get(_ name: String) async throws(StateFileError) -> SubscriberSnapshot?

  /// The store's changes as they happen: one event per subscriber written or removed after the
  /// stream starts (several writes close together may arrive as one). Ends when the caller stops
  /// iterating (or cancels its task).
  func follow() -> AsyncStream<SubscriberEvent>

  /// Changes subscriber `name`: `change` gets the latest stored subscriber (nil: none yet) while it
  /// is held, and says what to store (`SubscriberEdit`); a thrown `Refusal` writes nothing.
  func update<Refusal: Error>(
    _ name: String,
    _ change: @Sendable (SubscriberSnapshot?) throws(Refusal) -> SubscriberEdit
  ) async -> UpdateResult<Refusal>
}

/// A subscriber as stored: its state, and its history (the journal), read only when asked for
/// because it may be long.
public struct SubscriberSnapshot: Sendable {
  public var name: String
  public var state: SubscriptionState
  private let readHistory: @Sendable () throws(StateFileError) -> [Journal.Entry]
  private let findHeld: (@Sendable (HistoryKeys) throws(StateFileError) -> HistoryKeys)?

  /// `held`: the store's own lookup for `held(_:)`; without one, the whole history is read.
  public init(name: String, state: SubscriptionState, history: @escaping @Sendable () throws(StateFileError) -> [Journal.Entry],
              held: (@Sendable (HistoryKeys) throws(StateFileError) -> HistoryKeys)? = nil) {
    self.name = name
    self.state = state
    readHistory = history
    findHeld = held
  }

  /// The committed history, oldest first (the inline history is in `state`).
  public func history() throws(StateFileError) -> [Journal.Entry] { try readHistory() }

  /// Which of `keys` the committed history already holds (the inline history is in `state`).
  /// What an import or a notification asks on every write, so its cost must not be the history's.
  public func held(_ keys: HistoryKeys) throws(StateFileError) -> HistoryKeys {
    if keys.isEmpty { return HistoryKeys() }
    if let findHeld { return try findHeld(keys) }
    return keys.held(in: try readHistory())
  }
}

/// History entries by their keys: transactions by `transactionId`, notifications by
/// `notificationUUID`, or without one by their signed payload's digest (`NotificationRecord.identity`).
public struct HistoryKeys: Sendable, Equatable {
  public var transactionIds: Set<String>
  public var notificationUUIDs: Set<String>

  public init(transactionIds: Set<String> = [], notificationUUIDs: Set<String> = []) {
    self.transactionIds = transactionIds
    self.notificationUUIDs = notificationUUIDs
  }

  public var isEmpty: Bool { transactionIds.isEmpty && notificationUUIDs.isEmpty }

  /// Those of these keys that `entries` hold.
  public func held(in entries: some Sequence<Journal.Entry>) -> HistoryKeys {
    var out = HistoryKeys()
    for e in entries {
      switch e {
      case .transaction(let t): if let id = t.transactionId, transactionIds.contains(id) { out.transactionIds.insert(id) }
      case .notification(let n): if let u = n.identity, notificationUUIDs.contains(u) { out.notificationUUIDs.insert(u) }
      }
    }
    return out
  }
}

/// What a change decides, given the latest stored subscriber.
public enum SubscriberEdit: Sendable {
  /// Store `change.state` and append its history (the subscriber must exist).
  case save(Change)
  /// Make a new subscriber (only when the store has none of this name).
  case create(NewSubscriber)
  /// Store nothing: the subscriber already holds it (a redelivery, a re-import) or nothing is due.
  case leave

  /// `.save`, or `.leave` when the change adds no history and leaves the state as `current` was,
  /// so a write that holds nothing new touches nothing and wakes no follower.
  public static func saveIfChanged(_ change: Change, from current: SubscriptionState) -> SubscriberEdit {
    change.transactions.isEmpty && change.notifications.isEmpty && change.state == current ? .leave : .save(change)
  }
}

/// A subscriber to create: its state document, its history in order, and the catalog file its
/// document names when it names one the store may not hold yet.
public struct NewSubscriber: Sendable {
  public var document: JSONObject
  public var history: [Journal.Entry]
  public var catalog: NewCatalog?
  /// One line for the status line or log ("imported 3 transactions, 1 notification").
  public var message: String

  public init(document: JSONObject, history: [Journal.Entry] = [], catalog: NewCatalog? = nil, message: String) {
    self.document = document
    self.history = history
    self.catalog = catalog
    self.message = message
  }
}

/// A catalog (.storekit) file stored with a new subscriber. One the store already holds under the
/// same name is kept when its bytes are the same and refuses the creation when they differ: a
/// catalog is shared by every subscriber naming it, so it is never replaced by a creation.
public struct NewCatalog: Sendable, Equatable {
  public var name: String
  public var bytes: [UInt8]
  public init(name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = bytes
  }
}

/// What `update` did. Decided where it happened, never parsed back out of a message.
public enum UpdateResult<Refusal: Error> {
  /// Written: `change.state` is what is stored now; `change.message` says what changed.
  case applied(Change)
  /// A new subscriber was made (its history, if any, in `change.transactions`/`notifications`).
  case created(Change)
  /// Nothing written: the change left the subscriber as it was (`nil` when there is none).
  case unchanged(SubscriptionState?)
  /// The change refused (a plan action or simulator rule); nothing written.
  case refused(Refusal)
  /// Another writer held the subscriber past the bound; nothing written, a retry may succeed.
  case busy(StateFileError)
  /// The subscriber could not be read or written, or the edit did not fit it; nothing written.
  case failed(StateFileError)

  /// The stored change when something was written.
  public var change: Change? {
    switch self {
    case .applied(let c), .created(let c): return c
    default: return nil
    }
  }
}

extension UpdateResult: Sendable {}

/// One change `follow` reports.
public enum SubscriberEvent: Sendable, Equatable {
  /// Written (created or changed) since the last event about it.
  case changed(String)
  /// Gone from the store.
  case removed(String)

  /// The subscriber this is about.
  public var name: String {
    switch self {
    case .changed(let name), .removed(let name): return name
    }
  }
}
