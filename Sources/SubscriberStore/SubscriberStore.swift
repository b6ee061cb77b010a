import DashModel
import DashView

/// Where subscribers' summary rows come from. The directory of state files (with its SQLite
/// index) is the one store today; a PostgreSQL store can implement the same three calls.
///
/// Writes never go through a store: a change to a subscriber goes through `StateFile.update`
/// (lock, re-read, apply, journal, atomic rename), and the store only learns about it by
/// `refresh`, exactly as it learns about another program's writes.
public protocol SubscriberStore: AnyObject {
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
