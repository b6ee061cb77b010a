import DashModel
import Dispatch
import GRDB
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// A directory of state files with an SQLite index of their summary rows beside them
/// (`.subdash-index.sqlite`, or any path given). The files are the truth: the index holds
/// only what can be derived from them again, with each file's stamp, so opening
/// re-reads just the files that changed, and deleting the index loses nothing.
///
/// Sendable: its state is the database queue, which serializes every access, so the list reads
/// every row on another thread while its event loop answers keys.
public final class DirectoryStore: ListIndex, Sendable {
  public let directory: String
  public let indexPath: String
  let nowOverride: Instant?
  private let db: DatabaseQueue
  /// Bumped when the table or the row summary changes meaning: an index of another version is
  /// rebuilt from the files rather than read.
  static let schemaVersion = 4  // 2: the last event of a journalled file comes from its journal; 3: a billing-retry row is due when retry ends; 4: the stamp holds ctime and device
  public static let defaultIndexName = ".subdash-index.sqlite"

  /// Whether a directory's index may be kept beside its files (`defaultIndexName`): only in a
  /// directory of this user's own that nobody else can write (issue 37 §2). In a shared one
  /// (`/tmp`, a 0777 team folder, another user's directory), whoever else can write it could put
  /// their own file, or a link to one, at the index's name before us and read every subscriber's
  /// summary from it, or feed the list rows; the list then keeps the index in the user's cache,
  /// as under `--read-only`. A directory that cannot be looked at is not ours.
  public static func keepsIndexBeside(directory: String) -> Bool {
    var st = stat()
    guard stat(directory, &st) == 0 else { return false }
    return st.st_uid == geteuid() && st.st_mode & 0o022 == 0 && access(directory, W_OK) == 0
  }

  /// Opens (or creates) the index. A damaged index or one from another version is removed and
  /// rebuilt on the next `refresh`: it holds nothing the files do not.
  public init(directory: String, indexPath: String? = nil, nowOverride: Instant? = nil) throws(StoreError) {
    self.directory = directory
    self.indexPath = indexPath ?? StateFileDirectory.path(Self.defaultIndexName, in: directory)
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
    createIndexFilePrivately(path)
    let queue = try DatabaseQueue(path: path, configuration: config)
    try queue.write { db in
      let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      if version != schemaVersion {
        try db.execute(sql: "DROP TABLE IF EXISTS subscriber")
        try db.execute(sql: IndexRow.createTable)
        try db.execute(sql: "PRAGMA user_version = \(schemaVersion)")
      }
      try db.execute(sql: IndexRow.createOpeningOrderIndex)
    }
    return queue
  }

  // MARK: ListIndex

  public func list() throws -> [ListRow] {
    try db.read { db in
      var rows: [ListRow] = []
      // Room for every row at once: growing an array of 100,000 rows moved them many times.
      rows.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM subscriber") ?? 0)
      try Self.stepRows(try db.makeStatement(sql: "SELECT \(IndexRow.columns) FROM subscriber"), in: db) { rows.append($0) }
      return rows
    }
  }

