import DashModel
import Foundation
import SubscriberStorage

/// A directory kept in step with the team database, for code that reads state files (`serve --db`
/// answers from it, as `serve DIR` answers from DIR). Never written to by anyone but this mirror:
/// changes go to the rows (`PostgresSubscriberStore`), and come back here by two ways, whichever
/// is first: the writer hands its committed row over at once (so an answer after a write reads
/// it), and NOTIFY brings every other writer's. Each row is written only when its version is newer
/// than the one the directory has, so a late NOTIFY never puts back an older row.
public final class DirectoryMirror: @unchecked Sendable {
  public let directory: String
  private let lock = NSLock()
  private var versions: [String: Int64] = [:]

  /// `directory` must be private to this process (`PrivateDirectory.makeTemporary`).
  /// A row that cannot be laid out as files (a name that is not a plain file name, a full disk) is
  /// said here, one line, and skipped: one bad row does not stop the mirror of the others.
  let warn: @Sendable (String) -> Void

  public init(directory: String, warn: @escaping @Sendable (String) -> Void) {
    self.directory = directory
    self.warn = warn
  }

  /// Writes a committed row (and the catalogs it names) unless the directory has it or a newer one.
  public func write(_ row: StoredSubscriber, catalogs: [String: [UInt8]]) throws(DatabaseError) {
    lock.lock()
    defer { lock.unlock() }
    guard row.version > versions[row.name] ?? 0 else { return }
    try DirectoryFiles.write([row], catalogs: catalogs, to: directory)
    versions[row.name] = row.version
  }

  /// Listens (the store's `follow`), then exports every row (a commit in between is written, never
  /// missed), calls `ready` with the number of subscribers, then writes each row a writer commits,
  /// until cancelled. A lost connection ends it with why: a mirror no longer told of changes must
  /// not go on as if it were current.
  public func run(_ store: PostgresSubscriberStore, ready: @escaping @Sendable (Int) -> Void) async throws {
    // Made even when there is nothing to export: the reader opens it at `ready`.
    if let why = PrivateDirectory.create(directory) { throw DatabaseError.usage("\(directory): cannot create the directory: \(why)") }
    let listening = AsyncStream<Void>.makeStream()
    let ended = FollowEnd()
    let changes = store.follow(onListening: { listening.continuation.yield(()) }, onEnd: { why in
      ended.set(why)
      // A follow that fails before it listens must not leave the export waiting.
      listening.continuation.finish()
    })
    var heard = false
    for await _ in listening.stream {
      heard = true
      break
    }
    if !heard { throw ended.error ?? CancellationError() }
    ready(try await catchUp(store.database, named: nil))
    for await change in changes { try await catchUp(store.database, named: [change.name]) }
    if let why = ended.error { throw why }
    // Otherwise the caller cancelled this task: the stream ended because of it.
    try Task.checkCancellation()
  }

  /// Writes the named rows as the database holds them now (all when nil); how many there were.
  @discardableResult
  private func catchUp(_ database: SubscriberDatabase, named names: [String]?) async throws -> Int {
    let rows = try await database.subscribers(named: names)
    let catalogs = try await database.catalogs(named: Set(rows.compactMap(\.catalogName)))
    for row in rows {
      do { try write(row, catalogs: catalogs.filter { $0.key == row.catalogName }) } catch {
        warn("\(error.description); not mirrored")
      }
    }
    return rows.count
  }
}

/// Why the store's follow ended, set from its task, read by the mirror after the stream finished.
private final class FollowEnd: @unchecked Sendable {
  private let lock = NSLock()
  private var why: DatabaseError?
  func set(_ error: DatabaseError) { lock.withLock { if why == nil { why = error } } }
  var error: DatabaseError? { lock.withLock { why } }
}
