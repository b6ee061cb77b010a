import DashModel
import DashView
import Dispatch
import GRDB
import Glibc

/// A directory of state files with an SQLite index of their summary rows beside them
/// (`.subdash-index.sqlite`, or any path given). The files are the truth: the index holds
/// only what can be derived from them again, with each file's size/mtime/inode, so opening
/// re-reads just the files that changed, and deleting the index loses nothing.
public final class DirectoryStore: SubscriberStore {
  public let directory: String
  public let indexPath: String
  let nowOverride: Instant?
  private let db: DatabaseQueue
  /// Bumped when the table or the row summary changes meaning: an index of another version is
  /// rebuilt from the files rather than read.
  static let schemaVersion = 1
  public static let defaultIndexName = ".subdash-index.sqlite"

  /// Opens (or creates) the index. A damaged index or one from another version is removed and
  /// rebuilt on the next `refresh`: it holds nothing the files do not.
  public init(directory: String, indexPath: String? = nil, nowOverride: Instant? = nil) throws(StoreError) {
    self.directory = directory
    self.indexPath = indexPath ?? StateDirectory.path(Self.defaultIndexName, in: directory)
    self.nowOverride = nowOverride
    do {
      db = try Self.open(self.indexPath)
    } catch {
      // Unreadable or not a database at all: start over from the files.
      for suffix in ["", "-wal", "-shm"] { unlink(self.indexPath + suffix) }
      do { db = try Self.open(self.indexPath) } catch { throw StoreError("\(self.indexPath): cannot create the index: \(error)") }
    }
  }

  private static func open(_ path: String) throws -> DatabaseQueue {
    var config = Configuration()
    config.journalMode = .wal
    config.busyMode = .timeout(5)  // another subdash refreshing the same index
    let queue = try DatabaseQueue(path: path, configuration: config)
    try queue.write { db in
      let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      if version != schemaVersion {
        try db.execute(sql: "DROP TABLE IF EXISTS subscriber")
        try db.execute(sql: IndexRow.createTable)
        try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
      }
    }
    return queue
  }

  // MARK: SubscriberStore

  public func list() throws -> [ListRow] {
    try db.read { db in
      var rows: [ListRow] = []
      let cursor = try Row.fetchCursor(db, sql: "SELECT \(IndexRow.columns) FROM subscriber")
      while let r = try cursor.next() { rows.append(IndexRow.decode(r)) }
      return rows
    }
  }

  public func get(_ file: String) throws -> ListRow? {
    try db.read { db in
      try Row.fetchOne(db, sql: "SELECT \(IndexRow.columns) FROM subscriber WHERE file = ?", arguments: [file]).map(IndexRow.decode)
    }
  }

  /// Compares the files with the index (every file when `names` is nil, by size/mtime/inode),
  /// re-reads the changed ones on all cores, re-derives rows whose moment of change has passed,
  /// and commits it all in one transaction.
  public func refresh(names: Set<String>?, wall: Instant) throws -> StoreChanges {
    let now = nowOverride ?? wall
    let stored = try db.read { db in
      var out: [String: (stamp: FileStamp, changesAt: Double?)] = [:]
      let cursor = try Row.fetchCursor(db, sql: "SELECT file, size, mtime_ns, inode, changes_at FROM subscriber")
      while let r = try cursor.next() {
        out[r[0]] = (FileStamp(size: r[1], mtimeNs: r[2], inode: r[3]), r[4])
      }
      return out
    }
    let candidates: [String]
    var removed: [String] = []
    if let names {
      candidates = names.sorted()
    } else {
      candidates = try StateDirectory.names(in: directory)
      let present = Set(candidates)
      removed = stored.keys.filter { !present.contains($0) }.sorted()
    }
    var toRead: [(name: String, stamp: FileStamp)] = []
    for name in candidates {
      guard let stamp = FileStamp(path: StateDirectory.path(name, in: directory)) else {
        if stored[name] != nil { removed.append(name) }
        continue
      }
      let old = stored[name]
      // Time is an input too: a row whose renewal or expiry has passed is derived again.
      let due = old?.changesAt.map { $0 <= now.ms } ?? false
      if old?.stamp != stamp || due { toRead.append((name, stamp)) }
    }
    let dir = directory, nowOverride = nowOverride
    let upserts = parallelMap(toRead) { item in
      (ListRow.read(path: StateDirectory.path(item.name, in: dir), file: item.name, nowOverride: nowOverride, wall: wall), item.stamp)
    }
    if !upserts.isEmpty || !removed.isEmpty {
      try db.write { db in
        let insert = try db.makeStatement(sql: IndexRow.upsert)
        for (row, stamp) in upserts { try insert.execute(arguments: IndexRow.arguments(row, stamp)) }
        let delete = try db.makeStatement(sql: "DELETE FROM subscriber WHERE file = ?")
        for name in removed { try delete.execute(arguments: [name]) }
      }
    }
    return StoreChanges(upserts: upserts.map(\.0), removed: removed)
  }

  /// Forgets everything and reads every file again (`subdash list --rebuild-index`, or after
  /// the index was deleted). The files are the truth, so nothing is lost.
  public func rebuild(wall: Instant) throws -> [ListRow] {
    try db.write { db in try db.execute(sql: "DELETE FROM subscriber") }
    _ = try refresh(names: nil, wall: wall)
    return try list()
  }
}

/// Maps on every core, keeping order; each worker writes only its own slots.
func parallelMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
  guard items.count > 1 else { return items.map(transform) }
  let workers = max(1, min(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 16, items.count))
  let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
  results.initialize(repeating: nil)
  defer { results.deinitialize(); results.deallocate() }
  let slots = Slots(buffer: results)
  DispatchQueue.concurrentPerform(iterations: workers) { w in
    var i = w
    while i < items.count {
      slots.buffer[i] = transform(items[i])
      i += workers
    }
  }
  return results.map { $0! }
}

private struct Slots<R>: @unchecked Sendable { let buffer: UnsafeMutableBufferPointer<R?> }
