import DashModel
import CoreValues

/// Where the list's summary rows come from: a directory of state files with its SQLite index.
///
/// Writes never go through an index: a change to a subscriber goes through the subscriber store
/// (`SubscriberStore.update` in DashModel: lock, re-read, apply, journal, atomic rename), and the
/// index only learns about it by `refresh`, exactly as it learns about another program's writes.
public protocol ListIndex: AnyObject {
  /// Every subscriber's row as last refreshed.
  func list() throws -> [ListRow]
  /// One subscriber's row by its name in the store (the state file's name).
  func get(_ file: String) throws -> ListRow?
  /// Watching, pull-style: brings the rows up to date and says what changed. `names` are the
  /// entries the runtime's watcher (inotify) reported; nil means "compare everything".
  func refresh(names: Set<String>?, wall: Instant) throws -> StoreChanges
}

/// What a refresh changed: rows to add or replace, names gone.
public struct StoreChanges: Equatable, Sendable {
  public var upserts: [ListRow]
  public var removed: [String]
  public init(upserts: [ListRow] = [], removed: [String] = []) {
    self.upserts = upserts
    self.removed = removed
  }
  public var isEmpty: Bool { upserts.isEmpty && removed.isEmpty }
}