  /// The first screen without reading every row (issue 23): the first `limit` rows in the list's
  /// opening order (read along `IndexRow.openingOrder`'s index, so 100,000 rows cost what 40 do),
  /// the rows per status (counted on the status index) and how many rows carry each of those
  /// rows' ids. One read transaction: the page and the counts are of the same moment.
  public func firstPage(limit: Int) throws -> ListFirstPage {
    try db.read { db in
      var page: [ListRow] = []
      let statement = try db.makeStatement(sql: "SELECT \(IndexRow.columns) FROM subscriber ORDER BY \(IndexRow.openingOrder) LIMIT ?")
      try statement.setArguments([max(0, limit)])
      try Self.stepRows(statement, in: db) { page.append($0) }
      var counts: [ListStatus: Int] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT status, count(*) FROM subscriber GROUP BY status") {
        let status = ListStatus(rawValue: row[0] as String? ?? "") ?? .fileError
        counts[status, default: 0] += row[1] as Int
      }
      var idCounts: [String: Int] = [:]
      let sharing = try db.makeStatement(sql: "SELECT count(*) FROM subscriber WHERE original_transaction_id = ?")
      for id in Set(page.compactMap(\.originalTransactionId)) {
        idCounts[id] = try Int.fetchOne(sharing, arguments: [id]) ?? 0
      }
      return ListFirstPage(rows: page, counts: counts, idCounts: idCounts)
    }
  }

  /// Steps `statement` by hand, each column read once from SQLite (GRDB's Row and its
  /// conversions were half of reading 100,000 rows), handing every row to `take`.
  private static func stepRows(_ statement: Statement, in db: Database, _ take: (ListRow) -> Void) throws {
    let raw = statement.sqliteStatement
    while true {
      let code = sqlite3_step(raw)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else {
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
      }
      take(IndexRow.decode(raw))
    }
  }

  public func get(_ file: String) throws -> ListRow? {
    try db.read { db in
      try Row.fetchOne(db, sql: "SELECT \(IndexRow.columns) FROM subscriber WHERE file = ?", arguments: [file]).map(IndexRow.decode)
    }
  }

  public func refresh(names: Set<String>?, wall: Instant) throws -> StoreChanges {
    try refresh(names: names, wall: wall, progress: nil)
  }

  /// Compares the files with the index (every file when `names` is nil, by their stamps),
  /// re-reads the changed ones on all cores, re-derives rows whose moment of change has passed,
  /// and commits it all in one transaction. `progress` is told how many of the files to read are
  /// stored so far, after each chunk (a first open of 100,000 files takes seconds).
  /// `interrupted` is asked every 100 ms while files are read: when it throws, the work stops
  /// there, the transaction is rolled back and nothing is stored (a Ctrl-C during a first open,
  /// issue 37 §4).
  public func refresh(names: Set<String>?, wall: Instant, progress: ((_ done: Int, _ total: Int) -> Void)?,
                      interrupted: (() throws -> Void)? = nil) throws -> StoreChanges {
    let now = nowOverride ?? wall
    let stored = try storedStamps(names)
    // Time is an input too: a row whose renewal or expiry has passed is derived again.
    let found = try StateFileDirectory.changes(
      in: directory, reported: names, known: { stored[$0]?.stamp }, knownNames: Array(stored.keys),
      due: { stored[$0]?.changesAt.map { $0 <= now.ms } ?? false })
    if found.changed.isEmpty && found.removed.isEmpty { return StoreChanges(upserts: [], removed: []) }
    let upserts = try store(found.changed, removing: found.removed, wall: wall, progress: progress, interrupted: interrupted)
    return StoreChanges(upserts: upserts, removed: found.removed)
  }

  /// Each indexed file's stamp, and when its row changes by itself (nil for a row derived at its
  /// file's simulated clock, which changes only when the file does). Only the rows asked about
  /// when the watcher named them: one changed file must not read 100,000 stamps.
  private func storedStamps(_ names: Set<String>?) throws -> [String: (stamp: FileStamp, changesAt: Double?)] {
    try db.read { db in
      var out: [String: (stamp: FileStamp, changesAt: Double?)] = [:]
      let select = "SELECT file, \(IndexRow.stampColumns), changes_at, simulated_now_ms FROM subscriber"
      func collect(_ cursor: RowCursor) throws {
        while let r = try cursor.next() {
          let changesAt: Double? = (r[7] as Double?) == nil ? r[6] : nil
          out[r[0]] = (FileStamp(size: r[1], mtimeNs: r[2], ctimeNs: r[3], inode: r[4], device: r[5]), changesAt)
        }
      }
      if let names {
        let one = try db.makeStatement(sql: select + " WHERE file = ?")
        for name in names { try collect(try Row.fetchCursor(one, arguments: [name])) }
      } else {
        try collect(try Row.fetchCursor(db, sql: select))
      }
      return out
    }
  }

  /// Reads `toRead` and stores their rows, and deletes `removed`, in one transaction. Files are
  /// read in chunks on every core while the previous chunk is stored: on a first open of 100,000
  /// files the single SQLite writer would otherwise run alone after the readers (1.34 cores
  /// busy, not 2).
  private func store(_ toRead: [(name: String, stamp: FileStamp)], removing removed: [String], wall: Instant,
                     progress: ((_ done: Int, _ total: Int) -> Void)?, interrupted: (() throws -> Void)?) throws -> [ListRow] {
    let workers = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    let chunk = 2_048
    var upserts: [ListRow] = []
    upserts.reserveCapacity(toRead.count)
    let files = toRead.map { (StateFileDirectory.path($0.name, in: directory), $0.name) }
    let moment = nowOverride
    let read: @Sendable (Range<Int>) -> [ListRow] = { range in
      ListRow.readAll(Array(files[range]), nowOverride: moment, wall: wall, workers: workers)
    }
    // A chunk is read on other threads; meanwhile `interrupted` is asked every 100 ms, so a
    // Ctrl-C stops within a moment, not after a chunk that can take seconds on a busy machine.
    // A reader left running then only fills memory that is dropped.
    func wait(for group: DispatchGroup) throws {
      while group.wait(timeout: .now() + .milliseconds(100)) == .timedOut { try interrupted?() }
      try interrupted?()
    }
    func reading(_ range: Range<Int>) throws -> [ListRow] {
      let box = ChunkBox()
      let group = DispatchGroup()
      if !range.isEmpty { DispatchQueue.global().async(group: group) { box.rows = read(range) } }
      try wait(for: group)
      return box.rows
    }
    try db.write { db in
      let insert = try db.makeStatement(sql: IndexRow.upsert)
      var start = 0
      var current = try reading(0..<min(chunk, toRead.count))
      while start < toRead.count {
        let end = min(start + chunk, toRead.count)
        let nextRange = end..<min(end + chunk, toRead.count)
        let next = ChunkBox()
        let nextReading = DispatchGroup()
        if !nextRange.isEmpty {
          DispatchQueue.global().async(group: nextReading) { next.rows = read(nextRange) }
        }
        for (offset, row) in current.enumerated() {
          try insert.execute(arguments: IndexRow.arguments(row, toRead[start + offset].stamp))
          upserts.append(row)
        }
        progress?(end, toRead.count)
        try wait(for: nextReading)
        current = next.rows
        start = end
      }
      let delete = try db.makeStatement(sql: "DELETE FROM subscriber WHERE file = ?")
      for name in removed { try delete.execute(arguments: [name]) }
    }
    return upserts
  }

  /// Forgets everything and reads every file again (`subdash list --rebuild-index`, or after
  /// the index was deleted). The files are the truth, so nothing is lost.
  public func rebuild(wall: Instant) throws -> [ListRow] {
    try db.write { db in try db.execute(sql: "DELETE FROM subscriber") }
    _ = try refresh(names: nil, wall: wall)
    return try list()
  }
}

/// The next chunk's rows, filled by the reading thread before the group it runs in is waited on.
private final class ChunkBox: @unchecked Sendable { var rows: [ListRow] = [] }

/// The index holds every subscriber's ids and status: it is created 0600 before SQLite opens it
/// (SQLite would use 0644 under the usual umask), and SQLite gives its -wal and -shm files the
/// main file's mode. An existing file, or a directory we cannot write, is left to SQLite.
/// (At file scope: inside `DirectoryStore` its own `open(_:)` would hide the C function.)
private func createIndexFilePrivately(_ path: String) {
  let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
  if fd >= 0 { close(fd) }
}
