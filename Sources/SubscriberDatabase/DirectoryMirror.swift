import DashModel
import Foundation

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

  /// Listens, then exports every row (a commit in between is written, never missed), calls
  /// `ready` with the number of subscribers, then writes each row a writer commits, until cancelled.
  public func run(_ database: SubscriberDatabase, ready: @escaping @Sendable (Int) -> Void) async throws {
    // Made even when there is nothing to export: the reader opens it at `ready`.
    if let why = PrivateDirectory.create(directory) { throw DatabaseError.usage("\(directory): cannot create the directory: \(why)") }
    try await withThrowingTaskGroup(of: Void.self) { group in
      let listening = AsyncStream<Void>.makeStream()
      group.addTask {
        try await database.follow(onListening: { listening.continuation.yield(()) }) { name in
          try await self.catchUp(database, named: [name])
        }
      }
      for await _ in listening.stream { break }
      ready(try await catchUp(database, named: nil))
      try await group.next()
      group.cancelAll()
    }
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
